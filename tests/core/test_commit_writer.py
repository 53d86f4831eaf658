"""The journal's commits in C (``_rowcheck.Writer``, ``SQLiteStore.plan_commit``): the writer
itself, the store's whole contract with every append committed through it, and the journal
that overlaps its commits with the loop's work."""

from __future__ import annotations

import select
import sqlite3
import threading
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import anyio
import pytest
from gamehall.core import Registry
from gamehall.core.errors import GamehallError
from gamehall.core.hall import Hall
from gamehall.core.store import AppendRequest, SQLiteStore, Store
from gamehall.core.store import sqlite as sqlite_module
from gamehall.core.store.base import Recorded
from gamehall.core.store.sqlite import CommitWriter
from gamehall.core.testing.events import ContractPlugins, marks
from gamehall.plugins.tictactoe import PlaceMark

from tests.core import test_store_contract as contract
from tests.core.lockstep import MOVES, play_in_lockstep

pytestmark = [
    pytest.mark.anyio,
    pytest.mark.skipif(not sqlite_module.FAST_WRITES, reason="the C module was not built here"),
]
CODEC = ContractPlugins().codec  # the store suite's own events
CONSTRAINT = 19  # SQLite's code of a constraint failure (the low byte of an extended code)


def wait(writer: CommitWriter, seconds: float = 10) -> tuple[int, int, str]:
    """Wait for the writer's byte, then take its answer."""
    readable, _, _ = select.select([writer.fileno()], [], [], seconds)
    assert readable, "the writer never answered"
    answer = writer.result()
    assert answer is not None
    return answer


def new_writer(path: Path) -> Any:
    db = sqlite3.connect(path, isolation_level=None)
    db.execute("PRAGMA journal_mode=WAL")
    db.execute("CREATE TABLE t (a INTEGER PRIMARY KEY, b, c)")
    db.close()
    return sqlite_module._CommitWriter(path, "FULL", 1024)


def rows_of(path: Path) -> list[tuple[Any, ...]]:
    db = sqlite3.connect(path)
    try:
        return db.execute("SELECT a, b, c FROM t ORDER BY a").fetchall()
    finally:
        db.close()


# -- the writer ---------------------------------------------------------------------------------


def test_a_commit_binds_every_kind_of_value_and_adds_the_base(tmp_path: Path) -> None:
    writer = new_writer(tmp_path / "w.db")
    try:
        writer.submit(None, [("INSERT INTO t VALUES (?, ?, ?)", [(10, "é", b"\x00\xff")], -1)])
        assert wait(writer) == (0, 0, "")
        base = "SELECT max(a) FROM t"
        rows = [(1, 2.5, None), (2, 7, "x" * 5000)]
        writer.submit(base, [("INSERT INTO t VALUES (?, ?, ?)", rows, 0)])
        assert wait(writer) == (0, 10, "")
        assert rows_of(tmp_path / "w.db") == [
            (10, "é", b"\x00\xff"),
            (11, 2.5, None),
            (12, 7, "x" * 5000),
        ]
    finally:
        writer.close()


def test_a_failed_statement_rolls_the_whole_commit_back(tmp_path: Path) -> None:
    writer = new_writer(tmp_path / "w.db")
    try:
        ops = [
            ("INSERT INTO t VALUES (?, ?, ?)", [(1, "a", None), (2, "b", None)], -1),
            ("INSERT INTO t VALUES (?, ?, ?)", [(3, "c", None), (1, "again", None)], -1),
        ]
        writer.submit(None, ops)
        code, _, message = wait(writer)
        assert code & 0xFF == CONSTRAINT and "UNIQUE constraint failed" in message
        assert rows_of(tmp_path / "w.db") == []
        writer.submit(None, [("INSERT INTO nowhere VALUES (?)", [(1,)], -1)])
        code, _, message = wait(writer)
        assert code != 0 and "no such table: nowhere" in message
        writer.submit(None, ops[:1])  # and it goes on
        assert wait(writer)[0] == 0
        assert [r[0] for r in rows_of(tmp_path / "w.db")] == [1, 2]
    finally:
        writer.close()


