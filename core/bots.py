"""Bots: programs that choose a seat's command from what that seat may know."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any, Protocol

from .events import Command


class Bot(Protocol):
    """Choose one of the legal commands; ``view`` returns the seat's view when called."""

    def choose(self, seat: int, legal: Sequence[Command], view: Callable[[], Any]) -> Command:
        """Return the command to send for ``seat``."""
        ...


class RandomBot:
    """Pick a legal command uniformly at random from a seeded generator."""

    __slots__ = ("_choice",)

    def __init__(self, seed: int | str | None = 0) -> None:
        self._choice = random.Random(seed).choice

    def choose(self, seat: int, legal: Sequence[Command], view: Callable[[], Any]) -> Command:
        """Return a uniformly random legal command."""
        return self._choice(legal)
