"""The event store port: what every backend (memory, SQLite, PostgreSQL) provides.

Streams are matches. ``append`` writes a batch atomically if the stream is still at the
expected version, and raises :class:`ConcurrencyError` otherwise; seqs start at 1 and are never
reused or reset. Every event also gets a global position, increasing in commit order, for
subscribers that follow the whole store. ``append_many`` commits the batches of many streams in
one transaction (group commit); a conflict fails only its own batch.
"""

from __future__ import annotations

import asyncio
import itertools
import operator
import threading
import zlib
from abc import ABC, abstractmethod
from collections.abc import Awaitable, Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import AbstractContextManager, contextmanager, nullcontext
from typing import Any, Protocol, Self

import msgspec

from ..codec import Codec
from ..errors import ConcurrencyError, CorruptRecord, DuplicateMatch, GamehallError, InvalidQuery
from ..events import Event, Meta, Recorded

fast_check_rows: Callable[..., dict[str, tuple[int, int]] | None] | None
fast_joined: Callable[[list[tuple[Any, ...]]], bytes | None] | None
fast_encode_rows: Callable[..., list[Row]] | None
try:  # the checksum loop of replay in C, built where gamehall was installed with a compiler
    from ._rowcheck import check_rows as fast_check_rows
    from ._rowcheck import encode_rows as fast_encode_rows
    from ._rowcheck import joined_payloads as fast_joined
except ImportError:  # pragma: no cover - the same loops in Python (_check_rows) serve
    fast_check_rows = fast_joined = fast_encode_rows = None
_PLAIN = (list, tuple)  # the sequences of events the C encoder takes


class AppendRequest(msgspec.Struct, frozen=True, gc=False):
    """A batch for one stream: its events and their metadata, if it is at ``expected``.

    ``info`` is the stream's listing entry when the batch creates it; on a later batch its keys
    are merged into the entry in the same transaction (a key set to ``None`` is removed).
    ``tokens`` are seat credentials, (seat, digest of the token), recorded in the same
    transaction: a seat and the token that acts for it are stored together or not at all.
    """

    stream: str
    expected: int
    events: Sequence[Event]
    metas: Sequence[Meta]
    info: dict[str, Any] | None = None
    tokens: Sequence[tuple[int, bytes]] = ()


Row = tuple[str, int, bytes, bytes, str | None, int]  # tag, version, data, meta, mark, checksum


def checksum(stream: str, seq: int, tag: str, version: int, data: bytes, meta: bytes) -> int:
    """Return the CRC-32 a stored row carries: of where it sits and of everything it holds.

    Every backend stores it beside the row and checks it on every read, so a row changed
    after it was written (by hand, by a bad disk) is found before anything decodes it.
    """
    head = f"{stream}\x00{seq}\x00{tag}\x00{version}\x00{len(data)}\x00".encode()
    return zlib.crc32(meta, zlib.crc32(data, zlib.crc32(head)))


def encode_rows(
    start: int,
    expected: int,
    events: Sequence[Any],
    metas: Sequence[Any],
    tags: Mapping[type, tuple[str, int]],
    encode_event: Callable[[Any], bytes],
    encode_meta: Callable[[Any], bytes],
) -> list[Row]:
    """Return a batch's rows for the writer, seq ``expected`` + 1 on: (tag, version, payload,
    metadata, mark, checksum), the checksum begun at ``start`` (the CRC-32 of the stream id
    and a NUL; see :func:`checksum`). ``_rowcheck.encode_rows`` does the same in C."""
    crc32 = zlib.crc32
    rows: list[Row] = []
    seq = expected
    for event, meta in zip(events, metas, strict=True):
        seq += 1
        tag, version = tags[type(event)]
        data, packed = encode_event(event), encode_meta(meta)
        head = b"%d\x00%b\x00%d\x00%d\x00" % (seq, tag.encode(), version, len(data))
        crc = crc32(packed, crc32(data, crc32(head, start)))
        mark = None if meta.command is None else (meta.command_id or "")  # batch_mark
        rows.append((tag, version, data, packed, mark, crc))
    return rows


def check_row(
    stream: str, seq: int, tag: str, version: int, data: Any, meta: Any, crc: int | None
) -> None:
    """Raise :class:`CorruptRecord` unless a stored row still has the checksum it was written with."""
    if not isinstance(data, bytes) or not isinstance(meta, bytes):
        raise CorruptRecord(stream, seq, "the payload is not bytes")
    if crc is None or checksum(stream, seq, tag, version, data, meta) != crc:
        raise CorruptRecord(stream, seq, "checksum mismatch: the row changed after it was written")


def checked_rows(stream: str, rows: Sequence[tuple[Any, ...]], after: int) -> list[tuple[Any, ...]]:
    """Return rows (seq, tag, version, data, meta, crc, …) read from ``after`` on, each one
    checked: the fast path of replay, one loop for every check. The rows are returned as they
    are (their first four fields are what :meth:`Codec.decode_events` reads).

    The same CRC as :func:`checksum`, continued from the stream's part (computed once).
    """
    out = []
    expected = after + 1
    crc32 = zlib.crc32
    start = crc32(f"{stream}\x00".encode())
    tags: dict[str, bytes] = {}
    for row in rows:
        seq, tag, version, data, meta, crc = row[0], row[1], row[2], row[3], row[4], row[5]
        if seq != expected:
            check_seqs(stream, [seq], expected - 1)
        expected = seq + 1
        try:
            name = tags.get(tag)
            if name is None:
                name = tags[tag] = tag.encode()
            head = b"%d\x00%b\x00%d\x00%d\x00" % (seq, name, version, len(data))
            sound = crc == crc32(meta, crc32(data, crc32(head, start)))
        except (TypeError, AttributeError):  # a payload or a type that is not what it should be
            sound = False
        if not sound:
            check_row(stream, seq, tag, version, data, meta, crc)
        out.append(row)
    return out


