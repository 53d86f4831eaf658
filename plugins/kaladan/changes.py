"""Pure helpers of the ``@evolves`` methods in ``rules.py``: a copy of the state with one part
changed."""

from __future__ import annotations

from typing import Any

import msgspec

from .components import Catalogue
from .state import NOBODY, State, Units, put, without

replace = msgspec.structs.replace


def take_card(catalogue: Catalogue, state: State, seat: int, card: str | None) -> State:
    """Return the state with ``card`` taken from its realm's pile into a hand."""
    if not card:
        return state
    realm = catalogue.realm_of_card(card)
    return replace(
        state,
        hands=put(state.hands, seat, tuple(sorted((*state.hands[seat], card)))),
        piles={**state.piles, realm: without(state.piles[realm], card)},
    )


def with_battle(state: State, **changes: Any) -> State:
    """Return the state with the battle's fields changed."""
    assert state.battle is not None
    return replace(state, battle=replace(state.battle, **changes))


def add(state: State, seat: int, units: Units, tile: int) -> State:
    """Return the state with ``units`` of ``seat`` on a tile."""
    return replace(
        state,
        board=put(state.board, tile, (*state.board[tile], *units)),
        holder=put(state.holder, tile, seat),
    )


def remove(state: State, units: Units, tile: int) -> State:
    """Return the state with ``units`` off a tile; an emptied tile has no holder."""
    left = without(state.board[tile], *units)
    holder = state.holder[tile] if left else NOBODY
    return replace(
        state, board=put(state.board, tile, left), holder=put(state.holder, tile, holder)
    )


def move(state: State, seat: int, units: Units, origin: int, to: int) -> State:
    """Return the state with ``units`` moved from ``origin`` to ``to``."""
    return add(remove(state, units, origin), seat, units, to)


def defeat(state: State, seat: int, by: int, units: Units) -> State:
    """Take units off the board: specials to their owner's reserve, the rest to ``by``'s graveyard."""
    for unit in units:
        tile = state.tile_of(unit)
        if tile != NOBODY:
            state = remove(state, (unit,), tile)
    specials = tuple(u for u in units if not numbered(u))
    dead = tuple(u for u in units if u not in specials)
    return replace(
        state,
        reserve=put(state.reserve, seat, (*state.reserve[seat], *specials)),
        graveyard=put(state.graveyard, by, (*state.graveyard[by], *dead)),
        upgraded=without(state.upgraded, *units),
    )


def numbered(unit: str) -> bool:
    """Tell whether a unit is a numbered one (not a special)."""
    return unit.rpartition("-")[2].isdigit()


def killed(state: State, seat: int, units: Units) -> State:
    """Return the state with ``units`` counted as killed on ``seat``'s side of the battle."""
    battle = state.battle
    if battle is None or seat not in battle.seats:
        return state
    side = battle.seats.index(seat)
    return with_battle(state, killed=put(battle.killed, side, (*battle.killed[side], *units)))