def test_what_the_writer_does_not_take_is_refused_before_anything_is_handed_over(
    tmp_path: Path,
) -> None:
    writer = new_writer(tmp_path / "w.db")
    try:
        sql = "INSERT INTO t VALUES (?, ?, ?)"
        with pytest.raises(TypeError, match="a row holds a list"):
            writer.submit(None, [(sql, [(1, [], None)], -1)])
        with pytest.raises(OverflowError):
            writer.submit(None, [(sql, [(2**64, None, None)], -1)])
        with pytest.raises(ValueError, match="differ in width"):
            writer.submit(None, [(sql, [(1, None, None), (2, None)], -1)])
        with pytest.raises(TypeError, match="an op is"):
            writer.submit(None, [(sql, (1, 2, 3), -1)])
        assert writer.result() is None  # nothing was handed over
        writer.submit(None, [(sql, [(1, None, None)], -1)])
        with pytest.raises(sqlite_module._ReadFailed, match="in flight"):
            writer.submit(None, [(sql, [(2, None, None)], -1)])
        assert wait(writer)[0] == 0
        assert [r[0] for r in rows_of(tmp_path / "w.db")] == [1]
    finally:
        writer.close()


def test_a_writer_waits_for_another_connections_transaction(tmp_path: Path) -> None:
    writer = new_writer(tmp_path / "w.db")
    other = sqlite3.connect(tmp_path / "w.db", isolation_level=None)
    try:
        other.execute("BEGIN IMMEDIATE")
        other.execute("INSERT INTO t VALUES (1, 'other', NULL)")
        writer.submit(
            "SELECT max(a) FROM t", [("INSERT INTO t VALUES (?, ?, ?)", [(1, "w", None)], 0)]
        )
        readable, _, _ = select.select([writer.fileno()], [], [], 0.3)
        assert not readable and writer.result() is None  # it waits for the lock
        other.execute("COMMIT")
        assert wait(writer) == (0, 1, "")  # and then sees the other's row
        assert rows_of(tmp_path / "w.db") == [(1, "other", None), (2, "w", None)]
    finally:
        other.close()
        writer.close()


def test_a_guarded_commit_rolls_back_after_another_connections_commit(tmp_path: Path) -> None:
    writer = new_writer(tmp_path / "w.db")
    other = sqlite3.connect(tmp_path / "w.db", isolation_level=None)
    sql = "INSERT INTO t VALUES (?, ?, ?)"
    try:
        writer.submit(None, [(sql, [(1, "first", None)], -1)])
        assert wait(writer)[0] == 0
        writer.submit(None, [(sql, [(2, "guarded", None)], -1)], True)
        assert wait(writer) == (0, 0, "")  # nobody else wrote since
        other.execute("INSERT INTO t VALUES (3, 'other', NULL)")
        writer.submit(None, [(sql, [(4, "guarded", None)], -1)], True)
        code, _, message = wait(writer)
        assert code == sqlite_module.STALE and "another connection" in message
        writer.submit(None, [(sql, [(4, "unguarded", None)], -1)])
        assert wait(writer)[0] == 0
        assert [r[1] for r in rows_of(tmp_path / "w.db")] == [
            "first",
            "guarded",
            "other",
            "unguarded",
        ]
    finally:
        other.close()
        writer.close()


def test_closing_waits_for_the_commit_in_flight(tmp_path: Path) -> None:
    writer = new_writer(tmp_path / "w.db")
    rows = [(n, "x" * 100, None) for n in range(1, 20_001)]
    writer.submit(None, [("INSERT INTO t VALUES (?, ?, ?)", rows, -1)])
    writer.close()  # the commit handed over is done first
    assert writer.result() is None
    assert len(rows_of(tmp_path / "w.db")) == 20_000
    with pytest.raises(sqlite_module._ReadFailed, match="closed"):
        writer.submit(None, [])
    writer.close()  # twice is harmless


def test_the_writer_gives_back_its_cache_between_commits(tmp_path: Path) -> None:
    writer = new_writer(tmp_path / "w.db")
    try:
        sql = "INSERT INTO t VALUES (?, ?, ?)"
        writer.submit(None, [(sql, [(n, "x" * 500, None) for n in range(1, 2001)], -1)])
        writer.release_memory()  # asked while a commit runs: it waits for the commit
        assert wait(writer)[0] == 0
        writer.release_memory()
        writer.submit(None, [(sql, [(5000, None, None)], -1)])
        assert wait(writer)[0] == 0
        assert len(rows_of(tmp_path / "w.db")) == 2001
    finally:
        writer.close()


def test_the_writer_holds_the_gil_for_nothing_while_it_commits(tmp_path: Path) -> None:
    writer = new_writer(tmp_path / "w.db")
    try:
        rows = [(n, "x" * 200, b"y" * 200) for n in range(1, 100_001)]
        sql = "INSERT INTO t VALUES (?, ?, ?)"
        counted = 0
        writer.submit(None, [(sql, rows, -1)])
        began = time.perf_counter()
        while writer.result() is None:  # Python runs on while the rows go in
            counted += 1
        took = time.perf_counter() - began
        assert took > 0.05 and counted > 1000, (took, counted)
    finally:
        writer.close()


