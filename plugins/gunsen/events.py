"""What happens in Gunsen: facts in the past tense, each carrying all its effect needs.

Spaces are numbers, columns 0-3 (Armory, Recruit, Influence, Expand), seats 0..N-1. Events
whose fields a seat may not see are narrowed by ``view.redact``.
"""

from __future__ import annotations

from gamehall.core import Event, namespaced

from .state import Step


class GunsenEvent(Event, frozen=True, gc=False, tag=namespaced("gunsen")):
    """Base of the game's events."""


# -- setup -------------------------------------------------------------------------------------


class BoardSetUp(GunsenEvent, frozen=True):
    """The board side, the forts of the seats, watchtowers and shrine tiles (GUN-SETUP-1..7)."""

    side: str
    spaces: int
    forts: tuple[int, ...]
    towers: tuple[int, ...]
    shrines: tuple[tuple[int, str], ...]


class VillagesDealt(GunsenEvent, frozen=True):
    """Face-down village tokens went onto the village spaces (hidden from every seat)."""

    spaces: tuple[int, ...]
    tokens: tuple[str, ...]


class DeckShuffled(GunsenEvent, frozen=True):
    """The order deck was (re)shuffled; the order is hidden from every seat."""

    order: tuple[str, ...]
    size: int
    reshuffle: bool = False


class RowRefilled(GunsenEvent, frozen=True):
    """Cards from the top of the deck were laid open in the row."""

    cards: tuple[str, ...]


class StartPlayerDrawn(GunsenEvent, frozen=True):
    """The start player was drawn at random (GUN-SETUP-10)."""

    seat: int


class ClanChosen(GunsenEvent, frozen=True):
    """A seat chose its clan (GUN-SETUP-10)."""

    seat: int
    clan: str


class ClanSetUp(GunsenEvent, frozen=True):
    """A clan got its starting resources and troops on its fort (GUN-SETUP-12)."""

    seat: int
    koku: int
    wood: int
    influence: int
    troops: int


class TacticsDealt(GunsenEvent, frozen=True):
    """A seat was dealt its hidden neutral tactics (GUN-SETUP-13)."""

    seat: int
    cards: tuple[str, ...]
    count: int


# -- orders ------------------------------------------------------------------------------------


class RowReplaced(GunsenEvent, frozen=True):
    """The active player discarded the whole row (GUN-ORDER-4)."""

    seat: int
    discarded: tuple[str, ...]


class CardTaken(GunsenEvent, frozen=True):
    """A seat took an order card from the row and paid its price."""

    seat: int
    card: str
    price: str = ""


class CardPlaced(GunsenEvent, frozen=True):
    """An order card went open on top of a column."""

    seat: int
    card: str
    column: int


class NobleActionBegun(GunsenEvent, frozen=True):
    """A card went face down on a noble-action space, paying its influence (GUN-NOBLE-1)."""

    seat: int
    level: int
    card: str


class ColumnActivated(GunsenEvent, frozen=True):
    """A column was activated: its actions from top to bottom (GUN-ACT-1)."""

    seat: int
    column: int
    steps: tuple[Step, ...]
    one_shots: tuple[str, ...] = ()


class Gained(GunsenEvent, frozen=True):
    """A seat gained a resource (from an action, a building or a token)."""

    seat: int
    resource: str
    amount: int
    source: str = ""


class Asked(GunsenEvent, frozen=True):
    """The game now waits for ``seat`` to make a decision of ``phase``."""

    seat: int
    phase: str


class ActionUsed(GunsenEvent, frozen=True):
    """One use of the current action is done (an action used up leaves the column's queue)."""

    seat: int


class ActionSkipped(GunsenEvent, frozen=True):
    """The active player skipped the current action (or stopped an infinity action)."""

    seat: int
    kind: str
    source: str = ""


class ActivationEnded(GunsenEvent, frozen=True):
    """The activated column is finished; one-shot special orders in it are discarded."""

    seat: int
    discarded: tuple[str, ...] = ()


