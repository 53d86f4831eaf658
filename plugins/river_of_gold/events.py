"""What happens in River of Gold: facts in the past tense (rule ids in docs/rules)."""

from __future__ import annotations

from gamehall.core import Event, namespaced

from .state import Choice


class RogEvent(Event, frozen=True, gc=False, tag=namespaced("river_of_gold")):
    """Base of the game's events."""


# -- setup -------------------------------------------------------------------------------------


class BoardDealt(RogEvent, frozen=True):
    """Score tiles, masteries, imperial markets and start tiles were dealt (ROG-SETUP-1..4)."""

    score_tiles: tuple[str, ...]
    masteries: tuple[str, ...]
    placed: tuple[tuple[int, str], ...]


class StacksDealt(RogEvent, frozen=True):
    """The era stacks were dealt face down, top first; hidden from every seat (ROG-SETUP-5)."""

    era1: tuple[str, ...]
    era2: tuple[str, ...]
    sizes: tuple[int, int] = (0, 0)


class DeckShuffled(RogEvent, frozen=True):
    """The customer deck was shuffled (or rebuilt from the discards); order hidden (ROG-DELIVER-4)."""

    order: tuple[str, ...]
    size: int = 0


class ShipsLaunched(RogEvent, frozen=True):
    """A clan's two ships sailed from the start spaces by two die rolls (ROG-SETUP-7)."""

    seat: int
    rolls: tuple[int, int]


class CustomersDrawn(RogEvent, frozen=True):
    """A seat drew customers from the top of the deck; others see only how many."""

    seat: int
    cards: tuple[str, ...]
    count: int = 0


class DieRolled(RogEvent, frozen=True):
    """A seat rolled its die for its next turn (ROG-TURN-4)."""

    seat: int
    face: int


class SetupFinished(RogEvent, frozen=True):
    """Personal setup is done: ships launched, hands drawn, opening dice rolled (ROG-SETUP-7..9)."""


class RowRefilled(RogEvent, frozen=True):
    """The top tile of the current era's stack entered the row's first slot."""

    tile: str


# -- the turn ----------------------------------------------------------------------------------


class DieShifted(RogEvent, frozen=True):
    """A seat paid favour to turn its die to ``face`` (ROG-TURN-1)."""

    seat: int
    face: int


class ResourcesChanged(RogEvent, frozen=True):
    """A seat's koku, favour, goods or points changed by these amounts (after the caps)."""

    seat: int
    koku: int = 0
    favour: int = 0
    silk: int = 0
    rice: int = 0
    porcelain: int = 0
    points: int = 0
    reason: str = ""


class FavourCapRaised(RogEvent, frozen=True):
    """A seat's favour cap (its moon) moved up to ``cap`` (ROG-MONK-1)."""

    seat: int
    cap: int


class InfluenceMoved(RogEvent, frozen=True):
    """A seat's marker moved up a region's influence track to ``to``."""

    seat: int
    region: int
    to: int
    reason: str = ""


class BuildingBuilt(RogEvent, frozen=True):
    """A seat took a tile from the row and built it on a shore space (ROG-BUILD-1)."""

    seat: int
    space: int
    tile: str


class TileDiscarded(RogEvent, frozen=True):
    """The tile in the row's end slot was discarded (ROG-JOURNEY-1)."""

    tile: str


class ShipSailed(RogEvent, frozen=True):
    """A ship sailed downriver to river space ``to``; ``journey`` if it passed the end."""

    seat: int
    ship: int
    to: int
    journey: bool = False


class CustomerDelivered(RogEvent, frozen=True):
    """A seat delivered to a customer from its hand (ROG-DELIVER-1)."""

    seat: int
    card: str


class CustomerDiscarded(RogEvent, frozen=True):
    """A seat discarded a customer face up from its hand."""

    seat: int
    card: str


class MarkerPlaced(RogEvent, frozen=True):
    """A seat put a second clan marker on a building (ROG-MONK-2)."""

    seat: int
    space: int


class ShipUpgraded(RogEvent, frozen=True):
    """A seat replaced one of its standard ships by its imperial ship (ROG-NOBLE-1)."""

    seat: int
    ship: int


class MasteryClaimed(RogEvent, frozen=True):
    """A seat claimed the highest free reward of a mastery (ROG-MASTERY-1)."""

    seat: int
    mastery: str


class ChoiceOpened(RogEvent, frozen=True):
    """A seat now owes a choice; choices are made in the order they were opened."""

    choice: Choice


class ChoiceClosed(RogEvent, frozen=True):
    """The oldest open choice was made."""

    seat: int


class TurnEnded(RogEvent, frozen=True):
    """A seat's turn ended; ``next`` takes the next one."""

    seat: int
    next: int


class ImperialVisitPaid(RogEvent, frozen=True):
    """The imperial visit paid every owner; era 2 began (ROG-VISIT-1)."""


class EndTriggered(RogEvent, frozen=True):
    """The last era 2 tile entered the row; every other seat gets one more turn (ROG-END-1)."""

    seat: int


class GameEnded(RogEvent, frozen=True):
    """Final scoring: total points per seat and the winners (ROG-SCORE-1..6)."""

    scores: tuple[int, ...]
    winners: tuple[int, ...]


EVENTS: tuple[type[RogEvent], ...] = (
    BoardDealt, StacksDealt, DeckShuffled, ShipsLaunched, CustomersDrawn, DieRolled, RowRefilled,
    SetupFinished, DieShifted, ResourcesChanged, FavourCapRaised, InfluenceMoved, BuildingBuilt, TileDiscarded,
    ShipSailed, CustomerDelivered, CustomerDiscarded, MarkerPlaced, ShipUpgraded, MasteryClaimed,
    ChoiceOpened, ChoiceClosed, TurnEnded, ImperialVisitPaid, EndTriggered, GameEnded,
)  # fmt: skip