_background = threading.local()


@contextmanager
def in_background() -> Iterator[None]:
    """Mark the store reads this thread makes meanwhile as background work (a cold activation
    read off the event loop): a store may pause between the parts of a long read, so that the
    matches being played get the CPU first."""
    before = reading_in_background()
    _background.on = True
    try:
        yield
    finally:
        _background.on = before


def reading_in_background() -> bool:
    """Whether this thread's reads are background work (see :func:`in_background`)."""
    return getattr(_background, "on", False)


def check_recorded(stream: str, last: int, recorded: int | None) -> None:
    """Raise :class:`CorruptRecord` if a stream's rows end (at ``last``) before the version
    its last write recorded: its tail was lost (a flipped stream key, a row deleted by hand),
    and the match would otherwise serve as a shorter one and refuse every command."""
    if recorded is not None and type(recorded) is not int:
        raise CorruptRecord(stream, last, f"its listing's version is not a number: {recorded!r}")
    if recorded is not None and last < recorded:
        raise CorruptRecord(
            stream,
            last + 1,
            f"the events after seq {last} are missing: the match was written up to seq {recorded}",
        )


def check_snapshot(stream: str, snapshot: Snapshot, version: int) -> None:
    """Raise :class:`CorruptRecord` if a snapshot follows the stream's last event: it is written
    after its events are committed, so the events up to its seq were lost."""
    if snapshot.seq > version:
        raise CorruptRecord(
            stream,
            version + 1,
            f"the events after seq {version} are missing (a snapshot was taken at seq "
            f"{snapshot.seq})",
        )


def loaded(
    codec: Codec,
    stream: str,
    rows: Sequence[tuple[Any, ...]],
    marks: Sequence[tuple[int, str | None]],
    after: int,
    snapshot: Snapshot | None = None,
    between: int | None = None,
) -> Loaded:
    """Return a :class:`Loaded` from what a backend read of a stream in one consistent state:
    ``rows``, the first row and those after ``after`` (the snapshot's seq when there is one),
    each (seq, type, v, data, meta, crc, cmd, …), and ``marks``, (seq, cmd) of the rows in
    between, all in seq order.

    The seqs of the whole stream are checked (from 1, no gap) and every row with a payload
    against its checksum before it is decoded; the rows in between give their command ids only.
    A backend that checked the rows in between itself (they are seqs 2 to ``between``, none
    missing) gives ``between`` and no marks: the commands that begin at or before it are then
    left out (``Loaded.ids_after``).
    """
    decode = codec.decode_events
    if not marks and after <= 1 and snapshot is None:  # the whole match, as most are read
        if not rows:
            return Loaded(None, [], {})
        checked = checked_rows(stream, rows, 0)  # from seq 1: no gap, no edit
        events = decode(checked[max(after, 0) :], stream)
        started = events[0] if after < 1 else decode(checked[:1], stream)[0]
        commands = command_ranges((row[0], row[6]) for row in rows)
        return Loaded(started, events, commands, after, None, _last_meta(codec, stream, rows[-1]))
    if not rows and not marks:
        return Loaded(None, [], {})
    if not rows or rows[0][0] != 1:
        check_seqs(stream, [rows[0][0] if rows else marks[0][0]], 0)  # seq 1 is missing
    first, tail = rows[0], rows[1:]
    start = max(after, 1)
    if between is not None:  # the backend checked seqs 2..between itself
        end = between
    else:
        end = marks[-1][0] if marks else 1  # the last seq before the tail
        if len(marks) != end - 1:  # unique seqs in 2..end: all there exactly when end - 1
            check_seqs(stream, (seq for seq, _ in marks), 1)
    if end < start and tail:
        check_seqs(stream, [tail[0][0]], end)
    if snapshot is not None and not tail:
        check_snapshot(stream, snapshot, end)
    head = decode(checked_rows(stream, [first], 0), stream)[0]
    events = decode(checked_rows(stream, tail, start), stream)
    if after < 1:
        events.insert(0, head)
    ids_after = 0
    if between is not None and end > 1:  # the commands that begin after ``end`` only
        ids_after = end
        commands = command_ranges(itertools.chain([(end, "")], [(row[0], row[6]) for row in tail]))
    else:
        commands = command_ranges(
            itertools.chain([(1, first[6])], marks, [(row[0], row[6]) for row in tail])
        )
    last = tail[-1] if tail else first if end == 1 else None
    meta = _last_meta(codec, stream, last) if last is not None else None
    return Loaded(head, events, commands, after, snapshot, meta, ids_after=ids_after)


