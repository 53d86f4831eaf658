"""What the Hall answers about a match: a seat's view, whose turn it is, a listing entry."""

from __future__ import annotations

from typing import Any

import msgspec

from .clock import ClockView
from .events import Command
from .rules import Decision, Outcome


class SeatView(msgspec.Struct, frozen=True):
    """What one seat may know of a match now, with what it is asked and may send."""

    match: str
    seq: int
    seat: int | None
    view: Any
    awaiting: dict[int, Decision]
    legal: list[Command]
    outcome: Outcome | None
    names: list[str | None] = []
    clock: ClockView | None = None


class Turn(msgspec.Struct, frozen=True):
    """Whose move it is, as one seat may know it: sent on live streams when it changes.

    ``awaiting`` lists the seats the match waits for (public); ``decision`` is what this seat
    is asked, if it is awaited; ``free`` tells whether it may send free actions now.
    """

    match: str
    seq: int
    seat: int | None
    awaiting: list[int]
    decision: Decision | None = None
    free: bool = False


class MatchInfo(msgspec.Struct, frozen=True):
    """A match as listings show it."""

    match: str
    game: str
    expansions: list[str]
    players: int
    version: int
    created: float
    updated: float
    forked_from: str | None = None
    fork_seq: int | None = None
    bots: dict[int, str] = {}
