"""An in-memory store: the contract without the disk, for tests, tables and embedding.

Events are kept encoded, exactly as SQLite keeps them, so an event that cannot be encoded or
decoded fails here too.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

import msgspec

from ..codec import Codec
from ..errors import GamehallError, StoreClosed
from ..events import Event, Recorded
from .base import (
    MAX_PAGE,
    Due,
    Encoded,
    Loaded,
    MatchPage,
    MatchQuery,
    PlayerRecord,
    RawRow,
    Snapshot,
    Store,
    StreamInfo,
    Written,
    check_query,
    check_row,
    check_snapshot,
    command_ranges,
    conflict,
    listed,
    merged,
    page_of,
    position_ranges,
)

# position, time, tag, version, data, meta, checksum, mark (the batch's command id, see batch_mark)
_Row = tuple[int, float, str, int, bytes, bytes, int, str | None]


class MemoryStore(Store):
    """Streams in dicts; one lock-free writer (the caller's thread)."""

    def __init__(self, codec: Codec) -> None:
        self.codec = codec
        self._streams: dict[str, list[_Row]] = {}
        self._info: dict[str, StreamInfo] = {}
        self._global: list[tuple[str, int] | None] = []  # None: a deleted match's event
        self._snapshots: dict[str, Snapshot] = {}
        self._tokens: dict[str, dict[int, bytes]] = {}
        self._players: dict[str, PlayerRecord] = {}
        self._deadlines: dict[str, float] = {}  # the next clock expiry of each timed match
        self._closed = False
        self._lock = threading.Lock()

    def _check_open(self) -> None:
        if self._closed:
            raise StoreClosed("the store is closed")

    def write(self, encoded: Sequence[Encoded | GamehallError]) -> list[Written | GamehallError]:
        """Append each batch whose stream is at its expected version."""
        with self._lock:
            self._check_open()
            now = time.time()
            return [self._write(batch, now) for batch in encoded]

    def _write(self, batch: Encoded | GamehallError, now: float) -> Written | GamehallError:
        if isinstance(batch, GamehallError):
            return batch
        stream = batch.stream
        rows = self._streams.get(stream)
        if len(rows or ()) != batch.expected:
            return conflict(stream, batch.expected, len(rows or ()))
        if rows is None:
            rows = self._streams[stream] = []
            self._info[stream] = StreamInfo(stream, 0, now, now, dict(batch.info or {}))
        position = len(self._global) + 1
        for i, (tag, version, data, meta, mark, crc) in enumerate(batch.rows):
            rows.append((position + i, now, tag, version, data, meta, crc, mark))
            self._global.append((stream, batch.expected + i + 1))
        info = self._info[stream]
        extra = merged(info.info, batch.info) if batch.info and batch.expected else info.info
        self._info[stream] = StreamInfo(stream, len(rows), info.created, now, extra)
        if batch.tokens:
            self._tokens.setdefault(stream, {}).update(batch.tokens)
        if batch.deadline is None:
            self._deadlines.pop(stream, None)
        elif not isinstance(batch.deadline, msgspec.UnsetType):
            self._deadlines[stream] = batch.deadline
        return Written(position, now)

    def _records(self, stream: str, after: int, rows: Sequence[_Row]) -> list[Recorded]:
        codec = self.codec
        out = []
        for seq, (position, at, tag, version, data, meta, crc, _) in enumerate(
            rows, start=after + 1
        ):
            check_row(stream, seq, tag, version, data, meta, crc)
            event = codec.decode_event(tag, version, data, stream, seq)
            out.append(
                Recorded(stream, seq, position, at, event, codec.decode_meta(meta, stream, seq))
            )
        return out

    def read(
        self, stream: str, after: int = 0, upto: int | None = None, limit: int | None = None
    ) -> list[Recorded]:
        """Return a slice of a stream."""
        self._check_open()
        rows = self._streams.get(stream, [])
        end = len(rows) if upto is None else min(upto, len(rows))
        if limit is not None:
            end = min(end, after + max(limit, 0))
        return self._records(stream, after, rows[max(after, 0) : end]) if end > after else []

    def read_events(self, stream: str, after: int = 0) -> list[Event]:
        """Return the events of a stream after ``after``."""
        self._check_open()
        return self._events(stream, self._streams.get(stream, []), after)

    def _events(self, stream: str, rows: Sequence[_Row], after: int) -> list[Event]:
        decode = self.codec.decode_event
        out = []
        for seq, row in enumerate(rows[after:], start=after + 1):
            check_row(stream, seq, row[2], row[3], row[4], row[5], row[6])
            out.append(decode(row[2], row[3], row[4], stream, seq))
        return out

    def load_stream(self, stream: str, after: int = 1, snapshot: bool = False) -> Loaded:
        """Return the first event, the events after the snapshot (when asked) or ``after``,
        and the command ids from the rows' marks: no row before the snapshot is decoded."""
        with self._lock:  # one consistent state, as one query reads it
            self._check_open()
            rows = self._streams.get(stream)
            if not rows:
                return Loaded(None, [], {})
            snap = self._snapshots.get(stream) if snapshot else None
            if snap is not None and snap.seq <= after:
                snap = None
            start = after if snap is None else snap.seq
            if snap is not None:
                check_snapshot(stream, snap, len(rows))
            first = self._events(stream, rows[:1], 0)[0]
            events = self._events(stream, rows, start)
            commands = command_ranges((seq, row[7]) for seq, row in enumerate(rows, start=1))
        return Loaded(first, events, commands, start, snap)

    def raw_rows(self) -> Iterator[RawRow]:
        """Yield every row undecoded, in (stream, seq) order."""
        self._check_open()
        for stream in sorted(self._streams):
            for seq, (position, _, tag, version, data, meta, crc, _) in enumerate(
                self._streams[stream], start=1
            ):
                yield RawRow(stream, seq, position, tag, version, data, meta, crc)

    def read_all(self, after: int = 0, limit: int | None = None) -> list[Recorded]:
        """Return events in global order."""
        self._check_open()
        out: list[Recorded] = []
        for place in self._global[max(after, 0) :]:
            if limit is not None and len(out) >= limit:
                break
            if place is not None:
                stream, seq = place
                out.extend(self._records(stream, seq - 1, self._streams[stream][seq - 1 : seq]))
        return out

    def version(self, stream: str) -> int:
        """Return the stream's last seq."""
        self._check_open()
        return len(self._streams.get(stream, ()))

    def streams(self, after: str = "", limit: int | None = None) -> list[StreamInfo]:
        """Return the streams in id order."""
        self._check_open()
        names = sorted(s for s in self._info if s > after)
        return [self._info[s] for s in names[:limit]]

    def command_ids(self, stream: str) -> dict[str, tuple[int, int]]:
        """Return the command ids of a stream."""
        self._check_open()
        rows = self._streams.get(stream, [])
        return command_ranges((seq, row[7]) for seq, row in enumerate(rows, start=1))

    def save_snapshot(self, snapshot: Snapshot) -> None:
        """Keep the latest snapshot of a stream."""
        self._check_open()
        self._snapshots[snapshot.stream] = snapshot

    def load_snapshot(self, stream: str) -> Snapshot | None:
        """Return the latest snapshot of a stream."""
        self._check_open()
        return self._snapshots.get(stream)

    # -- the lobby --------------------------------------------------------------------------

    def find_matches(self, query: MatchQuery) -> MatchPage:
        """Filter every stream's info, newest first."""
        start = check_query(query)
        self._check_open()
        found = [e for e in self._info.values() if _passes(e, query)]
        found.sort(key=lambda e: (e.created, e.stream), reverse=True)
        shown = found if start is None else [e for e in found if (e.created, e.stream) < start]
        return page_of(shown[: query.limit + 1], len(found), query)

    def delete_stream(self, stream: str) -> bool:
        """Forget a stream; its positions stay taken."""
        with self._lock:
            self._check_open()
            rows = self._streams.pop(stream, None)
            if rows is None:
                return False
            del self._info[stream]
            self._deadlines.pop(stream, None)
            self._snapshots.pop(stream, None)
            self._tokens.pop(stream, None)
            for row in rows:
                self._global[row[0] - 1] = None
            return True

    def put_entry(self, stream: str, info: Mapping[str, Any], version: int) -> bool:
        """Replace a stream's listing entry if it is still at ``version``."""
        with self._lock:
            self._check_open()
            entry = self._info.get(stream)
            if entry is None or len(self._streams.get(stream, ())) != version:
                return False
            self._info[stream] = msgspec.structs.replace(entry, info=dict(info))
            return True

    def due_matches(
        self, before: float, after: Due | None = None, limit: int = MAX_PAGE
    ) -> list[Due]:
        """Return the timed matches whose next expiry is at or before ``before``, earliest first."""
        self._check_open()
        start = (after.deadline, after.stream) if after is not None else None
        due = sorted(
            (deadline, stream)
            for stream, deadline in list(self._deadlines.items())
            if deadline <= before and (start is None or (deadline, stream) > start)
        )
        return [Due(stream, deadline) for deadline, stream in due[: max(limit, 0)]]

    def seat_tokens(self, stream: str) -> dict[int, bytes]:
        """Return the digest of each seat's token."""
        self._check_open()
        return dict(self._tokens.get(stream, {}))

    def deleted_positions(self) -> list[tuple[int, int]]:
        """Return the positions of deleted events."""
        self._check_open()
        return position_ranges(i for i, place in enumerate(self._global, 1) if place is None)

    def save_player(self, player: PlayerRecord) -> None:
        """Keep a player."""
        with self._lock:
            self._check_open()
            for other in self._players.values():
                if other.digest == player.digest and other.id != player.id:
                    raise GamehallError("another player already has this token")
            self._players[player.id] = player

    def player(self, player_id: str) -> PlayerRecord | None:
        """Return a player by id."""
        self._check_open()
        return self._players.get(player_id)

    def player_by_digest(self, digest: bytes) -> PlayerRecord | None:
        """Return the player with this token digest."""
        self._check_open()
        for player in self._players.values():
            if player.digest == digest:
                return player
        return None

    def close(self) -> None:
        """Forget nothing, but refuse further use."""
        self._closed = True

    def stream_info(self, stream: str) -> StreamInfo | None:
        """Return one stream's listing entry."""
        self._check_open()
        return self._info.get(stream)


def _passes(entry: StreamInfo, query: MatchQuery) -> bool:
    game, finished, open_seats, players = listed(entry.info)
    return (
        (query.game is None or game == query.game)
        and (query.finished is None or finished == query.finished)
        and (query.open_seats is None or (open_seats > 0 and not finished) == query.open_seats)
        and (query.player is None or query.player in players)
        and (query.ended_after is None or not finished or entry.updated >= query.ended_after)
        and (query.idle_before is None or entry.updated < query.idle_before)
    )