def whole_stream(codec: Codec, stream: str, rows: Sequence[tuple[Any, ...]]) -> Loaded | None:
    """Check and decode a whole stream's rows (payload, metadata, checksum, command mark) from
    seq 1 in seq order: the fast path of replay.
    Return it as :func:`loaded` would with ``after`` 1; ``None`` when a row is not sound or
    not of today's class, for :func:`loaded` to upcast it or to say what is wrong.

    The payloads decode in one call (in parts for a long match); then every row's CRC-32 is
    computed with the seq its place gives it and the type and version of the event decoded
    at its place, so a row that matches its checksum is at its seq (no gap, no repeat), holds
    the bytes it was written with, and names that event in today's class version. Nothing
    decoded is handed out before every row has matched. The joined decode does not prove
    where one payload ends: rows rewritten with checksums made anew could split the same
    bytes otherwise, which needs the power to store any event anyway.
    """
    fast = fast_check_rows is not None and type(rows) is list
    if fast and fast_joined is not None and len(rows) <= DECODE_CHUNK:
        joined = fast_joined(rows)  # type: ignore[arg-type]
        events = None if joined is None else codec.decode_array(joined)
    elif len(rows) <= DECODE_CHUNK:
        events = codec.decode_joined(list(map(_FIRST, rows)))
    else:  # one C call holds the GIL: a long match decodes in parts, the loop runs between
        payloads = list(map(_FIRST, rows))
        events = []
        for at in range(0, len(payloads), DECODE_CHUNK):
            part = codec.decode_joined(payloads[at : at + DECODE_CHUNK])
            if part is None:
                return None
            events += part
    if events is None or len(events) != len(rows):
        return None
    start = whole_stream_start(stream)
    if fast and fast_check_rows is not None:
        commands = fast_check_rows(rows, events, codec.row_heads, start)
        if commands is None:
            return None
        seq = len(rows)
    else:
        checked = _check_rows(rows, events, codec.row_heads, start)
        if checked is None:
            return None
        commands, seq = checked
    return whole_checked(codec, stream, events, commands, rows[-1][1])


def whole_stream_start(stream: str) -> int:
    """Return the CRC-32 every row checksum of ``stream`` begins with (its id and a NUL)."""
    return zlib.crc32(stream.encode() + b"\x00")


def whole_checked(
    codec: Codec,
    stream: str,
    events: list[Any],
    commands: dict[str, tuple[int, int]],
    last_meta: bytes,
    plain: bool | None = None,
) -> Loaded:
    """Return a whole stream's :class:`Loaded` from its decoded events once every row matched
    its checksum (by :func:`whole_stream`, or by the C reader of the SQLite store), its command
    ranges and the metadata of its last row; ``plain`` when the caller knows whether an event
    is of an unfolded class (:attr:`Codec.unfolded`)."""
    if plain is None:
        plain = codec.unfolded.isdisjoint(map(type, events))
    started = events.pop(0)
    last = codec.decode_meta(last_meta, stream, len(events) + 1)
    return Loaded(started, events, commands, 1, None, last, plain)


def _check_rows(
    rows: Sequence[tuple[Any, ...]],
    events: list[Any],
    heads: dict[type[Event], bytes],
    start: int,
) -> tuple[dict[str, tuple[int, int]], int] | None:
    """Check every row's checksum (see :func:`whole_stream`); return the command ranges and
    the last seq, ``None`` when a row does not match. The C module ``_rowcheck`` does the
    same where it was built; tests/core/test_rowcheck.py holds the two to one answer."""
    crc32 = zlib.crc32
    join = b"".join
    sized = _DECIMAL_0
    commands: dict[str, tuple[int, int]] = {}
    current: str | None = None
    first = 0
    seq = 0
    try:
        for (data, meta, crc, mark), event, number in zip(
            rows, events, _SEQS if len(rows) < _NUMBERS else _seqs()
        ):
            seq += 1
            size = len(data)
            spelt = sized[size] if size < _NUMBERS else b"%d\x00" % size
            if crc != crc32(join((number, heads[type(event)], spelt, data, meta)), start):
                return None
            if mark is not None:  # the first event of a command's batch ('' without an id)
                if current:
                    commands[current] = (first, seq - 1)
                current, first = mark, seq
    except (KeyError, TypeError):  # an event of no stored class; metadata that is not bytes
        return None
    if current:
        commands[current] = (first, seq)
    return commands, seq


def _seqs() -> Iterator[bytes]:
    """Return the decimals of seq 1, 2, … as a row's checksummed head spells them."""
    return (b"%d" % seq for seq in itertools.count(1))


_FIRST = operator.itemgetter(0)
DECODE_CHUNK = 2048  # payloads decoded in one call (0.2-1 ms of tic-tac-toe marks)
# The decimals a row's checksummed head spells (its seq, its payload's length), made once.
_NUMBERS = 1024
_DECIMAL = tuple(b"%d" % n for n in range(_NUMBERS))
_DECIMAL_0 = tuple(b"%d\x00" % n for n in range(_NUMBERS))
_SEQS = _DECIMAL[1:]


def _last_meta(codec: Codec, stream: str, row: tuple[Any, ...]) -> Meta:
    return codec.decode_meta(row[4], stream, row[0])


def command_ranges(rows: Iterable[tuple[int, str | None]]) -> dict[str, tuple[int, int]]:
    """Return each command id with its seq range, from (seq, mark) of rows in seq order: the
    mark is the batch's command id on its first event ('' without one), None after it."""
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


def check_seqs(stream: str, seqs: Iterable[int], after: int) -> None:
    """Raise :class:`CorruptRecord` where the seqs read from ``after`` on skip one."""
    expected = after + 1
    for seq in seqs:
        if seq != expected:
            raise CorruptRecord(stream, expected, f"the event is missing (the next one is {seq})")
        expected += 1


