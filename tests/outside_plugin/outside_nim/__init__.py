"""Nim from outside gamehall: take stones from one pile; who takes the last stone wins.

Rules NIM-1 … NIM-3 are in ``docs/rules.md`` of this package. One hook of its own,
``outside_nim_take_limit``, lets an expansion cap how many stones a take may hold.
"""

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
    hookspec,
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
    """The piles, who moves, the most stones a take may hold (0: no limit), the winner."""

    piles: tuple[int, ...]
    turn: int = 0
    winner: int | None = None
    limit: int = 0


class NimSpecs:
    """Hooks an expansion of Nim may implement."""

    @hookspec(firstresult=True)
    def outside_nim_take_limit(self, options: Any) -> int | None:  # type: ignore[empty-body]
        """Return the most stones one take may hold (NIM-3), or ``None`` to leave it be.

        Fires once, when a match starts; the first non-``None`` answer counts, and the game's
        default answers 0 (no limit).

        :param options: the match's expansion options, by expansion id, each typed.
        """


class Defaults:
    """The rulebook's answer to Nim's hook."""

    @hookimpl(trylast=True)
    def outside_nim_take_limit(self, options: Any) -> int:
        """Set no limit (NIM-3)."""
        return 0


class Nim(Rules[State]):
    """Two seats take turns; the one who takes the last stone wins."""

    # The rule of each event decide returns, for ``gamehall why``.
    event_rules = {StonesTaken: "NIM-1", LastStoneTaken: "NIM-2"}

    def initial(self, config: MatchConfig) -> State:
        """Return the piles of the options, and the take limit an expansion sets (NIM-3)."""
        limit = self.hook.outside_nim_take_limit(options=config.expansion_options)
        return State(piles=tuple(config.options.piles), limit=limit)

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
        if state.limit and command.count > state.limit:
            raise IllegalCommand(f"a take holds at most {state.limit} stones", "NIM-3")
        taken = StonesTaken(seat=state.turn, pile=command.pile, count=command.count)
        if sum(state.piles) == command.count:
            return (taken, LastStoneTaken(winner=state.turn))
        return (taken,)

    def evolve(self, state: State, event: Event) -> State:
        """Apply one event."""
        if isinstance(event, StonesTaken):
            piles = list(state.piles)
            piles[event.pile] -= event.count
            return msgspec.structs.replace(state, piles=tuple(piles), turn=1 - event.seat)
        if isinstance(event, LastStoneTaken):
            return msgspec.structs.replace(state, winner=event.winner)
        return state

    def awaiting(self, state: State) -> Mapping[int, Decision]:
        """Return the mover until the piles are empty."""
        return {} if state.winner is not None else {state.turn: TAKE}

    def legal(self, state: State, seat: int) -> Sequence[Command]:
        """Return every take of the mover."""
        if state.winner is not None or seat != state.turn:
            return []
        most = state.limit or max(state.piles, default=0)
        return [
            Take(pile=p, count=n)
            for p, size in enumerate(state.piles)
            for n in range(1, min(size, most) + 1)
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
    hookspecs=(NimSpecs,),
    hookimpls=(Defaults(),),
    test_options=({}, {"piles": (2, 2)}),
    description="Take stones from one pile; who takes the last stone wins.",
    rules_doc="docs/rules.md",
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


@hookimpl
def gamehall_describe_event(event: Event, view: Any, seat: int | None) -> str | None:
    """Tell a take and the end."""
    if isinstance(event, StonesTaken):
        return f"Seat {event.seat} took {event.count} from pile {event.pile}."
    if isinstance(event, LastStoneTaken):
        return f"Seat {event.winner} took the last stone and wins."
    return None


@hookimpl
def gamehall_seat_names(view: Any) -> list[str] | None:
    """Call the seats by number."""
    return ["Seat 0", "Seat 1"] if isinstance(view, State) else None


@hookimpl
def gamehall_command_group(command: Command, view: Any, seat: int | None) -> str | None:
    """Head the takes in menus."""
    return "Take stones" if isinstance(command, Take) else None
