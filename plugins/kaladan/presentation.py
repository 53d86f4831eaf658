"""What people see of Kaladan: the world as text and as a drawing, moves and events in words.

The words themselves are in ``words.py``, the boards in ``render.py`` and ``draw.py``.
"""

from __future__ import annotations

from gamehall.core import Command, Presentation
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

    def seat_names(self, view: View) -> list[str]:
        """Name the seats by their realms."""
        return [words.seat_name(view, s) for s in range(view.state.players)]

    # The words of commands, events and menu headings are words.py's, by the same names.
    describe_command = staticmethod(words.describe_command)
    describe_event = staticmethod(words.describe_event)
    command_group = staticmethod(words.command_group)
