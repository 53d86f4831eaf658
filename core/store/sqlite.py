"""The embedded default store: one SQLite file in WAL mode with a single writer.

Every append goes through one write connection, inside ``BEGIN IMMEDIATE``, so versions and
global positions are read and written in the same transaction: two processes on one file
still cannot both win, and positions never have gaps that a reader could skip. Group commit
(``append_many``) writes the batches of many matches in one transaction and one fsync; each
batch sits in its own savepoint so that a conflict fails only that batch. Events are clustered
by (stream, seq), so a match's rows sit close together for replay.

Every row carries a CRC-32 of where it sits and what it holds (``crc``), checked on every read:
a row edited or damaged after it was written fails its match, not the store. Opening checks
the file before anything is written: the SQLite header and schema, and ``PRAGMA quick_check``
when the file is small enough for it to be cheap (it reads every page: about 2 s per GiB). A
file that fails is refused whole, and a store that meets damage while running stops writing.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import os
import sqlite3
import threading
import time
import weakref
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any, ParamSpec, Protocol, TypeVar

import msgspec

from ..codec import Codec
from ..errors import (
    CorruptRecord,
    DamagedStore,
    GamehallError,
    StoreClosed,
    StoreFailed,
)
from ..events import Event, Recorded
from .base import (
    DECODE_CHUNK,
    MAX_PAGE,
    Due,
    Encoded,
    Loaded,
    MatchPage,
    MatchQuery,
    Overlapped,
    PlayerRecord,
    Problem,
    RawRow,
    Snapshot,
    Store,
    StreamInfo,
    Written,
    check_query,
    check_recorded,
    check_row,
    check_rows,
    check_seqs,
    checked_rows,
    checksum,
    command_ranges,
    conflict,
    listed,
    loaded,
    match_filters,
    merged,
    page_of,
    position_ranges,
    reading_in_background,
    stored_deadline,
    whole_checked,
    whole_stream,
)

# Replay's read in C (``_rowcheck.Reader``), where the module was built and SQLite's functions
# were found in the copy Python's sqlite3 module runs on; else the statement runs through
# sqlite3 and base.whole_stream checks its rows.
try:
    import _sqlite3

    from ._rowcheck import Reader as _FastReader
    from ._rowcheck import ReadFailed as _ReadFailed
    from ._rowcheck import bind as _bind

    FAST_READS = bool(getattr(_sqlite3, "__file__", None)) and _bind(_sqlite3.__file__)
except ImportError:
    FAST_READS = False
STALE = -2  # the writer's answer to a guarded commit after another connection's commit
# The journal's commits in C (``_rowcheck.Writer``): a connection and a thread that run a
# commit from BEGIN to COMMIT without the GIL, so the event loop serves the next commands
# meanwhile. Where there is none, commits run in the journal's Python thread (``write``).
try:
    from ._rowcheck import Writer as _CommitWriter

    FAST_WRITES = FAST_READS
except ImportError:
    FAST_WRITES = False


Op = tuple[str, list[tuple[Any, ...]], int]  # sql, its rows, the column the base is added to


class CommitWriter(Protocol):
    """A store's commit run on a thread that holds no GIL (``_rowcheck.Writer``): ``submit``
    hands it a commit, ``fileno`` gets a byte when it is over, ``result`` answers
    ``(code, base, message)`` (0: committed; ``None`` while it runs)."""

    def submit(self, base_sql: str | None, ops: list[Op], guard: bool = False, /) -> None: ...
    def result(self) -> tuple[int, int, str] | None: ...
    def fileno(self) -> int: ...


class CommitPlan(msgspec.Struct, gc=False):
    """A commit planned for a :class:`CommitWriter`: what to submit, and what each batch gets
    once it is committed (``places``: the error of a refused batch, or its first row's offset
    from the base the writer reads; ``versions`` and ``infos``, each written match's new
    version and listing)."""

    base_sql: str | None
    ops: list[Op]
    places: list[int | GamehallError]
    time: float
    versions: dict[str, int]
    infos: dict[str, dict[str, Any]]
    guard: bool = False  # it merges into listings kept in memory: refused if another wrote


P = ParamSpec("P")
T = TypeVar("T")
SCHEMA_VERSION = 4  # 2: every event row carries a checksum (crc); 3: the lobby and players;
# 4: seat tokens (seat_tokens, written with the appends; the HTTP adapter's table moves there)
CACHE_KIB = 1024  # each reader's page cache (SQLite's own default is about as much)
# The writer's page cache: the leaf pages where every active match's next rows go, and the
# listing rows its commits update. 10,000 matches at once touch about 12 MiB of them each
# commit; with 1 MiB every commit read most of them back from the file (the writer's time a
# command +40% at 10,000 matches against 1,000). Pages are taken as they are used.
WRITER_CACHE_KIB = 32 * 1024
QUICK_CHECK_BYTES = 64 * 2**20  # quick_check on open up to here: about 0.12 s
HEADER = b"SQLite format 3\x00"
EVENT_COLUMNS = ["stream", "seq", "position", "time", "type", "v", "data", "meta", "cmd", "crc"]
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
    crc      INTEGER,
    PRIMARY KEY (stream, seq)
) WITHOUT ROWID;
CREATE UNIQUE INDEX IF NOT EXISTS events_position ON events (position);
CREATE TABLE IF NOT EXISTS streams (
    stream     TEXT    PRIMARY KEY,
    created    REAL    NOT NULL,
    info       BLOB,
    game       TEXT,
    finished   INTEGER NOT NULL DEFAULT 0,
    open_seats INTEGER NOT NULL DEFAULT 0
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS stream_players (
    player TEXT NOT NULL,
    stream TEXT NOT NULL,
    PRIMARY KEY (player, stream)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS players (
    id      TEXT PRIMARY KEY,
    digest  BLOB NOT NULL UNIQUE,
    name    TEXT,
    created REAL NOT NULL
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS deleted (
    first INTEGER PRIMARY KEY,
    last  INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS snapshots (
    stream TEXT    PRIMARY KEY,
    seq    INTEGER NOT NULL,
    key    TEXT    NOT NULL,
    data   BLOB    NOT NULL
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS seat_tokens (
    stream  TEXT    NOT NULL,
    seat    INTEGER NOT NULL,
    digest  BLOB    NOT NULL,
    created REAL    NOT NULL,
    PRIMARY KEY (stream, seat)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS gamehall (key TEXT PRIMARY KEY, value TEXT NOT NULL);
"""
# Schema 3 kept the HTTP adapter's seat tokens in a table of its own; schema 4 moves them.
_MOVE_HTTP_SEATS = (
    "INSERT OR IGNORE INTO seat_tokens SELECT match, seat, digest, coalesce(claimed, 0) "
    "FROM http_seats WHERE digest IS NOT NULL"
)
# Added by schema 3 to a streams table of an older file, then filled from its info.
LISTED_COLUMNS = {
    "game": "TEXT",
    "finished": "INTEGER NOT NULL DEFAULT 0",
    "open_seats": "INTEGER NOT NULL DEFAULT 0",
}
INDEXES = "CREATE INDEX IF NOT EXISTS streams_created ON streams (created, stream)"
# The turn clocks' sweep reads the matches whose next expiry has come (due_matches).
DEADLINE_INDEX = (
    "CREATE INDEX IF NOT EXISTS streams_deadline ON streams (deadline, stream) "
    "WHERE deadline IS NOT NULL"
)
SYNCHRONOUS = ("OFF", "NORMAL", "FULL", "EXTRA")
_INSERT = "INSERT INTO events VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
# Activation reads the snapshot, the first row and those after the snapshot in full, and only
# the seq and command id of the rows in between.
_LOAD_SNAPSHOT = "SELECT seq, key, data FROM snapshots WHERE stream=? AND seq>?"