# -- the store's contract, every append through the writer ------------------------------------


class CommitsInC(SQLiteStore):
    """An SQLite store whose appends go through the writer in C, as the journal's do."""

    through_c = 0
    one_at_a_time = threading.Lock()  # as the journal hands over one commit at a time

    def append_many(
        self, requests: Sequence[AppendRequest]
    ) -> list[list[Recorded] | GamehallError]:
        with self.one_at_a_time:
            return self._append_many(requests)

    def _append_many(
        self, requests: Sequence[AppendRequest]
    ) -> list[list[Recorded] | GamehallError]:
        encoded = self.encode(requests)
        writer = self.commit_writer()
        plan = self.plan_commit(encoded) if writer is not None else None
        written = None
        if plan is not None and writer is not None:
            writer.submit(plan.base_sql, plan.ops, plan.guard)
            written = self.end_commit(plan, wait(writer))
            CommitsInC.through_c += written is not None
        if written is None:
            written = self.write(encoded)
        return self.finish(requests, written)


class TestSQLiteStoreCommitsInC(contract.TestSQLiteStore):
    def make(self, registry: ContractPlugins, tmp_path: Path) -> Store:
        return CommitsInC(tmp_path / "events.db", registry.codec)


def test_the_contract_above_commits_in_c(tmp_path: Path) -> None:
    store = CommitsInC(tmp_path / "c.db", CODEC)
    try:
        before = CommitsInC.through_c
        store.append("a", 0, marks(2), info={"game": "g", "seat_players": ["p1"]})
        store.append("a", 2, marks(1), info={"finished": True}, tokens=[(0, b"d" * 32)])
        assert CommitsInC.through_c == before + 2
        assert store.stream_info("a").info == {
            "game": "g",
            "seat_players": ["p1"],
            "finished": True,
        }
        assert store.seat_tokens("a") == {0: b"d" * 32}
    finally:
        store.close()


def test_a_key_another_process_took_goes_the_careful_way(tmp_path: Path) -> None:
    store = CommitsInC(tmp_path / "c.db", CODEC)
    other = SQLiteStore(tmp_path / "c.db", CODEC)
    try:
        store.append("a", 0, marks(1), info={"game": "g"})
        store.append("b", 0, marks(1), info={"game": "g"})
        other.append("a", 1, marks(1))  # behind this store's back: its cache says 1
        before = CommitsInC.through_c
        results = store.append_many(
            [
                AppendRequest("a", 1, marks(1), [contract.Meta()]),
                AppendRequest("b", 1, marks(1), [contract.Meta()]),
            ]  # fmt: skip
        )
        assert CommitsInC.through_c == before  # the writer rolled back; write() told apart
        assert isinstance(results[0], contract.ConcurrencyError)
        assert [r.seq for r in results[1]] == [2]  # type: ignore[union-attr]
        assert store.version("a") == 2 and store.version("b") == 2
    finally:
        other.close()
        store.close()


def test_a_listing_another_connection_changed_is_merged_as_stored(tmp_path: Path) -> None:
    store = CommitsInC(tmp_path / "c.db", CODEC)
    other = SQLiteStore(tmp_path / "c.db", CODEC)
    try:
        store.append("a", 0, marks(1), info={"game": "g", "open_seats": 1})
        store.append("a", 1, marks(1), info={"open_seats": 0})
        before = CommitsInC.through_c
        # Repaired behind this writer's back (as rebuild_lobby does), at the same version:
        assert other.put_entry("a", {"game": "g", "open_seats": 0, "note": "repaired"}, 2)
        store.append("a", 2, marks(1), info={"finished": True})
        assert CommitsInC.through_c == before  # the writer refused: write() merged it
        info = store.stream_info("a").info  # type: ignore[union-attr]
        assert info == {"game": "g", "open_seats": 0, "note": "repaired", "finished": True}
        # That write was another connection's commit too: a move (no listing read) goes in C
        # and sees it, and the next listing change goes in C again.
        store.append("a", 3, marks(1))
        store.append("a", 4, marks(1), info={"open_seats": 1})
        assert CommitsInC.through_c == before + 2
        assert store.stream_info("a").info["note"] == "repaired"  # type: ignore[union-attr]
    finally:
        other.close()
        store.close()


