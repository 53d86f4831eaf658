"""Tic-tac-toe: the smallest complete gamehall game, and the template for new ones."""

from __future__ import annotations

from typing import Any

from gamehall.core import Command, Event, GameSpec, Invariant, hookimpl
from gamehall.core.drawing import Drawing

from .commands import COMMANDS, PlaceMark
from .draw import draw
from .events import EVENTS, BoardFilled, LineCompleted, MarkPlaced
from .hooks import Defaults, TicTacToeSpecs
from .render import cell_name, render
from .rules import TicTacToe
from .state import EMPTY, MARKS, State

GAME = GameSpec(
    id="tictactoe",
    name="Tic-tac-toe",
    version="1.0.0",
    rules=TicTacToe,
    state=State,
    min_players=2,
    max_players=2,
    hookspecs=(TicTacToeSpecs,),
    hookimpls=(Defaults(),),
    description="Three in a row on a 3x3 board.",
    rules_doc="docs/rules/tictactoe.md",
)


@hookimpl
def gamehall_games() -> list[GameSpec]:
    """Register tic-tac-toe."""
    return [GAME]


@hookimpl
def gamehall_event_types() -> list[type]:
    """Declare tic-tac-toe's events."""
    return list(EVENTS)


@hookimpl
def gamehall_command_types() -> list[type]:
    """Declare tic-tac-toe's commands."""
    return list(COMMANDS)


def marks_alternate(state: State) -> str | None:
    """Check that X has placed as many marks as O, or one more."""
    xs, os = state.board.count(1), state.board.count(2)
    return None if xs - os in (0, 1) else f"X has {xs} marks and O has {os}"


def over_means_line_or_full(state: State) -> str | None:
    """Check that a finished match has a line or a full board."""
    if state.over and state.line is None and EMPTY in state.board:
        return "the match is over without a line or a full board"
    return None


@hookimpl
def gamehall_invariants() -> list[Invariant]:
    """Declare what must hold after every event."""
    return [
        Invariant("marks-alternate", marks_alternate, "X and O take turns"),
        Invariant("over-means-line-or-full", over_means_line_or_full),
    ]


@hookimpl
def gamehall_render_text(view: Any, seat: int | None) -> str | None:
    """Draw the board."""
    return render(view) if isinstance(view, State) else None


@hookimpl
def gamehall_draw_board(view: Any, seat: int | None, legal: list[Command]) -> Drawing | None:
    """Draw the board for the web page, each free cell a place to click."""
    return draw(view, seat, legal) if isinstance(view, State) else None


@hookimpl
def gamehall_describe_command(command: Command, view: Any, seat: int | None) -> str | None:
    """Name a move by its cell."""
    return cell_name(command.cell) if isinstance(command, PlaceMark) else None


@hookimpl
def gamehall_describe_event(event: Event, view: Any, seat: int | None) -> str | None:
    """Tell a move and the end in words."""
    if isinstance(event, MarkPlaced):
        return f"{MARKS[event.seat + 1]} marks {cell_name(event.cell)}."
    if isinstance(event, LineCompleted):
        cells = "-".join(str(c) for c in event.line)
        mark = MARKS[view.board[event.line[0]]] if isinstance(view, State) else "A mark"
        winner = MARKS[event.winner + 1]
        ends = "and wins" if mark == winner else f"and loses: {winner} wins"
        return f"{mark} completes the line {cells} {ends}."
    if isinstance(event, BoardFilled):
        return "The board is full without a line: a draw."
    return None


@hookimpl
def gamehall_seat_names(view: Any) -> list[str] | None:
    """Call the seats X and O."""
    return ["X", "O"] if isinstance(view, State) else None
