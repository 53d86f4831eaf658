"""What people see of a game: words, the text board, the drawing, seat names and menu headings.

A game gives one :class:`Presentation` subclass on its spec (``GameSpec.presentation``) instead
of implementing the ``gamehall_render_text``, ``gamehall_draw_board``, ``gamehall_describe_*``,
``gamehall_seat_names`` and ``gamehall_command_group`` hooks one by one. The ruleset builds it
once, with the ruleset's rules (so it reads the catalogue of the game and its expansions), and
each expansion that gives a presentation (``ExpansionSpec.presentation``) wraps it: the
expansion's presentation gets the one below it as ``base`` and answers for its own parts,
handing everything else down.

The core registers the finished presentation as the ruleset's default implementation of those
hooks (``trylast=True``), so a plugin that implements a hook itself still answers first, as it
always did. Every method gets the asking seat's *view* (never the raw state) and returns
``None`` for what it does not know; the base class hands everything to ``base``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import pluggy

if TYPE_CHECKING:
    from .drawing import Drawing
    from .events import Command, Event


# The core's hook marker, made here rather than imported, so the rules module can name this one.
hookimpl = pluggy.HookimplMarker("gamehall")


class Presentation:
    """A game's words and pictures; each method answers ``None`` where it has nothing to say.

    :param rules: the ruleset's rules object (the game's, with its expansions' hooks).
    :param base: the presentation this one wraps: the game's for an expansion, nothing for a
        game (an empty presentation that answers ``None`` to everything).
    """

    def __init__(self, rules: Any = None, base: Presentation | None = None) -> None:
        self.rules = rules
        self.base = base

    def render_text(self, view: Any, seat: int | None) -> str | None:
        """Return the board as text for a terminal (see ``gamehall_render_text``)."""
        return None if self.base is None else self.base.render_text(view, seat)

    def draw_board(self, view: Any, seat: int | None, legal: list[Command]) -> Drawing | None:
        """Return the board as a picture, legal commands as places (see ``gamehall_draw_board``)."""
        return None if self.base is None else self.base.draw_board(view, seat, legal)

    def describe_command(self, command: Command, view: Any, seat: int | None) -> str | None:
        """Return a command in the rulebook's words (see ``gamehall_describe_command``)."""
        return None if self.base is None else self.base.describe_command(command, view, seat)

    def describe_event(self, event: Event, view: Any, seat: int | None) -> str | None:
        """Tell an event in a sentence for ``seat`` (see ``gamehall_describe_event``)."""
        return None if self.base is None else self.base.describe_event(event, view, seat)

    def seat_names(self, view: Any) -> list[str] | None:
        """Return the seats' names, in seat order (see ``gamehall_seat_names``)."""
        return None if self.base is None else self.base.seat_names(view)

    def command_group(self, command: Command, view: Any, seat: int | None) -> str | None:
        """Return the menu heading of a command (see ``gamehall_command_group``)."""
        return None if self.base is None else self.base.command_group(command, view, seat)


class PresentationHooks:
    """A ruleset's presentation as the default implementation of the words and board hooks."""

    def __init__(self, presentation: Presentation, owner: str) -> None:
        self.presentation = presentation
        self.owner = owner  # the game's id, which names this plugin where a drawing fails

    def __repr__(self) -> str:
        return f"the presentation of {self.owner}"

    @hookimpl(trylast=True)
    def gamehall_render_text(self, view: Any, seat: int | None) -> str | None:
        """Ask the presentation for the text board."""
        return self.presentation.render_text(view, seat)

    @hookimpl(trylast=True)
    def gamehall_draw_board(
        self, view: Any, seat: int | None, legal: list[Command]
    ) -> Drawing | None:
        """Ask the presentation for the drawing."""
        return self.presentation.draw_board(view, seat, legal)

    @hookimpl(trylast=True)
    def gamehall_describe_command(
        self, command: Command, view: Any, seat: int | None
    ) -> str | None:
        """Ask the presentation for a command's words."""
        return self.presentation.describe_command(command, view, seat)

    @hookimpl(trylast=True)
    def gamehall_describe_event(self, event: Event, view: Any, seat: int | None) -> str | None:
        """Ask the presentation for an event's sentence."""
        return self.presentation.describe_event(event, view, seat)

    @hookimpl(trylast=True)
    def gamehall_seat_names(self, view: Any) -> list[str] | None:
        """Ask the presentation for the seats' names."""
        return self.presentation.seat_names(view)

    @hookimpl(trylast=True)
    def gamehall_command_group(self, command: Command, view: Any, seat: int | None) -> str | None:
        """Ask the presentation for a command's menu heading."""
        return self.presentation.command_group(command, view, seat)


__all__ = ["Presentation", "PresentationHooks"]
