"""Helpers for River of Gold scenario tests: start a table and set up a position."""

from __future__ import annotations

from typing import Any

from gamehall.core import Table
from gamehall.plugins.river_of_gold.components import MARKET_SPACES
from gamehall.plugins.river_of_gold.state import Player, State
from msgspec.structs import replace


def table(
    players: int = 2, seed: int = 1, expansions: tuple[str, ...] = (), **options: Any
) -> Table:
    """Return a fresh match, setup done."""
    exp_options = {"river-of-gold-patrons": options} if options else None
    return Table.new(
        "river-of-gold", players, seed=seed, expansions=expansions, expansion_options=exp_options
    )


def clean(t: Table) -> Table:
    """Remove start tiles (markets stay), so every other shore space is empty."""
    tiles = tuple(tile if i + 1 in MARKET_SPACES else None for i, tile in enumerate(t.state.tiles))
    t.state = replace(t.state, tiles=tiles, markers=((),) * 30)
    return t


def player(t: Table, seat: int, **changes: Any) -> Player:
    """Change a clan's fields and return it."""
    players = list(t.state.players)
    players[seat] = replace(players[seat], **changes)
    t.state = replace(t.state, players=tuple(players))
    return players[seat]


def state(t: Table, **changes: Any) -> State:
    """Change state fields and return the state."""
    t.state = replace(t.state, **changes)
    return t.state


def build_on(t: Table, space: int, tile: str, *owners: int) -> None:
    """Put a tile with owners' markers on a shore space."""
    tiles = list(t.state.tiles)
    markers = list(t.state.markers)
    tiles[space - 1] = tile
    markers[space - 1] = tuple(owners)
    t.state = replace(t.state, tiles=tuple(tiles), markers=tuple(markers))


def types(events: Any) -> list[str]:
    """Return the class names of events."""
    return [type(e).__name__ for e in events]


def gained(events: Any, seat: int, field: str) -> int:
    """Return the total change of a resource for a seat over events."""
    return sum(
        getattr(e, field)
        for e in events
        if type(e).__name__ == "ResourcesChanged" and e.seat == seat
    )
