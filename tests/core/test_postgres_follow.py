"""Following the PostgreSQL store's global order while a write transaction is held open.

Positions come from a sequence, so a transaction can hold low positions and commit after others
that took higher ones. Readers read only rows of transactions older than every one still
running: a held transaction holds them back, and its rows are read once it commits, never
skipped. The watermark is the server's, so a transaction of another test on the same server
can hold these readers back for a moment too: what a reader must eventually see is waited for
(bounded), what it must not see is asserted at once.
"""

from __future__ import annotations

import random
import threading
import time
from collections.abc import Callable
from typing import Any

import psycopg
import pytest
from gamehall.core import ConcurrencyError, Meta, Registry
from gamehall.core.store import AppendRequest
from gamehall.plugins.tictactoe.events import MarkPlaced

Seen = list[tuple[int, str, int]]


def marks(n: int) -> list[MarkPlaced]:
    return [MarkPlaced(seat=i % 2, cell=i % 9) for i in range(n)]


def held_append(store: Any, stream: str, expected: int, n: int) -> psycopg.Connection[Any]:
    """Append ``n`` events in a transaction left open; return its connection (commit it)."""
    conn = store.connect(autocommit=False)
    [encoded] = store.encode([AppendRequest(stream, expected, marks(n), [Meta()] * n)])
    firsts, positions = store._append(conn, [(0, encoded)], time.time())
    assert firsts[0] > 0 and len(positions) == n
    return conn


def until(condition: Callable[[], bool], timeout: float = 30.0) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.02)


def stored_rows(store: Any) -> Seen:
    """Every row of the store in its global order, once no transaction holds any back."""
    total = sum(info.version for info in store.streams())
    until(lambda: len(store.read_all()) == total)
    return [(r.position, r.stream, r.seq) for r in store.read_all()]


def tail(store: Any, after: int, seen: Seen, target: list[int]) -> None:
    """Follow ``read_all`` from ``after`` until the last position reaches ``target``."""
    last = after
    while not (target and last == target[0]):
        for record in store.read_all(after=last, limit=50):
            seen.append((record.position, record.stream, record.seq))
            last = record.position
        time.sleep(0.001)


def test_a_held_transaction_holds_readers_back_and_is_read_when_it_commits(
    pg_url: str, registry: Registry
) -> None:
    from gamehall.core.store.postgres import PostgresStore

    slow, fast, reader = (PostgresStore(pg_url, registry.codec) for _ in range(3))
    try:
        fast.append("before", 0, marks(2))
        until(lambda: reader.position() == fast.read("before")[-1].position)
        start = reader.position()
        held = held_append(slow, "long", 0, 3)  # takes positions 3 to 5 and holds them
        try:
            for i in range(5):  # commit past it: higher positions, committed first
                fast.append(f"f{i}", 0, marks(2))
            assert fast.version("f4") == 2  # a stream's own reads are not held back
            time.sleep(0.2)
            # Nothing past the held transaction is given to a reader before it ends.
            assert reader.read_all(after=start) == []
            assert reader.position() == start
            assert reader.changes(start) == (start, {})
            held_events, held_seconds = reader.held_back()
            assert held_events == 10 and held_seconds >= 0.2  # what the watermark costs
        finally:
            held.commit()
            held.close()
        seen: Seen = []
        until(lambda: len(reader.read_all(after=start)) == 3 + 5 * 2)
        until(lambda: reader.held_back() == (0, 0.0))
        for record in reader.read_all(after=start):
            seen.append((record.position, record.stream, record.seq))
        # The held rows come first (its transaction is older), though committed last.
        assert [s for _, s, _ in seen[:3]] == ["long"] * 3
        assert sorted(p for p, s, _ in seen if s == "long") == [
            r.position for r in reader.read("long")
        ]
        assert min(p for p, s, _ in seen if s == "long") < min(p for p, s, _ in seen[3:])
        assert seen == stored_rows(reader)[2:]
        last, heads = reader.changes(start)
        assert last == seen[-1][0] and heads == {"long": 3, **{f"f{i}": 2 for i in range(5)}}
    finally:
        for store in (slow, fast, reader):
            store.close()


