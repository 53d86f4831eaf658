"""What happens in Ehre der Samurai: facts in the past tense (rule ids in the docs)."""

from __future__ import annotations

from typing import Literal

from gamehall.core import Event, namespaced

from .state import House

HonourSource = Literal["own", "alliance", "ronin"]
AllianceEnd = Literal["left", "dishonour", "assassination", "new-daimyo", "takeover", "fallen"]


class EhreEvent(Event, frozen=True, gc=False, tag=namespaced("ehre_der_samurai")):
    """Base of the game's events."""


# -- setup (EDS-SETUP) -------------------------------------------------------------------------


class HousesFounded(EhreEvent, frozen=True):
    """Each seat got a starting Daimyo and a Samurai; the other Samurai were set aside."""

    daimyo: tuple[str, ...]
    samurai: tuple[str, ...]
    reserve: tuple[str, ...]


class DeckShuffled(EhreEvent, frozen=True):
    """The deck was shuffled; ``order`` (front first) is hidden from every seat."""

    size: int
    order: tuple[str, ...] | None = None


class HandDealt(EhreEvent, frozen=True):
    """A seat was dealt its seven cards; ``cards`` is hidden from the others."""

    seat: int
    size: int
    cards: tuple[str, ...] | None = None


# -- the turn (EDS-HONOUR, EDS-ACTION, EDS-END) ------------------------------------------------


class TurnBegan(EhreEvent, frozen=True):
    """A seat's turn began."""

    seat: int
    round: int


class HonourCollected(EhreEvent, frozen=True):
    """Phase 1: a seat took honour as its own Daimyo, as an ally, or none as a lone Ronin."""

    seat: int
    honour: int
    total: int
    source: HonourSource


class MatchWon(EhreEvent, frozen=True):
    """A seat reached the honour target at the end of phase 1 (EDS-WIN-1)."""

    seat: int
    honour: int


class CardDrawn(EhreEvent, frozen=True):
    """A seat drew the top card of the deck; ``card`` is hidden from the others."""

    seat: int
    card: str | None = None


class DeckRebuilt(EhreEvent, frozen=True):
    """The discard pile was shuffled into a new deck; ``order`` is hidden from every seat."""

    size: int
    order: tuple[str, ...] | None = None


class CardDiscarded(EhreEvent, frozen=True):
    """A seat put a card from its hand on the discard pile without effect."""

    seat: int
    card: str


class CardPlayed(EhreEvent, frozen=True):
    """A seat played a card from its hand into one of its own or its ally's houses."""

    seat: int
    card: str
    owner: int
    house: House


class DaimyoRaised(EhreEvent, frozen=True):
    """A seat without a Daimyo played a Daimyo: a new Daimyo house; the Ronin is Samurai again."""

    seat: int
    card: str


class TurnEnded(EhreEvent, frozen=True):
    """A seat announced the end of its turn."""

    seat: int


# -- Ninja and Dishonour (EDS-NINJA, EDS-DISHONOUR) ------------------------------------------


class ThiefSent(EhreEvent, frozen=True):
    """A Ninja thief stole a warrior or a possession into one of the thief's houses."""

    seat: int
    card: str
    loot: str
    owner: int
    house: House
    to: House
    cost: int


class AssassinSent(EhreEvent, frozen=True):
    """A Ninja assassin was sent against a house; its price is paid."""

    seat: int
    card: str
    owner: int
    house: House
    cost: int


class AssassinStopped(EhreEvent, frozen=True):
    """A bodyguard stopped the assassin; both cards are discarded."""

    owner: int
    house: House
    bodyguard: str


class HouseTakenOver(EhreEvent, frozen=True):
    """A Ronin's assassin defeated the allied Samurai: the ally's Daimyo house is the Ronin's."""

    seat: int
    ally: int


class HouseDiscarded(EhreEvent, frozen=True):
    """A house lost all its cards; a Daimyo house loses its Daimyo too, a Samurai house keeps
    its Samurai."""

    owner: int
    house: House
    cards: tuple[str, ...]


