"""What people see of the Clan Patrons: River of Gold's presentation, wrapped.

The patrons' commands and events are told here, their cards are drawn under the board and
their lines added to the text board; everything else is River of Gold's own presentation.
"""

from __future__ import annotations

from gamehall.core import Command, Event, Presentation, drawing
from gamehall.plugins.river_of_gold.api import State

from . import words
from .draw import add_cards


class PatronPresentation(Presentation):
    """River of Gold's presentation (``base``) with the patrons added."""

    def render_text(self, view: State, seat: int | None) -> str | None:
        """Add the patrons to River of Gold's board, above its last line."""
        text = super().render_text(view, seat)
        if text is None:
            return None
        lines = text.splitlines()
        return "\n".join([*lines[:-1], *words.board_lines(view), *lines[-1:]])

    def draw_board(
        self, view: State, seat: int | None, legal: list[Command]
    ) -> drawing.Drawing | None:
        """Add a band of patron cards under River of Gold's board."""
        board = super().draw_board(view, seat, legal)
        return None if board is None else add_cards(board, view, seat, legal)

    def describe_command(self, command: Command, view: State, seat: int | None) -> str | None:
        """Describe the expansion's commands; River of Gold describes the rest."""
        said = words.describe_command(command, view, seat)
        return said if said is not None else super().describe_command(command, view, seat)

    def describe_event(self, event: Event, view: State, seat: int | None) -> str | None:
        """Tell the expansion's events; River of Gold tells the rest."""
        said = words.describe_event(event, view, seat)
        return said if said is not None else super().describe_event(event, view, seat)

    def command_group(self, command: Command, view: State, seat: int | None) -> str | None:
        """Head the expansion's commands in menus; River of Gold heads the rest."""
        group = words.command_group(command, view, seat)
        return group if group is not None else super().command_group(command, view, seat)
