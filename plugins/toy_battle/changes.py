"""Pure helpers of the ``@evolves`` methods in ``rules.py``: a copy of the state with one part
changed."""

from __future__ import annotations

from typing import Any

from .state import State, put, without


def pop(stacks: dict[int, tuple[str, ...]], spot: int) -> dict[int, tuple[str, ...]]:
    """Return the stacks with the top troop of ``spot`` taken off."""
    stacks = dict(stacks)
    rest = stacks[spot][:-1]
    if rest:
        stacks[spot] = rest
    else:
        del stacks[spot]
    return stacks


def push(stacks: dict[int, tuple[str, ...]], spot: int, troop: str) -> dict[int, tuple[str, ...]]:
    """Return the stacks with ``troop`` on top of ``spot``."""
    return {**stacks, spot: stacks.get(spot, ()) + (troop,)}


def to_rack(state: State, seat: int, troop: str, known: bool) -> dict[str, Any]:
    """Return the state's fields that change when ``troop`` joins a seat's rack."""
    rack = state.racks[seat] + (troop,)
    changes: dict[str, Any] = {"racks": put(state.racks, seat, rack)}
    if known:
        changes["known"] = put(state.known, seat, state.known[seat] + (troop,))
    return changes


def off_rack(state: State, seat: int, troop: str) -> dict[str, Any]:
    """Return the state's fields that change when ``troop`` leaves a seat's rack."""
    changes: dict[str, Any] = {"racks": put(state.racks, seat, without(state.racks[seat], troop))}
    if troop in state.known[seat]:
        changes["known"] = put(state.known, seat, without(state.known[seat], troop))
    if troop in state.face_down[seat]:
        changes["face_down"] = put(state.face_down, seat, without(state.face_down[seat], troop))
    return changes
