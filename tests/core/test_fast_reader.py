"""Replay's read in C (``_rowcheck.Reader``, used by ``SQLiteStore._load_whole``) loads every
match as the statement through Python's sqlite3 module does: the same events, command ranges,
metadata and listing for sound matches, and for every kind of damage either the same match or
the same error, since whatever it does not take as sound goes the row-by-row way."""

from __future__ import annotations

import shutil
import sqlite3
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import msgspec
import pytest
from gamehall.core import RandomBot, Registry, Table
from gamehall.core.store import AppendRequest, SQLiteStore, base
from gamehall.core.store import sqlite as sqlite_store


def test_the_c_reader_is_bound_where_the_module_is_built() -> None:
    if base.fast_check_rows is None:
        pytest.skip("core/store/_rowcheck.c is not built here: sqlite3 reads every match")
    if not sys.platform.startswith("linux"):
        pytest.skip("SQLite's functions are looked up with dlopen, checked on Linux")
    assert sqlite_store.FAST_READS, "the C reader did not find SQLite's functions"


@pytest.fixture
def reads() -> None:
    if not sqlite_store.FAST_READS:
        pytest.skip("the C reader is not built or not bound here")


def store_matches(registry: Registry, path: Path, count: int, moves: int = 0) -> list[str]:
    """Store ``count`` played tic-tac-toe matches (and one long stream of ``moves`` events in
    batches of three, each batch a command of its own, when asked); return their ids."""
    store = SQLiteStore(path, registry.codec, synchronous="OFF")
    ids = []
    try:
        for seed in range(count):
            table = Table.new("tictactoe", seed=seed, registry=registry)
            table.play(RandomBot(seed))
            records = table.records()
            match = f"m{seed}"
            store.append_many(
                [AppendRequest(match, 0, [r.event for r in records], [r.meta for r in records])]
            )
            moved = next(r for r in records if r.meta.command is not None)
            for n in range(seed % 3):  # a few commands with ids after the played ones
                version = len(records) + 2 * n
                event, meta = moved.event, type(moved.meta)(f"c{seed}-{n}", *_rest(moved.meta))
                inside = msgspec.structs.replace(meta, command=None)
                store.append_many([AppendRequest(match, version, [event, event], [meta, inside])])
            ids.append(match)
        if moves:
            from gamehall.plugins.tictactoe.events import MarkPlaced

            table = Table.new("tictactoe", seed=99, registry=registry)
            table.play(RandomBot(99))
            head = table.records()[0]
            moved = next(r for r in table.records() if r.meta.command is not None)
            store.append_many([AppendRequest("long", 0, [head.event], [head.meta])])
            for n in range(0, moves, 3):  # not a game that could be played: a long stream
                events = [MarkPlaced(seat=k % 2, cell=k % 9) for k in range(n, min(n + 3, moves))]
                meta = type(moved.meta)(f"long-{n // 3}", *_rest(moved.meta))
                inside = msgspec.structs.replace(meta, command=None)  # the batch's later events
                metas = [meta] + [inside] * (len(events) - 1)
                store.append_many([AppendRequest("long", 1 + n, events, metas)])
            ids.append("long")
    finally:
        store.close()
    return ids


def _rest(meta: Any) -> list[Any]:
    fields = type(meta).__struct_fields__
    return [getattr(meta, name) for name in fields[1:]]


def outcome(store: SQLiteStore, match: str) -> tuple[Any, ...]:
    """What loading a match gives: the match's parts, or the error's class and words."""
    try:
        got = store.load_stream(match)
    except Exception as exc:  # both ways must fail alike, whatever the failure
        return ("error", type(exc).__name__, str(exc))
    return ("loaded", got.first, got.events, got.commands, got.last, got.plain, got.info)


def both(path: Path, registry: Registry, match: str) -> tuple[tuple[Any, ...], tuple[Any, ...]]:
    """Load a match with the C reader, then through sqlite3, each from a fresh store."""
    answers = []
    for fast in (True, False):
        store = SQLiteStore(path, registry.codec, quick_check_bytes=0)
        store._fast = fast
        try:
            answers.append(outcome(store, match))
            assert (store._fast_reader() is not None) == fast
        finally:
            store.close()
    return answers[0], answers[1]


def test_sound_matches_load_alike(reads: None, registry: Registry, tmp_path: Path) -> None:
    path = tmp_path / "sound.db"
    ids = store_matches(registry, path, 12, moves=5000)  # past the reader's limit (2,048)
    for match in [*ids, "missing"]:
        fast, slow = both(path, registry, match)
        assert fast == slow, match
    fast, _ = both(path, registry, "long")
    assert fast[0] == "loaded" and len(fast[2]) == 5000
    assert len(fast[3]) == 1667  # one command a batch of three moves
    assert fast[3]["long-1666"] == (5000, 5001)


