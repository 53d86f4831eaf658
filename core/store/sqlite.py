"""The embedded default store: one SQLite file in WAL mode with a single writer.

Every append goes through one write connection, inside ``BEGIN IMMEDIATE``, so versions and
global positions are read and written in the same transaction: two processes on one file
still cannot both win, and positions never have gaps that a reader could skip. Group commit
(``append_many``) writes the batches of many matches in one transaction and one fsync; each
batch sits in its own savepoint so that a conflict fails only that batch. Events are clustered
by (stream, seq), so a match's rows sit close together for replay.
"""

from __future__ import annotations

import sqlite3
import threading
import time
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

import msgspec

from ..codec import Codec
from ..errors import CorruptRecord, GamehallError, StoreClosed
from ..events import Event, Recorded
from .base import Encoded, Loaded, Snapshot, Store, StreamInfo, Written, conflict

SCHEMA_VERSION = 1
SCHEMA = """
CREATE TABLE IF NOT EXISTS events (
    stream   TEXT    NOT NULL,
    seq      INTEGER NOT NULL,
    position INTEGER NOT NULL,
    time     REAL    NOT NULL,
    type     TEXT    NOT NULL,
    v        INTEGER NOT NULL,
    data     BLOB    NOT NULL,
    meta     BLOB    NOT NULL,
    cmd      TEXT,
    PRIMARY KEY (stream, seq)
) WITHOUT ROWID;
CREATE UNIQUE INDEX IF NOT EXISTS events_position ON events (position);
CREATE TABLE IF NOT EXISTS streams (
    stream  TEXT    PRIMARY KEY,
    created REAL    NOT NULL,
    info    BLOB
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS snapshots (
    stream TEXT    PRIMARY KEY,
    seq    INTEGER NOT NULL,
    key    TEXT    NOT NULL,
    data   BLOB    NOT NULL
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS gamehall (key TEXT PRIMARY KEY, value TEXT NOT NULL);
"""
SYNCHRONOUS = ("OFF", "NORMAL", "FULL", "EXTRA")
_INSERT = "INSERT INTO events VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)"
_COLUMNS = "seq, position, time, type, v, data, meta"
_LISTING = """SELECT s.stream,
    (SELECT max(seq) FROM events e WHERE e.stream = s.stream),
    s.created,
    (SELECT time FROM events e WHERE e.stream = s.stream ORDER BY seq DESC LIMIT 1),
    s.info
FROM streams s"""


