"""Several writers and several halls on one PostgreSQL schema (needs the test server)."""

from __future__ import annotations

import random
import threading
import time
from typing import Any

import anyio
import pytest
from gamehall.core import ConcurrencyError, Meta, Registry
from gamehall.core.hall import Hall
from gamehall.core.nodes import POLL_SECONDS
from gamehall.core.store import AppendRequest
from gamehall.plugins.tictactoe.events import MarkPlaced

pytestmark = pytest.mark.anyio


def marks(n: int) -> list[MarkPlaced]:
    return [MarkPlaced(seat=i % 2, cell=i % 9) for i in range(n)]


def assert_followed(seen: list[tuple[int, str, int]], store: Any) -> None:
    """Every stored event was seen exactly once, in the store's global order.

    Positions come from a sequence: the order is (transaction, position), not the position
    alone, and a batch that lost its race leaves a hole; so the reader is checked against the
    rows, not against a range of numbers.
    """
    stored = [(r.position, r.stream, r.seq) for r in store.read_all()]
    assert len(seen) == len(set(seen))  # nothing twice
    assert sorted(seen) == sorted(stored)  # nothing skipped
    assert seen == stored  # in the one order every reader sees
    for stream in {s for _, s, _ in stored}:
        assert [q for _, s, q in seen if s == stream] == [
            r.seq for r in store.read(stream)
        ]  # each stream in seq order


def test_a_tailing_reader_skips_nothing_and_sees_nothing_twice(
    pg_url: str, registry: Registry
) -> None:
    from gamehall.core.store.postgres import PostgresStore

    writers, rounds = 8, 40
    stores = [PostgresStore(pg_url, registry.codec) for _ in range(writers + 1)]
    done = threading.Event()
    seen: list[tuple[int, str, int]] = []
    errors: list[BaseException] = []

    def write(store: PostgresStore, number: int) -> None:
        rng = random.Random(number)
        try:
            for _ in range(rounds):
                # Several writers share streams, so some appends conflict and roll back.
                requests = []
                for stream in rng.sample([f"s{i}" for i in range(12)], 3):
                    requests.append((stream, rng.randint(1, 3)))
                while True:
                    batch = [
                        AppendRequest(s, store.version(s), marks(n), [Meta()] * n)
                        for s, n in requests
                    ]
                    results = store.append_many(batch)
                    requests = [
                        r for r, out in zip(requests, results, strict=True)
                        if isinstance(out, ConcurrencyError)
                    ]  # fmt: skip
                    if not requests:
                        break
        except BaseException as exc:  # noqa: BLE001
            errors.append(exc)

    def tail(store: PostgresStore) -> None:
        last = 0
        while True:
            finished = done.is_set()
            for record in store.read_all(after=last, limit=500):
                seen.append((record.position, record.stream, record.seq))
                last = record.position
            if finished and last == store.position():
                return

    try:
        reader = threading.Thread(target=tail, args=(stores[-1],))
        reader.start()
        threads = [threading.Thread(target=write, args=(s, i)) for i, s in enumerate(stores[:-1])]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        done.set()
        reader.join(60)
        assert not errors
        assert_followed(seen, stores[0])
        assert not stores[0].check()
    finally:
        for store in stores:
            store.close()


async def _two_halls(pg_url: str, registry: Registry) -> Any:
    from gamehall.core.store.postgres import PostgresStore

    return PostgresStore(pg_url, registry.codec), PostgresStore(pg_url, registry.codec)


async def test_a_stale_node_catches_up_before_refusing(pg_url: str, registry: Registry) -> None:
    one, two = await _two_halls(pg_url, registry)
    try:
        async with Hall(one, registry) as a, Hall(two, registry) as b:
            match = await a.create("tictactoe", seed=1)
            assert a.follower is not None
            a.follower.stop()  # A hears of nothing: its actor stays at the match's start
            await b.send(match, 0, {"type": "tictactoe.PlaceMark", "cell": 4}, "c1")
            # Seat 1's move is legal only after B's move: A checks the store, then decides.
            ack = await a.send(match, 1, {"type": "tictactoe.PlaceMark", "cell": 0}, "c2")
            assert (ack.first_seq, ack.duplicate) == (3, False)
            assert a.view(match, None).seq == 3
    finally:
        one.close()
        two.close()