@pytest.mark.parametrize("unfolded", ["none", "seat taken", "taken back"])
def test_a_match_with_a_lobby_event_or_a_take_back_is_not_plain_either_way(
    reads: None, registry: Registry, tmp_path: Path, unfolded: str
) -> None:
    """The reader tells a plain match by where each event's head is found: a lobby event or
    a take-back makes the fold go through ``engine.live``, as the Python path says."""
    from gamehall.core.events import SeatTaken, TakenBack

    path = tmp_path / "unfolded.db"
    store_matches(registry, path, 1)
    store = SQLiteStore(path, registry.codec)
    try:
        last = store.read(ids := "m0", store.version(ids) - 1)[-1]
        extra = {"seat taken": SeatTaken(seat=1), "taken back": TakenBack(first=3, last=3, seat=0)}
        if unfolded in extra:
            store.append(ids, store.version(ids), [extra[unfolded]], [last.meta])
    finally:
        store.close()
    fast, slow = both(path, registry, "m0")
    assert fast == slow
    assert fast[0] == "loaded" and fast[5] is (unfolded == "none")


def test_the_reader_leaves_long_matches_to_sqlite3(
    reads: None, registry: Registry, tmp_path: Path
) -> None:
    """Past its limit the reader answers False: the store reads the match through sqlite3 and
    decodes it in parts, letting other threads (the journal's) run between them."""
    from gamehall.core.store._rowcheck import Reader

    path = tmp_path / "long.db"
    store_matches(registry, path, 0, moves=2047)  # 2,048 events with the first
    reader = Reader(path, 1024)
    codec = registry.codec
    args = (
        sqlite_store._LOAD_WHOLE, "long", codec.decode_array, codec.folded_heads,
        codec.unfolded_heads,
    )  # fmt: skip
    got = reader.whole(*args, 2048)
    assert got and len(got[2]) == 2048
    assert reader.whole(*args, 2047) is False
    reader.close()


# Each kind of damage as one SQL statement on one row (?1 the stream, ?2 the seq).
DAMAGE = {
    "crc flipped": "UPDATE events SET crc=crc+1 WHERE stream=?1 AND seq=?2",
    "crc NULL": "UPDATE events SET crc=NULL WHERE stream=?1 AND seq=?2",
    "crc text": "UPDATE events SET crc=CAST(crc AS TEXT) || 'x' WHERE stream=?1 AND seq=?2",
    "crc real": "UPDATE events SET crc=CAST(crc AS REAL) + 0.5 WHERE stream=?1 AND seq=?2",
    "crc past 64 bits": "UPDATE events SET crc=1e30 WHERE stream=?1 AND seq=?2",
    "payload byte": "UPDATE events SET data=x'c0' || substr(data, 2) WHERE stream=?1 AND seq=?2",
    "payload text": "UPDATE events SET data=CAST(data AS TEXT) WHERE stream=?1 AND seq=?2",
    "payload empty": "UPDATE events SET data=x'' WHERE stream=?1 AND seq=?2",
    "metadata byte": "UPDATE events SET meta=x'c0' || substr(meta, 2) WHERE stream=?1 AND seq=?2",
    "metadata text": "UPDATE events SET meta='[]' WHERE stream=?1 AND seq=?2",
    "mark changed": "UPDATE events SET cmd='another' WHERE stream=?1 AND seq=?2",
    "mark gone": "UPDATE events SET cmd=NULL WHERE stream=?1 AND seq=?2",
    "mark a number": "UPDATE events SET cmd=7 WHERE stream=?1 AND seq=?2",
    "mark not UTF-8": "UPDATE events SET cmd=CAST(x'ff00' AS TEXT) WHERE stream=?1 AND seq=?2",
    "mark a blob": "UPDATE events SET cmd=x'41' WHERE stream=?1 AND seq=?2",
    "row missing": "DELETE FROM events WHERE stream=?1 AND seq=?2",
    "row moved": "UPDATE events SET seq=seq+100 WHERE stream=?1 AND seq=?2",
    "type renamed": "UPDATE events SET type='tictactoe.Nothing' WHERE stream=?1 AND seq=?2",
    "listing damaged": "UPDATE streams SET info=x'c1' WHERE stream=?1 AND ?2 > 0",
    "listing text": "UPDATE streams SET info='{}' WHERE stream=?1 AND ?2 > 0",
    "version behind": "UPDATE streams SET version=?2 WHERE stream=?1",
    "version text": "UPDATE streams SET version='x' WHERE stream=?1 AND ?2 > 0",
    "entry gone": "DELETE FROM streams WHERE stream=?1 AND ?2 > 0",
}


@pytest.fixture
def sound(registry: Registry, tmp_path: Path) -> Iterator[tuple[Path, list[str]]]:
    path = tmp_path / "sound.db"
    yield path, store_matches(registry, path, 6)


