"""Fault injection for the store, in the spirit of Akka's PersistenceTestKit.

A :class:`FaultyStore` stands in front of a real store and, on a seeded plan, fails appends
before they are written or after (the events are durable, the answer is lost), fails reads,
or is slow; a real SQLite file is also filled to its ``max_page_count`` (the disk is full).
Clients send tic-tac-toe commands with ids and retry a refused one with the same id, as a
service would. Every case ends the same way: the faults stop, a fresh hall opens the store,
every acknowledged command is there with the seqs it was acknowledged with, every match
loads and plays on, and the store passes its check.
"""

from __future__ import annotations

import random
import select
import time
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

import anyio
import pytest
from gamehall.core import GamehallError, Registry, StoreFailed
from gamehall.core.errors import StoreClosed
from gamehall.core.events import Event, Recorded
from gamehall.core.hall import Hall
from gamehall.core.store import MemoryStore, Snapshot, SQLiteStore, Store, StreamInfo
from gamehall.core.store.base import (
    Due,
    Encoded,
    Loaded,
    MatchPage,
    MatchQuery,
    PlayerRecord,
    Problem,
    RawRow,
    Written,
)


class FaultyStore(Store):
    """A store that fails when its plan says so; otherwise the real store underneath."""

    def __init__(self, inner: Store, seed: int, **rates: float) -> None:
        self.inner = inner
        self.codec = inner.codec
        # One generator a kind of fault, drawn only where that kind is planned: how many reads
        # a change of the hall makes does not move where the append faults fall.
        self.rngs = {kind: random.Random(f"{seed}-{kind}") for kind in rates}
        self.rates = rates
        self.on = True
        self.injected: dict[str, int] = {}

    def _fault(self, kind: str) -> bool:
        rng = self.rngs.get(kind)
        if self.on and rng is not None and rng.random() < self.rates[kind]:
            self.injected[kind] = self.injected.get(kind, 0) + 1
            return True
        return False

    def _read_fault(self) -> None:
        if self._fault("read"):
            raise StoreFailed("injected: the read failed")

    @property
    def threaded(self) -> bool:
        return self.inner.threaded

    def write(self, encoded: Sequence[Encoded | GamehallError]) -> list[Written | GamehallError]:
        if self._fault("slow"):
            time.sleep(0.02)
        if self._fault("append_before"):
            raise StoreFailed("injected: the append failed before writing")
        written = self.inner.write(encoded)
        if self._fault("append_after"):
            raise StoreFailed("injected: the append was written, its answer lost")
        return written

    def read(
        self, stream: str, after: int = 0, upto: int | None = None, limit: int | None = None
    ) -> list[Recorded]:
        self._read_fault()
        return self.inner.read(stream, after, upto, limit)

    def read_events(self, stream: str, after: int = 0) -> list[Event]:
        self._read_fault()
        return self.inner.read_events(stream, after)

    def load_stream(self, stream: str, after: int = 1, snapshot: bool = False) -> Loaded:
        self._read_fault()
        return self.inner.load_stream(stream, after, snapshot)

    def read_all(self, after: int = 0, limit: int | None = None) -> list[Recorded]:
        return self.inner.read_all(after, limit)

    def version(self, stream: str) -> int:
        return self.inner.version(stream)

    def streams(self, after: str = "", limit: int | None = None) -> list[StreamInfo]:
        return self.inner.streams(after, limit)

    def stream_info(self, stream: str) -> StreamInfo | None:
        self._read_fault()
        return self.inner.stream_info(stream)

    def command_ids(self, stream: str) -> dict[str, tuple[int, int]]:
        return self.inner.command_ids(stream)

    def find_matches(self, query: MatchQuery) -> MatchPage:
        self._read_fault()
        return self.inner.find_matches(query)

    def delete_stream(self, stream: str) -> bool:
        return self.inner.delete_stream(stream)

    def deleted_positions(self) -> list[tuple[int, int]]:
        return self.inner.deleted_positions()

    def put_entry(self, stream: str, info: Mapping[str, Any], version: int) -> bool:
        return self.inner.put_entry(stream, info, version)

    def due_matches(self, before: float, after: Due | None = None, limit: int = 500) -> list[Due]:
        self._read_fault()
        return self.inner.due_matches(before, after, limit)

    def seat_tokens(self, stream: str) -> dict[int, bytes]:
        self._read_fault()
        return self.inner.seat_tokens(stream)

    def save_player(self, player: PlayerRecord) -> None:
        self.inner.save_player(player)

    def player(self, player_id: str) -> PlayerRecord | None:
        return self.inner.player(player_id)

    def player_by_digest(self, digest: bytes) -> PlayerRecord | None:
        return self.inner.player_by_digest(digest)

    def save_snapshot(self, snapshot: Snapshot) -> None:
        self.inner.save_snapshot(snapshot)

    def load_snapshot(self, stream: str) -> Snapshot | None:
        return self.inner.load_snapshot(stream)

    def raw_rows(self) -> Iterator[RawRow]:
        return self.inner.raw_rows()

    def check(self, progress: Any = None) -> list[Problem]:
        return self.inner.check(progress)


Acked = dict[tuple[str, str], tuple[int, int]]  # (match, command id) -> (first, last seq)


