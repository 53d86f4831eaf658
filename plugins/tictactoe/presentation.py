"""What people see of tic-tac-toe: the board as text and as a drawing, moves and events in words."""

from __future__ import annotations

from typing import Any

from gamehall.core import Command, Event, Presentation
from gamehall.core.drawing import Drawing

from .commands import PlaceMark
from .draw import draw
from .events import BoardFilled, LineCompleted, MarkPlaced
from .render import cell_name, render
from .state import MARKS, State


class TicTacToePresentation(Presentation):
    """Seats are X and O; a move is named by its cell."""

    def render_text(self, view: State, seat: int | None) -> str:
        """Draw the board for a terminal."""
        return render(view)

    def draw_board(self, view: State, seat: int | None, legal: list[Command]) -> Drawing:
        """Draw the board for the web page, each free cell a place to click."""
        return draw(view, seat, legal)

    def describe_command(self, command: Command, view: Any, seat: int | None) -> str | None:
        """Name a move by its cell."""
        if isinstance(command, PlaceMark):
            return cell_name(command.cell)
        return super().describe_command(command, view, seat)

    def describe_event(self, event: Event, view: State, seat: int | None) -> str | None:
        """Tell a move and the end in words."""
        if isinstance(event, MarkPlaced):
            return f"{MARKS[event.seat + 1]} marks {cell_name(event.cell)}."
        if isinstance(event, LineCompleted):
            cells = "-".join(str(c) for c in event.line)
            mark = MARKS[view.board[event.line[0]]]
            winner = MARKS[event.winner + 1]
            ends = "and wins" if mark == winner else f"and loses: {winner} wins"
            return f"{mark} completes the line {cells} {ends}."
        if isinstance(event, BoardFilled):
            return "The board is full without a line: a draw."
        return super().describe_event(event, view, seat)

    def seat_names(self, view: Any) -> list[str]:
        """Call the seats X and O."""
        return ["X", "O"]