@pytest.mark.parametrize("kind", sorted(DAMAGE))
def test_damaged_matches_load_alike(
    reads: None, registry: Registry, sound: tuple[Path, list[str]], tmp_path: Path, kind: str
) -> None:
    source, ids = sound
    for at, match in enumerate(ids):
        path = tmp_path / f"{at}.db"
        shutil.copy(source, path)
        db = sqlite3.connect(path)
        count = db.execute("SELECT count(*) FROM events WHERE stream=?", (match,)).fetchone()[0]
        seq = [1, 2, count // 2, count, count - 1, 3][at]
        with db:
            db.execute(DAMAGE[kind], (match, seq))
        db.close()
        fast, slow = both(path, registry, match)
        assert fast == slow, (kind, seq)


def test_a_match_with_a_snapshot_loads_alike(
    reads: None, registry: Registry, sound: tuple[Path, list[str]]
) -> None:
    path, ids = sound
    store = SQLiteStore(path, registry.codec)
    store.save_snapshot(base.Snapshot(ids[0], 4, b"\x90", "key"))
    store.close()
    for fast in (True, False):
        store = SQLiteStore(path, registry.codec)
        store._fast = fast
        got = store.load_stream(ids[0], snapshot=True)
        assert got.snapshot is not None and got.snapshot.seq == 4 and got.after == 4
        store.close()


def test_reads_in_many_threads_while_matches_are_written(
    reads: None, registry: Registry, sound: tuple[Path, list[str]]
) -> None:
    path, ids = sound
    store = SQLiteStore(path, registry.codec)
    seen: list[tuple[str, int]] = []
    failed: list[BaseException] = []
    stop = threading.Event()

    def read() -> None:
        try:
            while not stop.is_set():
                for match in ids:
                    got = store.load_stream(match)
                    seen.append((match, len(got.events)))
        except BaseException as exc:  # the test's own report of a reader's failure
            failed.append(exc)

    readers = [threading.Thread(target=read) for _ in range(4)]
    for thread in readers:
        thread.start()
    try:
        for n in range(30):
            table = Table.new("tictactoe", seed=n, registry=registry)
            records = table.records()
            store.append_many(
                [AppendRequest(f"new{n}", 0, [r.event for r in records], [r.meta for r in records])]
            )
    finally:
        stop.set()
        for thread in readers:
            thread.join()
    assert not failed
    assert all(store.load_stream(f"new{n}").first is not None for n in range(30))
    lengths = {match: {n for m, n in seen if m == match} for match in ids}
    assert all(len(found) == 1 for found in lengths.values())  # written once: never changed
    store.close()


def test_the_reader_refuses_a_missing_file_and_a_closed_connection(
    reads: None, registry: Registry, sound: tuple[Path, list[str]], tmp_path: Path
) -> None:
    from gamehall.core.store._rowcheck import Reader, ReadFailed

    with pytest.raises(ReadFailed, match="cannot open"):
        Reader(tmp_path / "nowhere" / "x.db", 1024)
    path, ids = sound
    reader = Reader(path, 1024)
    codec = registry.codec
    args = (
        sqlite_store._LOAD_WHOLE, ids[0], codec.decode_array, codec.folded_heads,
        codec.unfolded_heads, 64,
    )  # fmt: skip
    got = reader.whole(*args)
    assert got is not None and len(got[2]) > 5
    with pytest.raises(ReadFailed, match="cannot prepare"):
        reader.whole("SELECT nothing FROM nowhere", *args[1:])
    reader.close()
    with pytest.raises(ReadFailed, match="closed"):
        reader.whole(*args)


def test_a_read_only_store_reads_through_the_c_reader(
    reads: None, registry: Registry, sound: tuple[Path, list[str]]
) -> None:
    path, ids = sound
    writer = SQLiteStore(path, registry.codec)  # keeps the file's WAL open, as a node does
    store = SQLiteStore(path, registry.codec, readonly=True)
    assert store._fast_reader() is not None
    slow = SQLiteStore(path, registry.codec, readonly=True)
    slow._fast = False
    for match in ids:
        assert outcome(store, match) == outcome(slow, match)
    for opened in (store, slow, writer):
        opened.close()


def test_a_thread_that_ends_closes_its_connections(
    registry: Registry, sound: tuple[Path, list[str]]
) -> None:
    """Worker threads come and go (anyio ends those idle for 10 s): the connections each
    opened to read close with it, not when the store closes."""
    import gc
    import os

    path, ids = sound
    store = SQLiteStore(path, registry.codec)
    store.load_stream(ids[0])  # this thread's own, kept
    before = len(os.listdir("/proc/self/fd")) if os.path.isdir("/proc/self/fd") else None
    for _ in range(40):
        thread = threading.Thread(target=store.load_stream, args=(ids[0],))
        thread.start()
        thread.join()
    gc.collect()
    assert len(store._threads) == 1  # this thread's
    if before is not None:
        assert len(os.listdir("/proc/self/fd")) <= before + 2
    store.close()
    with pytest.raises(Exception, match="closed"):
        store.load_stream(ids[0])
