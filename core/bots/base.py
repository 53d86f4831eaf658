"""The Bot protocol and the seeded random bot.

A bot chooses a seat's command from what that seat may know: the legal commands and its
view, never the state. It keeps its own generator, seeded by whoever makes it; it never gets
the match seed or the engine's generator.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any, Protocol

from ..errors import InvalidOptions
from ..events import Command


class Bot(Protocol):
    """Choose one of the legal commands for a seat.

    ``legal`` is every command the seat may send now (never empty); ``view`` returns the
    seat's view when called (a bot that does not look need not pay for it). The command
    returned must be one of ``legal``.
    """

    def choose(self, seat: int, legal: Sequence[Command], view: Callable[[], Any]) -> Command:
        """Return the command to send for ``seat``."""
        ...


class BotError(InvalidOptions):
    """A bot that cannot be made: an unknown kind, a bad budget, a game it cannot play."""

    code = "invalid_bot"


class RandomBot:
    """Pick a legal command uniformly at random from a seeded generator.

    It draws as ``random.Random.choice`` does (the same numbers from the same seed), with the
    draw written out here: ``getrandbits`` is the generator's, for a runner that draws in its
    own loop (``Table.play`` does) and so makes the same choices without the calls.
    """

    __slots__ = ("getrandbits",)

    kind = "random"

    def __init__(self, seed: int | str | None = 0) -> None:
        self.getrandbits: Callable[[int], int] = random.Random(seed).getrandbits

    def choose(self, seat: int, legal: Sequence[Command], view: Callable[[], Any]) -> Command:
        """Return a uniformly random legal command."""
        return legal[uniform_index(self.getrandbits, len(legal))]


def uniform_index(getrandbits: Callable[[int], int], n: int) -> int:
    """Return an index below ``n`` drawn as ``random.Random.choice`` draws it.

    The fewest bits that hold ``n``, drawn again while they are ``n`` or more: exactly
    ``Random._randbelow_with_getrandbits``, so a seed gives the choices it always gave.
    Raises ``IndexError`` for nothing to choose from, as ``choice`` does.
    """
    if not n:
        raise IndexError("Cannot choose from an empty sequence")
    k = n.bit_length()
    r = getrandbits(k)
    while r >= n:
        r = getrandbits(k)
    return r