class Encoded(msgspec.Struct, frozen=True, gc=False):
    """A batch ready for the writer: rows of (tag, version, payload, metadata, mark, checksum).

    ``deadline`` is the stream's next clock expiry after the batch (:func:`batch_deadline`):
    written beside its listing entry in the same transaction, unless it is ``UNSET``.
    """

    stream: str
    expected: int
    rows: list[Row]
    info: dict[str, Any] | None = None
    tokens: Sequence[tuple[int, bytes]] = ()
    deadline: float | None | msgspec.UnsetType = msgspec.UNSET


def batch_deadline(
    metas: Sequence[Meta], info: Mapping[str, Any] | None
) -> float | None | msgspec.UnsetType:
    """Return when a timed match's first running seat runs out of time after a batch: what
    the store keeps so that a match at rest needs nothing in memory to be woken then.

    A timed match records its clocks on the last event of every batch; a batch that ends the
    match (``finished`` in its listing changes) leaves no deadline (``None``), nor does one
    whose clocks run for no seat. A batch without clocks (an untimed match) leaves the
    stream's deadline as it is (``UNSET``).
    """
    if info and info.get("finished"):
        return None
    for meta in reversed(metas):
        if meta.clock is not None:
            return meta.clock.next_deadline()
    return msgspec.UNSET


def stored_deadline(
    codec: Codec,
    stream: str,
    info: Any,
    seq: int,
    meta: Any,
    earlier: Callable[[str, int], Iterable[tuple[int, Any]]],
) -> float | None:
    """Return a running match's next clock expiry from its last event (``seq``, ``meta``):
    for a store written before stores kept it (a migration in place).

    A timed match records its clocks on the last event of every batch; should the last one
    have none while the match's listing entry (``info``, encoded) names a clock, the events
    before it are looked at, last first (``earlier(stream, seq)`` gives their seq and
    metadata). ``None`` for an untimed match, and for one whose rows do not decode: its
    activation says what is wrong.
    """
    try:
        clock = codec.decode_meta(bytes(meta), stream, seq).clock
        entry = msgspec.msgpack.decode(bytes(info)) if info else {}
        if clock is None and isinstance(entry, dict) and entry.get("clock"):
            for before, data in earlier(stream, seq):
                clock = codec.decode_meta(bytes(data), stream, before).clock
                if clock is not None:
                    break
    except (GamehallError, msgspec.DecodeError, TypeError, ValueError):
        return None
    return None if clock is None else clock.next_deadline()


class Due(msgspec.Struct, frozen=True, gc=False):
    """A running timed match whose next clock expiry is ``deadline`` (Unix seconds)."""

    stream: str
    deadline: float


class Overlapped(Protocol):
    """A store's commits that need nothing of the event loop's thread while they run: the
    loop goes on deciding commands meanwhile (the journal's overlapped commits).

    ``start`` begins the commit of encoded batches at once, on the loop, and returns what to
    await for each batch's place, or ``None`` when this commit must go through
    :meth:`Store.write` (it needs a read first, say). What is awaited gives the places, or
    ``None`` when nothing of the commit was stored and :meth:`Store.write` is to do it, which
    checks each batch and says what is wrong; it raises what ``write`` would raise when the
    commit's fate is the error's (a lost connection). One commit at a time: the next
    ``start`` comes after the last one's answer. ``open`` is awaited before the first one
    (to connect, say); ``close`` lets go of the loop.
    """

    async def open(self) -> None: ...
    def start(
        self, encoded: Sequence[Encoded | GamehallError]
    ) -> Awaitable[list[Written | GamehallError] | None] | None: ...
    def close(self) -> None: ...


class Written(msgspec.Struct, frozen=True, gc=False):
    """Where a batch was written: the global position of its first event, and the time.

    ``positions``, when given, are the positions of all its events (a store whose positions
    come from a sequence shared by concurrent appends gives them with gaps between); without
    them the events follow the first one.
    """

    position: int
    time: float
    positions: tuple[int, ...] = ()


def batch_mark(meta: Meta) -> str | None:
    """Return the command id of a batch's first event ('' without one), None inside a batch."""
    if meta.command is None:
        return None
    return meta.command_id or ""


class Snapshot(msgspec.Struct, frozen=True):
    """A stream's state after ``seq``, encoded; ``key`` names the rules that can read it."""

    stream: str
    seq: int
    key: str
    data: bytes


class Loaded(msgspec.Struct):
    """A stream as activation reads it: its first event, the events after seq ``after`` and
    every command id. ``snapshot`` is the snapshot the events follow, when one was asked for
    and found (``after`` is then its seq)."""

    first: Event | None
    events: list[Event]
    commands: dict[str, tuple[int, int]]
    after: int = 1
    snapshot: Snapshot | None = None
    last: Meta | None = None
    """The metadata of the stream's last event, when the read reached it (a timed match's
    clock is there); ``None`` when a snapshot stands for the end of the stream."""
    plain: bool = False
    """True when no event of ``events`` is a take-back or a lobby event, so a fold may
    evolve them all (``engine.live`` would hand them back as they are)."""
    info: dict[str, Any] | None = None
    """The stream's listing entry's info, when the store read it with the events (in the same
    consistent state); ``None`` when it was not read."""
    ids_after: int = 0
    """The seq up to which ``commands`` lacks the command ids (those of the commands whose
    first event is at or before it: :meth:`Store.command_ids` has them); 0 when it holds
    every one."""