def _first_and_past(columns: str, past: str) -> str:
    """Return a query of a stream's (?1) first row and its rows after seq ``past``, in seq
    order: two reads of a range of the key, merged (``seq=1 OR seq>?`` had SQLite read the
    whole match: 16 of the 23 ms a 100,000-event match took to activate from its snapshot)."""
    return (
        f"SELECT {columns} FROM events WHERE stream=?1 AND seq=1 UNION ALL "
        f"SELECT {columns} FROM events WHERE stream=?1 AND seq>max({past}, 1) ORDER BY seq"
    )


_ROW = "seq, type, v, data, meta, crc, cmd"
_LOAD_ROWS = _first_and_past(_ROW, "?2")
# The seq a stream's last write ended at, kept beside its listing: rows that end before it
# lost their tail (a flipped stream key, a row deleted by hand).
_RECORDED = "(SELECT version FROM streams WHERE stream=?1)"
_LOAD_ROWS_RECORDED = _first_and_past(f"{_ROW}, {_RECORDED}", "?2")
_LOAD_MARKS = "SELECT seq, cmd FROM events WHERE stream=? AND seq>1 AND seq<=? ORDER BY seq"
_LOAD_SPAN = "SELECT count(*), max(seq) FROM events WHERE stream=? AND seq>1 AND seq<=?"
_LOAD_END = "SELECT max(seq) FROM events WHERE stream=? AND seq>1 AND seq<=?"
_COUNT_PART = "SELECT count(*) FROM events WHERE stream=? AND seq>? AND seq<=?"
# A count of the rows before a snapshot (see load_stream) read in the background goes in parts
# of SPAN_PART rows with SPAN_PAUSE seconds between them: the rows of a long match hold their
# payloads, and counting 100,000 of them took 11 ms of a core, which on two cores doubled the
# p99 latency of the matches being played (activation.cold_load_p99_ratio 2.0-2.6 -> 1.1-1.7;
# the activation itself took 13-18 ms, then 19-33).
SPAN_PART = 10_000
SPAN_PAUSE = 0.001
# The rows _LOAD_ROWS reads past the snapshot, if any, each with the snapshot's seq (NULL
# without one): a match without a snapshot, as most are, is read in this one query.
_SNAPSHOT_SEQ = "(SELECT seq FROM snapshots WHERE stream=?1 AND seq>?2)"
_LOAD_ROWS_PAST_SNAPSHOT = _first_and_past(
    f"{_ROW}, {_SNAPSHOT_SEQ}, {_RECORDED}", f"max(?2, coalesce({_SNAPSHOT_SEQ}, 0))"
)
# The same for a file opened read-only by a gamehall that has not added the column yet.
_LOAD_ROWS_PAST_SNAPSHOT_UNRECORDED = _LOAD_ROWS_PAST_SNAPSHOT.replace(_RECORDED, "NULL")
# Replay's fast path (base.whole_stream) reads a match as columns: what the checksums cover
# that the decoded events do not give back (their seqs, types and versions are checked through
# the checksums) and the command marks. The stream's entry comes first, in the same statement
# as the events, so in the same state, as a row of its own (one look-up where two columns of
# the first event took two): its listing info (never NULL), the version its last write
# recorded, and the seq of its snapshot (NULL without one; with one, the rows after it follow,
# and the row-by-row path reads the match). UNION ALL gives its parts in turn; the events come
# in their key's order, and a row out of place would fail its checksum (and go the row-by-row
# way, which orders them).
_ENTRY_FIRST = (
    "SELECT coalesce(info, x''), version, {snapshot}, NULL FROM (SELECT 1) "
    "LEFT JOIN streams ON stream=?1 UNION ALL "
    "SELECT data, meta, crc, cmd FROM events WHERE stream=?1 AND seq>{after}"
)
_SNAPSHOT_AT = "(SELECT seq FROM snapshots WHERE stream=?1)"
_LOAD_WHOLE = _ENTRY_FIRST.format(snapshot="NULL", after="0")
_LOAD_WHOLE_PAST_SNAPSHOT = _ENTRY_FIRST.format(
    snapshot=_SNAPSHOT_AT, after=f"coalesce({_SNAPSHOT_AT}, 0)"
)
# The same for a file opened read-only by a gamehall that has not added the version column.
_LOAD_WHOLE_UNRECORDED = _LOAD_WHOLE.replace(
    "coalesce(info, x''), version", "coalesce(info, x''), NULL"
)
_LOAD_WHOLE_PAST_SNAPSHOT_UNRECORDED = _LOAD_WHOLE_PAST_SNAPSHOT.replace(
    "coalesce(info, x''), version", "coalesce(info, x''), NULL"
)
_COLUMNS = "seq, position, time, type, v, data, meta, crc"
_SET_INFO = "UPDATE streams SET info=?, game=?, finished=?, open_seats=? WHERE stream=?"
_NEXT_POSITION = """SELECT max(
    (SELECT coalesce(max(position), 0) FROM events),
    (SELECT coalesce(max(last), 0) FROM deleted))"""
# A stream's last event time (SQLite keeps no column of it): its last row's, by the key.
_UPDATED = (
    "coalesce((SELECT time FROM events e WHERE e.stream = s.stream ORDER BY seq DESC LIMIT 1),"
    " s.created)"
)
_LISTING = """SELECT s.stream,
    (SELECT max(seq) FROM events e WHERE e.stream = s.stream),
    s.created,
    (SELECT time FROM events e WHERE e.stream = s.stream ORDER BY seq DESC LIMIT 1),
    s.info
FROM streams s"""


def _span(db: sqlite3.Connection, stream: str, last: int) -> tuple[int, int | None]:
    """Count the rows of seq 2 to ``last`` of a stream; return the count and the last seq.

    In one query, or, read in the background past SPAN_PART rows, in parts with a pause
    between them (see SPAN_PAUSE), in the caller's read transaction."""
    if last <= SPAN_PART + 1 or not reading_in_background():
        count, end = db.execute(_LOAD_SPAN, (stream, last)).fetchone()
        return count, end
    end = db.execute(_LOAD_END, (stream, last)).fetchone()[0]
    count = 0
    low = 1
    while end is not None and low < end:
        high = min(low + SPAN_PART, end)
        count += db.execute(_COUNT_PART, (stream, low, high)).fetchone()[0]
        low = high
        if low < end:
            time.sleep(SPAN_PAUSE)
    return count, end


def _sql_errors(fn: Callable[P, T]) -> Callable[P, T]:
    """Turn SQLite's errors into the store's: damage quarantines, I/O failures say so."""

    @functools.wraps(fn)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> T:
        try:
            return fn(*args, **kwargs)
        except sqlite3.Error as exc:
            store = args[0]
            assert isinstance(store, SQLiteStore)
            raise store.failure(exc, args[1] if len(args) > 1 else None) from None

    return wrapper


