"""What happens in Generals of Kaladan: facts in the past tense (rule ids in docs/rules/kaladan.md).

Fields that name hidden things (a tile order, the event deck's order, a magic card in a hand or
declared but not yet revealed) are ``None`` in the copies a seat may not see (the rules'
``secret_fields`` and ``private_fields``).
"""

from __future__ import annotations

import msgspec
from gamehall.core import Event, namespaced

Units = tuple[str, ...]


class KaladanEvent(Event, frozen=True, gc=False, tag=namespaced("kaladan")):
    """Base of the game's events."""


# -- setup ------------------------------------------------------------------------------------


class TurnOrderRolled(KaladanEvent, frozen=True):
    """Every seat rolled a D10, tied highest seats again (each round a tuple); ``order`` follows."""

    rounds: tuple[tuple[tuple[int, int], ...], ...]
    order: tuple[int, ...]


class TilesShuffled(KaladanEvent, frozen=True):
    """The terrain tiles were shuffled face down; ``order`` (hidden) is the drawing order."""

    count: int
    order: tuple[str, ...] | None = None


class TilePlaced(KaladanEvent, frozen=True):
    """A seat drew the next tile and placed it at the next cell of the layout (KAL-WORLD-2)."""

    seat: int
    tile: int
    terrain: str


class RealmChosen(KaladanEvent, frozen=True):
    """A seat chose its realm and took its army, Castle and magic deck (KAL-SETUP-3)."""

    seat: int
    realm: str
    army: Units


class MagicDealt(KaladanEvent, frozen=True):
    """A seat drew a random magic card of its realm's deck into its hand (hidden)."""

    seat: int
    card: str | None = None


class EventDeckShuffled(KaladanEvent, frozen=True):
    """The event deck was shuffled; ``order`` (hidden) lists it top first."""

    size: int
    order: Units | None = None


class CastlePlaced(KaladanEvent, frozen=True):
    """A seat placed its Castle on a tile and set its starting army there (KAL-SETUP-5, 6)."""

    seat: int
    tile: int
    units: Units


# -- turns ------------------------------------------------------------------------------------


class TurnBegan(KaladanEvent, frozen=True):
    """A seat's turn began (KAL-TURN-1)."""

    seat: int
    round: int


class PhaseBegan(KaladanEvent, frozen=True):
    """The active seat's turn moved on to a phase (KAL-TURN-2)."""

    seat: int
    phase: str


class EventDrawn(KaladanEvent, frozen=True):
    """The top event card was drawn and is resolved now; ``seats`` it touches, in order."""

    seat: int
    card: str
    seats: tuple[int, ...]


class EventAnswered(KaladanEvent, frozen=True):
    """A seat touched by the event card is done with it."""

    seat: int


class GoldGained(KaladanEvent, frozen=True):
    """A seat gained gold; ``cause`` says why ("income", "event", ...)."""

    seat: int
    gold: int
    cause: str


class UnitPlaced(KaladanEvent, frozen=True):
    """A unit went from a seat's reserve (or waiting recruits) onto a tile; ``cause`` says why."""

    seat: int
    unit: str
    tile: int
    cause: str


class UnitUpgraded(KaladanEvent, frozen=True):
    """A deployed unit was flipped to its upgraded side; ``cost`` gold was paid."""

    seat: int
    unit: str
    cost: int = 0


class UnitRaised(KaladanEvent, frozen=True):
    """A dead unit of the seat's realm left a graveyard for the seat's reserve (KAL-EVENT-5)."""

    seat: int
    unit: str
    graveyard: int


class UnitMoved(KaladanEvent, frozen=True):
    """A unit moved one tile (KAL-MOVE-1)."""

    seat: int
    unit: str
    origin: int
    to: int


class UnitRecruited(KaladanEvent, frozen=True):
    """A seat paid for a unit of its reserve; it waits for the Reinforcement phase."""

    seat: int
    unit: str
    cost: int


class MagicSwapped(KaladanEvent, frozen=True):
    """A seat paid 2 gold to swap a card of its hand for an unused one (KAL-MAGIC-6)."""

    seat: int
    realm: str
    returned: str | None = None
    drawn: str | None = None


class MagicBought(KaladanEvent, frozen=True):
    """A seat paid 4 gold for a random unused card of a pile it may buy from (KAL-MAGIC-7)."""

    seat: int
    realm: str
    card: str | None = None


class TurnEnded(KaladanEvent, frozen=True):
    """A seat's turn ended; ``next`` plays next."""

    seat: int
    next: int


# -- battle -----------------------------------------------------------------------------------


