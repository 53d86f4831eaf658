"""What must hold after every event of a Toy Battle match (the conformance suite checks it)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from gamehall.core import Invariant
from gamehall.core.words import seat_label

from .placement import RACK_LIMIT, seat_of
from .state import State


def no_troop_twice(state: State) -> str | None:
    """Check that every troop is in exactly one place, naming a troop found twice and where."""
    places: dict[str, list[str]] = {}
    for troop in state.discard:
        places.setdefault(troop, []).append("the discard pile")
    for spot, stack in sorted(state.stacks.items()):
        for troop in stack:
            places.setdefault(troop, []).append(f"spot {spot}")
    for name, pair in (("supply", state.supply), ("removed", state.removed), ("rack", state.racks)):
        for seat in (0, 1):
            for troop in pair[seat]:
                places.setdefault(troop, []).append(f"{seat_label(seat)}'s {name}")
    for troop, where in places.items():
        if len(where) > 1:
            return f"{troop} is in two places at once: {' and '.join(where)}"
    return None


def racks_hold_own_troops(state: State) -> str | None:
    """Check rack limits, colours on racks and supplies, and face-down troops on racks."""
    for seat in (0, 1):
        if len(state.racks[seat]) > RACK_LIMIT:
            return f"{seat_label(seat)} has {len(state.racks[seat])} troops on its rack"
        if any(seat_of(state, t) != seat for t in (*state.racks[seat], *state.supply[seat])):
            return f"{seat_label(seat)} holds a troop of the other colour"
        if not set(state.face_down[seat]) <= set(state.racks[seat]):
            return f"a face-down troop of {seat_label(seat)} is not on its rack"
    return None


def invariants(rules: Any) -> Sequence[Invariant]:
    """Return the game's invariants; the medals are checked on the ruleset's terrains (the
    box's and its expansions')."""

    def medals_match_regions(state: State) -> str | None:
        """Check that medals are those of the regions taken, and no region was taken twice."""
        regions = [region for region, _ in state.taken]
        if len(regions) != len(set(regions)):
            return "a region was taken twice"
        board = rules.boards.get(state.terrain)
        if board is None:
            return None  # a terrain the ruleset does not know: nothing to check it against
        for seat in (0, 1):
            earned = sum(board.terrain.regions[r].medals for r, s in state.taken if s == seat)
            if state.medals[seat] != earned:
                return (
                    f"{seat_label(seat)} has {state.medals[seat]} medals "
                    f"but took regions worth {earned}"
                )
        return None

    return [
        Invariant("toy-battle-no-troop-twice", no_troop_twice),
        Invariant("toy-battle-racks", racks_hold_own_troops, "8 troops at most, own colour"),
        Invariant("toy-battle-medals", medals_match_regions),
    ]