class StreamInfo(msgspec.Struct, frozen=True):
    """A stream as a listing shows it; ``info`` is what its first append recorded."""

    stream: str
    version: int
    created: float
    updated: float
    info: dict[str, Any] = {}


# The keys of a stream's info that every store indexes for :meth:`Store.find_matches`.
LISTED_KEYS = ("game", "finished", "open_seats", "seat_players")
MAX_PAGE = 500


class MatchQuery(msgspec.Struct, frozen=True):
    """Which matches a lobby wants: every filter given must hold. Newest first.

    ``finished`` True lists finished matches only, False the running ones; ``open_seats``
    True lists matches not finished with at least one seat nobody holds (False: none); ``player``
    lists the matches where that player id holds a seat. ``cursor`` is a page's ``next``.
    ``ended_after`` leaves out the finished matches whose last event is older (Unix seconds:
    the lobby's retention); ``idle_before`` lists only the matches whose last event is older
    (the lobby's expiry sweep).
    """

    game: str | None = None
    finished: bool | None = None
    open_seats: bool | None = None
    player: str | None = None
    cursor: str | None = None
    limit: int = 50
    ended_after: float | None = None
    idle_before: float | None = None


class MatchPage(msgspec.Struct, frozen=True):
    """One page of a listing: the matches, how many match the filters, and the next cursor."""

    matches: list[StreamInfo]
    total: int
    next: str | None = None


class PlayerRecord(msgspec.Struct, frozen=True):
    """A person who plays: an id shown to others, the digest of their token, a display name.

    ``name`` is ``None`` once erased (retention): the player keeps their seats and token.
    """

    id: str
    digest: bytes
    name: str | None
    created: float


def listed(info: Mapping[str, Any]) -> tuple[str | None, bool, int, list[str]]:
    """Return what a store indexes of an info map: game, finished, open seats, player ids."""
    players = info.get("seat_players") or []
    ids = sorted({p for p in players if isinstance(p, str)})
    return (
        info.get("game") if isinstance(info.get("game"), str) else None,
        bool(info.get("finished")),
        int(info.get("open_seats") or 0),
        ids,
    )


def merged(info: Mapping[str, Any], changes: Mapping[str, Any]) -> dict[str, Any]:
    """Return an info map with changes merged in (a key set to ``None`` goes away): the keys
    left as they were, then the changed ones, the order PostgreSQL's ``gamehall_info_merge``
    writes them in (so an entry merged here encodes to the bytes it would store)."""
    out = {key: value for key, value in info.items() if key not in changes}
    out.update((key, value) for key, value in changes.items() if value is not None)
    return out


def match_filters(
    query: MatchQuery, mark: str, prefix: str = "", updated: str | None = None
) -> tuple[str, list[Any]]:
    """Return the SQL condition and arguments of a lobby query's filters, for the SQL stores:
    ``mark`` is the driver's placeholder, ``prefix`` the streams table's alias (``"s."``),
    ``updated`` the expression of a stream's last event time (its ``updated`` column).
    Booleans go as Python's (SQLite keeps them as 0 and 1, which compare equal)."""
    terms: list[str] = []
    args: list[Any] = []
    if query.game is not None:
        terms.append(f"{prefix}game = {mark}")
        args.append(query.game)
    if query.finished is not None:
        terms.append(f"{prefix}finished = {mark}")
        args.append(bool(query.finished))
    if query.open_seats is not None:
        terms.append(f"({prefix}open_seats > 0 AND NOT {prefix}finished) = {mark}")
        args.append(bool(query.open_seats))
    if query.player is not None:
        terms.append(f"{prefix}stream IN (SELECT stream FROM stream_players WHERE player = {mark})")
        args.append(query.player)
    last = updated or f"{prefix}updated"
    if query.ended_after is not None:
        terms.append(f"(NOT {prefix}finished OR {last} >= {mark})")
        args.append(float(query.ended_after))
    if query.idle_before is not None:
        terms.append(f"{last} < {mark}")
        args.append(float(query.idle_before))
    return " AND ".join(terms) or "1 = 1", args


def check_query(query: MatchQuery) -> tuple[float, str] | None:
    """Refuse a query a store cannot answer; return where its cursor points, if anywhere."""
    if not isinstance(query.limit, int) or not 1 <= query.limit <= MAX_PAGE:
        raise InvalidQuery(f"limit must be 1 to {MAX_PAGE}, not {query.limit!r}")
    if query.cursor is None:
        return None
    created, sep, stream = query.cursor.partition("/")
    try:
        when = float(created)
    except ValueError:
        when = float("nan")
    if not sep or not stream or when != when:
        raise InvalidQuery(
            f"cursor {query.cursor[:80]!r} is not one a listing gave: pass a page's 'next'"
        )
    return when, stream


def cursor_of(entry: StreamInfo) -> str:
    """Return the cursor of the page that starts after ``entry``."""
    return f"{entry.created!r}/{entry.stream}"


def page_of(entries: Sequence[StreamInfo], total: int, query: MatchQuery) -> MatchPage:
    """Return a page from entries sorted newest first, one more than the limit if there are."""
    shown = list(entries[: query.limit])
    more = len(entries) > query.limit
    return MatchPage(shown, total, cursor_of(shown[-1]) if more and shown else None)