async def test_a_beaten_append_catches_up_and_answers_the_retry_once(
    pg_url: str, registry: Registry
) -> None:
    one, two = await _two_halls(pg_url, registry)
    try:
        async with Hall(one, registry) as a, Hall(two, registry) as b:
            match = await a.create("tictactoe", seed=1)
            assert a.follower is not None
            a.follower.stop()
            place = {"type": "tictactoe.PlaceMark", "cell": 4}
            first = await b.send(match, 0, place, "c1")
            # The client retries on A, which has not heard of c1: A's append at seq 2 is
            # beaten, A catches up and finds c1 stored: the retry is a duplicate.
            again = await a.send(match, 0, place, "c1")
            assert again.duplicate and (again.first_seq, again.last_seq) == (2, 2)
            assert again.events == first.events
            assert a.metrics.conflicts == 1 and a.metrics.retries == 1
            assert [r.seq for r in one.read(match)] == [1, 2]
    finally:
        one.close()
        two.close()


async def test_live_streams_deliver_what_other_nodes_store(pg_url: str, registry: Registry) -> None:
    one, two = await _two_halls(pg_url, registry)
    try:
        async with Hall(one, registry) as a, Hall(two, registry) as b:
            match = await a.create("tictactoe", seed=1)
            got: list[int] = []

            async def watch() -> None:
                async for record in a.watch(match, 0):
                    got.append(record.seq)
                    if record.seq == 6:
                        return

            async with anyio.create_task_group() as tg:
                tg.start_soon(watch)
                for i, cell in enumerate([4, 0, 8, 2, 6]):
                    hall = b if i % 2 else a
                    await hall.send(match, i % 2, {"type": "tictactoe.PlaceMark", "cell": cell})
                with anyio.fail_after(10):
                    while len(got) < 6:
                        await anyio.sleep(0.01)
            assert got == [1, 2, 3, 4, 5, 6]
    finally:
        one.close()
        two.close()


async def test_a_watch_that_reads_ahead_of_its_node_brings_the_actor_up(
    pg_url: str, registry: Registry
) -> None:
    """A watcher reads stored events its node has not heard of (a follower held back by an
    older transaction): the node's actor catches up with what was read, so the stream's next
    words (whose turn, the end) are not older than its events."""
    one, two = await _two_halls(pg_url, registry)
    try:
        async with Hall(one, registry) as a, Hall(two, registry) as b:
            match = await a.create("tictactoe", seed=1)
            assert a.follower is not None
            a.follower.stop()  # A hears of nothing, as when its follower is held back
            for i, cell in enumerate([0, 3, 1, 4, 2]):  # seat 0 wins along the top row
                await b.send(match, i % 2, {"type": "tictactoe.PlaceMark", "cell": cell})
            assert a.view(match, None).seq == 1
            seen = []
            with anyio.fail_after(10):
                async for record in a.watch(match, 0):
                    seen.append(record.seq)
                    if record.seq == 7:  # the five marks, then the end
                        break
            assert seen == [1, 2, 3, 4, 5, 6, 7]
            view = a.view(match, None)
            assert view.seq == 7 and view.outcome is not None
    finally:
        one.close()
        two.close()


