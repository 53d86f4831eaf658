"""What people see of River of Gold: the board as text and as a drawing, commands and events
in words, the clans' names and the menu headings."""

from __future__ import annotations

from typing import Any

from gamehall.core import Command, Event, Presentation
from gamehall.core.drawing import Drawing

from . import draw, narration, words
from .render import render
from .state import State


class RiverOfGoldPresentation(Presentation):
    """The river, the shore, the row and each clan, and the rulebook's words for each move."""

    def render_text(self, view: State, seat: int | None) -> str:
        """Draw the board, the row, the river and every clan, with what each component does."""
        return render(view, seat)

    def draw_board(self, view: State, seat: int | None, legal: list[Command]) -> Drawing:
        """Draw the river, the shore, the row and each clan's holdings, commands as places."""
        return draw.draw(view, seat, legal)

    def describe_command(self, command: Command, view: State, seat: int | None) -> str | None:
        """Describe a command with the components it touches."""
        return words.describe_command(command, view, seat)

    def describe_event(self, event: Event, view: State, seat: int | None) -> str | None:
        """Tell an event in a sentence for the seat that reads it."""
        return narration.describe_event(event, view, seat)

    def seat_names(self, view: Any) -> list[str] | None:
        """Call the seats by their clans."""
        return words.seat_names(view)

    def command_group(self, command: Command, view: State, seat: int | None) -> str | None:
        """Head long menus by action."""
        return words.command_group(command, view, seat)