def position_ranges(positions: Iterable[int]) -> list[tuple[int, int]]:
    """Return sorted positions as (first, last) ranges of consecutive numbers."""
    out: list[tuple[int, int]] = []
    for position in sorted(positions):
        if out and out[-1][1] + 1 == position:
            out[-1] = (out[-1][0], position)
        else:
            out.append((position, position))
    return out


def conflict(stream: str, expected: int, actual: int) -> ConcurrencyError:
    """Return the error for an append at the wrong version."""
    if expected == 0:
        return DuplicateMatch(stream, expected, actual)
    return ConcurrencyError(stream, expected, actual)


class EventLog(ABC):
    """The event log: streams appended with an expected version, read back one stream at a time
    or all in commit order. ``codec`` encodes and decodes every row."""

    codec: Codec

    @abstractmethod
    def write(self, encoded: Sequence[Encoded | GamehallError]) -> list[Written | GamehallError]:
        """Commit encoded batches in one transaction; each gets its place or its error."""

    @abstractmethod
    def read(
        self, stream: str, after: int = 0, upto: int | None = None, limit: int | None = None
    ) -> list[Recorded]:
        """Return a stream's events with ``after < seq <= upto``, at most ``limit`` of them."""

    @abstractmethod
    def read_all(self, after: int = 0, limit: int | None = None) -> list[Recorded]:
        """Return events of every stream with ``position > after``, in global order."""

    @abstractmethod
    def version(self, stream: str) -> int:
        """Return the seq of a stream's last event (0 for a stream that does not exist)."""

    @abstractmethod
    def streams(self, after: str = "", limit: int | None = None) -> list[StreamInfo]:
        """Return the streams in id order."""

    @abstractmethod
    def stream_info(self, stream: str) -> StreamInfo | None:
        """Return one stream's listing entry, or ``None`` if it does not exist."""

    @abstractmethod
    def command_ids(self, stream: str) -> dict[str, tuple[int, int]]:
        """Return every command id of a stream with the first and last seq of its events."""

    @abstractmethod
    def delete_stream(self, stream: str) -> bool:
        """Delete a stream: its events, info, seat tokens and snapshot; return whether it existed.

        Its global positions are never given out again, and :meth:`check` knows them as
        deleted (:meth:`deleted_positions`) rather than missing.
        """

    def append(
        self,
        stream: str,
        expected: int,
        events: Sequence[Event],
        metas: Sequence[Meta] | None = None,
        info: dict[str, Any] | None = None,
        tokens: Sequence[tuple[int, bytes]] = (),
    ) -> list[Recorded]:
        """Append one batch; raise :class:`ConcurrencyError` if the stream moved.

        ``info`` creates or changes the stream's listing entry and ``tokens`` records seat
        tokens' digests, both in the same transaction as the events."""
        metas = metas if metas is not None else [Meta()] * len(events)
        request = AppendRequest(stream, expected, events, metas, info, tuple(tokens))
        result = self.append_many([request])[0]
        if isinstance(result, GamehallError):
            raise result
        return result

    def append_many(
        self, requests: Sequence[AppendRequest]
    ) -> list[list[Recorded] | GamehallError]:
        """Commit many batches in one transaction; each gets its records or its error."""
        return self.finish(requests, self.write(self.encode(requests)))

    def encode(self, requests: Sequence[AppendRequest]) -> list[Encoded | GamehallError]:
        """Encode batches into rows: pure CPU work, done before the writer takes them.

        Kept apart from :meth:`write` so that a caller with an event loop encodes on the loop
        and hands only SQL to the writer thread, which then barely holds the GIL.
        """
        codec = self.codec
        tags, heads = codec.tags, codec.row_heads
        encode_event, encode_meta = codec.encode_event, codec.encode_meta
        crc32 = zlib.crc32
        out: list[Encoded | GamehallError] = []
        for request in requests:
            events, metas = request.events, request.metas
            # The checksum of each row (see checksum), its stream's part computed once.
            start = crc32(f"{request.stream}\x00".encode())
            try:
                if (
                    fast_encode_rows is not None
                    and type(events) in _PLAIN
                    and type(metas) in _PLAIN
                ):
                    rows = fast_encode_rows(
                        start,
                        request.expected,
                        events,
                        metas,
                        tags,
                        heads,
                        encode_event,
                        encode_meta,
                    )
                else:
                    rows = encode_rows(
                        start, request.expected, events, metas, tags, encode_event, encode_meta
                    )
            except KeyError as exc:
                out.append(GamehallError(f"cannot store {exc}: no loaded plugin declares it"))
                continue
            except (TypeError, ValueError, OverflowError, msgspec.EncodeError) as exc:
                out.append(GamehallError(f"cannot encode an event of {request.stream!r}: {exc}"))
                continue
            deadline = batch_deadline(request.metas, request.info)
            out.append(
                Encoded(
                    request.stream, request.expected, rows, request.info, request.tokens, deadline
                )
            )
        return out

    def finish(
        self, requests: Sequence[AppendRequest], written: Sequence[Written | GamehallError]
    ) -> list[list[Recorded] | GamehallError]:
        """Return the records of each written batch (or its error)."""
        out: list[list[Recorded] | GamehallError] = []
        for request, place in zip(requests, written, strict=True):
            if isinstance(place, GamehallError):
                out.append(place)
                continue
            stream, seq, at = request.stream, request.expected, place.time
            events, metas = request.events, request.metas
            if len(events) == 1 and not place.positions:  # most commands store one event
                out.append([Recorded(stream, seq + 1, place.position, at, events[0], metas[0])])
                continue
            positions = place.positions or range(place.position, place.position + len(events))
            records = []
            for position, event, meta in zip(positions, events, metas, strict=True):
                seq += 1
                records.append(Recorded(stream, seq, position, at, event, meta))
            out.append(records)
        return out

    def read_events(self, stream: str, after: int = 0) -> list[Event]:
        """Return only the events after ``after`` (no envelopes): the fast path of replay."""
        return [r.event for r in self.read(stream, after)]


