"""PostgreSQL's commits for the journal on a connection of the event loop's own
(``PostgresStore.overlapped``): the loop goes on while the database commits, and what the
store answers is what ``write`` answers."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import msgspec
import psycopg
import pytest
from gamehall.core import ConcurrencyError, Meta, Registry
from gamehall.core.errors import GamehallError
from gamehall.core.hall import Hall
from gamehall.core.store import AppendRequest
from gamehall.core.store.base import MatchQuery, Written
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


async def test_a_kept_listing_entry_is_stored_whole_and_one_changed_since_is_merged(
    pg_url: str,
) -> None:
    """The listing entry the journal's connection stored last is merged on the loop and sent
    whole; where another writer changed it since, the database merges as before."""
    from gamehall.core.store.postgres import PostgresStore

    codec = ContractPlugins().codec
    store = PostgresStore(pg_url, codec)
    other = PostgresStore(pg_url, codec)
    committer = store.overlapped(asyncio.get_running_loop())
    assert committer is not None
    await committer.open()
    admin = psycopg.connect(BASE_URL, autocommit=True)
    try:
        admin.execute(f"SET search_path = {store.schema}")
        # Count the merges the database makes (the append calls the function by its name).
        admin.execute("CREATE TABLE merges (n integer)")
        admin.execute(
            "ALTER FUNCTION gamehall_info_merge(bytea, bytea[], bytea[]) RENAME TO real_merge"
        )
        admin.execute(
            "CREATE FUNCTION gamehall_info_merge(entry bytea, keys bytea[], pairs bytea[]) "
            "RETURNS bytea LANGUAGE plpgsql AS $$ BEGIN INSERT INTO merges VALUES (1); "
            "RETURN real_merge(entry, keys, pairs); END $$"
        )

        async def commit(request: AppendRequest) -> None:
            started = committer.start(store.encode([request]))
            assert started is not None
            written = await started
            assert written is not None and isinstance(written[0], Written)

        def merges() -> int:
            row = admin.execute("SELECT count(*) FROM merges").fetchone()
            return int(row[0]) if row else -1

        def stored() -> bytes:
            row = admin.execute("SELECT info FROM streams WHERE stream = 'a'").fetchone()
            assert row is not None
            return bytes(row[0])

        first = {"game": "tictactoe", "seat_players": [None, "p1"], "finished": False}
        await commit(AppendRequest("a", 0, marks(1), [Meta()], info=first))
        before = stored()
        await commit(AppendRequest("a", 1, marks(1), [Meta()], info={"finished": True}))
        assert merges() == 0  # stored whole
        # The same bytes as the database's merge makes of the entry before and the change.
        encode = msgspec.msgpack.encode
        row = admin.execute(
            "SELECT real_merge(%s, ARRAY[%s], ARRAY[%s])",
            (before, encode("finished"), encode("finished") + encode(True)),
        ).fetchone()
        assert row is not None and bytes(row[0]) == stored()
        assert store.stream_info("a").info == {**first, "finished": True}
        assert store.find_matches(MatchQuery(finished=True)).total == 1

        # Another writer replaces the entry: the kept one is stale, the database merges.
        assert other.put_entry("a", {"game": "tictactoe", "note": "rebuilt"}, 2)
        await commit(AppendRequest("a", 2, marks(1), [Meta()], info={"seat_players": ["p2"]}))
        assert merges() == 1
        assert store.stream_info("a").info == {
            "game": "tictactoe",
            "note": "rebuilt",
            "seat_players": ["p2"],
        }
        assert store.find_matches(MatchQuery(player="p2")).total == 1
        # What the database merged is not known here: the next change is merged there too.
        await commit(AppendRequest("a", 3, marks(1), [Meta()], info={"note": None}))
        assert merges() == 2
        assert store.stream_info("a").info == {"game": "tictactoe", "seat_players": ["p2"]}
    finally:
        admin.close()
        committer.close()
        other.close()
        store.close()