async def test_bots_play_only_on_the_node_holding_the_lease(
    pg_url: str, registry: Registry
) -> None:
    one, two = await _two_halls(pg_url, registry)
    try:
        async with Hall(one, registry) as a, Hall(two, registry) as b:
            match = await a.create("tictactoe", seed=1, bots={1: "random"}, bot_seed=3)
            b.view(match, 0)  # both nodes have the match active; the first to need it leases it
            for _ in range(4):
                with anyio.fail_after(10):
                    while 1 in b.awaiting(match) or 1 in a.awaiting(match):
                        await anyio.sleep(0.01)
                if not a.awaiting(match):
                    break
                legal = b.legal(match, 0)
                await b.send(match, 0, legal[0])
            assert sorted([a.bots.played, b.bots.played])[0] == 0  # one node played them all
            assert a.bots.played + b.bots.played >= 1
            cids = [r.meta.command_id for r in one.read(match) if r.meta.seat == 1]
            assert cids and all(c and c.startswith("bot-1-") for c in cids)
            assert len(cids) == len(set(cids))
    finally:
        one.close()
        two.close()


async def test_a_node_reads_the_store_only_for_commits_to_matches_it_serves(
    pg_url: str, registry: Registry
) -> None:
    """Notifications name the streams their commits wrote: a node with no actor and no
    watcher of a match does not read the store when another node plays it, and catches up
    once it serves the match."""
    one, two = await _two_halls(pg_url, registry)
    follows = [0]
    follow = two.follow

    def counted(after: int, limit: int = 10_000) -> tuple[int, dict[str, int], bool]:
        follows[0] += 1
        return follow(after, limit)

    two.follow = counted  # type: ignore[method-assign]
    try:
        async with Hall(one, registry) as a, Hall(two, registry) as b:
            assert b.follower is not None
            elsewhere = await a.create("tictactoe", seed=1)
            await anyio.sleep(0.6)  # B's follower polled once since: its next read is a wake's
            before, began = follows[0], time.monotonic()
            for i, cell in enumerate([4, 0, 8]):
                await a.send(elsewhere, i % 2, {"type": "tictactoe.PlaceMark", "cell": cell})
            await anyio.sleep(0.2)
            polls = 1 + int((time.monotonic() - began) / POLL_SECONDS)
            assert follows[0] - before <= polls  # the polls at most, never a read a commit
            assert b.follower.position < one.position()
            served = await b.activate(elsewhere)
            assert served.version == 4
            await a.send(elsewhere, 1, {"type": "tictactoe.PlaceMark", "cell": 2})
            with anyio.fail_after(10):
                while served.version < 5:
                    await anyio.sleep(0.01)
            assert b.follower.position == one.position()
    finally:
        one.close()
        two.close()


async def test_a_follower_stopped_during_its_read_applies_nothing(
    pg_url: str, registry: Registry
) -> None:
    """``stop`` is final even when it comes while the follower's read runs in its thread: what
    that read returns, a commit made after the stop included, reaches no actor."""
    one, two = await _two_halls(pg_url, registry)
    reading, release = threading.Event(), threading.Event()
    follow = two.follow

    def held(after: int, limit: int = 10_000) -> tuple[int, dict[str, int], bool]:
        if release.is_set():
            return follow(after, limit)
        reading.set()
        release.wait(10)  # the stop and another node's commit happen meanwhile
        return follow(after, limit)

    try:
        async with Hall(one, registry) as a, Hall(two, registry) as b:
            match = await a.create("tictactoe", seed=1)
            assert (await b.activate(match)).version == 1
            assert b.follower is not None
            two.follow = held  # type: ignore[method-assign]
            await a.send(match, 0, {"type": "tictactoe.PlaceMark", "cell": 4})
            with anyio.fail_after(10):
                while not reading.is_set():
                    await anyio.sleep(0.01)
            b.follower.stop()
            await a.send(match, 1, {"type": "tictactoe.PlaceMark", "cell": 0})
            release.set()
            await anyio.sleep(0.3)  # the read returns with both commits
            assert b.view(match, None).seq == 1  # nothing applied after the stop
    finally:
        release.set()
        one.close()
        two.close()
