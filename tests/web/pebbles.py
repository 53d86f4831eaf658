"""A third-party game the web page knows nothing of: no drawing, no text board, no words.

``pebbles``: two seats take one or two pebbles in turn from a pile of seven, each also keeping
a secret tally of what it took; whoever takes the last pebble wins. Its seat names are markup
on purpose (a script tag and an image with a handler): pages must show them as text.
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
    Outcome,
    Rules,
    hookimpl,
    namespaced,
)  # fmt: skip
from gamehall.core.rules import MatchConfig

tag = namespaced("pebbles")
NAMES = ["<script>window.pwned = 1</script>", '<img src=x onerror="window.pwned = 2">']
PILE = 7


class Took(Event, frozen=True, tag=tag):
    seat: int
    count: int


class Take(Command, frozen=True, tag=tag):
    count: int


class State(msgspec.Struct, frozen=True):
    pile: int = PILE
    turn: int = 0
    taken: tuple[int, int] = (0, 0)
    winner: int | None = None


class PebbleView(msgspec.Struct, frozen=True):
    pile: int
    turn: int
    my_tally: int | None
    winner: int | None


class Pebbles(Rules[State]):
    """Take one or two; the last pebble wins."""

    def initial(self, config: MatchConfig) -> State:
        return State()

    def decide(self, state: State, command: Command, ctx: Context) -> Sequence[Event]:
        if not isinstance(command, Take) or command.count not in (1, 2):
            raise IllegalCommand("take one or two pebbles", "PB-1")
        if command.count > state.pile:
            raise IllegalCommand(f"only {state.pile} pebble left", "PB-2")
        return (Took(seat=state.turn, count=command.count),)

    def evolve(self, state: State, event: Event) -> State:
        if not isinstance(event, Took):
            return state
        taken = list(state.taken)
        taken[event.seat] += event.count
        pile = state.pile - event.count
        winner = event.seat if pile == 0 else None
        return State(pile, 1 - state.turn, (taken[0], taken[1]), winner)

    def awaiting(self, state: State) -> Mapping[int, Decision]:
        return {} if state.winner is not None else {state.turn: Decision("take", "take pebbles")}

    def legal(self, state: State, seat: int) -> Sequence[Command]:
        if state.winner is not None or seat != state.turn:
            return ()
        return [Take(count=n) for n in (1, 2) if n <= state.pile]

    def outcome(self, state: State) -> Outcome | None:
        if state.winner is None:
            return None
        return Outcome((state.winner,), "took the last pebble")

    def view(self, state: State, seat: int | None) -> Any:
        tally = state.taken[seat] if seat is not None else None
        return PebbleView(state.pile, state.turn, tally, state.winner)


class Plugin:
    """Registers ``pebbles``."""

    @hookimpl
    def gamehall_games(self) -> list[GameSpec]:
        return [
            GameSpec(
                id="pebbles", name="Pebbles <b>&amp;</b>", version="1.0.0", rules=Pebbles,
                state=State, min_players=2, max_players=2, hookimpls=(Names(),),
                description='Take the last pebble. <script>window.pwned = 3</script>',
            )  # type: ignore[arg-type]
        ]  # fmt: skip

    @hookimpl
    def gamehall_event_types(self) -> list[type]:
        return [Took]

    @hookimpl
    def gamehall_command_types(self) -> list[type]:
        return [Take]


class Names:
    """Seat names that are markup."""

    @hookimpl
    def gamehall_seat_names(self, view: Any) -> list[str]:
        return list(NAMES)