class DishonourPlayed(EhreEvent, frozen=True):
    """A seat played Dishonour on another; the victim must answer."""

    seat: int
    card: str
    victim: int


class Answered(EhreEvent, frozen=True):
    """A seat answered a window; ``answer`` is hidden from the others until it closes."""

    seat: int
    answer: str | None = None


class WindowClosed(EhreEvent, frozen=True):
    """Every answer is in: ``saved_by`` played Save Face ``card`` for ``for_seat``, or nobody."""

    for_seat: int
    saved_by: int | None = None
    card: str | None = None


class HonourPaid(EhreEvent, frozen=True):
    """The victim of a Dishonour paid honour."""

    seat: int
    honour: int


class SeppukuCommitted(EhreEvent, frozen=True):
    """The victim of a Dishonour let its Daimyo or its Samurai commit seppuku."""

    seat: int
    house: House


# -- declarations (EDS-SHOGUN, EDS-ATTACK, EDS-ALLY, EDS-LEAVE) ---------------------------------


class ShogunDeclared(EhreEvent, frozen=True):
    """A seat declared its Daimyo Shogun and took the card into its Daimyo house."""

    seat: int


class AttackDeclared(EhreEvent, frozen=True):
    """A seat attacked another: the strength and dice of each side (attacker first)."""

    seat: int
    target: int
    strength: tuple[int, int]
    dice: tuple[int, int]


class FightRolled(EhreEvent, frozen=True):
    """Both sides rolled; a tie rolled again. Every roll is kept, the deciding one last."""

    attacker_rolls: tuple[tuple[int, ...], ...]
    defender_rolls: tuple[tuple[int, ...], ...]
    winner: int
    loser: int


class CastleTaken(EhreEvent, frozen=True):
    """The winner took the loser's castle, giving its own in exchange when it had one."""

    seat: int
    castle: str
    loser: int
    swapped: str | None = None


class CastleLeft(EhreEvent, frozen=True):
    """The winner left the loser's castle where it was."""

    seat: int


class ShogunPassed(EhreEvent, frozen=True):
    """The Shogun card passed from the loser of a fight to the winner."""

    loser: int
    winner: int


class ShogunReturned(EhreEvent, frozen=True):
    """The Shogun's Daimyo house fell outside a fight: the card lies in the middle again."""

    seat: int


class FightEnded(EhreEvent, frozen=True):
    """The fight is over: the loser lost its Daimyo house, unless it was saved."""

    winner: int
    loser: int
    saved: bool


class AllianceFormed(EhreEvent, frozen=True):
    """A Ronin allied with a seat that has a Daimyo."""

    ronin: int
    daimyo: int


class AllianceLeaving(EhreEvent, frozen=True):
    """A seat declared it leaves its alliance: it paid, the alliance ends a round later."""

    seat: int
    cost: int


class AllianceEnded(EhreEvent, frozen=True):
    """An alliance ended, and why."""

    seats: tuple[int, int]
    reason: AllianceEnd


EVENTS = (
    HousesFounded,
    DeckShuffled,
    HandDealt,
    TurnBegan,
    HonourCollected,
    MatchWon,
    CardDrawn,
    DeckRebuilt,
    CardDiscarded,
    CardPlayed,
    DaimyoRaised,
    TurnEnded,
    ThiefSent,
    AssassinSent,
    AssassinStopped,
    HouseTakenOver,
    HouseDiscarded,
    DishonourPlayed,
    Answered,
    WindowClosed,
    HonourPaid,
    SeppukuCommitted,
    ShogunDeclared,
    AttackDeclared,
    FightRolled,
    CastleTaken,
    CastleLeft,
    ShogunPassed,
    ShogunReturned,
    FightEnded,
    AllianceFormed,
    AllianceLeaving,
    AllianceEnded,
)
