"""PostgreSQL faults: a connection lost mid-commit acknowledges nothing (also while a long
transaction holds followers back); a node cut off from the database serves what it holds and
catches up; bad URLs exit 2."""

from __future__ import annotations

import subprocess
import sys
import threading
import time

import anyio
import pytest
from gamehall.core import Registry
from gamehall.core.errors import CorruptRecord, StoreFailed
from gamehall.core.hall import Hall
from gamehall.core.store.url import BadStoreURL, parse_store_url
from gamehall.plugins.tictactoe.events import MarkPlaced

from tests.postgres import Link

PLACE = "tictactoe.PlaceMark"


def _writer_pid(store: object) -> int:
    """The backend inside the hall's commit now: the journal's connection on its event loop,
    or the store's writer connection (the journal's is being made again after a cut)."""
    import psycopg

    schema = store.schema  # type: ignore[attr-defined]
    with psycopg.connect(store.url.conninfo, autocommit=True) as admin:  # type: ignore[attr-defined]
        rows = admin.execute(
            "SELECT pid FROM pg_stat_activity WHERE state = 'active' "
            "AND query LIKE '%%gamehall_append%%' AND application_name LIKE %s",
            (f"gamehall {schema}%",),
        ).fetchall()
    assert len(rows) == 1, rows
    return int(rows[0][0])


def test_a_connection_lost_mid_commit_acknowledges_nothing(pg_url: str, registry: Registry) -> None:
    import psycopg
    from gamehall.core.store.postgres import PostgresStore

    store = PostgresStore(pg_url, registry.codec)
    holder = store.connect(autocommit=False)
    try:

        async def main() -> None:
            async with Hall(store, registry) as hall:
                match = await hall.create("tictactoe", seed=1)
                # Another session holds the match's listing row: the commit waits inside the
                # database...
                holder.execute("SELECT 1 FROM streams WHERE stream = %s FOR UPDATE", (match,))
                outcome: list[BaseException | object] = []

                async def send() -> None:
                    try:
                        outcome.append(
                            await hall.send(
                                match, 0, {"type": "tictactoe.PlaceMark", "cell": 4}, "c1"
                            )
                        )
                    except StoreFailed as exc:
                        outcome.append(exc)

                async with anyio.create_task_group() as tg:
                    tg.start_soon(send)
                    await anyio.sleep(0.3)
                    # ...when its connection is cut.
                    with psycopg.connect(store.url.conninfo, autocommit=True) as admin:
                        admin.execute("SELECT pg_terminate_backend(%s)", (_writer_pid(store),))
                    await anyio.sleep(0.1)
                    holder.rollback()
                assert isinstance(outcome[0], StoreFailed)
                assert "nothing of it is acknowledged" in str(outcome[0])
                assert store.version(match) == 1
                # The node connects again; the client's retry is stored once.
                ack = await hall.send(match, 0, {"type": "tictactoe.PlaceMark", "cell": 4}, "c1")
                assert (ack.first_seq, ack.duplicate) == (2, False)
                again = await hall.send(match, 0, {"type": "tictactoe.PlaceMark", "cell": 4}, "c1")
                assert again.duplicate
                assert [r.seq for r in store.read(match)] == [1, 2]

        anyio.run(main)
        assert store.check() == []
    finally:
        holder.close()
        store.close()


def test_reads_reconnect_after_the_server_cut_them(pg_url: str, registry: Registry) -> None:
    import psycopg
    from gamehall.core.store.postgres import PostgresStore

    with PostgresStore(pg_url, registry.codec) as store:
        store.append("a", 0, [])
        with store.reading() as conn:
            pid = conn.info.backend_pid
        with psycopg.connect(store.url.conninfo, autocommit=True) as admin:
            admin.execute("SELECT pg_terminate_backend(%s)", (pid,))
        time.sleep(0.1)
        assert store.version("a") == 0  # an empty batch stores nothing; the read works again


