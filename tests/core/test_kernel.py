"""The kernel's shape: an actor at rest owns no task, its face is a context, not the Hall, and
its commits run in the journal's own thread (or the store's writer in C)."""

from __future__ import annotations

import asyncio
import random
import threading
from pathlib import Path
from typing import Any

import anyio
import pytest
import structlog.testing
from gamehall.core import Registry
from gamehall.core.errors import GamehallError, StoreFailed
from gamehall.core.hall import Hall
from gamehall.core.kernel import journal
from gamehall.core.kernel.actor import Actor, ActorContext
from gamehall.core.store import SQLiteStore
from gamehall.core.store.base import Encoded
from gamehall.plugins.tictactoe import PlaceMark

from tests.core.lockstep import MOVES, play_in_lockstep, stored_versions

pytestmark = pytest.mark.anyio


async def test_resting_actors_own_no_task(registry: Registry, tmp_path: Path) -> None:
    store = SQLiteStore(tmp_path / "rest.db", registry.codec)
    try:
        async with Hall(store, registry, idle_seconds=3600) as hall:
            await anyio.sleep(0.05)  # the hall's own tasks have started
            before = len(asyncio.all_tasks())
            matches = [await hall.create("tictactoe", seed=n) for n in range(40)]
            async with anyio.create_task_group() as tg:
                for match in matches:  # the retry waits in the mailbox while the first commits
                    for _ in range(2):
                        tg.start_soon(hall.send, match, 0, PlaceMark(cell=4), "first")
            await anyio.sleep(0.05)
            assert hall.active == 40
            assert all(not a.working for a in hall.actors.all())
            assert len(asyncio.all_tasks()) <= before  # forty active matches, no task of theirs
            assert all(hall.view(m, None).seq == 2 for m in matches)
    finally:
        store.close()


def test_an_actor_is_given_a_context_never_the_hall() -> None:
    assert "hall" not in Actor.__slots__
    assert "ctx" in Actor.__slots__
    assert not any("hall" in name for name in ActorContext.__slots__)


