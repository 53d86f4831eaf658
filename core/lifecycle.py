"""How a match that never started ends: expiry of matches left waiting for players.

A match waits for players while it is not over and has a seat nobody holds. When nothing has
happened in it (no event) for the hall's ``expire_after`` seconds, a sweep asks its actor to
expire it: an ``ExpireMatch`` lobby command carrying the version the sweep saw, so a seat
taken meanwhile wins and the match stays. The actor appends ``gamehall.MatchExpired``; the
match is then over, without an outcome, and refuses seats and commands with words.

On a shared store (several nodes) every node sweeps, but a match is expired only by the node
that holds its lease (``store.try_lease``), as its bots and clocks are. The sweep reads the
time from the hall's clock, so a test moves time instead of sleeping.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol

import anyio
import structlog

from .errors import GamehallError
from .events import ExpireMatch, LobbyCommand
from .store.base import MatchQuery, Store


class LifecycleHost(Protocol):
    """What the expiry sweep asks of the hall it serves (the Hall provides it)."""

    store: Store
    now: Callable[[], float]
    lobby: Any

    @property
    def closed(self) -> bool:
        """Whether the hall has stopped taking work."""
        ...

    async def lobby_command(
        self, match: str, command: LobbyCommand, credential: bytes | None = None
    ) -> Any:
        """Have a match's actor decide a lobby command; return its events once durable."""
        ...


log = structlog.get_logger("gamehall.lifecycle")

HOUR = 3600.0
EXPIRE_AFTER = 24 * HOUR
"""How long a match may wait for players without any event before it expires (default)."""
RETAIN_FOR = 7 * 24 * HOUR
"""How long a match that is over stays in the lobby's listings after its last event (default)."""
SWEEP_EVERY = 60.0
"""Real seconds between two looks for matches to expire (at most)."""


def check_period(name: str, seconds: float | None) -> float | None:
    """Return a configured period, or refuse one that is not a positive number of seconds."""
    if seconds is None:
        return None
    if isinstance(seconds, bool) or not isinstance(seconds, (int, float)) or not seconds > 0:
        raise ValueError(
            f"{name} is a positive number of seconds (or None: never), not {seconds!r}"
        )
    if seconds == float("inf"):
        return None
    return float(seconds)


UNITS = {"s": 1.0, "m": 60.0, "h": HOUR, "d": 24 * HOUR}


def parse_period(text: str) -> float | None:
    """Return the seconds of a period written as people do (``90m``, ``24h``, ``7d``, ``30s``)
    or ``None`` for ``never``; refuse anything else, saying what is understood."""
    clean = text.strip().lower()
    if clean == "never":
        return None
    number, unit = clean[:-1], clean[-1:]
    try:
        value = float(number) * UNITS[unit]
    except (KeyError, ValueError):
        value = float("nan")
    if not value > 0 or value == float("inf"):
        raise ValueError(
            f"{text!r} is not a period: write a positive number and a unit (30s, 90m, 24h, "
            "7d) or 'never'"
        )
    return value


class Lifecycle:
    """A hall's expiry sweep: finds matches idle while waiting for players and expires them."""

    def __init__(self, hall: LifecycleHost, expire_after: float | None, sweep_every: float) -> None:
        self.hall = hall
        self.expire_after = check_period("expire_after", expire_after)
        self.sweep_every = check_period("sweep_every", sweep_every) or SWEEP_EVERY
        self.expired = 0
        self._scope: anyio.CancelScope | None = None

    async def run(self) -> None:
        """Sweep every ``sweep_every`` real seconds until :meth:`stop`."""
        if self.expire_after is None:
            return
        self._scope = anyio.CancelScope()
        with self._scope:
            while not self.hall.closed:
                await anyio.sleep(min(self.sweep_every, self.expire_after))
                try:
                    await self.sweep()
                except GamehallError as exc:  # the store fails now: the next sweep tries again
                    log.warning("expiry sweep failed", error=str(exc))
                except Exception:  # noqa: BLE001 - a bug must not end the hall's task group: next sweep
                    log.exception("expiry sweep failed")

    def stop(self) -> None:
        """Stop sweeping (the hall is closing)."""
        if self._scope is not None:
            self._scope.cancel()

    async def sweep(self, now: float | None = None, after: float | None = None) -> int:
        """Expire every match that waited for players longer than ``after`` seconds (the
        hall's ``expire_after`` by default) without an event, as of ``now`` (the hall's clock
        by default); return how many."""
        after = self.expire_after if after is None else after
        if after is None:
            return 0
        hall = self.hall
        now = hall.now() if now is None else now
        cutoff = now - after
        shared = hall.store.shared
        expired, cursor = 0, None
        while not hall.closed:
            query = MatchQuery(open_seats=True, idle_before=cutoff, cursor=cursor, limit=200)
            page = await hall.lobby._io(hall.store.find_matches, query)
            for entry in page.matches:
                if shared and not await hall.lobby._io(hall.store.try_lease, entry.stream):
                    continue  # another node holds the match: it expires it
                command = ExpireMatch(idle=after, version=entry.version)
                try:
                    await hall.lobby_command(entry.stream, command)
                except GamehallError as exc:  # it moved, or was deleted, meanwhile
                    log.info("match not expired", match=entry.stream, error=str(exc))
                    continue
                expired += 1
                log.info("match expired", match=entry.stream, idle=after)
            cursor = page.next
            if cursor is None:
                break
        self.expired += expired
        return expired