@pytest.mark.parametrize("seed", [1])
def test_readers_started_at_any_time_see_every_event_once_past_a_held_transaction(
    pg_url: str, registry: Registry, seed: int
) -> None:
    """Writers on shared streams (conflicts, rollbacks) while one transaction stays open
    through half their commits; one reader tails from the start, another starts midway."""
    from gamehall.core.store.postgres import PostgresStore

    writers, rounds = 4, 16
    stores = [PostgresStore(pg_url, registry.codec) for _ in range(writers + 3)]
    slow, first_reader, mid_reader = stores[-3:]
    errors: list[BaseException] = []
    halfway = threading.Barrier(writers + 1)
    target: list[int] = []
    seen_all: Seen = []
    seen_mid: Seen = []
    mid_start: list[int] = []

    def write(store: Any, number: int) -> None:
        rng = random.Random(seed * 100 + number)
        try:
            for round_ in range(rounds):
                if round_ == rounds // 2:
                    halfway.wait(60)
                requests = [(s, rng.randint(1, 3)) for s in rng.sample(
                    [f"s{i}" for i in range(8)], 2)]  # fmt: skip
                while requests:
                    batch = [
                        AppendRequest(s, store.version(s), marks(n), [Meta()] * n)
                        for s, n in requests
                    ]
                    results = store.append_many(batch)
                    requests = [
                        r for r, out in zip(requests, results, strict=True)
                        if isinstance(out, ConcurrencyError)
                    ]  # fmt: skip
        except BaseException as exc:  # noqa: BLE001
            errors.append(exc)

    try:
        first = threading.Thread(target=tail, args=(first_reader, 0, seen_all, target))
        first.start()
        held = held_append(slow, "long", 0, 4)
        threads = [
            threading.Thread(target=write, args=(s, i)) for i, s in enumerate(stores[:writers])
        ]
        for thread in threads:
            thread.start()
        halfway.wait(60)  # half the commits are past the held transaction
        mid_start.append(mid_reader.position())
        mid = threading.Thread(target=tail, args=(mid_reader, mid_start[0], seen_mid, target))
        mid.start()
        time.sleep(0.1)
        assert all(s != "long" for _, s, _ in seen_all + seen_mid)
        held.commit()
        held.close()
        for thread in threads:
            thread.join()
        assert not errors
        everything = stored_rows(first_reader)
        target.append(everything[-1][0])
        first.join(60)
        mid.join(60)
        assert not first.is_alive() and not mid.is_alive()
        assert seen_all == everything  # nothing skipped, nothing twice, one order
        assert len(set(everything)) == len(everything)
        start = [p for p, _, _ in everything].index(mid_start[0]) + 1 if mid_start[0] else 0
        assert seen_mid == everything[start:]
        assert ("long" in {s for _, s, _ in seen_mid}) is True
        assert not first_reader.check()
    finally:
        for store in stores:
            store.close()


