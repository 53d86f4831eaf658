"""PostgreSQL's commits for the journal on a connection of the event loop's own
(``PostgresStore.overlapped``): the loop goes on while the database commits, and what the
store answers is what ``write`` answers."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import psycopg
import pytest
from gamehall.core import ConcurrencyError, Meta, Registry
from gamehall.core.errors import GamehallError
from gamehall.core.hall import Hall
from gamehall.core.store import AppendRequest
from gamehall.core.store.base import Written
from gamehall.core.testing.events import ContractPlugins, marks
from gamehall.plugins.tictactoe import PlaceMark

from tests.core.lockstep import MOVES, play_in_lockstep
from tests.postgres import BASE_URL

pytestmark = pytest.mark.anyio


def journal_backends(schema: str) -> int:
    with psycopg.connect(BASE_URL, autocommit=True) as admin:
        row = admin.execute(
            "SELECT count(*) FROM pg_stat_activity WHERE application_name = %s",
            (f"gamehall {schema} journal",),
        ).fetchone()
    return int(row[0]) if row else 0


async def test_the_hall_commits_on_its_own_connection_and_loses_no_command(
    pg_url: str, registry: Registry, monkeypatch: pytest.MonkeyPatch
) -> None:
    from gamehall.core.store.postgres import PostgresStore

    store = PostgresStore(pg_url, registry.codec)
    written: list[int] = []

    def ordinary(encoded: Any) -> Any:  # the journal's thread: not taken here
        written.append(len(encoded))
        raise AssertionError("a commit went the ordinary way")

    monkeypatch.setattr(store, "write", ordinary)
    try:
        async with Hall(store, registry) as hall:
            matches, heard, commits = await play_in_lockstep(hall, 40)
            assert journal_backends(store.schema) == 1
        assert journal_backends(store.schema) == 0  # it closed with the journal
        assert not written
        assert commits > len(MOVES) + 1  # two groups out of phase (one commit a round without)
        assert len(heard) == 40 * len(MOVES)
        assert all(store.version(match) >= seq for match, seq in heard)
        assert {store.version(m) for m in matches} == {1 + len(MOVES)}
    finally:
        store.close()


async def test_a_batch_another_node_wrote_first_is_refused_alone(pg_url: str) -> None:
    from gamehall.core.store.postgres import PostgresStore

    codec = ContractPlugins().codec
    store = PostgresStore(pg_url, codec)
    other = PostgresStore(pg_url, codec)
    committer = store.overlapped(asyncio.get_running_loop())
    assert committer is not None
    assert committer.start([]) is None  # before its connection: the ordinary way
    await committer.open()
    try:
        store.append("a", 0, marks(1))
        store.append("b", 0, marks(1))
        other.append("a", 1, marks(1))  # the other node moved "a" on
        requests = [
            AppendRequest("a", 1, marks(1), [Meta()]),
            AppendRequest("b", 1, marks(2), [Meta(), Meta()]),
        ]
        started = committer.start(store.encode(requests))
        assert started is not None
        written = await started
        assert written is not None
        assert isinstance(written[0], ConcurrencyError) and "a" in str(written[0])
        assert isinstance(written[1], Written) and len(written[1].positions) == 2
        assert [r.seq for r in store.read("b")] == [1, 2, 3]
        assert store.version("a") == 2
        # A stream twice in one commit: write() runs the two calls in one transaction.
        twice = [
            AppendRequest("b", 3, marks(1), [Meta()]),
            AppendRequest("b", 4, marks(1), [Meta()]),
        ]
        assert committer.start(store.encode(twice)) is None
    finally:
        committer.close()
        other.close()
        store.close()


async def test_a_commit_the_database_refuses_is_heard_and_nothing_is_stored(
    pg_url: str, registry: Registry, tmp_path: Path
) -> None:
    from gamehall.core.store.postgres import PostgresStore

    store = PostgresStore(pg_url, registry.codec)
    try:
        async with Hall(store, registry) as hall:
            match = await hall.create("tictactoe", seed=1)
            with psycopg.connect(BASE_URL, autocommit=True) as admin:
                admin.execute(f"SET search_path = {store.schema}")
                admin.execute(
                    "CREATE FUNCTION refuse() RETURNS trigger LANGUAGE plpgsql AS "
                    "$$ BEGIN RAISE EXCEPTION 'refused by a trigger'; END $$"
                )
                admin.execute(
                    "CREATE TRIGGER refuse BEFORE INSERT ON events FOR EACH ROW "
                    "EXECUTE FUNCTION refuse()"
                )
                with pytest.raises(GamehallError, match="refused by a trigger"):
                    await hall.send(match, 0, PlaceMark(cell=4))
                assert store.version(match) == 1
                admin.execute("DROP TRIGGER refuse ON events")
            ack = await hall.send(match, 0, PlaceMark(cell=4))  # the same connection goes on
            assert ack.last_seq == 2 and store.version(match) == 2
    finally:
        store.close()