class TroopRecruited(GunsenEvent, frozen=True):
    """A troop came from the clan board onto the fort or a controlled building (GUN-RECRUIT-1)."""

    seat: int
    space: int


class MoveBought(GunsenEvent, frozen=True):
    """An extra move was bought with the column's resource (GUN-MOVE-6)."""

    seat: int
    resource: str


class ArmySelected(GunsenEvent, frozen=True):
    """The active player picked up an army to move (GUN-MOVE-1)."""

    seat: int
    space: int
    troops: int
    hero: str = ""
    tower: bool = False


class ArmyMoved(GunsenEvent, frozen=True):
    """An army moved; ``tower``: by watchtower, for one influence (GUN-TOWER-1)."""

    seat: int
    origin: int
    to: int
    troops: int
    hero: str = ""
    tower: bool = False


class MovementLapsed(GunsenEvent, frozen=True):
    """All remaining movement of the turn lapsed (a combat, or entering Toshi Ranbo)."""

    seat: int
    reason: str


class CombatArose(GunsenEvent, frozen=True):
    """An army entered a space held by an opponent's army (GUN-COMBAT-1)."""

    space: int
    attacker: int
    defender: int


class ToshiRanboEntered(GunsenEvent, frozen=True):
    """The first army entered Toshi Ranbo; the tile turned to its occupied side (GUN-TOSHI-2)."""

    seat: int


class BuildingBuilt(GunsenEvent, frozen=True):
    """A clan building was built on a space, paying its wood (GUN-BUILD-1)."""

    seat: int
    building: str
    space: int
    cost: int


class TacticBought(GunsenEvent, frozen=True):
    """A tactic was bought for koku and laid on a tactic space (GUN-TACTIC-1)."""

    seat: int
    tactic: str
    cost: int


class HeroRecruited(GunsenEvent, frozen=True):
    """A hero was recruited onto the fort or a space with an army (GUN-HERO-1)."""

    seat: int
    hero: str
    space: int


class SpecialOrderTaken(GunsenEvent, frozen=True):
    """A special order went on top of a column (GUN-SPECIAL-1)."""

    seat: int
    card: str
    column: int


# -- combat ------------------------------------------------------------------------------------


class TributeDecided(GunsenEvent, frozen=True):
    """Bayushi Aramoro's opponent paid influence or not; unpaid, its heroes are ignored."""

    seat: int
    paid: bool
    amount: int = 0


class HeroRode(GunsenEvent, frozen=True):
    """Moto Chagatai rode to the combat before it began (GUN-HERO-9)."""

    seat: int
    hero: str
    origin: int
    to: int


class TroopAdded(GunsenEvent, frozen=True):
    """A hero's effect put a troop from the clan board on its space."""

    seat: int
    space: int
    hero: str


class DiceThrown(GunsenEvent, frozen=True):
    """A side threw its dice (GUN-DICE-1)."""

    seat: int
    faces: tuple[str, ...]
    rerolls: int


class DiceRerolled(GunsenEvent, frozen=True):
    """A side rerolled some of its dice (GUN-DICE-2)."""

    seat: int
    old: tuple[str, ...]
    new: tuple[str, ...]


class RerollsStopped(GunsenEvent, frozen=True):
    """A side used no more rerolls."""

    seat: int


class DiceKept(GunsenEvent, frozen=True):
    """A side kept its dice (GUN-DICE-3)."""

    seat: int
    faces: tuple[str, ...]


class DiceSwapped(GunsenEvent, frozen=True):
    """Togashi Yokuni swapped a kept die with one of the opponent's (GUN-HERO-10)."""

    seat: int
    mine: str
    theirs: str


class SwapDeclined(GunsenEvent, frozen=True):
    """Togashi Yokuni's owner swapped no dice."""

    seat: int


