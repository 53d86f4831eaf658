"""Seat tokens: who may act for which seat of which match, kept across restarts.

A token is 32 random bytes from :mod:`secrets`, shown to its holder once. Only its SHA-256
digest is stored, in the adapter's own table ``http_seats`` of the same SQLite file as the
events, so a restarted server still knows every seat and a copy of the database hands out no
usable token. A fast hash is enough: tokens have 256 bits of entropy and cannot be guessed
from their digest. Lookups compare the digest with every seat's digest of the match with
:func:`hmac.compare_digest`, in constant time and without stopping at the first match.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import sqlite3
import threading
import time
from collections import OrderedDict
from collections.abc import Sequence
from typing import Any

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

    def claim(self, match: str, seat: int) -> str:
        """Give a seat the lobby just gave the asker a token; return it.

        Who wins a seat is decided by the match (``Lobby.take_seat``), before this: the seat
        row is written whatever it held (a match started without HTTP seats has none).
        """
        token = new_token()
        with self._lock:
            self._db.execute(
                "INSERT INTO http_seats VALUES (?, ?, ?, ?) ON CONFLICT (match, seat) "
                "DO UPDATE SET digest = excluded.digest, claimed = excluded.claimed",
                (match, seat, digest(token), time.time()),
            )
            self._cache.pop(match, None)
        return token

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


class _PostgresSeatTable:
    """The few calls :class:`SeatTokens` makes of its table, on a PostgreSQL connection."""

    def __init__(self, conn: Any) -> None:
        self._conn = conn

    def execute(self, query: str, args: Sequence[Any] = ()) -> Any:
        return self._conn.execute(query.replace("?", "%s"), args)

    def executemany(self, query: str, rows: Sequence[Sequence[Any]]) -> None:
        with self._conn.cursor() as cursor:
            cursor.executemany(query.replace("?", "%s"), rows)

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
        self._db = _PostgresSeatTable(store.connect())  # type: ignore[assignment]
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