async def play(hall: Hall, matches: int, commands: int, seed: int, tries: int = 8) -> Acked:
    """Play random legal moves with ids, retrying a failed one; return what was acknowledged."""
    rng = random.Random(seed)
    acked: Acked = {}
    ids: list[str] = []
    for n in range(matches):
        for _ in range(tries):
            try:
                ids.append(await hall.create("tictactoe", seed=n, match_id=f"f{seed}-{n}"))
                break
            except GamehallError:
                if hall.store.version(f"f{seed}-{n}"):
                    ids.append(f"f{seed}-{n}")  # written, its answer lost
                    break
    for step in range(commands):
        if step % 7 == 6:
            hall.passivate()  # matches load again from the store: reads meet their faults
        match = rng.choice(ids)
        await send_one(hall, match, f"c{step}", rng, tries, acked)
    return acked


async def send_one(
    hall: Hall, match: str, cid: str, rng: random.Random, tries: int, acked: Acked
) -> None:
    for _ in range(tries):
        try:
            awaiting = hall.awaiting(match)
            if not awaiting:
                return
            seat = min(awaiting)
            legal = hall.legal(match, seat)
            ack = await hall.send(match, seat, rng.choice(legal), cid)
        except (StoreFailed, GamehallError) as exc:
            if isinstance(exc, StoreClosed):
                raise
            continue  # a client retries with the same id
        acked[(match, cid)] = (ack.first_seq, ack.last_seq)
        return


async def recovered(store: Store, registry: Registry, acked: Acked) -> None:
    """Check that nothing acknowledged was lost and every match plays on."""
    assert store.check() == []
    async with Hall(store, registry) as hall:
        for (match, cid), seqs in acked.items():
            assert store.command_ids(match).get(cid) == seqs, (match, cid)
        for entry in store.streams():
            hall.view(entry.stream, None)
            awaiting = hall.awaiting(entry.stream)
            if awaiting:
                seat = min(awaiting)
                await hall.send(entry.stream, seat, hall.legal(entry.stream, seat)[0])


def run_case(registry: Registry, inner: Store, seed: int, commands: int, **rates: float) -> None:
    faulty = FaultyStore(inner, seed, **rates)

    async def go() -> None:
        async with Hall(faulty, registry, snapshot_every=5) as hall:
            acked = await play(hall, 12, commands, seed)
        assert acked, "nothing was acknowledged: the plan failed everything"
        assert sum(faulty.injected.values()) > 0, "no fault was injected"
        faulty.on = False
        await recovered(inner, registry, acked)

    anyio.run(go)


CASES = {
    "append-fails-before-writing": {"append_before": 0.2},
    "append-fails-after-writing": {"append_after": 0.2},
    "reads-fail": {"read": 0.1},
    "slow": {"slow": 0.3},
    "everything": {"append_before": 0.1, "append_after": 0.1, "read": 0.05, "slow": 0.1},
}


@pytest.mark.parametrize("case", sorted(CASES))
@pytest.mark.parametrize("backend", ["memory", "sqlite"])
def test_store_faults_lose_no_acknowledged_command(
    registry: Registry, tmp_path: Path, case: str, backend: str
) -> None:
    inner: Store = (
        MemoryStore(registry.codec)
        if backend == "memory"
        else SQLiteStore(tmp_path / "faults.db", registry.codec, synchronous="NORMAL")
    )
    try:
        run_case(registry, inner, seed=7, commands=40, **CASES[case])
    finally:
        inner.close()


def pages_allowed(store: SQLiteStore, pages: int) -> None:
    """Let the file grow to ``pages`` pages and no more (a full disk), on both of the store's
    write connections: sqlite3's and the journal's writer in C (between commits)."""
    store._writer.execute(f"PRAGMA max_page_count={pages}")
    writer = store._commit_writer
    if writer is not None:
        writer.submit(None, [(f"PRAGMA max_page_count={pages}", [()], -1)])
        readable, _, _ = select.select([writer.fileno()], [], [], 10)
        assert readable and writer.result() == (0, 0, "")


def fill_until_full(registry: Registry, path: Path, seed: int, commands: int) -> None:
    store = SQLiteStore(path, registry.codec, synchronous="NORMAL")
    try:

        async def go() -> None:
            async with Hall(store, registry, snapshot_every=0) as hall:
                await play(hall, 2, 10, seed)  # some room taken first
                pages = store._writer.execute("PRAGMA page_count").fetchone()[0]
                pages_allowed(store, pages + 1)
                full = await play(hall, 6, commands, seed + 1, tries=2)
                refusals = 0
                for (match, cid), seqs in full.items():
                    assert store.command_ids(match).get(cid) == seqs
                try:
                    await hall.create("tictactoe", match_id=f"big-{seed}")
                except StoreFailed as exc:
                    refusals += 1
                    assert "full" in str(exc)
                assert refusals == 1, "the disk never filled"
                pages_allowed(store, 1073741823)  # room again
                await play(hall, 1, 5, seed + 2)
                acked = {**full}
            await recovered(store, registry, acked)

        anyio.run(go)
    finally:
        store.close()


def test_a_full_disk_refuses_writes_and_loses_nothing(registry: Registry, tmp_path: Path) -> None:
    fill_until_full(registry, tmp_path / "full.db", seed=3, commands=300)


@pytest.mark.long
@pytest.mark.parametrize("seed", range(20))
def test_store_faults_long_loops(registry: Registry, tmp_path: Path, seed: int) -> None:
    for case, rates in sorted(CASES.items()):
        inner = SQLiteStore(tmp_path / f"{case}.db", registry.codec, synchronous="NORMAL")
        try:
            run_case(registry, inner, seed=seed, commands=400, **rates)
        finally:
            inner.close()
    fill_until_full(registry, tmp_path / "full.db", seed=seed, commands=2000)