def test_a_listing_change_of_a_match_this_writer_never_wrote_reads_first(tmp_path: Path) -> None:
    path = tmp_path / "c.db"
    first = SQLiteStore(path, CODEC)
    first.append("a", 0, marks(1), info={"game": "g", "open_seats": 1})
    first.close()
    store = CommitsInC(path, CODEC)
    try:
        store.version("a")
        encoded = store.encode(
            [AppendRequest("a", 1, marks(1), [contract.Meta()], {"open_seats": 0})]
        )
        assert store.plan_commit(encoded) is None  # the version and listing need a read
        store.append("a", 1, marks(1), info={"open_seats": 0})
        encoded = store.encode(
            [AppendRequest("a", 2, marks(1), [contract.Meta()], {"finished": True})]
        )
        assert store.plan_commit(encoded) is not None  # now this writer knows both
    finally:
        store.close()


# -- the journal ----------------------------------------------------------------------------------


def counting(store: SQLiteStore, monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Count the commits the writer in C made for the store."""
    made = [0]
    end = store.end_commit

    def counted(plan: Any, answer: tuple[int, int, str]) -> Any:
        written = end(plan, answer)
        made[0] += written is not None
        return written

    monkeypatch.setattr(store, "end_commit", counted)
    return made


async def test_the_hall_commits_through_the_writer_and_loses_no_command(
    registry: Registry, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    store = SQLiteStore(tmp_path / "hall.db", registry.codec)
    made = counting(store, monkeypatch)
    try:
        async with Hall(store, registry) as hall:
            matches, heard, commits = await play_in_lockstep(hall, 60)
            assert made[0] == hall.journal.commits  # every one in C
        # Sixty matches in lockstep, one command each a round: the journal splits the first
        # round's answers into two groups whose commits then alternate, each overlapping the
        # loop's work on the other (one commit a round without the split).
        assert commits > len(MOVES) + 1
    finally:
        store.close()
    again = SQLiteStore(tmp_path / "hall.db", registry.codec)
    try:
        assert len(heard) == 60 * len(MOVES)
        assert all(again.version(match) >= seq for match, seq in heard)
        assert {again.version(m) for m in matches} == {1 + len(MOVES)}
    finally:
        again.close()


async def test_a_commit_the_database_refuses_is_heard_and_the_hall_goes_on(
    registry: Registry, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "refused.db"
    store = SQLiteStore(path, registry.codec)
    made = counting(store, monkeypatch)
    other = sqlite3.connect(path, isolation_level=None)
    try:
        async with Hall(store, registry) as hall:
            matches = [await hall.create("tictactoe", seed=n) for n in range(3)]
            assert made[0] >= 1  # the creations went through the writer
            other.execute(  # every insert now fails, in C and through sqlite3 alike
                "CREATE TRIGGER broken BEFORE INSERT ON events BEGIN SELECT no_such(); END"
            )
            for match in matches:
                with pytest.raises(GamehallError, match="no such function"):
                    await hall.send(match, 0, PlaceMark(cell=4))
            assert all(hall.view(m, None).seq == 1 for m in matches)  # nothing changed
            other.execute("DROP TRIGGER broken")
            before = made[0]
            for match in matches:  # the first reads the versions again (write()), then C
                await hall.send(match, 0, PlaceMark(cell=4))
                await hall.send(match, 1, PlaceMark(cell=0))
            assert all(hall.view(m, None).seq == 3 for m in matches)
            assert made[0] > before
    finally:
        other.close()
        store.close()


async def test_a_hall_closing_while_commits_overlap_answers_every_stored_command(
    registry: Registry, tmp_path: Path
) -> None:
    store = SQLiteStore(tmp_path / "close.db", registry.codec)
    heard: dict[str, int] = {}
    refused: list[str] = []

    async def play(hall: Hall, match: str) -> None:
        for seat, cell in MOVES:
            try:
                ack = await hall.send(match, seat, PlaceMark(cell=cell))
            except GamehallError as exc:
                refused.append(str(exc))
                return
            heard[match] = ack.last_seq

    try:
        with anyio.fail_after(30):
            async with Hall(store, registry) as hall, anyio.create_task_group() as tg:
                matches = [await hall.create("tictactoe", seed=n) for n in range(80)]
                for match in matches:
                    tg.start_soon(play, hall, match)
                await anyio.sleep(0.005)  # some rounds in: the hall closes under them
                await hall.journal.close()
    finally:
        store.close()
    again = SQLiteStore(tmp_path / "close.db", registry.codec)
    try:
        for match, seq in heard.items():
            assert again.version(match) == seq  # acknowledged: stored, and nothing more
        assert all("shutting down" in text for text in refused)
    finally:
        again.close()