def test_a_schema_3_store_migrates_to_positions_from_a_sequence(registry: Registry) -> None:
    """The head row goes; old rows keep their positions and order and come before new ones,
    and the sequence starts past every position given, deleted ones included."""
    import secrets
    import shutil
    import subprocess
    from pathlib import Path

    from gamehall.core.store.postgres import SCHEMA_VERSION, PostgresStore

    from tests.postgres import BASE_URL, drop_schema, need_postgres, schema_url

    need_postgres()
    if shutil.which("psql") is None:
        pytest.skip("psql is not installed: the dump is restored with it")
    schema = f"test_{secrets.token_hex(6)}"
    fixture = Path(__file__).parent.parent / "fixtures" / "stores" / "v3.pg.sql"
    dump = fixture.read_text().replace("__SCHEMA__", schema)
    try:
        subprocess.run(
            ["psql", "-q", "-v", "ON_ERROR_STOP=1", BASE_URL],
            input=dump, text=True, check=True, capture_output=True,
        )  # fmt: skip
        with psycopg.connect(BASE_URL, options=f"-c search_path={schema}") as db:
            old = db.execute(
                "SELECT stream, seq, position FROM events ORDER BY position"
            ).fetchall()
            head = db.execute("SELECT position FROM gamehall_head").fetchone()[0]
        assert old and head >= old[-1][2]
        store = PostgresStore(schema_url(schema), registry.codec)
        try:
            with psycopg.connect(BASE_URL, options=f"-c search_path={schema}") as db:
                assert db.execute("SELECT to_regclass('gamehall_head')").fetchone()[0] is None
                version = db.execute("SELECT value FROM gamehall WHERE key = 'schema'").fetchone()
                assert version[0] == str(SCHEMA_VERSION) == "5"
            until(lambda: store.position() == old[-1][2])
            assert [(r.stream, r.seq, r.position) for r in store.read_all()] == old
            store.append("after-migration", 0, marks(2))
            new = [r.position for r in store.read("after-migration")]
            assert new[0] > head and new[1] > new[0]
            until(lambda: store.changes(old[-1][2]) == (new[1], {"after-migration": 2}))
            assert store.check() == []
        finally:
            store.close()
    finally:
        drop_schema(schema)


def test_a_newer_postgres_schema_is_refused_with_its_number(
    pg_url: str, registry: Registry
) -> None:
    from gamehall.core.errors import DamagedStore
    from gamehall.core.store.postgres import PostgresStore

    store = PostgresStore(pg_url, registry.codec)
    conninfo, schema = store.url.conninfo, store.schema
    store.close()
    with psycopg.connect(conninfo, autocommit=True, options=f"-c search_path={schema}") as db:
        db.execute("UPDATE gamehall SET value = '99' WHERE key = 'schema'")
    with pytest.raises(DamagedStore, match="has store schema 99.*reads schema 5"):
        PostgresStore(pg_url, registry.codec)


def crc32_twins() -> tuple[str, str]:
    """Return two different match ids with the same CRC-32 (a birthday search: ~80k tries).

    The ids are hashes of counters: ids that differ in few bits (m1, m2, ...) never share a
    CRC-32, which is linear.
    """
    import hashlib
    import zlib

    found: dict[int, str] = {}
    for n in range(1_000_000):
        name = "m" + hashlib.sha256(str(n).encode()).hexdigest()[:12]
        crc = zlib.crc32(name.encode())
        if crc in found:
            return found[crc], name
        found[crc] = name
    raise AssertionError("no CRC-32 collision found")


def test_leases_of_one_match_id_in_two_schemas_are_apart(pg_url: str, registry: Registry) -> None:
    import secrets

    from gamehall.core.store.postgres import PostgresStore

    from tests.postgres import drop_schema, schema_url

    other_schema = f"test_{secrets.token_hex(6)}"
    a = PostgresStore(pg_url, registry.codec)
    a_again = PostgresStore(pg_url, registry.codec)
    b = PostgresStore(schema_url(other_schema), registry.codec)
    try:
        assert a.try_lease("m1")
        assert b.try_lease("m1")  # another schema's m1 is another match
        assert not a_again.try_lease("m1")  # the same schema's m1 is held
        a.release_lease("m1")
        assert a_again.try_lease("m1")
    finally:
        for store in (a, a_again, b):
            store.close()
        drop_schema(other_schema)


def test_two_match_ids_with_one_crc32_have_their_own_leases(
    pg_url: str, registry: Registry
) -> None:
    import zlib

    from gamehall.core.store.postgres import PostgresStore

    one, two = crc32_twins()
    assert one != two and zlib.crc32(one.encode()) == zlib.crc32(two.encode())
    a, b = PostgresStore(pg_url, registry.codec), PostgresStore(pg_url, registry.codec)
    try:
        assert a.try_lease(one)
        assert b.try_lease(two)
        assert not b.try_lease(one) and not a.try_lease(two)
        assert (a.leases, b.leases) == (1, 1)
    finally:
        a.close()
        b.close()