@pytest.mark.parametrize(
    ("url", "said"),
    [
        ("mysql://x/y", "unknown store scheme 'mysql'"),
        ("sqlite://", "names no file"),
        ("postgresql://h/d?schema=Bad-Name", "is not a plain PostgreSQL name"),
        ("postgresql://h:port/d", "is not a valid URL"),
        ("", "the store is empty"),
    ],
)
def test_a_wrong_url_names_the_problem(url: str, said: str) -> None:
    with pytest.raises(BadStoreURL, match=said):
        parse_store_url(url)


def test_urls_name_their_backend() -> None:
    assert parse_store_url("hall.db").path == "hall.db"
    assert parse_store_url("sqlite:///tmp/x.db").path == "tmp/x.db"
    assert parse_store_url("sqlite:////tmp/x.db").path == "/tmp/x.db"
    url = parse_store_url("postgresql://me:secret@db:5433/hall?schema=games&sslmode=disable")
    assert (url.backend, url.schema) == ("postgresql", "games")
    assert url.conninfo == "postgresql://me:secret@db:5433/hall?sslmode=disable"
    assert str(url) == "postgresql://me@db:5433/hall?schema=games"  # no password shown


@pytest.mark.parametrize(
    ("db", "said"),
    [
        ("postgresql://postgres@127.0.0.1:1/test", "cannot connect to postgresql://postgres@127.0.0.1:1/test"),
        ("redis://x", "unknown store scheme 'redis'"),
    ],
)  # fmt: skip
def test_the_command_line_says_one_line_and_exits_2(db: str, said: str) -> None:
    for command in (["serve", "--port", "0"], ["matches"]):
        done = subprocess.run(
            [sys.executable, "-m", "gamehall.adapters.cli", *command, "--db", db],
            capture_output=True, text=True, timeout=60,
        )  # fmt: skip
        assert done.returncode == 2, done.stderr
        lines = done.stderr.strip().splitlines()
        assert len(lines) == 1 and said in lines[0] and "Traceback" not in done.stderr