@contextlib.contextmanager
def _rolled_back(db: sqlite3.Connection, *undo: Callable[[], None]) -> Iterator[None]:
    """Roll back the transaction of a block that does not reach its end, and run ``undo``.

    Nothing is caught: an error, an interrupt or a cancellation goes on as it was raised, after
    the rollback (SQLite may have rolled back already, after a full disk: that is no error)."""
    ended = False
    try:
        yield
        ended = True
    finally:
        if not ended:
            if db.in_transaction:
                with contextlib.suppress(sqlite3.Error):
                    db.execute("ROLLBACK")
            for step in undo:
                step()


class _ThreadReaders:
    """The connections one thread reads a store with (sqlite3's and the C reader's)."""

    __slots__ = ("__weakref__", "conn", "fast")

    def __init__(self) -> None:
        self.conn: sqlite3.Connection | None = None
        self.fast: Any = None

    def close(self) -> None:
        """Close both (again is harmless)."""
        if self.conn is not None:
            self.conn.close()
        if self.fast is not None:
            self.fast.close()

    def __del__(self) -> None:
        self.close()


class SQLiteStore(Store):
    """Events, streams and snapshots in one SQLite file."""

    def __init__(
        self,
        path: str | Path,
        codec: Codec,
        *,
        synchronous: str = "FULL",
        readonly: bool = False,
        quick_check_bytes: int = QUICK_CHECK_BYTES,
    ) -> None:
        if synchronous.upper() not in SYNCHRONOUS:
            raise ValueError(f"synchronous must be one of {SYNCHRONOUS}, not {synchronous!r}")
        self.codec = codec
        self.path = str(path)
        self.synchronous = synchronous.upper()
        self.readonly = readonly
        self.damaged: str | None = None
        self.schema: int | None = None
        self._lock = threading.Lock()
        self._local = threading.local()
        self._threads: weakref.WeakSet[_ThreadReaders] = weakref.WeakSet()
        self._fast = FAST_READS
        self._fast_writes = FAST_WRITES
        self._commit_writer: Any = None
        self._closed = False
        self._versions: dict[str, int] = {}
        # The listing info this writer last stored for a match (beside its version, and as
        # valid: another writer's rows collide with this one's next and clear both), so that
        # a commit that changes a listing needs no read; _written waits for the commit.
        self._infos: dict[str, dict[str, Any]] = {}
        self._written: dict[str, dict[str, Any]] = {}
        self._check_header()
        try:
            self._writer = self._connect(WRITER_CACHE_KIB)
        except sqlite3.Error as exc:  # a missing folder, no permission, a busy file
            raise StoreFailed(f"cannot open the store {self.path}: {exc}") from None
        self._has_recorded = self._has_deadline = False
        with contextlib.ExitStack() as failed:
            failed.callback(self._writer.close)  # whatever stops the opening closes the file
            self._open_check(quick_check_bytes)
            if not readonly:
                self._migrate()
            columns = {r[1] for r in self._writer.execute("PRAGMA table_info(streams)")}
            self._has_recorded = "version" in columns
            self._has_deadline = "deadline" in columns
            failed.pop_all()  # opened: the connection stays

    # -- connections ------------------------------------------------------------------------

    def _connect(self, cache_kib: int | None = None) -> sqlite3.Connection:
        if self.readonly:
            uri = f"{Path(self.path).resolve().as_uri()}?mode=ro"
            conn = sqlite3.connect(uri, uri=True, check_same_thread=False, isolation_level=None)
            return conn
        conn = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False, timeout=30)
        conn.execute("PRAGMA journal_mode=WAL")
        conn.execute(f"PRAGMA synchronous={self.synchronous}")
        conn.execute(f"PRAGMA cache_size=-{cache_kib or CACHE_KIB}")
        return conn

    def _refused(self, reason: object) -> DamagedStore:
        return DamagedStore(f"the store {self.path} is damaged and was not opened: {reason}")

    def _check_header(self) -> None:
        try:
            with open(self.path, "rb") as file:
                head = file.read(100)
        except FileNotFoundError:
            if self.readonly:
                raise DamagedStore(f"the store {self.path} does not exist") from None
            return
        except OSError as exc:
            raise DamagedStore(f"cannot read the store {self.path}: {exc.strerror}") from None
        if head and not head.startswith(HEADER):
            raise self._refused("it is not an SQLite database (its header is wrong)")
        if head and len(head) < 100:
            raise self._refused("the file is shorter than an SQLite header")

    def _open_check(self, quick_check_bytes: int) -> None:
        db = self._writer
        try:
            tables = {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type='table'")}
            if tables and "events" in tables:
                columns = [r[1] for r in db.execute("PRAGMA table_info(events)")]
                if columns not in (EVENT_COLUMNS, EVENT_COLUMNS[:-1]):
                    raise self._refused(f"its events table has the columns {columns}")
            if "gamehall" in tables:
                self.schema = self._schema_version(db)
            size = os.path.getsize(self.path) if os.path.exists(self.path) else 0
            if tables and size <= quick_check_bytes:
                found = report_lines(r[0] for r in db.execute("PRAGMA quick_check(5)"))
                if found != ["ok"]:
                    raise self._refused(f"quick_check found: {'; '.join(found)}")
        except sqlite3.Error as exc:
            raise self._refused(exc) from None

    def _schema_version(self, db: sqlite3.Connection) -> int | None:
        row = db.execute("SELECT value FROM gamehall WHERE key='schema'").fetchone()
        if row is None:
            return None
        try:
            version = int(row[0])
        except (TypeError, ValueError):
            raise self._refused(f"its schema version is {row[0]!r}, not a number") from None
        if version > SCHEMA_VERSION:
            raise DamagedStore(
                f"{self.path} has store schema {version}; this gamehall reads {SCHEMA_VERSION}"
            )
        return version

    def failure(self, exc: sqlite3.Error, stream: object = None) -> GamehallError:
        """Return the store error for an SQLite one; damage stops every later write."""
        code = getattr(exc, "sqlite_errorcode", None)
        if code in (sqlite3.SQLITE_CORRUPT, sqlite3.SQLITE_NOTADB):
            self.damaged = str(exc)
            if isinstance(stream, str):
                return CorruptRecord(stream, 0, f"the store file is damaged: {exc}")
            return self._refused(exc)
        if isinstance(exc, sqlite3.ProgrammingError) and self._closed:
            return StoreClosed("the store is closed")
        if isinstance(stream, str) and "decode" in str(exc):  # a blob turned into bad text
            # The message would quote the damaged bytes, which may be hidden facts: say less.
            return CorruptRecord(stream, 0, "a row does not read back as bytes")
        return StoreFailed(f"the store {self.path} failed: {exc}")

    def _reader(self) -> sqlite3.Connection:
        if self._closed:
            raise StoreClosed("the store is closed")
        conn: sqlite3.Connection | None = getattr(self._local, "conn", None)
        if conn is None:
            conn = self._local.conn = self._connect()
            self._held().conn = conn
        return conn

    def _fast_reader(self) -> Any:
        """This thread's reader in C (see ``FAST_READS``), ``None`` where there is none."""
        if not self._fast:
            return None
        fast = getattr(self._local, "fast", None)
        if fast is None and not self._closed:
            try:
                fast = self._local.fast = _FastReader(Path(self.path).resolve(), CACHE_KIB)
            except (_ReadFailed, OSError):  # then every read goes through sqlite3
                self._fast = False
                return None
            self._held().fast = fast
        return fast

    def _held(self) -> _ThreadReaders:
        """This thread's readers, made on its first read. They close when the thread ends
        (its thread-local data goes, and with it their only holder): worker threads come and
        go (anyio ends those idle for 10 s), and each kept two files open until the store
        closed."""
        held: _ThreadReaders | None = getattr(self._local, "held", None)
        if held is None:
            held = self._local.held = _ThreadReaders()
            with self._lock:
                self._threads.add(held)
                if self._closed:
                    held.close()
        return held

    def _migrate(self) -> None:
        with self._lock:
            db = self._writer
            try:
                with _rolled_back(db):
                    db.execute("BEGIN IMMEDIATE")
                    existing = [r[1] for r in db.execute("PRAGMA table_info(events)")]
                    for statement in SCHEMA.split(";"):
                        if statement.strip():
                            db.execute(statement)
                    _add_listed_columns(db)
                    _add_recorded_versions(db)
                    _add_deadlines(db, self.codec)
                    db.execute(INDEXES)
                    db.execute(DEADLINE_INDEX)
                    version = self._schema_version(db)
                    if version is None:
                        db.execute(
                            "INSERT INTO gamehall VALUES ('schema', ?)", (str(SCHEMA_VERSION),)
                        )
                    if existing and "crc" not in existing:
                        _add_checksums(db)
                    tables = {r[0] for r in db.execute("SELECT name FROM sqlite_master")}
                    if "http_seats" in tables:
                        db.execute(_MOVE_HTTP_SEATS)
                        db.execute("DROP TABLE http_seats")
                    if version is not None and version < SCHEMA_VERSION:
                        db.execute(
                            "UPDATE gamehall SET value=? WHERE key='schema'", (str(SCHEMA_VERSION),)
                        )
                    db.execute("COMMIT")
                    self.schema = SCHEMA_VERSION
            except sqlite3.Error as exc:
                raise self._refused(exc) from None

    @property
    def threaded(self) -> bool:
        """Appends wait for fsync, so they run in a worker thread."""
        return True

    # -- writing ----------------------------------------------------------------------------

    def _check_writable(self) -> None:
        if self._closed:
            raise StoreClosed("the store is closed")
        if self.readonly:
            raise StoreFailed(f"the store {self.path} is open read-only")
        if self.damaged is not None:
            raise DamagedStore(
                f"the store {self.path} met damage ({self.damaged}): it takes no more writes"
            )

    @_sql_errors
    def write(self, encoded: Sequence[Encoded | GamehallError]) -> list[Written | GamehallError]:
        """Commit every batch that is at its expected version, in one transaction."""
        self._check_writable()
        now = time.time()
        with self._lock:
            db = self._writer
            db.execute("BEGIN IMMEDIATE")
            self._written = {}
            with _rolled_back(db, self._forget_all):  # the versions known may be ahead
                try:
                    results = self._write_fast(db, encoded, now)
                except sqlite3.IntegrityError:
                    # Another process wrote since this writer last looked: check each batch.
                    db.execute("ROLLBACK")
                    self._forget_all()
                    self._written = {}
                    db.execute("BEGIN IMMEDIATE")
                    results = self._write_careful(db, encoded, now)
                db.execute("COMMIT")
            self._infos.update(self._written)
        for batch, result in zip(encoded, results, strict=True):
            if isinstance(result, Written) and isinstance(batch, Encoded):
                self._versions[batch.stream] = batch.expected + len(batch.rows)
        return results

    def _write_fast(
        self, db: sqlite3.Connection, encoded: Sequence[Encoded | GamehallError], now: float
    ) -> list[Written | GamehallError]:
        # Versions come from this writer's cache; the (stream, seq) key catches a stale one,
        # since the first row of a batch then collides with a row another writer stored.
        position = db.execute(_NEXT_POSITION).fetchone()[0] + 1
        results: list[Written | GamehallError] = []
        rows: list[tuple[Any, ...]] = []
        created: list[tuple[str, float, dict[str, Any]]] = []
        changed: list[tuple[str, Mapping[str, Any]]] = []
        tokens: list[tuple[str, int, bytes, float]] = []
        versions: list[tuple[int, str]] = []  # the version each stream's write ends at
        deadlines: list[tuple[int, float | None, str]] = []  # and its next clock expiry
        known, has_deadline = self._versions, self._has_deadline
        for batch in encoded:
            if isinstance(batch, GamehallError):
                results.append(batch)
                continue
            stream, expected = batch.stream, batch.expected
            version = known.get(stream)
            if version is None:
                version = self._known_version(db, stream)
            if version != expected:
                results.append(conflict(stream, expected, version))
                continue
            seq = expected
            for row in batch.rows:
                seq += 1
                rows.append((stream, seq, position, now, *row))
                position += 1
            if expected == 0:
                created.append((stream, now, batch.info or {}))
            elif batch.info:
                changed.append((stream, batch.info))
            if batch.tokens:
                tokens.extend((stream, seat, digest, now) for seat, digest in batch.tokens)
            results.append(Written(position - len(batch.rows), now))
            deadline = batch.deadline
            if has_deadline and deadline is not msgspec.UNSET:
                deadlines.append((seq, deadline, stream))
            else:
                versions.append((seq, stream))
        db.executemany(_INSERT, rows)
        if created:
            db.executemany(
                "INSERT INTO streams (stream, created) VALUES (?, ?)", [c[:2] for c in created]
            )
        if self._has_recorded:
            db.executemany("UPDATE streams SET version=? WHERE stream=?", versions)
            if deadlines:  # the next clock expiry of a timed match, for the sweep (due_matches)
                db.executemany("UPDATE streams SET version=?, deadline=? WHERE stream=?", deadlines)
        for stream, _, info in created:
            _set_info(db, stream, info)
            self._written[stream] = dict(info)
        for stream, changes in changed:
            info = merged(_info_of(db, stream) or {}, changes)
            _set_info(db, stream, info, players_too="seat_players" in changes)
            self._written[stream] = info
        if tokens:
            db.executemany("INSERT OR REPLACE INTO seat_tokens VALUES (?, ?, ?, ?)", tokens)
        return results

    # -- writing without the GIL -------------------------------------------------------------

    def overlapped(self, loop: asyncio.AbstractEventLoop) -> Overlapped | None:
        """The journal's commits through the writer in C, which holds no GIL; the loop hears
        each one end through the writer's pipe (``None`` without the writer)."""
        writer = self.commit_writer()
        if writer is None:
            return None
        try:
            return _Overlapped(self, writer, loop)
        except (NotImplementedError, RuntimeError, OSError):  # a loop that watches no pipe
            return None

    def commit_writer(self) -> CommitWriter | None:
        """The writer in C for the journal's commits (``FAST_WRITES``), made on first use."""
        if not self._fast_writes or self.readonly or self._closed or not self._has_recorded:
            return None
        if self._commit_writer is None:
            try:
                self._commit_writer = _CommitWriter(
                    Path(self.path).resolve(), self.synchronous, WRITER_CACHE_KIB
                )
            except (_ReadFailed, OSError):  # then every commit runs through sqlite3
                self._fast_writes = False
                return None
        writer: CommitWriter = self._commit_writer
        return writer

    def plan_commit(self, encoded: Sequence[Encoded | GamehallError]) -> CommitPlan | None:
        """What :meth:`write` would do, as statements for the writer in C; ``None`` for a
        commit that needs a read: a batch of a match whose version this writer does not know
        (at rest since), or one that changes a listing (merged with the stored one)."""
        if self._closed or self.damaged is not None or self.readonly:
            return None
        now = time.time()
        places: list[int | GamehallError] = []
        rows: list[tuple[Any, ...]] = []
        created: list[tuple[str, float]] = []
        infos: list[tuple[Any, ...]] = []
        emptied: list[tuple[str]] = []
        players: list[tuple[str, str]] = []
        kept: dict[str, dict[str, Any]] = {}
        guard = False
        tokens: list[tuple[str, int, bytes, float]] = []
        versions: list[tuple[int, str]] = []
        deadlines: list[tuple[int, float | None, str]] = []
        ends: dict[str, int] = {}
        known, has_deadline = self._versions, self._has_deadline
        offset = 0
        for batch in encoded:
            if isinstance(batch, GamehallError):
                places.append(batch)
                continue
            stream, expected = batch.stream, batch.expected
            version = known.get(stream)
            if version is None:
                if expected != 0:
                    return None  # a read would tell; a new match's key tells on its own
                version = 0
            if version != expected:
                places.append(conflict(stream, expected, version))
                continue
            if expected == 0:
                info: dict[str, Any] | None = dict(batch.info or {})
                created.append((stream, now))
            elif batch.info:
                stored = self._infos.get(stream)
                if stored is None:
                    return None  # a read would tell
                info = merged(stored, batch.info)
                guard = True  # valid only if no other connection wrote since (put_entry)
            else:
                info = None
            if info is not None:
                game, finished, open_seats, named = listed(info)
                infos.append(
                    (msgspec.msgpack.encode(info), game, int(finished), open_seats, stream)
                )
                if expected == 0 or "seat_players" in batch.info:  # type: ignore[operator]
                    emptied.append((stream,))
                    players.extend((player, stream) for player in named)
                kept[stream] = info
            places.append(offset + 1)
            seq = expected
            for row in batch.rows:
                seq += 1
                offset += 1
                rows.append((stream, seq, offset, now, *row))
            ends[stream] = seq
            if batch.tokens:
                tokens.extend((stream, seat, digest, now) for seat, digest in batch.tokens)
            deadline = batch.deadline
            if has_deadline and deadline is not msgspec.UNSET:
                deadlines.append((seq, deadline, stream))
            else:
                versions.append((seq, stream))
        ops: list[Op] = [(_INSERT, rows, 2)]
        if created:
            ops.append(("INSERT INTO streams (stream, created) VALUES (?, ?)", created, -1))
        ops.append(("UPDATE streams SET version=? WHERE stream=?", versions, -1))
        if deadlines:
            ops.append(("UPDATE streams SET version=?, deadline=? WHERE stream=?", deadlines, -1))
        if infos:
            ops.append((_SET_INFO, infos, -1))
        if emptied:
            ops.append(("DELETE FROM stream_players WHERE stream=?", emptied, -1))
            if players:
                ops.append(("INSERT INTO stream_players VALUES (?, ?)", players, -1))
        if tokens:
            ops.append(("INSERT OR REPLACE INTO seat_tokens VALUES (?, ?, ?, ?)", tokens, -1))
        return CommitPlan(_NEXT_POSITION, ops, places, now, ends, kept, guard)

    def end_commit(
        self, plan: CommitPlan, answer: tuple[int, int, str]
    ) -> list[Written | GamehallError] | None:
        """Each batch's place once the writer committed; ``None`` when it rolled back (a key
        another writer took, a full disk: :meth:`write` then checks and says which)."""
        code, base, _ = answer
        if code == STALE:  # another connection wrote: the listings kept may be behind
            self._infos.clear()
            return None
        if code != 0:
            self._forget_all()  # another process may have written: read again
            return None
        self._versions.update(plan.versions)
        self._infos.update(plan.infos)
        at = plan.time
        return [
            place if isinstance(place, GamehallError) else Written(base + place, at)
            for place in plan.places
        ]

    def forget(self, stream: str) -> None:
        """Drop the cached version of a match at rest (its next write reads it again)."""
        self._versions.pop(stream, None)
        self._infos.pop(stream, None)
        if not self._versions:  # every match rests: a table made afresh frees its peak's size
            self._versions = {}
            self._infos = {}

    def _forget_all(self) -> None:
        self._versions.clear()
        self._infos.clear()

    def _known_version(self, db: sqlite3.Connection, stream: str) -> int:
        version = self._versions.get(stream)
        if version is None:
            if len(self._versions) > 100_000:
                self._forget_all()
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
                self._infos.pop(batch.stream, None)
                self._written.pop(batch.stream, None)
                version = self._version(db, batch.stream)
                results.append(conflict(batch.stream, batch.expected, version))
            db.execute("RELEASE batch")
        return results

    @staticmethod
    def _recorded_version(db: sqlite3.Connection, stream: str) -> int | None:
        row = db.execute("SELECT version FROM streams WHERE stream=?", (stream,)).fetchone()
        return None if row is None or row[0] is None else int(row[0])

    @staticmethod
    def _version(db: sqlite3.Connection, stream: str) -> int:
        row = db.execute("SELECT max(seq) FROM events WHERE stream=?", (stream,)).fetchone()
        return int(row[0] or 0)

    # -- reading ----------------------------------------------------------------------------

    def _decode(self, stream: str, rows: Sequence[tuple[Any, ...]]) -> list[Recorded]:
        codec = self.codec
        out = []
        for seq, position, at, tag, version, data, meta, crc in rows:
            check_row(stream, seq, tag, version, data, meta, crc)
            event = codec.decode_event(tag, version, data, stream, seq)
            envelope = codec.decode_meta(meta, stream, seq)
            out.append(Recorded(stream, seq, position, at, event, envelope))
        return out

    @_sql_errors
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
        db = self._reader()
        whole = upto is None and limit is None and self._has_recorded
        if whole:
            db.execute("BEGIN")
        try:
            rows = db.execute(sql, args).fetchall()
            recorded = self._recorded_version(db, stream) if whole else None
        finally:
            if whole:
                db.execute("COMMIT")
        if rows:
            check_seqs(stream, (row[0] for row in rows), rows[0][0] - 1)
        check_recorded(stream, rows[-1][0] if rows else after, recorded)
        return self._decode(stream, rows)

    @_sql_errors
    def read_events(self, stream: str, after: int = 0) -> list[Event]:
        """Return the events of a stream after ``after``, without envelopes."""
        rows = (
            self._reader()
            .execute(
                "SELECT seq, type, v, data, meta, crc FROM events WHERE stream=? AND seq>? "
                "ORDER BY seq",
                (stream, after),
            )
            .fetchall()
        )
        return self.codec.decode_events(checked_rows(stream, rows, after), stream)

    @contextlib.contextmanager
    def reading_many(self) -> Iterator[None]:
        """Share one read transaction of this thread's C reader among the block's whole-match
        reads: SQLite starts a read once instead of once a match (taking and giving back the
        WAL's read lock and looking at the file's size, three system calls: 2.2 of the 11 us a
        tic-tac-toe match took to rebuild). Reads through sqlite3 go on as before."""
        fast = None if getattr(self._local, "holding", False) else self._fast_reader()
        if fast is None:  # no C reader, or a block inside another
            yield
            return
        try:
            fast.hold(True)
        except _ReadFailed:  # then each read starts its own, as outside a block
            yield
            return
        self._local.holding = True
        try:
            yield
        finally:
            self._local.holding = False
            with contextlib.suppress(_ReadFailed):  # closed meanwhile: its read ended with it
                fast.hold(False)

    @_sql_errors
    def load_stream(self, stream: str, after: int = 1, snapshot: bool = False) -> Loaded:
        """Read a match for activation: its snapshot (when asked), then the first event and
        those after the snapshot in full and the seq and command id of the rows before it, in
        one read transaction (without a snapshot, one query reads the whole match)."""
        if after <= 1:
            whole = self._load_whole(stream, snapshot)
            if whole is not None:
                return whole
        db = self._reader()
        if not self._has_recorded:
            query = _LOAD_ROWS_PAST_SNAPSHOT_UNRECORDED if snapshot else _LOAD_ROWS
        else:
            query = _LOAD_ROWS_PAST_SNAPSHOT if snapshot else _LOAD_ROWS_RECORDED
        rows = db.execute(query, (stream, after)).fetchall()
        recorded = rows[0][-1] if rows and self._has_recorded else None
        found = None
        if snapshot and rows and rows[0][7] is not None:
            found = db.execute(_LOAD_SNAPSHOT, (stream, after)).fetchone()
        if found is None:
            if snapshot and rows and rows[0][7] is not None:  # replaced meanwhile: read again
                return self.load_stream(stream, after, snapshot)
            marks = db.execute(_LOAD_MARKS, (stream, after)).fetchall() if after > 1 else []
            if rows:  # the rows before ``after`` never change: the marks agree with the rows
                check_recorded(stream, max(rows[-1][0], marks[-1][0] if marks else 0), recorded)
            return loaded(self.codec, stream, rows, marks, after)
        # The snapshot holds whatever the rows up to its seq make, and those rows never change
        # (a deleted stream reads as none), so it may be read before the transaction.
        snap = Snapshot(stream, found[0], found[1], found[2])
        # The rows up to the snapshot are counted, not read: numbered 2 to the last of them,
        # none is missing; their command ids are read when a command asks for them (a long
        # match's are many, and reading them all held the GIL for most of its activation).
        # When they are not all there, their seqs are read to say which is missing.
        db.execute("BEGIN")
        try:
            rows = db.execute(_LOAD_ROWS, (stream, snap.seq)).fetchall()
            count, end = _span(db, stream, snap.seq)
            marks = []
            if count != (end or 1) - 1:
                marks = db.execute(_LOAD_MARKS, (stream, snap.seq)).fetchall()
            recorded = self._recorded_version(db, stream) if self._has_recorded else None
        finally:
            db.execute("COMMIT")
        if rows:
            check_recorded(stream, max(rows[-1][0], end or 0), recorded)
        between = None if marks else (end or 1)
        return loaded(self.codec, stream, rows, marks, snap.seq, snap, between)

    def _load_whole(self, stream: str, snapshot: bool) -> Loaded | None:
        """Read a match without a snapshot in one query and check it as columns; ``None``
        when it has a snapshot (with ``snapshot``), no rows, or a row the fast path leaves to
        the row-by-row one (which reads it again and says what is wrong)."""
        if self._has_recorded:
            query = _LOAD_WHOLE_PAST_SNAPSHOT if snapshot else _LOAD_WHOLE
        else:
            query = _LOAD_WHOLE_PAST_SNAPSHOT_UNRECORDED if snapshot else _LOAD_WHOLE_UNRECORDED
        fast = self._fast_reader()
        if fast is not None:
            codec = self.codec
            try:  # matches of up to DECODE_CHUNK events (see _rowcheck.c for why no more)
                got = fast.whole(
                    query,
                    stream,
                    codec.decode_array,
                    codec.folded_heads,
                    codec.unfolded_heads,
                    DECODE_CHUNK,
                )
            except _ReadFailed:  # read again through sqlite3, which says what went wrong
                got = False
            if got is None:  # a snapshot, no event, or a row to look at one by one
                return None
            if got is not False:  # False: a long match, decoded in parts below
                info, recorded, events, commands, last, plain = got
                check_recorded(stream, len(events), recorded)
                checked = whole_checked(codec, stream, events, commands, last, plain)
                checked.info = msgspec.msgpack.decode(info) if info else {}
                return checked
        return self._load_whole_rows(stream, query)

    def _load_whole_rows(self, stream: str, query: str) -> Loaded | None:
        """:meth:`_load_whole` through sqlite3 and :func:`whole_stream`."""
        rows = self._reader().execute(query, (stream,)).fetchall()
        info, recorded, snapshot_seq, _ = rows[0]
        if len(rows) == 1 or snapshot_seq is not None:  # no events, or read from a snapshot
            return None
        if type(info) is not bytes:  # a listing damaged by hand: the row-by-row way says so
            return None
        del rows[0]
        whole = whole_stream(self.codec, stream, rows)
        if whole is not None:
            check_recorded(stream, len(rows), recorded)
            whole.info = msgspec.msgpack.decode(info) if info else {}
        return whole

    @_sql_errors
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

    @_sql_errors
    def version(self, stream: str) -> int:
        """Return the seq of a stream's last event."""
        return self._version(self._reader(), stream)

    @_sql_errors
    def streams(self, after: str = "", limit: int | None = None) -> list[StreamInfo]:
        """Return streams in id order."""
        sql = f"{_LISTING} WHERE s.stream>? ORDER BY s.stream"
        args: list[Any] = [after]
        if limit is not None:
            sql += " LIMIT ?"
            args.append(limit)
        return [_entry(*row) for row in self._reader().execute(sql, args)]

    @_sql_errors
    def stream_info(self, stream: str) -> StreamInfo | None:
        """Return one stream's listing entry."""
        row = self._reader().execute(f"{_LISTING} WHERE s.stream=?", (stream,)).fetchone()
        return None if row is None else _entry(*row)

    @_sql_errors
    def command_ids(self, stream: str) -> dict[str, tuple[int, int]]:
        """Return each command id of a stream with the seq range of its events."""
        rows = self._reader().execute(
            "SELECT seq, cmd FROM events WHERE stream=? ORDER BY seq", (stream,)
        )
        return command_ranges(rows)

    # -- the lobby --------------------------------------------------------------------------

    @_sql_errors
    def find_matches(self, query: MatchQuery) -> MatchPage:
        """Filter on the indexed columns, newest first, one page at a time."""
        start = check_query(query)
        filters, args = match_filters(query, "?", "s.", _UPDATED)
        db = self._reader()
        total = db.execute(f"SELECT count(*) FROM streams s WHERE {filters}", args).fetchone()[0]
        page_args = list(args)
        if start is not None:
            filters += " AND (s.created < ? OR (s.created = ? AND s.stream < ?))"
            page_args += [start[0], start[0], start[1]]
        sql = f"{_LISTING} WHERE {filters} ORDER BY s.created DESC, s.stream DESC LIMIT ?"
        rows = db.execute(sql, [*page_args, query.limit + 1]).fetchall()
        return page_of([_entry(*row) for row in rows], int(total), query)

    @_sql_errors
    def delete_stream(self, stream: str) -> bool:
        """Delete a stream's rows; keep its positions as deleted ones."""
        self._check_writable()
        with self._lock:
            db = self._writer
            db.execute("BEGIN IMMEDIATE")
            with _rolled_back(db):
                found = db.execute("SELECT 1 FROM streams WHERE stream=?", (stream,)).fetchone()
                positions = [
                    r[0]
                    for r in db.execute("SELECT position FROM events WHERE stream=?", (stream,))
                ]
                db.executemany("INSERT INTO deleted VALUES (?, ?)", position_ranges(positions))
                for table in ("events", "streams", "snapshots", "stream_players", "seat_tokens"):
                    db.execute(f"DELETE FROM {table} WHERE stream=?", (stream,))
                db.execute("COMMIT")
            self._versions.pop(stream, None)
            self._infos.pop(stream, None)
        return found is not None or bool(positions)

    @_sql_errors
    def put_entry(self, stream: str, info: Mapping[str, Any], version: int) -> bool:
        """Replace a stream's listing entry if it is still at ``version``."""
        self._check_writable()
        with self._lock:
            db = self._writer
            db.execute("BEGIN IMMEDIATE")
            with _rolled_back(db):
                found = db.execute("SELECT 1 FROM streams WHERE stream=?", (stream,)).fetchone()
                if found is None or self._version(db, stream) != version:
                    db.execute("ROLLBACK")
                    return False
                _set_info(db, stream, info)
                db.execute("COMMIT")
            self._infos.pop(stream, None)
        return True

    @_sql_errors
    def due_matches(
        self, before: float, after: Due | None = None, limit: int = MAX_PAGE
    ) -> list[Due]:
        """Return the timed matches whose next expiry is at or before ``before``, earliest
        first, from the deadline index."""
        if not self._has_deadline:  # a file of an older gamehall opened read-only
            return []
        sql = "SELECT stream, deadline FROM streams WHERE deadline <= ?"
        args: list[Any] = [before]
        if after is not None:
            sql += " AND (deadline > ? OR (deadline = ? AND stream > ?))"
            args += [after.deadline, after.deadline, after.stream]
        sql += " ORDER BY deadline, stream LIMIT ?"
        rows = self._reader().execute(sql, [*args, max(limit, 0)]).fetchall()
        return [Due(stream, float(deadline)) for stream, deadline in rows]

    @_sql_errors
    def seat_tokens(self, stream: str) -> dict[int, bytes]:
        """Return the digest of each seat's token."""
        rows = (
            self._reader()
            .execute("SELECT seat, digest FROM seat_tokens WHERE stream=?", (stream,))
            .fetchall()
        )
        return {int(seat): bytes(digest) for seat, digest in rows}

    @_sql_errors
    def deleted_positions(self) -> list[tuple[int, int]]:
        """Return the deleted position ranges."""
        tables = {r[0] for r in self._reader().execute("SELECT name FROM sqlite_master")}
        if "deleted" not in tables:  # an older file opened read-only
            return []
        rows = self._reader().execute("SELECT first, last FROM deleted ORDER BY first")
        return [(int(a), int(b)) for a, b in rows]

    @_sql_errors
    def save_player(self, player: PlayerRecord) -> None:
        """Insert or replace a player."""
        self._check_writable()
        with self._lock:
            try:
                self._writer.execute(
                    "INSERT INTO players VALUES (?, ?, ?, ?) ON CONFLICT (id) DO UPDATE "
                    "SET digest=excluded.digest, name=excluded.name",
                    (player.id, player.digest, player.name, player.created),
                )
            except sqlite3.IntegrityError:
                raise GamehallError("another player already has this token") from None

    @_sql_errors
    def player(self, player_id: str) -> PlayerRecord | None:
        """Return a player by id."""
        row = (
            self._reader()
            .execute("SELECT id, digest, name, created FROM players WHERE id=?", (player_id,))
            .fetchone()
        )
        return PlayerRecord(row[0], bytes(row[1]), row[2], row[3]) if row else None

    @_sql_errors
    def player_by_digest(self, digest: bytes) -> PlayerRecord | None:
        """Return a player by token digest."""
        row = (
            self._reader()
            .execute("SELECT id, digest, name, created FROM players WHERE digest=?", (digest,))
            .fetchone()
        )
        return PlayerRecord(row[0], bytes(row[1]), row[2], row[3]) if row else None

    # -- snapshots --------------------------------------------------------------------------

    @_sql_errors
    def save_snapshot(self, snapshot: Snapshot) -> None:
        """Replace a stream's snapshot."""
        self._check_writable()
        with self._lock:
            self._writer.execute(
                "INSERT OR REPLACE INTO snapshots VALUES (?, ?, ?, ?)",
                (snapshot.stream, snapshot.seq, snapshot.key, snapshot.data),
            )

    @_sql_errors
    def load_snapshot(self, stream: str) -> Snapshot | None:
        """Return a stream's snapshot."""
        row = (
            self._reader()
            .execute("SELECT seq, key, data FROM snapshots WHERE stream=?", (stream,))
            .fetchone()
        )
        return Snapshot(stream, row[0], row[1], row[2]) if row else None

    # -- checks -----------------------------------------------------------------------------

    def raw_rows(self) -> Iterator[RawRow]:
        """Yield every row undecoded, in (stream, seq) order."""
        columns = [r[1] for r in self._reader().execute("PRAGMA table_info(events)")]
        if not columns:
            return
        crc = "crc" if "crc" in columns else "NULL"
        rows = self._reader().execute(
            f"SELECT stream, seq, position, type, v, data, meta, {crc} FROM events "
            "ORDER BY stream, seq"
        )
        for row in rows:
            if crc == "NULL" and isinstance(row[5], bytes) and isinstance(row[6], bytes):
                # A schema-1 file opened read-only: its rows have no checksum yet.
                row = (*row[:7], checksum(row[0], row[1], row[3], row[4], row[5], row[6]))
            yield RawRow(*row)

    def check(self, progress: Callable[[int], None] | None = None) -> list[Problem]:
        """Run SQLite's full ``integrity_check``, then check every row and the event chains."""
        problems: list[Problem] = []
        try:
            found = report_lines(r[0] for r in self._reader().execute("PRAGMA integrity_check(20)"))
            if found != ["ok"]:
                problems += [Problem(None, None, f"integrity_check: {line}") for line in found]
            deleted = self.deleted_positions()
            problems += check_rows(self.codec, self.raw_rows(), progress, deleted)
        except sqlite3.Error as exc:
            problems.append(Problem(None, None, f"reading the file failed: {exc}"))
        return problems

    def release_memory(self) -> None:
        """Empty the writer's page cache (``PRAGMA shrink_memory``): up to
        ``WRITER_CACHE_KIB`` that the pages of many active matches filled, kept at rest for no
        one. The next commits read the pages they need again (from the system's file cache)."""
        with self._lock:
            if not self._closed:
                self._writer.execute("PRAGMA shrink_memory")
                if self._commit_writer is not None:
                    self._commit_writer.release_memory()

    def close(self) -> None:
        """Close every connection."""
        if self._closed:
            return
        self._closed = True
        with self._lock:
            for held in list(self._threads):
                held.close()
            if self._commit_writer is not None:
                self._commit_writer.close()  # after the commit it runs, if any
            self._writer.close()


class _Overlapped:
    """An SQLite store's commits for the journal: planned on the loop, committed by the writer
    in C, heard through its pipe (see :class:`~gamehall.core.store.base.Overlapped`)."""

    def __init__(
        self, store: SQLiteStore, writer: CommitWriter, loop: asyncio.AbstractEventLoop
    ) -> None:
        self._store, self._writer, self._loop = store, writer, loop
        self._landed: tuple[asyncio.Future[list[Written | GamehallError] | None], CommitPlan]
        self._landed = None  # type: ignore[assignment]
        self._fd = writer.fileno()
        loop.add_reader(self._fd, self._heard)

    async def open(self) -> None:
        """Nothing to wait for: the writer is there."""

    def start(
        self, encoded: Sequence[Encoded | GamehallError]
    ) -> asyncio.Future[list[Written | GamehallError] | None] | None:
        store = self._store
        plan = store.plan_commit(encoded)
        if plan is None:
            return None
        try:
            self._writer.submit(plan.base_sql, plan.ops, plan.guard)
        except Exception:  # noqa: BLE001 - a value the writer does not take: write() says which
            return None
        future: asyncio.Future[list[Written | GamehallError] | None] = self._loop.create_future()
        self._landed = (future, plan)
        return future

    def _heard(self) -> None:  # the writer's byte: its commit is over
        answer = self._writer.result()
        if answer is None or self._landed is None:
            return
        (future, plan), self._landed = self._landed, None  # type: ignore[assignment]
        if not future.done():
            future.set_result(self._store.end_commit(plan, answer))

    def close(self) -> None:
        self._loop.remove_reader(self._fd)


def report_lines(reported: Iterable[str]) -> list[str]:
    """Return SQLite's check report as one line per problem."""
    out = []
    for text in reported:
        out += [line.strip() for line in str(text).splitlines() if line.strip()]
    return [line for line in out if not line.startswith("***")]


def _add_checksums(db: sqlite3.Connection) -> None:
    """Give every row of a schema-1 file its checksum (inside the caller's transaction)."""
    db.execute("ALTER TABLE events ADD COLUMN crc INTEGER")
    rows = db.execute("SELECT stream, seq, type, v, data, meta FROM events").fetchall()
    db.executemany(
        "UPDATE events SET crc=? WHERE stream=? AND seq=?",
        (
            (checksum(stream, seq, tag, v, bytes(data), bytes(meta)), stream, seq)
            for stream, seq, tag, v, data, meta in rows
        ),
    )


def _entry(stream: str, version: Any, created: float, updated: Any, info: Any) -> StreamInfo:
    return StreamInfo(
        stream,
        int(version or 0),
        created,
        created if updated is None else updated,
        msgspec.msgpack.decode(info) if info else {},
    )


def _info_of(db: sqlite3.Connection, stream: str) -> dict[str, Any] | None:
    row = db.execute("SELECT info FROM streams WHERE stream=?", (stream,)).fetchone()
    if row is None:
        return None
    info: dict[str, Any] = msgspec.msgpack.decode(row[0]) if row[0] else {}
    return info


def _set_info(
    db: sqlite3.Connection, stream: str, info: Mapping[str, Any], players_too: bool = True
) -> None:
    """Write a stream's info with its indexed columns (inside the caller's transaction);
    ``players_too`` False leaves its players' index as it is (the change names no seat)."""
    game, finished, open_seats, players = listed(info)
    db.execute(
        _SET_INFO, (msgspec.msgpack.encode(dict(info)), game, int(finished), open_seats, stream)
    )
    if not players_too:
        return
    db.execute("DELETE FROM stream_players WHERE stream=?", (stream,))
    db.executemany(
        "INSERT INTO stream_players VALUES (?, ?)", [(player, stream) for player in players]
    )


def _add_recorded_versions(db: sqlite3.Connection) -> None:
    """Give a streams table the seq each stream's last write ended at, from its rows.

    A gamehall that does not know the column leaves it behind when it writes: a stream's rows
    may then end after it (never checked), but never before it unless rows were lost.
    """
    columns = {r[1] for r in db.execute("PRAGMA table_info(streams)")}
    if "version" in columns:
        return
    db.execute("ALTER TABLE streams ADD COLUMN version INTEGER")
    db.execute(
        "UPDATE streams SET version=(SELECT max(seq) FROM events e WHERE e.stream=streams.stream)"
    )


def _add_deadlines(db: sqlite3.Connection, codec: Codec) -> None:
    """Give a streams table the next clock expiry of each timed match (the turn clocks' sweep
    reads it), from the clocks its last event records: a file of an older gamehall."""
    columns = {r[1] for r in db.execute("PRAGMA table_info(streams)")}
    if "deadline" in columns:
        return
    db.execute("ALTER TABLE streams ADD COLUMN deadline REAL")
    rows = db.execute(_LAST_METAS).fetchall()
    db.executemany(
        "UPDATE streams SET deadline=? WHERE stream=?",
        [
            (deadline, stream)
            for stream, info, seq, meta in rows
            if (deadline := stored_deadline(codec, stream, info, seq, meta, _earlier(db)))
            is not None
        ],
    )


def _earlier(db: sqlite3.Connection) -> Callable[[str, int], Iterable[tuple[int, bytes]]]:
    def rows(stream: str, seq: int) -> Iterable[tuple[int, bytes]]:
        yield from db.execute(
            "SELECT seq, meta FROM events WHERE stream=? AND seq<? ORDER BY seq DESC",
            (stream, seq),
        )

    return rows


# The last event of each running match, where a timed one records its clocks.
_LAST_METAS = """SELECT s.stream, s.info, e.seq, e.meta FROM streams s JOIN events e
ON e.stream = s.stream AND e.seq = (SELECT max(seq) FROM events x WHERE x.stream = s.stream)
WHERE NOT s.finished"""


def _add_listed_columns(db: sqlite3.Connection) -> None:
    """Give an older file's streams table the lobby's columns, filled from each info."""
    columns = {r[1] for r in db.execute("PRAGMA table_info(streams)")}
    missing = [name for name in LISTED_COLUMNS if name not in columns]
    if not missing:
        return
    for name in missing:
        db.execute(f"ALTER TABLE streams ADD COLUMN {name} {LISTED_COLUMNS[name]}")
    for stream, info in db.execute("SELECT stream, info FROM streams").fetchall():
        _set_info(db, stream, msgspec.msgpack.decode(info) if info else {})
