"""Activation's fast read of a whole match on SQLite (checked and decoded as columns) gives
what the row-by-row read gives, and leaves every damaged, foreign or old row to it."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from gamehall.core import RandomBot, Registry, Table
from gamehall.core.errors import CorruptRecord, GamehallError
from gamehall.core.events import LobbyEvent, Meta, TakenBack
from gamehall.core.hall import Hall
from gamehall.core.store import AppendRequest, SQLiteStore
from gamehall.core.store import sqlite as sqlite_store
from gamehall.core.store.base import checksum, loaded


@pytest.fixture
def store(registry: Registry, tmp_path: Path) -> Iterator[SQLiteStore]:
    made = SQLiteStore(tmp_path / "replay.db", registry.codec)
    yield made
    made.close()


def store_games(registry: Registry, store: SQLiteStore, count: int) -> list[str]:
    """Store ``count`` seeded random tic-tac-toe matches, played to their end."""
    ids = []
    for seed in range(count):
        table = Table.new("tictactoe", seed=seed, registry=registry)
        table.play(RandomBot(seed))
        records = table.records()
        match = f"g{seed}"
        info = {"game": "tictactoe", "seed_was": seed}
        request = AppendRequest(
            match, 0, [r.event for r in records], [r.meta for r in records], info
        )
        store.append_many([request])
        ids.append(match)
    return ids


def row_by_row(store: SQLiteStore, match: str) -> object:
    rows = store._reader().execute(sqlite_store._LOAD_ROWS, (match, 1)).fetchall()
    return loaded(store.codec, match, rows, [], 1)


def resign(store: SQLiteStore, match: str, seq: int, **columns: object) -> None:
    """Change a row's columns and give it the checksum of what it then holds."""
    db = store._writer
    for column, value in columns.items():
        db.execute(f"UPDATE events SET {column}=? WHERE stream=? AND seq=?", (value, match, seq))
    tag, version, data, meta = db.execute(
        "SELECT type, v, data, meta FROM events WHERE stream=? AND seq=?", (match, seq)
    ).fetchone()
    crc = checksum(match, seq, tag, version, data, meta)
    db.execute("UPDATE events SET crc=? WHERE stream=? AND seq=?", (crc, match, seq))


def test_the_fast_read_gives_what_the_row_by_row_read_gives(
    registry: Registry, store: SQLiteStore
) -> None:
    for match in store_games(registry, store, 12):
        fast = store.load_stream(match, snapshot=True)
        slow = row_by_row(store, match)
        assert (fast.first, fast.events, fast.commands, fast.after, fast.last) == (
            slow.first, slow.events, slow.commands, slow.after, slow.last  # type: ignore[attr-defined]
        )  # fmt: skip
        assert fast.plain and fast.info == {"game": "tictactoe", "seed_was": int(match[1:])}


def test_a_take_back_or_a_lobby_event_is_left_to_the_fold_that_skips_them(
    registry: Registry, store: SQLiteStore
) -> None:
    (match,) = store_games(registry, store, 1)
    version = store.version(match)
    back = TakenBack(first=2, last=version, seat=0, agreed=(1,))
    store.append(match, version, [back], [Meta("undo", 0)])
    stored = store.load_stream(match)
    assert not stored.plain and stored.events[-1] == back
    assert not any(isinstance(e, LobbyEvent) for e in stored.events)


def test_a_hall_rebuilds_the_same_state_from_the_fast_read(
    registry: Registry, store: SQLiteStore
) -> None:
    ids = store_games(registry, store, 5)
    hall = Hall(store, registry)
    for seed, match in enumerate(ids):
        table = Table.new("tictactoe", seed=seed, registry=registry)
        table.play(RandomBot(seed))
        rebuilt = hall.load(match)
        assert rebuilt.state == table.state and rebuilt.version == len(table.records())
        assert rebuilt.info == {"game": "tictactoe", "seed_was": seed}