def test_rows_restored_from_a_server_ahead_of_this_one_are_read(
    pg_url: str, registry: Registry
) -> None:
    """A dump restored on another server keeps the ids of the server that wrote it: ids ahead
    of this server's are set to 0 when the store opens, so followers read those rows."""
    from gamehall.core.store.postgres import PostgresStore

    store = PostgresStore(pg_url, registry.codec)
    store.append("a", 0, marks(2))
    conninfo, schema = store.url.conninfo, store.schema
    store.close()
    ahead = "'1000000000000'::xid8"
    with psycopg.connect(conninfo, autocommit=True, options=f"-c search_path={schema}") as db:
        db.execute(f"UPDATE events SET tx = {ahead}")  # as if written by a server ahead
    store = PostgresStore(pg_url, registry.codec)
    try:
        until(lambda: [r.seq for r in store.read_all()] == [1, 2])
        store.append("a", 2, marks(1))
        until(lambda: [r.seq for r in store.read_all()] == [1, 2, 3])
    finally:
        store.close()


def test_a_transaction_of_another_application_holds_no_reader_back(
    pg_url: str, registry: Registry
) -> None:
    """Only this schema's gamehall sessions can write its rows: an open transaction of any
    other session (another schema's gamehall, another program) is left out of the watermark."""
    from gamehall.core.store.postgres import PostgresStore

    store = PostgresStore(pg_url, registry.codec)
    other = psycopg.connect(store.url.conninfo, application_name="another program")
    try:
        other.execute("SELECT pg_current_xact_id()")  # open, with a transaction id
        store.append("a", 0, marks(2))
        until(lambda: [r.seq for r in store.read_all()] == [1, 2], timeout=10)
        assert store.position() == store.read("a")[-1].position
    finally:
        other.rollback()
        other.close()
        store.close()


def test_an_append_beaten_at_its_insert_fails_only_its_batch(
    pg_url: str, registry: Registry
) -> None:
    """Two appends race for one stream: the second waits at the insert for the first to
    commit, finds its seq taken, drops that batch's rows (a conflict) and keeps the others."""
    from gamehall.core.store.postgres import PostgresStore

    first, second = PostgresStore(pg_url, registry.codec), PostgresStore(pg_url, registry.codec)
    try:
        first.append("race", 0, marks(1))
        held = held_append(first, "race", 1, 2)  # seqs 2 and 3, not committed yet
        results: list[Any] = []
        batch = [
            AppendRequest("race", 1, marks(3), [Meta()] * 3),  # checked at 1: it reads seq 1
            AppendRequest("calm", 0, marks(2), [Meta()] * 2),
        ]
        racer = threading.Thread(target=lambda: results.extend(second.append_many(batch)))
        racer.start()
        time.sleep(0.3)
        assert racer.is_alive()  # waiting at the insert for the held transaction
        held.commit()
        held.close()
        racer.join(30)
        assert isinstance(results[0], ConcurrencyError) and "3" in str(results[0])
        assert [r.seq for r in results[1]] == [1, 2]
        assert [r.seq for r in second.read("race")] == [1, 2, 3]
        assert [r.seq for r in second.read("calm")] == [1, 2]
        assert second.stream_info("race").version == 3  # the loser's listing left alone
        assert second.check() == []
    finally:
        first.close()
        second.close()


def test_a_node_is_woken_by_other_nodes_commits_and_its_own_only_while_rows_are_held(
    pg_url: str, registry: Registry
) -> None:
    """A node's own commits do not wake its follower (its actors hold them); another node's
    do; and while its last read left committed rows held back by the watermark, its own
    commits wake it too (one of them may be what held the rows)."""
    from gamehall.core.store.postgres import PostgresStore

    one = PostgresStore(pg_url, registry.codec)
    two = PostgresStore(pg_url, registry.codec)
    try:
        one.wait_for_commits(0.01)  # listening from here
        one.append("a", 0, marks(1))
        assert not one.wait_for_commits(0.5)
        two.append("b", 0, marks(1))
        assert one.wait_for_commits(10)
        start = one.position()
        held = held_append(two, "c", 0, 1)
        try:
            two.append("d", 0, marks(1))  # committed after the held one began: held back
            until(lambda: one.follow(start)[:2] == (start, {}) and one._held, timeout=10)
            one.wait_for_commits(0.2)  # the notification of "d", if it is still waiting
            one.append("a", 1, marks(1))
            assert one.wait_for_commits(10)
        finally:
            held.commit()
            held.close()
        until(lambda: set(one.follow(start)[1]) == {"a", "c", "d"}, timeout=10)
        assert not one._held
    finally:
        one.close()
        two.close()


