"""What must hold after every event of an Ehre der Samurai match (the conformance suite checks it)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from functools import cache
from typing import Any

from gamehall.core import Invariant
from gamehall.core.words import seat_label

from .cards import SHOGUN, box
from .state import State


def _places(state: State) -> list[str]:
    places = [*state.deck, *state.discard, *state.reserve]
    for p in state.players:
        places += [*p.hand, *p.samurai_house, *p.daimyo_house, *p.heads()]
    return places


def no_card_twice(state: State) -> str | None:
    """Check that every card is in one place only."""
    twice = [card for card, n in Counter(_places(state)).items() if n > 1]
    return f"{twice[:3]} are in two places at once" if twice else None


def shogun_in_one_house(state: State) -> str | None:
    """Check that the Shogun card is in its holder's Daimyo house and nowhere else."""
    holders = [s for s, p in enumerate(state.players) if SHOGUN in p.daimyo_house]
    expected = [] if state.shogun is None else [state.shogun]
    if holders != expected or any(SHOGUN in p.samurai_house for p in state.players):
        return f"the Shogun is held by {state.shogun} but lies in the houses of {holders}"
    return None


def alliances_pair_a_ronin_with_a_daimyo(state: State) -> str | None:
    """Check that allies name each other and that exactly one of them is a Ronin."""
    for seat, p in enumerate(state.players):
        if p.ally is None:
            continue
        other = state.players[p.ally]
        if other.ally != seat or p.ally == seat:
            theirs = "nobody" if other.ally is None else seat_label(other.ally)
            ally = seat_label(p.ally)
            return f"{seat_label(seat)} is allied with {ally}, who is allied with {theirs}"
        if p.is_ronin == other.is_ronin:
            return f"seats {seat + 1} and {p.ally + 1} are allied but not a Ronin and a Daimyo"
    return None


@cache
def _kinds() -> dict[str, str]:
    return {card.id: card.kind for card in box()}


def castles_in_daimyo_houses(state: State) -> str | None:
    """Check that castles lie only in Daimyo houses, one at most in each (EDS-HOUSE-3)."""
    kinds = _kinds()
    for seat, p in enumerate(state.players):
        if any(kinds.get(c) == "castle" for c in p.samurai_house):
            return f"a castle lies in the Samurai house of {seat_label(seat)}"
        if sum(kinds.get(c) == "castle" for c in p.daimyo_house) > 1:
            return f"the Daimyo house of {seat_label(seat)} holds two castles"
    return None


def invariants(rules: Any) -> Sequence[Invariant]:
    """Return the game's invariants (``rules`` is the ruleset's)."""
    return [
        Invariant("ehre-no-card-twice", no_card_twice, "each card in one place"),
        Invariant("ehre-shogun-in-one-house", shogun_in_one_house),
        Invariant("ehre-alliances", alliances_pair_a_ronin_with_a_daimyo),
        Invariant("ehre-castles", castles_in_daimyo_houses, "castles only in Daimyo houses"),
    ]