class SQLiteStore(Store):
    """Events, streams and snapshots in one SQLite file."""

    def __init__(self, path: str | Path, codec: Codec, *, synchronous: str = "FULL") -> None:
        if synchronous.upper() not in SYNCHRONOUS:
            raise ValueError(f"synchronous must be one of {SYNCHRONOUS}, not {synchronous!r}")
        self.codec = codec
        self.path = str(path)
        self.synchronous = synchronous.upper()
        self._lock = threading.Lock()
        self._local = threading.local()
        self._readers: list[sqlite3.Connection] = []
        self._closed = False
        self._versions: dict[str, int] = {}
        self._writer = self._connect()
        self._migrate()

    # -- connections ------------------------------------------------------------------------

    def _connect(self) -> sqlite3.Connection:
        conn = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False, timeout=30)
        conn.execute("PRAGMA journal_mode=WAL")
        conn.execute(f"PRAGMA synchronous={self.synchronous}")
        conn.execute("PRAGMA cache_size=-65536")
        return conn

    def _reader(self) -> sqlite3.Connection:
        if self._closed:
            raise StoreClosed("the store is closed")
        conn: sqlite3.Connection | None = getattr(self._local, "conn", None)
        if conn is None:
            conn = self._local.conn = self._connect()
            with self._lock:
                self._readers.append(conn)
        return conn

    def _migrate(self) -> None:
        with self._lock:
            self._writer.executescript(SCHEMA)
            row = self._writer.execute("SELECT value FROM gamehall WHERE key='schema'").fetchone()
            if row is None:
                self._writer.execute(
                    "INSERT INTO gamehall VALUES ('schema', ?)", (str(SCHEMA_VERSION),)
                )
            elif int(row[0]) > SCHEMA_VERSION:
                raise GamehallError(
                    f"{self.path} has store schema {row[0]}; this gamehall reads {SCHEMA_VERSION}"
                )

    @property
    def threaded(self) -> bool:
        """Appends wait for fsync, so they run in a worker thread."""
        return True

    # -- writing ----------------------------------------------------------------------------

    def write(self, encoded: Sequence[Encoded | GamehallError]) -> list[Written | GamehallError]:
        """Commit every batch that is at its expected version, in one transaction."""
        if self._closed:
            raise StoreClosed("the store is closed")
        now = time.time()
        with self._lock:
            db = self._writer
            db.execute("BEGIN IMMEDIATE")
            try:
                try:
                    results = self._write_fast(db, encoded, now)
                except sqlite3.IntegrityError:
                    # Another process wrote since this writer last looked: check each batch.
                    db.execute("ROLLBACK")
                    self._versions.clear()
                    db.execute("BEGIN IMMEDIATE")
                    results = self._write_careful(db, encoded, now)
                db.execute("COMMIT")
            except BaseException:
                if db.in_transaction:
                    db.execute("ROLLBACK")
                self._versions.clear()
                raise
        for batch, result in zip(encoded, results, strict=True):
            if isinstance(result, Written) and isinstance(batch, Encoded):
                self._versions[batch.stream] = batch.expected + len(batch.rows)
        return results

    def _write_fast(
        self, db: sqlite3.Connection, encoded: Sequence[Encoded | GamehallError], now: float
    ) -> list[Written | GamehallError]:
        # Versions come from this writer's cache; the (stream, seq) key catches a stale one,
        # since the first row of a batch then collides with a row another writer stored.
        position = db.execute("SELECT coalesce(max(position), 0) FROM events").fetchone()[0] + 1
        results: list[Written | GamehallError] = []
        rows: list[tuple[Any, ...]] = []
        created: list[tuple[Any, ...]] = []
        for batch in encoded:
            if isinstance(batch, GamehallError):
                results.append(batch)
                continue
            stream, expected = batch.stream, batch.expected
            version = self._known_version(db, stream)
            if version != expected:
                results.append(conflict(stream, expected, version))
                continue
            rows.extend(
                (stream, expected + i + 1, position + i, now, *row)
                for i, row in enumerate(batch.rows)
            )
            if expected == 0:
                created.append((stream, now, msgspec.msgpack.encode(batch.info or {})))
            results.append(Written(position, now))
            position += len(batch.rows)
        db.executemany(_INSERT, rows)
        db.executemany("INSERT INTO streams VALUES (?, ?, ?)", created)
        return results

    def _known_version(self, db: sqlite3.Connection, stream: str) -> int:
        version = self._versions.get(stream)
        if version is None:
            if len(self._versions) > 100_000:
                self._versions.clear()
            version = self._versions[stream] = self._version(db, stream)
        return version

    def _write_careful(
        self, db: sqlite3.Connection, encoded: Sequence[Encoded | GamehallError], now: float
    ) -> list[Written | GamehallError]:
        results: list[Written | GamehallError] = []
        for batch in encoded:
            db.execute("SAVEPOINT batch")
            try:
                results.append(self._write_fast(db, [batch], now)[0])
            except sqlite3.IntegrityError:
                db.execute("ROLLBACK TO batch")
                assert isinstance(batch, Encoded)
                self._versions.pop(batch.stream, None)
                version = self._version(db, batch.stream)
                results.append(conflict(batch.stream, batch.expected, version))
            db.execute("RELEASE batch")
        return results

    @staticmethod
    def _version(db: sqlite3.Connection, stream: str) -> int:
        row = db.execute("SELECT max(seq) FROM events WHERE stream=?", (stream,)).fetchone()
        return int(row[0] or 0)

    # -- reading ----------------------------------------------------------------------------

    def _decode(self, stream: str, rows: Sequence[tuple[Any, ...]]) -> list[Recorded]:
        codec = self.codec
        out = []
        for seq, position, at, tag, version, data, meta in rows:
            event = codec.decode_event(tag, version, _blob(data, stream, seq), stream, seq)
            envelope = codec.decode_meta(_blob(meta, stream, seq), stream, seq)
            out.append(Recorded(stream, seq, position, at, event, envelope))
        return out

    def read(
        self, stream: str, after: int = 0, upto: int | None = None, limit: int | None = None
    ) -> list[Recorded]:
        """Return a slice of a stream, in seq order."""
        sql = f"SELECT {_COLUMNS} FROM events WHERE stream=? AND seq>?"
        args: list[Any] = [stream, after]
        if upto is not None:
            sql += " AND seq<=?"
            args.append(upto)
        sql += " ORDER BY seq"
        if limit is not None:
            sql += " LIMIT ?"
            args.append(limit)
        return self._decode(stream, self._reader().execute(sql, args).fetchall())

    def read_events(self, stream: str, after: int = 0) -> list[Event]:
        """Return the events of a stream after ``after``, without envelopes."""
        rows = self._reader().execute(
            "SELECT seq, type, v, data FROM events WHERE stream=? AND seq>? ORDER BY seq",
            (stream, after),
        )
        return self.codec.decode_events(rows, stream)

    def load_stream(self, stream: str, after: int = 1) -> Loaded:
        """Read a match for activation in one query: first event, tail, command ids."""
        rows = (
            self._reader()
            .execute(
                "SELECT seq, type, v, data, cmd FROM events WHERE stream=? ORDER BY seq", (stream,)
            )
            .fetchall()
        )
        if not rows:
            return Loaded(None, [], {})
        decode = self.codec.decode_events
        first = decode([rows[0][:4]], stream)[0]
        events = decode([row[:4] for row in rows[after:]], stream)
        return Loaded(first, events, _command_ranges((row[0], row[4]) for row in rows))

    def read_all(self, after: int = 0, limit: int | None = None) -> list[Recorded]:
        """Return events of every stream in global order."""
        sql = f"SELECT stream, {_COLUMNS} FROM events WHERE position>? ORDER BY position"
        args: list[Any] = [after]
        if limit is not None:
            sql += " LIMIT ?"
            args.append(limit)
        out: list[Recorded] = []
        for stream, *row in self._reader().execute(sql, args):
            out.extend(self._decode(stream, [tuple(row)]))
        return out

    def version(self, stream: str) -> int:
        """Return the seq of a stream's last event."""
        return self._version(self._reader(), stream)

    def streams(self, after: str = "", limit: int | None = None) -> list[StreamInfo]:
        """Return streams in id order."""
        sql = f"{_LISTING} WHERE s.stream>? ORDER BY s.stream"
        args: list[Any] = [after]
        if limit is not None:
            sql += " LIMIT ?"
            args.append(limit)
        return [
            StreamInfo(s, v, c, u, msgspec.msgpack.decode(i) if i else {})
            for s, v, c, u, i in self._reader().execute(sql, args)
        ]

    def stream_info(self, stream: str) -> StreamInfo | None:
        """Return one stream's listing entry."""
        row = self._reader().execute(f"{_LISTING} WHERE s.stream=?", (stream,)).fetchone()
        if row is None:
            return None
        s, v, c, u, i = row
        return StreamInfo(s, v, c, u, msgspec.msgpack.decode(i) if i else {})

    def command_ids(self, stream: str) -> dict[str, tuple[int, int]]:
        """Return each command id of a stream with the seq range of its events."""
        rows = self._reader().execute(
            "SELECT seq, cmd FROM events WHERE stream=? ORDER BY seq", (stream,)
        )
        return _command_ranges(rows)

    # -- snapshots --------------------------------------------------------------------------

    def save_snapshot(self, snapshot: Snapshot) -> None:
        """Replace a stream's snapshot."""
        if self._closed:
            raise StoreClosed("the store is closed")
        with self._lock:
            self._writer.execute(
                "INSERT OR REPLACE INTO snapshots VALUES (?, ?, ?, ?)",
                (snapshot.stream, snapshot.seq, snapshot.key, snapshot.data),
            )

    def load_snapshot(self, stream: str) -> Snapshot | None:
        """Return a stream's snapshot."""
        row = (
            self._reader()
            .execute("SELECT seq, key, data FROM snapshots WHERE stream=?", (stream,))
            .fetchone()
        )
        return Snapshot(stream, row[0], row[1], row[2]) if row else None

    def close(self) -> None:
        """Close every connection."""
        if self._closed:
            return
        self._closed = True
        with self._lock:
            for conn in self._readers:
                conn.close()
            self._writer.close()


def _command_ranges(rows: Iterable[tuple[int, str | None]]) -> dict[str, tuple[int, int]]:
    out: dict[str, tuple[int, int]] = {}
    current: str | None = None
    for seq, cmd in rows:
        if cmd is not None:  # the first event of a command's batch
            current = cmd or None
            if current is not None:
                out[current] = (seq, seq)
        elif current is not None:
            out[current] = (out[current][0], seq)
    return out


def _blob(value: Any, stream: str, seq: int) -> bytes:
    if not isinstance(value, bytes):
        raise CorruptRecord(stream, seq, f"payload is {type(value).__name__}, not bytes")
    return value
