"""Words for people."""

from __future__ import annotations

from typing import Any

from gamehall.core import hookimpl

from .state import PROVINCES
from .view import View


class Words:
    """The game's words."""

    @hookimpl
    def gamehall_seat_names(self, view: Any) -> list[str] | None:
        """Name the seats by their provinces."""
        return list(PROVINCES[: len(view.players)]) if isinstance(view, View) else None
