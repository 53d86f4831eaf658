"""What the kernel is given by the features on top of it, and what it tells them.

The kernel runs matches; the features (the lobby's seating, turn clocks, bots, take-backs,
nodes) are not imported here. Each declares itself to the kernel in one of three shapes:

* a :class:`Projection` computes a match's listing entry (who sits where) and commits it in
  the same transaction as the events that change it (the lobby's seating);
* a :class:`Timing` stamps each accepted command with the turn clocks as they stand;
* a :data:`Subscriber` hears of every committed batch once it is durable (bots wake, a bot
  seat starts being played), and reacts after the commit.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping, Sequence
from typing import Any, Protocol

import msgspec

from ..events import Clock, LobbyCommand, LobbyEvent, Recorded


class Metrics:
    """Counters of one node, for its metrics endpoint."""

    def __init__(self) -> None:
        self.commands = 0  # commands acknowledged (their events stored)
        self.appends = 0  # batches appended by this node's actors
        self.conflicts = 0  # appends refused because another node stored that seq first
        self.retries = 0  # commands decided again after such a conflict
        self.caught_up = 0  # events of other nodes applied to this node's actors


class Projection(Protocol):
    """A listing entry the kernel keeps per match and commits with the match's events."""

    def decide(
        self,
        match: str,
        players: int,
        info: Mapping[str, Any],
        command: LobbyCommand,
        version: int = 0,
    ) -> tuple[list[LobbyEvent], dict[str, Any]]:
        """Return a lobby command's events and the changes to the entry they make, decided at
        the match's ``version``."""
        ...

    def apply(self, info: Mapping[str, Any], players: int, event: LobbyEvent) -> dict[str, Any]:
        """Return the entry after a stored lobby event (catching up on another node)."""
        ...

    def ending(self, info: Mapping[str, Any]) -> str | None:
        """Return how a match ended outside its game (abandoned, expired), or ``None``."""
        ...

    def check_live(self, match: str, info: Mapping[str, Any], what: str) -> None:
        """Refuse a command to a match that is over, saying how it ended and ``what``."""
        ...


class Timing(Protocol):
    """The turn clocks, as the kernel stamps them on each accepted command."""

    def advance(self, clock: Clock, at: float, seat: int | None, running: Collection[int]) -> Clock:
        """Return the clocks after ``seat`` sent a command at ``at``."""
        ...

    def last_clock(self, records: Sequence[Recorded]) -> Clock | None:
        """Return the clock recorded last among some records."""
        ...


class Committed(msgspec.Struct, frozen=True, gc=False):
    """A batch of a match's records that is durable now, as subscribers hear of it.

    ``info`` is the match's listing entry after the batch; ``changed`` names the keys of the
    entry the batch changed (``bots`` when a seat was given to a bot).
    """

    match: str
    records: Sequence[Recorded]
    info: Mapping[str, Any]
    changed: frozenset[str] = frozenset()


Subscriber = Callable[[Committed], None]
