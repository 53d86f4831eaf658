"""Rebuilding many stored matches (``Hall.load_many``, ``gamehall check-store --replay``): each
as an activation rebuilds it, a failure reported in its place, and on SQLite a share of them
read from one state of the store (one read transaction of the C reader)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import msgspec
import pytest
from gamehall.core import RandomBot, Table, default_registry
from gamehall.core.hall import Hall
from gamehall.core.kernel import activation
from gamehall.core.store import AppendRequest, MemoryStore, SQLiteStore, Store
from gamehall.core.store import sqlite as sqlite_store
from gamehall.core.testing.events import ContractPlugins, marks

from tests.core.test_store_damage import gamehall


def play(store: Store, match: str, seed: int, game_version: str | None = None) -> None:
    """Store a finished random tic-tac-toe match (its first event may claim another version)."""
    table = Table.new("tictactoe", seed=seed, registry=default_registry())
    table.play(RandomBot(seed))
    records = table.records()
    events = [r.event for r in records]
    if game_version is not None:
        events[0] = msgspec.structs.replace(events[0], game_version=game_version)
    store.append_many([AppendRequest(match, 0, events, [r.meta for r in records])])


@pytest.fixture(params=["sqlite", "memory"])
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Any:
    codec = default_registry().codec
    made: Store = SQLiteStore(tmp_path / "s.db", codec) if request.param == "sqlite" else (
        MemoryStore(codec)
    )  # fmt: skip
    yield made
    made.close()


def test_every_match_rebuilds_as_one_activation_would_with_failures_in_place(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(activation, "HELD_MATCHES", 2)  # three shares of five matches
    for n in range(4):
        play(store, f"m{n}", n)
    play(store, "m2-upgraded", 9, game_version="7.0.0")
    hall = Hall(store, default_registry())
    ids = ["m0", "m2-upgraded", "m1", "nope", "m3"]
    got = list(hall.load_many(ids))
    assert [match for match, _ in got] == ids
    for match, loaded in got:
        if match in ("m2-upgraded", "nope"):
            assert isinstance(loaded, Exception)
            continue
        assert not isinstance(loaded, Exception)
        one = hall.load(match)
        assert (loaded.state, loaded.version, loaded.commands) == (
            one.state,
            one.version,
            one.commands,
        )
    failed = dict(got)
    assert "recorded with tictactoe 7.0.0" in str(failed["m2-upgraded"])
    assert "nope" in str(failed["nope"])


def test_shares_of_matches_each_read_in_one_block(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(activation, "HELD_MATCHES", 2)
    store = SQLiteStore(tmp_path / "s.db", default_registry().codec)
    blocks = []
    real = store.reading_many

    def counted() -> Any:
        blocks.append(1)
        return real()

    monkeypatch.setattr(store, "reading_many", counted)
    try:
        for n in range(5):
            play(store, f"m{n}", n)
        assert len(list(Hall(store, default_registry()).load_many(f"m{n}" for n in range(5)))) == 5
        assert len(blocks) == 3
    finally:
        store.close()


needs_c_reader = pytest.mark.skipif(
    not sqlite_store.FAST_READS, reason="the C reader was not built here"
)


@needs_c_reader
def test_a_block_reads_the_store_as_its_first_read_found_it(tmp_path: Path) -> None:
    store = SQLiteStore(tmp_path / "s.db", ContractPlugins().codec)
    try:
        store.append("m", 0, marks(4))
        with store.reading_many():
            assert len(store.load_stream("m").events) == 3
            store.append("m", 4, marks(2, 4))  # committed while the block reads
            assert len(store.load_stream("m").events) == 3  # the block's state
            with store.reading_many():  # a block inside it changes nothing
                assert len(store.load_stream("m").events) == 3
            assert len(store.load_stream("m").events) == 3
        assert len(store.load_stream("m").events) == 5  # a read of its own sees the append
    finally:
        store.close()


@needs_c_reader
def test_a_store_closed_inside_a_block_ends_it_quietly(tmp_path: Path) -> None:
    store = SQLiteStore(tmp_path / "s.db", ContractPlugins().codec)
    store.append("m", 0, marks(4))
    with store.reading_many():
        store.load_stream("m")
        store.close()


@needs_c_reader
def test_the_c_reader_says_when_there_is_no_read_to_end(tmp_path: Path) -> None:
    from gamehall.core.store._rowcheck import ReadFailed

    store = SQLiteStore(tmp_path / "s.db", ContractPlugins().codec)
    try:
        store.append("m", 0, marks(4))
        fast = store._fast_reader()
        assert fast is not None
        with pytest.raises(ReadFailed, match="cannot end the read"):
            fast.hold(False)
    finally:
        store.close()


def test_check_store_replay_names_the_matches_the_installed_games_cannot_rebuild(
    tmp_path: Path,
) -> None:
    path = tmp_path / "s.db"
    store = SQLiteStore(path, default_registry().codec)
    for n in range(3):
        play(store, f"m{n}", n)
    store.close()
    done = gamehall("check-store", "--db", str(path), "--replay")
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout == (
        f"{path}: ok (3 matches; integrity_check, checksums and event chains; every match "
        "rebuilt with the installed games)\n"
    )
    store = SQLiteStore(path, default_registry().codec)
    play(store, "m-upgraded", 5, game_version="7.0.0")
    store.close()
    assert gamehall("check-store", "--db", str(path)).returncode == 0  # its rows are sound
    done = gamehall("check-store", "--db", str(path), "--replay")
    assert done.returncode == 1
    assert done.stdout == (
        f"{path}: match m-upgraded does not rebuild: the match was recorded with tictactoe "
        "7.0.0, but tictactoe 1.0.0 installed\n"
        f"{path}: 1 match does not rebuild with the installed games\n"
    )
    assert done.stderr == ""


def test_check_store_replay_on_postgresql(pg_url: str) -> None:
    from gamehall.core.store.postgres import PostgresStore

    store = PostgresStore(pg_url, default_registry().codec)
    try:
        for n in range(2):
            play(store, f"m{n}", n)
        play(store, "m-upgraded", 5, game_version="7.0.0")
    finally:
        store.close()
    done = gamehall("check-store", "--db", pg_url, "--replay")
    assert done.returncode == 1, done.stdout + done.stderr
    lines = done.stdout.splitlines()
    assert lines[0].endswith(
        ": match m-upgraded does not rebuild: the match was recorded with tictactoe 7.0.0, but "
        "tictactoe 1.0.0 installed"
    )
    assert lines[1].endswith(": 1 match does not rebuild with the installed games")
    assert len(lines) == 2 and done.stderr == ""
