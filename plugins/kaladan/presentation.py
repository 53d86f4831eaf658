"""What people see of Kaladan: the world as text and as a drawing, moves and events in words.

The words themselves are in ``words.py``, the boards in ``render.py`` and ``draw.py``.
"""

from __future__ import annotations

from gamehall.core import Command, Event, Presentation
from gamehall.core.drawing import Drawing

from . import draw, words
from .render import render
from .view import View


class KaladanPresentation(Presentation):
    """Seats are named by their realms; units, tiles and cards by the compendium's names."""

    def render_text(self, view: View, seat: int | None) -> str:
        """Draw the world, the realms and the battle as ``seat`` may see them."""
        return render(view)

    def draw_board(self, view: View, seat: int | None, legal: list[Command]) -> Drawing | None:
        """Draw the world, the realms and the battle, commands on the tiles they aim at."""
        return draw.draw(view, seat, legal)

    def describe_command(self, command: Command, view: View, seat: int | None) -> str | None:
        """Describe a command in the rulebook's words."""
        return words.describe_command(command, view, seat)

    def describe_event(self, event: Event, view: View, seat: int | None) -> str | None:
        """Tell an event in words."""
        return words.describe_event(event, view, seat)

    def seat_names(self, view: View) -> list[str]:
        """Name the seats by their realms."""
        return [words.seat_name(view, s) for s in range(view.state.players)]

    def command_group(self, command: Command, view: View, seat: int | None) -> str | None:
        """Group long menus by tile and kind of action."""
        return words.command_group(command, view, seat)
