"""What must hold after every event of a River of Gold match (the conformance suite checks it)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from gamehall.core import Invariant
from gamehall.core.words import seat_label

from .components import COMPONENTS, CUSTOMERS, TILES
from .state import State


def supplies_in_range(state: State) -> str | None:
    """Check that no clan holds negative supplies or favour above its cap."""
    for seat, p in enumerate(state.players):
        if p.koku < 0 or min(p.goods) < 0 or not 0 <= p.favour <= p.favour_cap <= 6:
            return f"{seat_label(seat)} holds {p.koku} koku, goods {p.goods}, favour {p.favour}/{p.favour_cap}"
        if not all(0 <= i <= COMPONENTS.track.top for i in p.influence):
            return f"{seat_label(seat)} has influence {p.influence} off the tracks"
    return None


def customers_conserved(state: State) -> str | None:
    """Check that every customer card is in exactly one hand, pile or tableau."""
    cards = list(state.deck) + list(state.discard)
    for p in state.players:
        cards += list(p.hand) + list(p.delivered)
    if cards and sorted(cards) != sorted(CUSTOMERS):
        return f"{len(cards)} customer cards are in play, {len(set(cards))} distinct"
    return None


def markers_on_buildings(state: State) -> str | None:
    """Check that markers sit only on clan buildings, at most two per building."""
    for space, (tile, marks) in enumerate(zip(state.tiles, state.markers, strict=True), start=1):
        if len(marks) > 2 or (marks and (tile is None or TILES[tile].era not in (1, 2))):
            return f"space {space} holds markers {marks} on {tile}"
    return None


def row_holds_four(state: State) -> str | None:
    """Check that the row never holds more than four tiles, each tile once on the table."""
    placed = [t for t in state.tiles if t is not None]
    tiles = list(state.row) + list(state.era1) + list(state.era2) + placed
    if len(state.row) > COMPONENTS.setup.row or len(tiles) != len(set(tiles)):
        return f"the row holds {state.row}; a tile is in two places"
    return None


def invariants(rules: Any) -> Sequence[Invariant]:
    """Return the game's invariants (``rules`` is the ruleset's; they read the base catalogue)."""
    return [
        Invariant("rog-supplies-in-range", supplies_in_range, "caps and non-negative supplies"),
        Invariant("rog-customers-conserved", customers_conserved, "30 customers, each once"),
        Invariant("rog-markers-on-buildings", markers_on_buildings, "two markers at most"),
        Invariant("rog-row-holds-four", row_holds_four, "four slots, each tile in one place"),
    ]