def test_nodes_starting_together_migrate_once(pg_url: str, registry: Registry) -> None:
    from gamehall.core.store.postgres import PostgresStore

    opened: list[PostgresStore] = []
    errors: list[BaseException] = []

    def start() -> None:
        try:
            opened.append(PostgresStore(pg_url, registry.codec))
        except BaseException as exc:  # noqa: BLE001
            errors.append(exc)

    threads = [threading.Thread(target=start) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    for store in opened:
        store.close()
    assert not errors and len(opened) == 4


def test_check_store_reads_a_postgres_store(pg_url: str, registry: Registry) -> None:
    from gamehall.core.store.postgres import PostgresStore

    with PostgresStore(pg_url, registry.codec) as store:
        store.append("a", 0, [])  # an empty first batch, then the real one
        store.append("a", 0, [MarkPlaced(seat=0, cell=1), MarkPlaced(seat=1, cell=2)])
    run = [sys.executable, "-m", "gamehall.adapters.cli", "check-store", "--db", pg_url]
    done = subprocess.run(run, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0 and "ok (1 matches; checksums and event chains)" in done.stdout
    with PostgresStore(pg_url, registry.codec) as store, store.connect() as db:
        db.execute("DELETE FROM events WHERE seq = 1")
    done = subprocess.run(run, capture_output=True, text=True, timeout=60)
    assert done.returncode == 1 and "match 'a' seq 1: events 1 are missing" in done.stdout


def test_a_match_whose_rows_end_before_its_version_is_quarantined(
    pg_url: str, registry: Registry
) -> None:
    """A last row that left its match (a flipped stream key) is found by the match's
    recorded version: the match is quarantined, not served as a shorter one."""
    from gamehall.core import MatchQuarantined
    from gamehall.core.store.postgres import PostgresStore
    from gamehall.plugins.tictactoe.commands import PlaceMark

    async def play() -> None:
        with PostgresStore(pg_url, registry.codec) as store:
            async with Hall(store, registry) as hall:
                for match in ("m0", "m1"):
                    await hall.create("tictactoe", seed=1, match_id=match)
                    await hall.send(match, 0, PlaceMark(cell=4), "a")
                    await hall.send(match, 1, PlaceMark(cell=0), "b")

    async def serve_again() -> None:
        with PostgresStore(pg_url, registry.codec) as store:
            async with Hall(store, registry) as hall:
                with pytest.raises(MatchQuarantined, match="written up to seq 3"):
                    hall.view("m0", None)
                with pytest.raises(MatchQuarantined):
                    await hall.send("m0", 0, PlaceMark(cell=8), "c")
                await hall.send("m1", 0, PlaceMark(cell=8), "c")  # the other plays on
            with pytest.raises(CorruptRecord, match="after seq 2 are missing"):
                store.read("m0")  # as export reads it

    anyio.run(play)
    with PostgresStore(pg_url, registry.codec) as store, store.connect() as db:
        db.execute("UPDATE events SET stream = 'l0' WHERE stream = 'm0' AND seq = 3")
    anyio.run(serve_again)


def test_closing_a_store_while_a_thread_reads_cancels_the_read(
    pg_url: str, registry: Registry
) -> None:
    """psycopg frees a connection it closes even while another thread is inside a statement
    on it, which crashes the process: closing cancels the statement and waits for it."""
    import psycopg
    from gamehall.core.store.postgres import PostgresStore

    store = PostgresStore(pg_url, registry.codec)
    store.append("a", 0, [MarkPlaced(seat=0, cell=4)])
    outcome: list[BaseException] = []
    started = threading.Event()

    def reader() -> None:
        try:
            started.set()
            store._rows("SELECT pg_sleep(20)", ())
        except (psycopg.Error, StoreFailed) as exc:
            outcome.append(exc)

    thread = threading.Thread(target=reader)
    thread.start()
    started.wait()
    time.sleep(0.3)  # inside the statement
    conns = list(store._conns)
    began = time.monotonic()
    store.close()
    thread.join(10)
    assert not thread.is_alive()
    assert time.monotonic() - began < 5, "closing waited for the statement to run out"
    assert outcome and isinstance(outcome[0], psycopg.errors.QueryCanceled), outcome
    assert len(conns) >= 2 and all(conn.closed for conn in conns)


def test_a_follower_whose_reads_fail_serves_what_it_has_and_catches_up(
    pg_url: str, registry: Registry
) -> None:
    """Node A reaches the database through a link that is cut (its backends ended, new
    connections refused) while node B goes on: A answers from the state it holds, and once
    the link is mended its follower catches up with nothing sent to A."""
    from gamehall.core.store.postgres import PostgresStore

    link = Link()
    one = PostgresStore(link.url(pg_url), registry.codec, poll=0.2)
    two = PostgresStore(pg_url, registry.codec)
    place = "tictactoe.PlaceMark"

    async def main() -> None:
        async with Hall(one, registry) as a, Hall(two, registry) as b:
            assert a.follower is not None
            match = await a.create("tictactoe", seed=1)
            await b.send(match, 0, {"type": place, "cell": 4}, "c1")
            with anyio.fail_after(10):
                while a.view(match, None).seq < 2:
                    await anyio.sleep(0.02)
            assert link.cut() >= 2  # A's connections: its writer, reader, listener…
            await b.send(match, 1, {"type": place, "cell": 0}, "c2")
            followed = a.follower.checked
            await anyio.sleep(1.5)  # several polls, every one failing
            seen = a.view(match, None)
            assert (seen.seq, seen.awaiting) == (2, {1: seen.awaiting[1]})  # what A holds
            assert a.follower.checked == followed  # no read got through
            link.mend()
            with anyio.fail_after(10):
                while a.view(match, None).seq < 3 or a.follower.checked == followed:
                    await anyio.sleep(0.02)
            try:
                ack = await a.send(match, 0, {"type": place, "cell": 8}, "c3")
            except StoreFailed:  # the cut took A's writer: nothing acknowledged, a client retries
                ack = await a.send(match, 0, {"type": place, "cell": 8}, "c3")
            assert (ack.first_seq, ack.duplicate) == (4, False)

    try:
        anyio.run(main)
        assert [r.seq for r in two.read(two.streams()[0].stream)] == [1, 2, 3, 4]
    finally:
        one.close()
        two.close()
        link.close()


@pytest.mark.long
def test_connections_lost_mid_commit_while_a_long_transaction_holds_the_watermark(
    pg_url: str, registry: Registry
) -> None:
    """Node A's commits are cut mid-commit again and again while a write transaction of the
    schema stays open, which holds node B's follower back: every command is acknowledged
    once (after its client's retry), none is stored twice, and B's live streams get every
    event once the transaction ends."""
    import psycopg
    from gamehall.core.store.postgres import PostgresStore

    one = PostgresStore(pg_url, registry.codec)
    two = PostgresStore(pg_url, registry.codec)
    blocker = one.connect(autocommit=False)
    held = one.connect(autocommit=False)  # the nodes' application name: it holds them back
    cells = [4, 0, 8, 2, 6]
    acked: dict[str, dict[str, int]] = {}
    cuts: list[StoreFailed] = []

    async def cut_mid_commit(a: Hall, match: str, seat: int, cell: int, cid: str) -> None:
        blocker.execute("SELECT 1 FROM streams WHERE stream = %s FOR UPDATE", (match,))
        outcome: list[BaseException | object] = []

        async def send() -> None:
            try:
                outcome.append(await a.send(match, seat, {"type": PLACE, "cell": cell}, cid))
            except StoreFailed as exc:
                outcome.append(exc)

        async with anyio.create_task_group() as tg:
            tg.start_soon(send)
            await anyio.sleep(0.3)  # the commit waits for the listing row
            with psycopg.connect(one.url.conninfo, autocommit=True) as admin:
                admin.execute("SELECT pg_terminate_backend(%s)", (_writer_pid(one),))
            await anyio.sleep(0.1)
            blocker.rollback()
        assert isinstance(outcome[0], StoreFailed), outcome
        assert "nothing of it is acknowledged" in str(outcome[0])
        cuts.append(outcome[0])

    async def main() -> None:
        async with Hall(one, registry) as a, Hall(two, registry) as b:
            assert b.follower is not None
            matches = [await a.create("tictactoe", seed=i) for i in range(4)]
            with anyio.fail_after(10):
                while b.follower.position < one.position():
                    await anyio.sleep(0.02)
            seen: dict[str, list[int]] = {match: [] for match in matches}

            async def watch(match: str) -> None:
                async for record in b.watch(match, 0):
                    seen[match].append(record.seq)
                    if record.seq == len(cells) + 1:
                        return

            held.execute("CREATE TABLE held_scratch (note text)")
            held.execute("INSERT INTO held_scratch VALUES ('held')")
            followed = b.follower.position
            async with anyio.create_task_group() as tg:
                for match in matches:
                    tg.start_soon(watch, match)
                with anyio.fail_after(10):
                    while any(not s for s in seen.values()):
                        await anyio.sleep(0.02)
                for match in matches:
                    for i, cell in enumerate(cells):
                        cid = f"{match}-{i}"
                        if i in (1, 3):
                            await cut_mid_commit(a, match, i % 2, cell, cid)
                        ack = await a.send(match, i % 2, {"type": PLACE, "cell": cell}, cid)
                        assert not ack.duplicate
                        acked.setdefault(match, {})[cid] = ack.first_seq
                await anyio.sleep(1.0)  # a few of B's polls
                assert b.follower.position == followed  # held back all along
                assert all(s == [1] for s in seen.values()), seen  # B heard of no move
                held.commit()
                with anyio.fail_after(15):
                    while any(len(s) < len(cells) + 1 for s in seen.values()):
                        await anyio.sleep(0.05)
            for match in matches:
                assert seen[match] == list(range(1, len(cells) + 2)), (match, seen[match])

    try:
        anyio.run(main)
        assert len(cuts) == 8
        assert one.check() == []
        for match, commands in acked.items():
            stored: dict[str, list[int]] = {}
            for record in one.read(match):
                if record.meta.command_id:
                    stored.setdefault(record.meta.command_id, []).append(record.seq)
            assert stored == {cid: [seq] for cid, seq in commands.items()}  # once each
    finally:
        blocker.close()
        held.close()
        one.close()
        two.close()