class Snapshots(ABC):
    """Snapshots: a stream's state after some seq, kept to shorten activation."""

    @abstractmethod
    def save_snapshot(self, snapshot: Snapshot) -> None:
        """Keep a snapshot (replacing an older one of the same stream)."""

    @abstractmethod
    def load_snapshot(self, stream: str) -> Snapshot | None:
        """Return a stream's latest snapshot."""


class LobbyReadModel(ABC):
    """The lobby and player read model: listing entries kept in step with the appends, their
    filters, seat tokens and player records."""

    @abstractmethod
    def find_matches(self, query: MatchQuery) -> MatchPage:
        """Return one page of the streams that pass every filter of ``query``, newest first
        (by creation time, then id); raise :class:`InvalidQuery` for a limit or cursor that
        :func:`check_query` refuses."""

    @abstractmethod
    def put_entry(self, stream: str, info: Mapping[str, Any], version: int) -> bool:
        """Replace a stream's listing entry with one rebuilt from its log up to ``version``,
        re-indexed, if the stream is still at ``version``; tell whether it was written (an
        append meanwhile made the rebuilt entry stale: nothing is written)."""

    @abstractmethod
    def due_matches(
        self, before: float, after: Due | None = None, limit: int = MAX_PAGE
    ) -> list[Due]:
        """Return the running timed matches whose next clock expiry is at or before
        ``before``, earliest first (then by id), at most ``limit`` of them, starting past
        ``after`` (the last of the page before).

        Every append records its stream's expiry (:func:`batch_deadline`) in its own
        transaction: the turn clocks' sweep asks this instead of keeping an entry in memory
        for each timed match at rest."""

    @abstractmethod
    def seat_tokens(self, stream: str) -> dict[int, bytes]:
        """Return the digest of the token of each seat that has one (appends record them)."""

    @abstractmethod
    def save_player(self, player: PlayerRecord) -> None:
        """Store a player, or replace the one with the same id (its digest stays unique)."""

    @abstractmethod
    def player(self, player_id: str) -> PlayerRecord | None:
        """Return a player by id."""

    @abstractmethod
    def player_by_digest(self, digest: bytes) -> PlayerRecord | None:
        """Return the player whose token has this digest."""


class Checks(ABC):
    """Checks: every stored row undecoded, and the positions deleted on purpose."""

    codec: Codec

    @abstractmethod
    def raw_rows(self) -> Iterator[RawRow]:
        """Yield every stored row undecoded, in (stream, seq) order: what :meth:`check` reads."""

    @abstractmethod
    def deleted_positions(self) -> list[tuple[int, int]]:
        """Return the (first, last) ranges of global positions whose events were deleted."""

    def check(self, progress: Callable[[int], None] | None = None) -> list[Problem]:
        """Check every row: its checksum, that it decodes, no seq or position missing.

        A store gives more where it can (SQLite adds its own ``integrity_check``).
        """
        return check_rows(self.codec, self.raw_rows(), progress, self.deleted_positions())


class Coordination(ABC):
    """Several nodes on one store: following commits, notifications and leases. A store that is
    not shared has one node and keeps these defaults."""

    @property
    def shared(self) -> bool:
        """Tell whether other nodes write to this store too (a hall then follows them)."""
        return False

    def position(self) -> int:
        """Return the global position of the last committed event (a shared store's)."""
        raise NotImplementedError("only a shared store is followed by position")

    def changes(self, after: int, limit: int = 10_000) -> tuple[int, dict[str, int]]:
        """Return the last position seen and each stream's last seq after ``after``."""
        raise NotImplementedError("only a shared store is followed by position")

    def follow(self, after: int, limit: int = 10_000) -> tuple[int, dict[str, int], bool]:
        """Return :meth:`changes` and whether more may follow at once: a follower reads again
        only then (by default whenever anything was read; a store that knows the page was not
        full says so)."""
        last, heads = self.changes(after, limit)
        return last, heads, last != after

    def wait_for_commits(self, timeout: float) -> bool:
        """Wait up to ``timeout`` seconds for another node's commit (blocking)."""
        raise NotImplementedError("only a shared store notifies commits")

    def heard_streams(self) -> set[str] | None:
        """Return the streams that the commits :meth:`wait_for_commits` heard of wrote, and
        forget them; ``None`` when the store cannot tell (any stream may have changed)."""
        return None

    def try_lease(self, match: str) -> bool:
        """Take a match's lease for this node if it is free; tell whether it is ours.

        The work of a match that belongs to no person (bot seats, turn clocks) runs only
        where its lease is held. A store that is not shared has one node: it always is.
        """
        return True

    def release_lease(self, match: str) -> None:
        """Give up a match's lease (its actor stopped on this node)."""


