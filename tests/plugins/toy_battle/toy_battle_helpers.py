"""Build Toy Battle positions by hand and send commands to them, for the scenario tests."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import pytest
from gamehall.core import Command, Context, Event, IllegalCommand, default_registry, engine
from gamehall.plugins.toy_battle.state import Options, State
from gamehall.plugins.toy_battle.troops import KINDS

RULESET = default_registry().ruleset("toy-battle")
RULES: Any = RULESET.rules


def B(kind: str, copy: int = 1) -> str:
    """Return a blue troop's token."""
    return f"blue-{kind}-{copy}"


def R(kind: str, copy: int = 1) -> str:
    """Return a red troop's token."""
    return f"red-{kind}-{copy}"


def _army(colour: str) -> list[str]:
    return [f"{colour}-{k.key}-{n}" for k in KINDS for n in range(1, k.copies + 1)]


def make(
    terrain: str = "castle",
    *,
    stacks: Mapping[int, Sequence[str]] | None = None,
    racks: tuple[Sequence[str], Sequence[str]] = ((), ()),
    supply: tuple[Sequence[str], Sequence[str]] | None = None,
    discard: Sequence[str] = (),
    turn: int = 0,
    medals: tuple[int, int] = (0, 0),
    taken: Iterable[tuple[int, int]] = (),
    face_down: tuple[Sequence[str], Sequence[str]] = ((), ()),
    **options: Any,
) -> State:
    """Return a ready position (seat 0 blue); the supplies hold the unused troops by default."""
    stacks = {spot: tuple(stack) for spot, stack in (stacks or {}).items()}
    used = {t for stack in stacks.values() for t in stack} | set(discard)
    used |= set(racks[0]) | set(racks[1])
    if supply is None:
        blue, red = ([t for t in _army(c) if t not in used] for c in ("blue", "red"))
        supply = (blue, red)
    return State(
        terrain=terrain,
        options=Options(terrain=terrain, **options),
        turn=turn,
        supply=(tuple(supply[0]), tuple(supply[1])),
        racks=(tuple(racks[0]), tuple(racks[1])),
        face_down=(tuple(face_down[0]), tuple(face_down[1])),
        stacks=stacks,
        discard=tuple(discard),
        medals=medals,
        taken=tuple(taken),
        ready=True,
    )


def send(
    state: State, command: Command, seat: int | None = None, seed: int = 0
) -> tuple[list[Event], State]:
    """Decide a command as the engine does; return its events and the state after them."""
    seat = state.turn if seat is None else seat
    events, after = engine.decide(RULESET, state, seat, command, Context(seat, 100, seed))
    return list(events), after


def refused(state: State, command: Command, rule: str, seat: int | None = None) -> IllegalCommand:
    """Check that a command is refused under ``rule`` and is not among the legal ones."""
    seat = state.turn if seat is None else seat
    with pytest.raises(IllegalCommand) as caught:
        send(state, command, seat)
    assert caught.value.rule == rule, caught.value
    assert command not in RULES.legal(state, seat)
    return caught.value


def kinds(events: Sequence[Event]) -> list[str]:
    """Return the class names of events."""
    return [type(e).__name__ for e in events]


def awaited(state: State) -> str:
    """Return the kind of decision asked now ('' when nothing is asked)."""
    asked = RULES.awaiting(state)
    return next(iter(asked.values())).kind if asked else ""