class CombatResolved(GunsenEvent, frozen=True):
    """Deaths and the winner of a combat (GUN-COMBAT-3..8); pairs are (attacker, defender).

    ``winner`` is -1 when nobody won; ``loser`` is the side that must retreat (-1: none).
    """

    space: int
    strength: tuple[int, int]
    blood: tuple[int, int]
    armour: tuple[int, int]
    deaths: tuple[int, int]
    winner: int
    loser: int


class ArmyRetreated(GunsenEvent, frozen=True):
    """The loser's troops and heroes went to its fort or a controlled building (GUN-COMBAT-9)."""

    seat: int
    origin: int
    to: int
    troops: int
    heroes: tuple[str, ...] = ()


class HeroPlaced(GunsenEvent, frozen=True):
    """A hero whose troops were gone went to a building with own troops or the fort."""

    seat: int
    hero: str
    space: int


class TokenStolen(GunsenEvent, frozen=True):
    """The winner took a village token of the loser and its reward (GUN-COMBAT-12)."""

    seat: int
    victim: int
    token: str
    reward: str
    amount: int
    kept: bool


class CombatEnded(GunsenEvent, frozen=True):
    """The combat is over."""

    space: int


# -- claims, achievements, end of turn ---------------------------------------------------------


class VillageClaimed(GunsenEvent, frozen=True):
    """A village token was claimed: its reward given, the token kept or boxed (GUN-VILLAGE-1).

    ``amount`` is what the reward gave (a troop token gives none when the clan board is empty).
    """

    seat: int
    space: int
    token: str
    reward: str
    amount: int
    kept: bool


class UpgradeTaken(GunsenEvent, frozen=True):
    """An upgrade tile went to the top of a clan's column (GUN-SHRINE-1, GUN-TOSHI-4)."""

    seat: int
    column: int
    previous: int


class HoldMarkerPlaced(GunsenEvent, frozen=True):
    """A marker went on the Toshi Ranbo tile (GUN-TOSHI-7)."""

    seat: int


class HoldMarkerReturned(GunsenEvent, frozen=True):
    """The holder has no army left in Toshi Ranbo; its marker went back (GUN-TOSHI-8)."""

    seat: int


class AchievementEarned(GunsenEvent, frozen=True):
    """A marker went on an achievement box (GUN-ACH-1)."""

    seat: int
    box: str
    objective: str = ""


class FortRefilled(GunsenEvent, frozen=True):
    """A clan with fewer than three troops on the board refilled its fort (GUN-END-3)."""

    seat: int
    troops: int


class TurnBegan(GunsenEvent, frozen=True):
    """A player's turn began."""

    seat: int


class TurnEnded(GunsenEvent, frozen=True):
    """The active player's turn ended."""

    seat: int


class GameWon(GunsenEvent, frozen=True):
    """A clan placed its seventh achievement marker and won at once (GUN-ACH-7)."""

    seat: int
    box: str


EVENTS: tuple[type[GunsenEvent], ...] = (
    BoardSetUp, VillagesDealt, DeckShuffled, RowRefilled, StartPlayerDrawn, ClanChosen,
    ClanSetUp, TacticsDealt, RowReplaced, CardTaken, CardPlaced, NobleActionBegun,
    ColumnActivated, Gained, Asked, ActionUsed, ActionSkipped, ActivationEnded, TroopRecruited,
    MoveBought,
    ArmySelected, ArmyMoved, MovementLapsed, CombatArose, ToshiRanboEntered, BuildingBuilt,
    TacticBought, HeroRecruited, SpecialOrderTaken, TributeDecided, HeroRode, TroopAdded,
    DiceThrown, DiceRerolled, RerollsStopped, DiceKept, DiceSwapped, SwapDeclined,
    CombatResolved, ArmyRetreated, HeroPlaced, TokenStolen, CombatEnded, VillageClaimed,
    UpgradeTaken, HoldMarkerPlaced, HoldMarkerReturned, AchievementEarned, FortRefilled,
    TurnBegan, TurnEnded, GameWon,
)  # fmt: skip
