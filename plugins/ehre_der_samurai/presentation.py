"""What people see of Ehre der Samurai: the houses as text and as a drawing, commands and events
in the rulebook's words, the provinces' names and the menu headings."""

from __future__ import annotations

from typing import Any

from gamehall.core import Command, Event, Presentation
from gamehall.core.drawing import Drawing

from . import draw
from . import events as ev
from .naming import province
from .narration import describe_event
from .render import render
from .view import View
from .words import command_group, describe_command


class EhrePresentation(Presentation):
    """Every house, honour, alliance and hand size, and the seat's own hand."""

    def render_text(self, view: View, seat: int | None) -> str:
        """Draw every house, honour, alliance and hand size; the seat's own hand."""
        return render(view)

    def draw_board(self, view: View, seat: int | None, legal: list[Command]) -> Drawing:
        """Draw the provinces' houses, the Shogun and the seat's hand, commands as places."""
        return draw.draw(view, seat, legal)

    def describe_command(self, command: Command, view: View, seat: int | None) -> str | None:
        """Describe a command in the rulebook's words."""
        return describe_command(command, view, seat)

    def describe_event(self, event: Event, view: View, seat: int | None) -> str | None:
        """Tell an event in a sentence, as ``seat`` may know it."""
        if not isinstance(event, ev.EhreEvent):
            return super().describe_event(event, view, seat)
        return describe_event(event, view, seat)

    def seat_names(self, view: Any) -> list[str]:
        """Name the seats by their provinces."""
        return [province(p.seat) for p in view.players]

    def command_group(self, command: Command, view: View, seat: int | None) -> str | None:
        """Group a long menu by card and by kind of action."""
        return command_group(command, view)
