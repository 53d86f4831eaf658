"""The reads a hall makes, off the event loop: for adapters and embedding code with a loop.

Every function here reads the store in a worker thread when the store's reads block (SQLite's
file, PostgreSQL's round trips: ``store.threaded``), so a slow read stalls no other match or
stream of the node; a match that is not active is activated first, once for any number of
callers (:meth:`Hall.activate`: read in a thread, folded in chunks on the loop). What the
match's actor holds is read on the loop, where the actor runs. The synchronous methods of
:class:`~gamehall.core.hall.Hall` stay for code without a loop (scripts, tests, the stdio
adapter's blocking paths).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TypeVar

import anyio

from . import limits
from .errors import CorruptRecord, MatchQuarantined
from .events import Recorded
from .lobby import LobbyEntry, names_of_seats, player_names, seated
from .narration import Narrator
from .words import Narrated

if TYPE_CHECKING:
    from .hall import Hall
    from .views import MatchInfo, SeatView

T = TypeVar("T")


async def io(hall: Hall, fn: Callable[..., T], *args: Any) -> T:
    """Run a blocking store call in a worker thread (directly for a store in memory)."""
    if hall.store.threaded:
        return await anyio.to_thread.run_sync(fn, *args)
    return fn(*args)


def _check_quarantine(hall: Hall, match: str) -> None:
    reason = hall.quarantined.get(match)
    if reason is not None:
        raise MatchQuarantined(match, reason)


async def read(
    hall: Hall, match: str, after: int = 0, upto: int | None = None, limit: int | None = None
) -> list[Recorded]:
    """:meth:`Hall.read`: a match's stored records, whole (a damaged one quarantines it)."""
    known = limits.known_match_id(match)
    _check_quarantine(hall, match)
    try:
        return await io(hall, hall.store.read, known, after, upto, limit)
    except CorruptRecord as exc:
        raise hall.quarantine(match, exc) from None


async def info(hall: Hall, match: str) -> MatchInfo:
    """:meth:`Hall.info`: a match's game, players and version."""
    return await hall.incoming.info_off_loop(match)


async def names(hall: Hall, match: str) -> list[str | None]:
    """:meth:`Lobby.names`: each seat's name, the player records read in a worker thread."""
    await hall.activate(match)
    entry = hall.kernel.actor(match).info  # who sits where: the actor's, on the loop
    found = await io(hall, player_names, hall.store, seated(entry))
    return names_of_seats(entry, found)


async def view(hall: Hall, match: str, seat: int | None) -> SeatView:
    """:meth:`Hall.view`: a seat's view, with the match activated and the names read off the
    loop."""
    shown = await names(hall, match)
    return hall.view(match, seat, shown)


async def history(
    hall: Hall, match: str, seat: int | None, after: int = 0, limit: int | None = None
) -> list[Recorded]:
    """:meth:`Hall.history`: a match's events after ``after`` as ``seat`` may see them."""
    limits.check_seq("after", after)
    limits.check_limit("limit", limit)
    ruleset = (await hall.activate(match)).ruleset
    return hall.redact_records(ruleset, await read(hall, match, after, limit=limit), seat)


async def narrated_history(
    hall: Hall, match: str, seat: int | None, after: int = 0, limit: int | None = None
) -> list[Narrated]:
    """:meth:`Hall.narrated_history`: a seat's events after ``after`` told in words."""
    limits.check_seq("after", after)
    limits.check_limit("limit", limit)
    ruleset = (await hall.activate(match)).ruleset
    upto = None if limit is None else min(after + limit, limits.INT64_MAX)
    return Narrator(ruleset, seat).tell_all(await read(hall, match, 0, upto), after)


async def entry(hall: Hall, match: str) -> LobbyEntry:
    """:meth:`Lobby.entry`: one match as the lobby lists it."""
    return await io(hall, hall.lobby.entry, match)


async def version(hall: Hall, match: str) -> int:
    """The seq of a match's last stored event (0 for none)."""
    return await io(hall, hall.store.version, limits.known_match_id(match))


async def render(hall: Hall, match: str, seat: int | None) -> str:
    """:meth:`Hall.render`: a seat's board as text, the names read off the loop."""
    shown = await names(hall, match)
    return hall.render(match, seat, shown)


async def seats_of(hall: Hall, match: str, player: str) -> list[int]:
    """:meth:`Lobby.seats_of`: the seats a player holds in a match."""
    return await io(hall, hall.lobby.seats_of, limits.known_match_id(match), player)


async def seat_of_token(hall: Hall, match: str, token: str) -> int | None:
    """:meth:`Lobby.seat_of_token`: the seat a seat token acts for in a match, or ``None``."""
    return await io(hall, hall.lobby.seat_of_token, limits.known_match_id(match), token)
