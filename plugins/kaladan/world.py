"""The world's geometry and who controls what: adjacency, capacity, room, turn order."""

from __future__ import annotations

from .components import Catalogue, kind_of
from .state import NOBODY, State


def neighbours(catalogue: Catalogue, state: State, tile: int) -> tuple[int, ...]:
    """Return the tiles that share an edge with a tile (KAL-WORLD-1)."""
    return catalogue.adjacency[state.players][tile]


def capacity(catalogue: Catalogue, state: State, tile: int) -> int:
    """Return how many units a tile holds: its terrain's capacity, one more with a Castle.

    The terrain's figure is the seed's, or the compendium's under option ``terrain_capacity``
    (KAL-TERRAIN-1 … 3, KAL-MOVE-2).
    """
    terrain = catalogue.terrains[state.terrain[tile]]
    base = terrain.capacity
    if state.options.terrain_capacity == "compendium" and terrain.compendium_capacity is not None:
        base = terrain.compendium_capacity
    return base + 1 if tile in state.castles else base


def room(catalogue: Catalogue, state: State, tile: int) -> int:
    """Return how many more units fit on a tile."""
    return capacity(catalogue, state, tile) - len(state.board[tile])


def controlled(state: State, seat: int) -> list[int]:
    """Return the tiles a seat controls (KAL-TURN-4)."""
    return [tile for tile in range(len(state.board)) if state.controls(seat, tile)]


def deploy_tiles(catalogue: Catalogue, state: State, seat: int) -> list[int]:
    """Return the tiles a seat controls that have room for one more unit."""
    return [t for t in controlled(state, seat) if room(catalogue, state, t) > 0]


def spawn_tiles(catalogue: Catalogue, state: State, seat: int) -> list[int]:
    """Return the Castles a seat owns and controls that have room (KAL-SPAWN-1)."""
    return [
        t
        for t in state.castles_of(seat)
        if state.controls(seat, t) and room(catalogue, state, t) > 0
    ]


def first_of_kind(units: tuple[str, ...], kind: str) -> str | None:
    """Return the first unit of a kind in a list of unit ids."""
    return next((u for u in units if kind_of(u) == kind), None)


def kinds_in(units: tuple[str, ...]) -> list[str]:
    """Return the distinct kinds in a list of unit ids, in first-seen order."""
    return list(dict.fromkeys(kind_of(u) for u in units))


def next_seat(state: State, seat: int) -> int:
    """Return the next seat in turn order that still has its Crown, or NOBODY."""
    order = state.order
    start = order.index(seat)
    for step in range(1, len(order) + 1):
        candidate = order[(start + step) % len(order)]
        if state.alive[candidate]:
            return candidate
    return NOBODY


def crown_of(state: State, seat: int) -> str:
    """Return the id of a seat's Crown."""
    return f"{state.realms[seat]}/crown-1"
