"""Seat tokens: who may act for which seat of which match, kept across restarts.

A token is 32 random bytes from :mod:`secrets`, shown to its holder once. Only its SHA-256
digest is stored, in the adapter's own table ``http_seats`` of the same SQLite file as the
events, so a restarted server still knows every seat and a copy of the database hands out no
usable token. A fast hash is enough: tokens have 256 bits of entropy and cannot be guessed
from their digest. Lookups compare the digest with every seat's digest of the match with
:func:`hmac.compare_digest`, in constant time and without stopping at the first match.
"""

from __future__ import annotations

import contextlib
import hashlib
import hmac
import secrets
import sqlite3
import threading
import time
from collections import OrderedDict
from collections.abc import Sequence
from typing import Any

from gamehall.core.errors import StoreFailed
from gamehall.core.lobby import NoFreeSeat

SCHEMA = """
CREATE TABLE IF NOT EXISTS http_seats (
    match   TEXT    NOT NULL,
    seat    INTEGER NOT NULL,
    digest  BLOB,
    claimed REAL,
    PRIMARY KEY (match, seat)
) WITHOUT ROWID;
"""
CACHE_SIZE = 10_000


__all__ = ["NoFreeSeat", "SeatTokens", "digest", "new_token", "same_secret"]


def new_token() -> str:
    """Return a fresh seat or admin token."""
    return secrets.token_urlsafe(32)


def digest(token: str) -> bytes:
    """Return the stored form of a token."""
    return hashlib.sha256(token.encode()).digest()


def same_secret(given: str, expected: str) -> bool:
    """Compare two secrets in constant time."""
    return hmac.compare_digest(digest(given), digest(expected))


class SeatTokens:
    """The seat table of one database file (``None``: in memory, for a memory store)."""

    def __init__(self, path: str | None) -> None:
        self.path = path or ":memory:"
        self._db = sqlite3.connect(
            self.path, isolation_level=None, check_same_thread=False, timeout=30
        )
        if path:
            self._db.execute("PRAGMA journal_mode=WAL")
        self._db.executescript(SCHEMA)
        self._lock = threading.Lock()
        self._cache: OrderedDict[str, tuple[bytes | None, ...]] = OrderedDict()

    def close(self) -> None:
        """Close the connection."""
        with self._lock:
            self._db.close()

    def ping(self) -> None:
        """Read the seat table once: raise if the database does not answer (readiness)."""
        with self._lock:
            self._db.execute("SELECT 1 FROM http_seats LIMIT 1").fetchall()

    # -- writing (blocking: call from a worker thread) ---------------------------------------

    def seat_match(
        self,
        match: str,
        players: int,
        *,
        open_seats: bool = False,
        roles: Sequence[str] | None = None,
    ) -> list[tuple[int, str]]:
        """Create a match's seats; return (seat, token) for every seat given a token now.

        ``roles`` gives each seat's role: ``token`` (a token now), ``open`` (claimed later),
        ``bot`` (played by the engine) or ``player`` (held by a player, who acts with a player
        token): the last two hold the digest of a token nobody has, so no seat token acts for
        them and they are never free. Without roles, every seat is ``open`` or ``token``.
        """
        roles = list(roles) if roles is not None else ["open" if open_seats else "token"] * players
        now = time.time()
        tokens: list[tuple[int, str]] = []
        rows: list[tuple[str, int, bytes | None, float | None]] = []
        for seat, role in enumerate(roles):
            if role == "open":
                rows.append((match, seat, None, None))
                continue
            token = new_token()
            if role == "token":
                tokens.append((seat, token))
            rows.append((match, seat, digest(token), now))
        with self._lock:
            self._db.executemany("INSERT INTO http_seats VALUES (?, ?, ?, ?)", rows)
            self._cache.pop(match, None)
        return tokens

    def claim(self, match: str, seat: int | None) -> tuple[int, str]:
        """Give a free seat (``seat`` or the lowest free one) a token; return both."""
        token = new_token()
        with self._lock:
            digests = self._load(match)
            if not digests:
                raise NoFreeSeat(f"match {match!r} has no seats to claim over HTTP")
            free = [s for s, d in enumerate(digests) if d is None]
            if seat is None:
                if not free:
                    raise NoFreeSeat(f"every seat of match {match!r} is taken")
                seat = free[0]
            elif not 0 <= seat < len(digests):
                raise NoFreeSeat(f"seat {seat} does not exist: seats are 0 to {len(digests) - 1}")
            elif seat not in free:
                raise NoFreeSeat(f"seat {seat} of match {match!r} is taken")
            changed = self._db.execute(
                "UPDATE http_seats SET digest=?, claimed=? WHERE match=? AND seat=? AND digest IS NULL",
                (digest(token), time.time(), match, seat),
            ).rowcount
            self._cache.pop(match, None)
            if changed != 1:  # another process took it between the read and the write
                raise NoFreeSeat(f"seat {seat} of match {match!r} is taken")
        return seat, token

    def forget(self, match: str) -> None:
        """Remove a match's seats (the match was deleted): no token acts for it any more."""
        with self._lock:
            self._db.execute("DELETE FROM http_seats WHERE match=?", (match,))
            self._cache.pop(match, None)

    # -- reading -----------------------------------------------------------------------------

    def _load(self, match: str) -> tuple[bytes | None, ...]:
        cached = self._cache.get(match)
        if cached is not None:
            self._cache.move_to_end(match)
            return cached
        rows = self._db.execute(
            "SELECT seat, digest FROM http_seats WHERE match=? ORDER BY seat", (match,)
        ).fetchall()
        digests = tuple(d for _, d in rows)
        self._cache[match] = digests
        if len(self._cache) > CACHE_SIZE:
            self._cache.popitem(last=False)
        return digests

    def seats(self, match: str) -> tuple[bytes | None, ...]:
        """Return each seat's token digest (``None`` while free); empty if not seated here."""
        with self._lock:
            return self._load(match)

    def seat_of(self, match: str, token: str) -> int | None:
        """Return the seat a token belongs to in a match, or ``None``."""
        given = digest(token)
        found = None
        for seat, stored in enumerate(self.seats(match)):
            # Compare with every seat, in constant time, so timing tells nothing.
            if hmac.compare_digest(given, stored or b"") and found is None:
                found = seat
        return found