class Store(EventLog, Snapshots, LobbyReadModel, Checks, Coordination):
    """A whole backend: the event log, snapshots, the lobby read model, checks and, for a shared
    store, coordination. Each part is a small interface with its own contract suite in
    :mod:`gamehall.core.testing.store`."""

    codec: Codec

    def forget(self, stream: str) -> None:
        """Drop what the store keeps in memory for a match whose actor stopped (a cached
        version): a match at rest costs the node nothing. Nothing by default."""

    def load_stream(self, stream: str, after: int = 1, snapshot: bool = False) -> Loaded:
        """Return what activating a match needs: its first event, the events after ``after``
        and its command ids (``first`` is ``None`` for a stream that does not exist).

        With ``snapshot``, a snapshot after ``after`` is returned too and only the events
        after it are read and decoded (a backend reads the rows before it for their seqs and
        command ids alone). A snapshot beyond the stream's last event means events were lost
        after it: :class:`CorruptRecord`.
        """
        snap = self.load_snapshot(stream) if snapshot else None
        if snap is not None and snap.seq <= after:
            snap = None
        start = after if snap is None else snap.seq
        head = self.read(stream, 0, 1)
        events = self.read_events(stream, start)
        if snap is not None and not events:
            check_snapshot(stream, snap, self.version(stream))
        return Loaded(
            head[0].event if head else None, events, self.command_ids(stream), start, snap
        )

    def reading_many(self) -> AbstractContextManager[None]:
        """Mark a block of many reads on this thread (rebuilding every stored match): the
        store may read them all from one state of itself, begun by the block's first read, so
        that a write committed meanwhile may not be seen. For stored matches, never live ones;
        keep the block short (on SQLite it holds back the checkpoint). Nothing by default."""
        return nullcontext()

    @property
    def threaded(self) -> bool:
        """Tell whether appends block on I/O and should run in a worker thread."""
        return False

    def overlapped(self, loop: asyncio.AbstractEventLoop) -> Overlapped | None:
        """Commits that run while ``loop`` goes on (see :class:`Overlapped`), if the store
        has them; the journal then overlaps its commits with the loop's work."""
        return None

    def release_memory(self) -> None:
        """Give back what the store keeps in memory only for speed (caches), once many
        matches have gone to rest; it fills again as it is used. May wait for a write in
        progress: call it off the event loop."""

    def close(self) -> None:
        """Release the store's resources; it cannot be used afterwards."""

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class RawRow(msgspec.Struct, frozen=True, array_like=True, gc=False):
    """A stored row as it sits in the store, for checks."""

    stream: str
    seq: int
    position: int
    tag: str
    version: int
    data: Any
    meta: Any
    crc: int | None


class Problem(msgspec.Struct, frozen=True):
    """One thing a store check found wrong; ``stream`` is ``None`` for the store as a whole."""

    stream: str | None
    seq: int | None
    message: str

    def __str__(self) -> str:
        where = "store" if self.stream is None else f"match {self.stream!r}"
        if self.seq is not None:
            where += f" seq {self.seq}"
        return f"{where}: {self.message}"


def check_rows(
    codec: Codec,
    rows: Iterable[RawRow],
    progress: Callable[[int], None] | None = None,
    deleted: Sequence[tuple[int, int]] = (),
) -> list[Problem]:
    """Check rows given in (stream, seq) order; return every problem found.

    ``deleted`` are ranges of positions whose events were deleted on purpose (a match an
    operator removed): they are not reported missing.
    """
    problems: list[Problem] = []
    positions: list[int] = []
    stream, expected = None, 1
    for count, row in enumerate(rows, 1):
        if row.stream != stream:
            stream, expected = row.stream, 1
        if row.seq != expected:
            missing = f"{expected}" if row.seq == expected + 1 else f"{expected} to {row.seq - 1}"
            problems.append(Problem(row.stream, expected, f"events {missing} are missing"))
        expected = row.seq + 1
        positions.append(row.position)
        try:
            check_row(row.stream, row.seq, row.tag, row.version, row.data, row.meta, row.crc)
            codec.decode_event(row.tag, row.version, row.data, row.stream, row.seq)
            codec.decode_meta(row.meta, row.stream, row.seq)
        except GamehallError as exc:
            problems.append(Problem(row.stream, row.seq, _reason(exc)))
        if progress is not None and count % 10_000 == 0:
            progress(count)
    for first, last in deleted:
        positions.extend(range(first, last + 1))
    positions.sort()
    gaps = [(a, b) for a, b in itertools.pairwise(positions) if b != a + 1]
    if positions and positions[0] != 1:
        gaps.insert(0, (0, positions[0]))
    for before, after in gaps[:10]:
        problems.append(
            Problem(None, None, f"global positions {before + 1} to {after - 1} are missing "
                    "(events were deleted)" if after > before else f"position {after} is repeated")
        )  # fmt: skip
    return problems


def _reason(exc: GamehallError) -> str:
    return str(getattr(exc, "reason", None) or exc)


def batch_command_ids(records: Sequence[Recorded]) -> dict[str, tuple[int, int]]:
    """Return the seq range of each command id in some records."""
    out: dict[str, tuple[int, int]] = {}
    for record in records:
        cid = record.meta.command_id
        if cid is not None:
            first = out.get(cid, (record.seq, record.seq))[0]
            out[cid] = (first, record.seq)
    return out