def test_closing_a_store_does_not_wait_for_a_follower_waiting_for_notifications(
    pg_url: str, registry: Registry
) -> None:
    """The listening connection is the waiting thread's to close when its wait ends: the
    store's close neither waits for that nor leaves the connection open."""
    from gamehall.core.store.postgres import PostgresStore

    store = PostgresStore(pg_url, registry.codec)
    store.wait_for_commits(0.01)  # the listening connection is made
    listener = store._listener
    assert listener is not None
    waited: list[bool] = []
    thread = threading.Thread(target=lambda: waited.append(store.wait_for_commits(3.0)))
    thread.start()
    until(lambda: listener.lock.locked(), timeout=10)  # inside its wait
    started = time.monotonic()
    store.close()
    assert time.monotonic() - started < 1.0  # not the wait's 3 s
    thread.join(10)
    assert waited == [False] and listener.closed


def test_commits_are_notified_only_while_another_node_listens(
    pg_url: str, registry: Registry
) -> None:
    """A notification wakes nobody while no other node listens, so none is sent (a session
    that listens without a node's name hears nothing); a node that begins to listen hears
    the next commit, even one made while the writer still took nobody to be listening."""
    from gamehall.core.store.postgres import LISTENERS_SECONDS, PostgresStore

    from tests.postgres import BASE_URL

    writer = PostgresStore(pg_url, registry.codec)
    node = PostgresStore(pg_url, registry.codec)
    with psycopg.connect(BASE_URL, autocommit=True) as spy:
        try:
            spy.execute(f"LISTEN {writer.channel}")
            writer.append("a", 0, marks(1))
            writer.append("a", 1, marks(1))
            time.sleep(LISTENERS_SECONDS * 2)  # the notifier has looked since both commits
            assert list(spy.notifies(timeout=0.2, stop_after=1)) == []
            node.wait_for_commits(0.01)  # a node listens from here
            writer.append("a", 2, marks(1))  # soon after a look that found nobody
            assert node.wait_for_commits(10)
            assert len(list(spy.notifies(timeout=1, stop_after=1))) == 1
        finally:
            writer.close()
            node.close()


def test_notifications_name_the_streams_their_commits_wrote(
    pg_url: str, registry: Registry
) -> None:
    """A node hears which streams other nodes' commits wrote; a notification naming none
    (one that had too many to name, or another program's) means any stream."""
    from gamehall.core.store.postgres import PostgresStore

    writer = PostgresStore(pg_url, registry.codec)
    node = PostgresStore(pg_url, registry.codec)
    try:
        node.wait_for_commits(0.01)  # listening before the writer's first look
        writer.append_many(
            [
                AppendRequest("a", 0, marks(1), [Meta()]),
                AppendRequest("b", 0, marks(2), [Meta()] * 2),
            ]
        )
        heard: set[str] = set()
        deadline = time.monotonic() + 10
        while heard != {"a", "b"}:
            assert time.monotonic() < deadline, heard
            if node.wait_for_commits(1):
                named = node.heard_streams()
                assert named is not None
                heard |= named
        assert node.heard_streams() == set()  # taken: forgotten
        with psycopg.connect(pg_url.split("?")[0], autocommit=True) as other:
            other.execute("SELECT pg_notify(%s, '')", (node.channel,))
        assert node.wait_for_commits(10)
        assert node.heard_streams() is None
    finally:
        writer.close()
        node.close()