def _failed(exc: Exception) -> Exception:
    """Return a driver's connection error as the store's failure; other errors as they are."""
    if isinstance(exc, StoreFailed) or not type(exc).__module__.startswith("psycopg"):
        return exc
    return StoreFailed(f"the seat table's connection failed: {exc}")


class _PostgresSeatTable:
    """The few calls :class:`SeatTokens` makes of its table, on a PostgreSQL connection.

    A connection the backend dropped (a restart, a killed backend) fails its call with
    :class:`StoreFailed`; the next call opens a new one, so the node recovers by itself.
    """

    def __init__(self, store: Any) -> None:
        self._store = store
        self._conn = store.connect()

    def _live(self) -> Any:
        if self._conn.closed or getattr(self._conn, "broken", False):
            with contextlib.suppress(Exception):
                self._conn.close()
            self._conn = self._store.connect()
        return self._conn

    def execute(self, query: str, args: Sequence[Any] = ()) -> Any:
        try:
            return self._live().execute(query.replace("?", "%s"), args)
        except Exception as exc:
            raise _failed(exc) from None

    def executemany(self, query: str, rows: Sequence[Sequence[Any]]) -> None:
        try:
            with self._live().cursor() as cursor:
                cursor.executemany(query.replace("?", "%s"), rows)
        except Exception as exc:
            raise _failed(exc) from None

    def close(self) -> None:
        self._conn.close()


class SharedSeatTokens(SeatTokens):
    """The seat table in a PostgreSQL store (its table ``http_seats``), shared by every node.

    A seat claimed on another node is not in this node's cache yet: a token that matches no
    cached seat is looked up again before it is refused.
    """

    def __init__(self, store: Any) -> None:
        self.path = str(store)
        self._store = store
        self._db = _PostgresSeatTable(store)  # type: ignore[assignment]
        self._lock = threading.Lock()
        self._cache = OrderedDict()

    def seat_of(self, match: str, token: str) -> int | None:
        """Return the seat a token belongs to in a match, or ``None``."""
        found = super().seat_of(match, token)
        if found is None:
            with self._lock:
                self._cache.pop(match, None)
            found = super().seat_of(match, token)
        return found

    def close(self) -> None:
        """Close the connection (the store closes with the hall)."""
        with self._lock:
            self._db.close()