async def test_the_journal_commits_in_one_thread_that_ends_with_the_hall(
    registry: Registry, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(journal, "OVERLAP", False)  # the thread (commits in C: test_commit_writer)
    store = SQLiteStore(tmp_path / "thread.db", registry.codec)
    writers: set[str] = set()
    write = store.write

    def failing(encoded: Any) -> Any:
        writers.add(threading.current_thread().name)
        if any(isinstance(batch, Encoded) and batch.expected == 1 for batch in encoded):
            raise StoreFailed("the disk is full")
        return write(encoded)

    monkeypatch.setattr(store, "write", failing)
    try:
        async with Hall(store, registry) as hall:
            matches = [await hall.create("tictactoe", seed=n) for n in range(3)]
            for match in matches:  # each append fails; the hall and its writer go on
                with pytest.raises(GamehallError, match="the disk is full"):
                    await hall.send(match, 0, PlaceMark(cell=4))
            assert all(hall.view(m, None).seq == 1 for m in matches)
        assert writers == {"gamehall-journal"}  # never the event loop's own thread
        await anyio.sleep(0.1)
        alive = [t for t in threading.enumerate() if t.name == "gamehall-journal"]
        assert not alive  # the thread ended with the journal
    finally:
        store.close()


def test_a_long_queue_is_committed_a_quarter_at_a_time_within_bounds(
    registry: Registry, tmp_path: Path
) -> None:
    # A few groups take turns, each committed while the loop works on the others: a commit of
    # everything queued could overlap nothing, and a huge one outgrows the caches.
    cut = journal.Journal(SQLiteStore(tmp_path / "cut.db", registry.codec))
    for queued, taken in [(10, 512), (1_000, 512), (4_000, 1_000), (10_000, 2_048)]:
        cut._queue = [None] * queued  # type: ignore[list-item]
        assert cut._cut() == taken
    cut.max_batch = 7  # a journal's own cap stands
    assert cut._cut() == 7
    cut.store.close()


@pytest.mark.parametrize("overlap", [True, False], ids=["overlapped", "thread"])
async def test_a_queue_longer_than_a_commit_goes_in_order_in_commits_of_at_most_max_batch(
    registry: Registry, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, overlap: bool
) -> None:
    monkeypatch.setattr(journal, "OVERLAP", overlap)
    monkeypatch.setattr(journal, "MAX_BATCH", 7)
    store = SQLiteStore(tmp_path / "cut.db", registry.codec)
    sizes: list[int] = []
    encode = store.encode

    def counted(requests: Any) -> Any:
        sizes.append(len(requests))
        return encode(requests)

    monkeypatch.setattr(store, "encode", counted)
    try:
        async with Hall(store, registry) as hall:
            matches, heard, _ = await play_in_lockstep(hall, 60)
        assert max(sizes) == 7  # 60 matches queued at once: every commit cut at seven
        assert len(heard) == 60 * len(MOVES)
        for match in matches:  # each match's answers came in the order its commands went
            seqs = [seq for m, seq in heard if m == match]
            assert seqs == sorted(seqs) and len(set(seqs)) == len(MOVES)
    finally:
        store.close()
    assert stored_versions(tmp_path / "cut.db", registry.codec, matches) == {1 + len(MOVES)}


async def test_a_split_commit_cuts_its_groups_in_the_matches_key_order(
    registry: Registry, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Forty matches move in lockstep, started in a shuffled order: the first round's commit is
    # split in two, and each half's matches commit together from then on. Cut in key order,
    # each group is a run of neighbouring ids, whose rows share the store's pages.
    store = SQLiteStore(tmp_path / "keyed.db", registry.codec)
    commits: list[list[str]] = []
    encode = store.encode

    def seen(requests: Any) -> Any:
        commits.append([request.stream for request in requests])
        return encode(requests)

    try:
        async with Hall(store, registry) as hall:
            matches = [await hall.create("tictactoe", seed=n) for n in range(40)]
            monkeypatch.setattr(store, "encode", seen)
            started = list(matches)
            random.Random(7).shuffle(started)

            async def play(match: str) -> None:
                for seat, cell in MOVES:
                    await hall.send(match, seat, PlaceMark(cell=cell))

            with anyio.fail_after(30):
                async with anyio.create_task_group() as tg:
                    for match in started:
                        tg.start_soon(play, match)
    finally:
        store.close()
    ranks = {match: rank for rank, match in enumerate(sorted(matches))}
    groups = [sorted(ranks[m] for m in streams) for streams in commits[1:] if len(streams) > 1]
    assert groups  # the first round's answers were split
    for group in groups:  # each a run of neighbouring keys: the lower half or the upper
        assert group == list(range(group[0], group[0] + len(group)))


async def test_the_next_group_is_encoded_while_the_store_commits_and_a_failure_there_loses_nothing(
    registry: Registry, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    store = SQLiteStore(tmp_path / "ahead.db", registry.codec)
    committers: list[Any] = []
    overlapped = store.overlapped

    def kept(loop: Any) -> Any:
        committers.append(overlapped(loop))
        return committers[-1]

    monkeypatch.setattr(store, "overlapped", kept)
    encode = store.encode
    during: list[bool] = []  # for each encoding: was a commit in flight then?

    def watched(requests: Any) -> Any:
        if requests:
            in_flight = bool(committers) and committers[0]._landed is not None
            during.append(in_flight)
            if in_flight and during.count(True) == 1:
                raise RuntimeError("a bug encoding ahead")  # the commit encodes them again
        return encode(requests)

    monkeypatch.setattr(store, "encode", watched)
    try:
        with structlog.testing.capture_logs() as logs:
            async with Hall(store, registry) as hall:
                matches, heard, _ = await play_in_lockstep(hall, 40)
        assert during.count(True) > len(MOVES)  # most groups encoded while another committed
        assert any(entry["event"] == "encoding ahead failed" for entry in logs)
        assert len(heard) == 40 * len(MOVES)  # every command acknowledged all the same
    finally:
        store.close()
    assert stored_versions(tmp_path / "ahead.db", registry.codec, matches) == {1 + len(MOVES)}