def test_a_damaged_payload_fails_activation_naming_its_row(
    registry: Registry, store: SQLiteStore
) -> None:
    (match,) = store_games(registry, store, 1)
    store._writer.execute(f"UPDATE events SET data=x'c1ff' WHERE stream='{match}' AND seq=3")
    with pytest.raises(CorruptRecord, match=f"'{match}' seq 3: checksum mismatch"):
        store.load_stream(match, snapshot=True)


def test_damaged_metadata_fails_activation(registry: Registry, store: SQLiteStore) -> None:
    (match,) = store_games(registry, store, 1)
    store._writer.execute(f"UPDATE events SET meta=x'00' WHERE stream='{match}' AND seq=2")
    with pytest.raises(CorruptRecord, match=f"'{match}' seq 2"):
        store.load_stream(match)


def test_a_missing_row_fails_activation(registry: Registry, store: SQLiteStore) -> None:
    (match,) = store_games(registry, store, 1)
    store._writer.execute(f"DELETE FROM events WHERE stream='{match}' AND seq=4")
    with pytest.raises(CorruptRecord, match=f"'{match}' seq 4: the event is missing"):
        store.load_stream(match)


def test_a_row_whose_type_names_another_event_is_refused_with_a_sound_checksum(
    registry: Registry, store: SQLiteStore
) -> None:
    (match,) = store_games(registry, store, 1)
    resign(store, match, 2, type="tictactoe.BoardFilled")
    with pytest.raises(CorruptRecord, match=f"'{match}' seq 2"):
        store.load_stream(match)


def test_two_rows_that_swapped_places_are_refused(registry: Registry, store: SQLiteStore) -> None:
    (match,) = store_games(registry, store, 1)
    db = store._writer
    rows = db.execute(
        f"SELECT seq, type, v, data, meta, crc FROM events WHERE stream='{match}' AND seq IN (2, 3)"
    ).fetchall()
    for (seq, *_), (_, tag, version, data, meta, crc) in zip(rows, reversed(rows), strict=True):
        db.execute(
            "UPDATE events SET type=?, v=?, data=?, meta=?, crc=? WHERE stream=? AND seq=?",
            (tag, version, data, meta, crc, match, seq),
        )
    with pytest.raises(CorruptRecord, match=f"'{match}' seq 2: checksum mismatch"):
        store.load_stream(match)


def test_a_row_of_an_older_class_version_is_upcast_not_taken_as_today(
    registry: Registry, store: SQLiteStore
) -> None:
    (match,) = store_games(registry, store, 1)
    resign(store, match, 2, v=0)  # an older shape, with no upcaster installed for it
    with pytest.raises(GamehallError, match="no upcaster for .* v0 -> v1"):
        store.load_stream(match)


def test_a_long_match_with_batches_with_and_without_ids_reads_the_same(
    registry: Registry, store: SQLiteStore
) -> None:
    from gamehall.plugins.tictactoe.commands import PlaceMark
    from gamehall.plugins.tictactoe.events import MarkPlaced

    table = Table.new("tictactoe", seed=1, registry=registry)
    events = [table.events[0]] + [MarkPlaced(seat=i % 2, cell=i % 9) for i in range(39)]
    metas = [Meta()] + [
        Meta(f"c{i}", i % 2, PlaceMark(cell=1)) if i % 3 == 0
        else Meta(None, i % 2, PlaceMark(cell=2)) if i % 7 == 0
        else Meta(f"c{i - i % 3}", i % 2)
        for i in range(39)
    ]  # fmt: skip
    store.append_many([AppendRequest("long", 0, events, metas)])
    fast, slow = store.load_stream("long"), row_by_row(store, "long")
    assert fast.plain and len(fast.events) == 39
    assert (fast.first, fast.events, fast.commands, fast.last) == (
        slow.first, slow.events, slow.commands, slow.last  # type: ignore[attr-defined]
    )  # fmt: skip
    assert fast.commands["c36"] == (38, 40)
