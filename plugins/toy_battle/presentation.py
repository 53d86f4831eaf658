"""What people see of Toy Battle: the terrain as text and as a drawing, moves and events in words.

The words themselves are in ``words.py``, the boards in ``render.py`` and ``draw.py``.
"""

from __future__ import annotations

from functools import cached_property
from typing import Any

from gamehall.core import Command, Presentation
from gamehall.core.drawing import Drawing

from . import draw, words
from .render import render
from .view import View


class ToyBattlePresentation(Presentation):
    """Seats are named by their colours; troops and spots by the box's names."""

    @cached_property
    def prompts(self) -> dict[str, str]:
        """Return each effect's prompt by name, the ruleset's effects (expansions' too)."""
        return {name: effect.prompt for name, effect in self.rules.effects.items()}

    def render_text(self, view: View, seat: int | None) -> str:
        """Draw the terrain with its legend, stacks, racks and medals as ``seat`` may see them."""
        return render(view, words.army_of(view), words.board_of(view), self.prompts)

    def draw_board(self, view: View, seat: int | None, legal: list[Command]) -> Drawing | None:
        """Draw the terrain, stacks, racks and supplies, with every legal command as a place."""
        return draw.draw(view, seat, legal)

    def seat_names(self, view: Any) -> list[str]:
        """Call the seats by their colours."""
        return words.seat_names(view)

    # The words of commands, events and menu headings are words.py's, by the same names.
    describe_command = staticmethod(words.describe_command)
    describe_event = staticmethod(words.describe_event)
    command_group = staticmethod(words.command_group)
