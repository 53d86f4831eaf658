"""What must hold after every event of a Kaladan match (the conformance suite checks it)."""

from __future__ import annotations

from collections.abc import Sequence
from functools import partial
from typing import Any

from gamehall.core import Invariant
from gamehall.core.words import seat_label

from .components import Catalogue, realm_of
from .state import NOBODY, State
from .world import capacity


def two_armies_never_share(catalogue: Catalogue, state: State) -> str | None:
    """Check that every unit on a tile is of the tile's holder, and tiles respect capacity
    (the terrains of the match's ruleset, an expansion's included)."""
    for tile, units in enumerate(state.board):
        holder = state.holder[tile]
        if bool(units) != (holder != NOBODY):
            return f"tile {tile} has holder {holder} but units {units}"
        if holder != NOBODY and state.realms[holder]:
            foreign = [u for u in units if not _belongs(state, holder, u)]
            if foreign:
                return f"tile {tile} of {seat_label(holder)} holds {foreign[0]}"
        cap = capacity(catalogue, state, tile)
        if len(units) > cap:
            return f"tile {tile} holds {len(units)} units, more than its capacity {cap}"
    return None


def _belongs(state: State, seat: int, unit: str) -> bool:
    # Special units change hands when a Crown falls; every other unit stays in its realm.
    return realm_of(unit) == state.realms[seat] or not unit.rpartition("-")[2].isdigit()


def every_unit_once(state: State) -> str | None:
    """Check that no unit is in two places (tiles, reserves, paid, graveyards)."""
    places = [u for units in state.board for u in units]
    for group in (state.reserve, state.ready, state.graveyard):
        places += [u for units in group for u in units]
    if len(places) != len(set(places)):
        return "a unit is in two places at once"
    return None


def every_card_once(state: State) -> str | None:
    """Check that every magic card is in exactly one hand, pile, declaration or the spent pile."""
    cards = [c for hand in state.hands for c in hand] + [c for p in state.piles.values() for c in p]
    cards += list(state.spent)
    if state.battle is not None and not state.battle.revealed:
        cards += [c for c in state.battle.cards if c]
    if len(cards) != len(set(cards)):
        return "a magic card is in two places at once"
    return None


def invariants(rules: Any) -> Sequence[Invariant]:
    """Return the game's invariants; capacity is read from the ruleset's catalogue (the box's
    terrains and its expansions')."""
    return [
        Invariant(
            "kaladan-armies-apart",
            partial(two_armies_never_share, rules.catalogue),
            "KAL-BATTLE-6 and capacity",
        ),
        Invariant("kaladan-units-once", every_unit_once),
        Invariant("kaladan-cards-once", every_card_once),
    ]
