"""Nim from outside gamehall: take stones from one pile; who takes the last stone wins."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import msgspec
from gamehall.core import (
    Command,
    Context,
    Decision,
    Event,
    GameSpec,
    IllegalCommand,
    Invariant,
    Outcome,
    Rules,
    hookimpl,
    namespaced,
)
from gamehall.core.rules import MatchConfig

TAKE = Decision("take", "take stones from one pile")


class Options(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """The piles to start with, as a tuple (stored in the log as a list)."""

    piles: tuple[int, ...] = (1, 3, 5)


class NimEvent(Event, frozen=True, tag=namespaced("outside_nim")):
    """Base of Nim's events."""


class StonesTaken(NimEvent, frozen=True):
    """A seat took ``count`` stones from pile ``pile``."""

    seat: int
    pile: int
    count: int


class LastStoneTaken(NimEvent, frozen=True):
    """The piles are empty: ``winner`` took the last stone."""

    winner: int


class Take(Command, frozen=True, tag=namespaced("outside_nim")):
    """Take ``count`` stones from pile ``pile``."""

    pile: int
    count: int


class State(msgspec.Struct, frozen=True):
    """The piles, who moves, and the winner once over."""

    piles: tuple[int, ...]
    turn: int = 0
    winner: int | None = None


class Nim(Rules[State]):
    """Two seats take turns; the one who takes the last stone wins."""

    def initial(self, config: MatchConfig) -> State:
        """Return the piles of the options."""
        return State(piles=tuple(config.options.piles))

    def decide(self, state: State, command: Command, ctx: Context) -> Sequence[Event]:
        """Take stones, and end the match when none are left."""
        if not isinstance(command, Take):
            raise IllegalCommand("Nim only takes Take")
        if not 0 <= command.pile < len(state.piles):
            raise IllegalCommand(f"there is no pile {command.pile}", "NIM-1")
        if not 1 <= command.count <= state.piles[command.pile]:
            raise IllegalCommand(
                f"pile {command.pile} holds {state.piles[command.pile]} stones", "NIM-1"
            )
        taken = StonesTaken(seat=state.turn, pile=command.pile, count=command.count)
        if sum(state.piles) == command.count:
            return (taken, LastStoneTaken(winner=state.turn))
        return (taken,)

    def evolve(self, state: State, event: Event) -> State:
        """Apply one event."""
        if isinstance(event, StonesTaken):
            piles = list(state.piles)
            piles[event.pile] -= event.count
            return State(tuple(piles), 1 - event.seat, state.winner)
        if isinstance(event, LastStoneTaken):
            return State(state.piles, state.turn, event.winner)
        return state

    def awaiting(self, state: State) -> Mapping[int, Decision]:
        """Return the mover until the piles are empty."""
        return {} if state.winner is not None else {state.turn: TAKE}

    def legal(self, state: State, seat: int) -> Sequence[Command]:
        """Return every take of the mover."""
        if state.winner is not None or seat != state.turn:
            return []
        return [
            Take(pile=p, count=n) for p, size in enumerate(state.piles) for n in range(1, size + 1)
        ]

    def outcome(self, state: State) -> Outcome | None:
        """Return the winner once the piles are empty."""
        return None if state.winner is None else Outcome((state.winner,), "took the last stone")


GAME = GameSpec(
    id="outside-nim",
    name="Nim (outside)",
    version="0.1.0",
    rules=Nim,
    state=State,
    min_players=2,
    max_players=2,
    options=Options,
    test_options=({}, {"piles": (2, 2)}),
    description="Take stones from one pile; who takes the last stone wins.",
)


@hookimpl
def gamehall_games() -> list[GameSpec]:
    """Register Nim."""
    return [GAME]


@hookimpl
def gamehall_event_types() -> list[type]:
    """Declare Nim's events."""
    return [StonesTaken, LastStoneTaken]


@hookimpl
def gamehall_command_types() -> list[type]:
    """Declare Nim's commands."""
    return [Take]


def no_negative_pile(state: State) -> str | None:
    """Check that no pile holds fewer than no stones."""
    return None if min(state.piles, default=0) >= 0 else f"a pile is negative: {state.piles}"


@hookimpl
def gamehall_invariants() -> list[Invariant]:
    """Declare what must hold after every event."""
    return [Invariant("outside-nim-piles", no_negative_pile)]


@hookimpl
def gamehall_render_text(view: Any, seat: int | None) -> str | None:
    """Draw the piles."""
    if not isinstance(view, State):
        return None
    piles = "  ".join(f"pile {i}: {'o' * n or '-'}" for i, n in enumerate(view.piles))
    end = f"seat {view.winner} took the last stone" if view.winner is not None else ""
    return f"{piles}\n{end or f'seat {view.turn} to take'}"


@hookimpl
def gamehall_describe_command(command: Command, view: Any, seat: int | None) -> str | None:
    """Name a take."""
    if isinstance(command, Take):
        return f"take {command.count} from pile {command.pile}"
    return None
