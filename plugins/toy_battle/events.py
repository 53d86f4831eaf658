"""What happens in Toy Battle: facts in the past tense (rule ids in docs/rules/toy-battle.md).

Fields that name hidden troops are ``None`` in the copies a seat may not see them in (the
rules' ``secret_fields`` and ``private_fields``); counts stay, since sizes of supplies and
racks are public.
"""

from __future__ import annotations

from gamehall.core import Event, namespaced


class ToyBattleEvent(Event, frozen=True, gc=False, tag=namespaced("toy_battle")):
    """Base of the game's events."""


class ColoursChosen(ToyBattleEvent, frozen=True):
    """Seat ``blue`` plays blue from the bottom edge, the other seat red (TB-SETUP-2)."""

    blue: int


class SupplyShuffled(ToyBattleEvent, frozen=True):
    """A seat's troops were shuffled into its face-down supply, first drawn first (TB-SETUP-4)."""

    seat: int
    size: int
    order: tuple[str, ...] | None = None


class TroopsRemoved(ToyBattleEvent, frozen=True):
    """The first troops of a supply left the match unseen (TB-SETUP-5)."""

    seat: int
    count: int
    troops: tuple[str, ...] | None = None


class StartPlayerChosen(ToyBattleEvent, frozen=True):
    """The start player was drawn at random (TB-SETUP-6)."""

    seat: int


class TroopsDrawn(ToyBattleEvent, frozen=True):
    """Troops went from the top of a seat's supply to its rack; ``cause`` says why."""

    seat: int
    count: int
    cause: str
    troops: tuple[str, ...] | None = None


class TroopPlaced(ToyBattleEvent, frozen=True):
    """A troop went from its rack onto a spot; ``effects`` were queued by it (TB-PLACE-6)."""

    seat: int
    troop: str
    spot: int
    troop_effect: str = ""
    base_effect: str = ""


class RegionTaken(ToyBattleEvent, frozen=True):
    """A seat occupied every base around a region and took its medals (TB-REGION-1)."""

    seat: int
    region: int
    medals: int


class EffectFinished(ToyBattleEvent, frozen=True):
    """The first queued effect was used, skipped, or could not be used (TB-EFFECT-1)."""

    seat: int
    effect: str
    outcome: str


class TroopDiscarded(ToyBattleEvent, frozen=True):
    """Jumbo put a visible enemy troop face up on the discard pile (TB-JUMBO-1)."""

    seat: int
    troop: str
    spot: int


class TroopSnatched(ToyBattleEvent, frozen=True):
    """XB-42 took a random troop from ``seat``'s rack and discarded it face up (TB-XB42-1)."""

    seat: int
    troop: str


class TroopReturned(ToyBattleEvent, frozen=True):
    """A seat took one of its visible troops back to its rack (TB-CASTLE-1)."""

    seat: int
    troop: str
    spot: int


class TroopRecovered(ToyBattleEvent, frozen=True):
    """A seat took one of its troops from the discard pile back to its rack (TB-CEMETERY-1)."""

    seat: int
    troop: str


class TroopMoved(ToyBattleEvent, frozen=True):
    """A visible enemy troop was moved to an adjacent base (TB-JUNGLE-1)."""

    troop: str
    source: int
    to: int


class TroopTurnedDown(ToyBattleEvent, frozen=True):
    """A random troop on ``seat``'s rack was laid face down (TB-BATTLEFIELD-1)."""

    seat: int
    troop: str | None = None


class TurnEnded(ToyBattleEvent, frozen=True):
    """A seat's turn is over; its face-down troops stand up again (TB-BATTLEFIELD-2)."""

    seat: int
    next: int


class MatchEnded(ToyBattleEvent, frozen=True):
    """The match ended: ``reason`` is headquarters, medals or stuck (TB-END-1 … TB-END-4).

    ``stuck`` names the seats that could neither draw nor place, for a ``stuck`` ending.
    """

    winner: int
    reason: str
    medals: tuple[int, int]
    ended_by: int | None = None
    stuck: tuple[int, ...] = ()


EVENTS: tuple[type[ToyBattleEvent], ...] = (
    ColoursChosen,
    SupplyShuffled,
    TroopsRemoved,
    StartPlayerChosen,
    TroopsDrawn,
    TroopPlaced,
    RegionTaken,
    EffectFinished,
    TroopDiscarded,
    TroopSnatched,
    TroopReturned,
    TroopRecovered,
    TroopMoved,
    TroopTurnedDown,
    TurnEnded,
    MatchEnded,
)
