"""What people see of Gunsen: the board as text and as a drawing, commands and events in
words, the clans' names and the menu headings."""

from __future__ import annotations

from typing import Any

from gamehall.core import Command, Event, Presentation
from gamehall.core.drawing import Drawing

from . import draw
from .render import render
from .state import State
from .words import command_group, describe_command, describe_event, seat_names


class GunsenPresentation(Presentation):
    """The map of Toshi Ranbo's provinces, the row and each clan's holdings."""

    def render_text(self, view: State, seat: int | None) -> str:
        """Draw the map, the row and every clan's holdings for a terminal."""
        return render(view)

    def draw_board(self, view: State, seat: int | None, legal: list[Command]) -> Drawing | None:
        """Draw the board, commands as places."""
        return draw.draw(view, seat, legal)

    def describe_command(self, command: Command, view: State, seat: int | None) -> str | None:
        """Describe a command in the rulebook's words."""
        return describe_command(command, view, seat)

    def describe_event(self, event: Event, view: State, seat: int | None) -> str | None:
        """Tell an event in a sentence for the seat that reads it."""
        return describe_event(event, view, seat)

    def seat_names(self, view: Any) -> list[str] | None:
        """Call the seats by their clans."""
        return seat_names(view)

    def command_group(self, command: Command, view: State, seat: int | None) -> str | None:
        """Head long menus by kind of action."""
        return command_group(command, view, seat)