class AttackDeclared(KaladanEvent, frozen=True):
    """A seat attacks from one of its tiles onto an adjacent tile of one opponent."""

    seat: int
    origin: int
    target: int
    defender: int


class MagicDeclared(KaladanEvent, frozen=True):
    """A side announced whether it uses a magic card; the card stays hidden until revealed."""

    seat: int
    uses: bool
    card: str | None = None


class MagicRevealed(KaladanEvent, frozen=True):
    """Both declarations were final and the cards were turned face up (KAL-MAGIC-5)."""

    attacker: str
    defender: str


class MagicInEffect(KaladanEvent, frozen=True):
    """A side's magic card asks its seat to act: ``step`` "effect" or "keep", ``left`` uses."""

    seat: int
    card: str
    side: int
    step: str
    left: int


class UnitShifted(KaladanEvent, frozen=True):
    """A magic card moved a unit between two tiles its seat controls; no battle follows."""

    seat: int
    unit: str
    origin: int
    to: int


class UnitAssassinated(KaladanEvent, frozen=True):
    """A magic card killed an enemy unit before the units were fixed (KAL-CARD-6)."""

    seat: int
    unit: str
    owner: int


class MagicFinished(KaladanEvent, frozen=True):
    """A side's magic card has done what it does and is spent."""

    seat: int
    card: str


class BattleJoined(KaladanEvent, frozen=True):
    """The fighting units were fixed: every unit on both tiles (KAL-BATTLE-4)."""

    attackers: Units
    defenders: Units


class Die(msgspec.Struct, frozen=True, gc=False):
    """One die of a pool: its sides, what it showed, and where it came from."""

    sides: int
    value: int
    source: str


class DiceRolled(KaladanEvent, frozen=True):
    """Every attack and defence die was rolled at once (KAL-DICE-1)."""

    attack: tuple[Die, ...]
    defence: tuple[Die, ...]


class DiceCompared(KaladanEvent, frozen=True):
    """Both pools sorted high to low and compared pair by pair (KAL-COMPARE-1 … 3)."""

    attack: tuple[int, ...]
    defence: tuple[int, ...]
    attacker_losses: int
    defender_losses: int
    warded: tuple[int, int] = (0, 0)


class UnitsDefeated(KaladanEvent, frozen=True):
    """Units of ``seat`` were defeated by ``by``: onto ``by``'s graveyard, specials to reserve."""

    seat: int
    by: int
    units: Units


class UnitsRestored(KaladanEvent, frozen=True):
    """Units killed in this battle came back onto their seat's Castle (KAL-CARD-5)."""

    seat: int
    units: Units
    tile: int


class InvasionOrdered(KaladanEvent, frozen=True):
    """The attacker won with more units than the tile holds: it names ``capacity`` invaders."""

    seat: int
    capacity: int


class Invaded(KaladanEvent, frozen=True):
    """The winning attacker moved into the conquered tile (KAL-INVADE-1)."""

    seat: int
    units: Units
    origin: int
    target: int


class CrownFell(KaladanEvent, frozen=True):
    """A Crown was defeated: its seat is out at once (KAL-CROWN-1 … 6).

    ``castles`` pairs each Castle it owned with its new owner (-1: a free tile); ``specials`` go to
    ``by``'s reserve; ``by`` is -1 when the winner fell in the same battle.
    """

    seat: int
    by: int
    castles: tuple[tuple[int, int], ...]
    specials: Units
    removed: Units


class BattleEnded(KaladanEvent, frozen=True):
    """The battle is over: "attacker" took the tile, "defender" held it, or "both" fell."""

    result: str


class MatchEnded(KaladanEvent, frozen=True):
    """The match ended; ``reason`` in words, ``scores`` for the round-limit tie-break."""

    winners: tuple[int, ...]
    reason: str
    scores: tuple[int, ...] = ()


EVENTS = (
    TurnOrderRolled,
    TilesShuffled,
    TilePlaced,
    RealmChosen,
    MagicDealt,
    EventDeckShuffled,
    CastlePlaced,
    TurnBegan,
    PhaseBegan,
    EventDrawn,
    EventAnswered,
    GoldGained,
    UnitPlaced,
    UnitUpgraded,
    UnitRaised,
    UnitMoved,
    UnitRecruited,
    MagicSwapped,
    MagicBought,
    TurnEnded,
    AttackDeclared,
    MagicDeclared,
    MagicRevealed,
    MagicInEffect,
    UnitShifted,
    UnitAssassinated,
    MagicFinished,
    BattleJoined,
    DiceRolled,
    DiceCompared,
    UnitsDefeated,
    UnitsRestored,
    InvasionOrdered,
    Invaded,
    CrownFell,
    BattleEnded,
    MatchEnded,
)
