"""The store contract (``gamehall.core.testing.store``, after Akka's JournalSpec) for every
backend gamehall ships; a third-party store subclasses the same class."""

from __future__ import annotations

import time
from pathlib import Path

import msgspec
import pytest
from gamehall.core import ConcurrencyError, CorruptRecord, Meta, UnknownEventType
from gamehall.core.errors import StoreFailed
from gamehall.core.store import (
    AppendRequest,
    MatchQuery,
    MemoryStore,
    PlayerRecord,
    Snapshot,
    SQLiteStore,
    Store,
)
from gamehall.core.store.base import checksum
from gamehall.core.testing.events import ContractPlugins
from gamehall.core.testing.store import StoreContract, marks

from tests.postgres import partition_by_stream


class TestPostgresStore(StoreContract):
    durable = True
    gapless = False
    unique_positions = True

    @pytest.fixture
    def store(self, registry: ContractPlugins, tmp_path: Path, pg_url: str) -> Store:
        from gamehall.core.store.postgres import PostgresStore

        self.url = pg_url
        self.registry = registry
        made = PostgresStore(pg_url, registry.codec)
        yield made
        made.close()

    def other_node(self, store: Store) -> Store:
        from gamehall.core.store.postgres import PostgresStore

        return PostgresStore(self.url, self.registry.codec)

    def damage(self, store: Store, stream: str, seq: int) -> None:
        with store.connect() as db:  # type: ignore[attr-defined]
            sql = "UPDATE events SET data = '\\xc1ff' WHERE stream = %s AND seq = %s"
            db.execute(sql, (stream, seq))

    def remove(self, store: Store, stream: str, seq: int) -> None:
        with store.connect() as db:  # type: ignore[attr-defined]
            db.execute("DELETE FROM events WHERE stream = %s AND seq = %s", (stream, seq))

    def test_unique_indexes_of_events(self, store: Store) -> None:
        with store.connect() as db:  # type: ignore[attr-defined]
            unique = db.execute(
                "SELECT indexrelid::regclass::text FROM pg_index WHERE indisunique "
                "AND indrelid = 'events'::regclass ORDER BY 1"
            ).fetchall()
        # (stream, seq), and the position where the tables allow it (never when partitioned
        # or distributed by stream: positions are unique by the sequence that gives them)
        expected = ["events_pkey"] + (["events_position"] if self.unique_positions else [])
        assert [name for (name,) in unique] == expected

    def test_a_plain_position_index_made_by_hand_is_kept(
        self, store: Store, registry: ContractPlugins
    ) -> None:
        """As before distributing the tables by stream id (docs/deploy.md): the migration,
        run again from schema 3, keeps the index and the store works on."""
        from gamehall.core.store.postgres import SCHEMA_VERSION, PostgresStore

        store.append("a", 0, marks(2))
        with store.connect() as db:  # type: ignore[attr-defined]
            db.execute("DROP INDEX events_position")
            db.execute("CREATE INDEX events_position ON events (position)")
            db.execute("UPDATE gamehall SET value = '3' WHERE key = 'schema'")
        store.close()
        with PostgresStore(self.url, registry.codec) as again, again.connect() as db:
            again.append("a", 2, marks(1))
            assert [r.position for r in again.read_all()] == [1, 2, 3]
            unique = db.execute(
                "SELECT indisunique FROM pg_index WHERE indexrelid = 'events_position'::regclass"
            ).fetchone()
            version = db.execute("SELECT value FROM gamehall WHERE key = 'schema'").fetchone()
        assert unique == (False,) and version == (str(SCHEMA_VERSION),)

    def test_reopen_after_close_keeps_everything(
        self, store: Store, registry: ContractPlugins
    ) -> None:
        from gamehall.core.store.postgres import PostgresStore

        store.append("a", 0, marks(3))
        store.save_snapshot(Snapshot("a", 2, "k", b"s"))
        before = store.read_all()
        store.close()
        with PostgresStore(self.url, registry.codec) as again:
            assert again.read_all() == before
            assert again.load_snapshot("a") == Snapshot("a", 2, "k", b"s")
            again.append("a", 3, marks(1))
            assert [r.position for r in again.read_all()] == [1, 2, 3, 4]

    def test_two_nodes_on_one_database_respect_versions(
        self, store: Store, registry: ContractPlugins
    ) -> None:
        from gamehall.core.store.postgres import PostgresStore

        with PostgresStore(self.url, registry.codec) as other:
            store.append("a", 0, marks(1))
            other.append("a", 1, marks(1))
            with pytest.raises(ConcurrencyError):
                store.append("a", 1, marks(1))
            store.append("b", 0, marks(1))
            rows = other.read_all()
            assert [(r.stream, r.seq) for r in rows] == [("a", 1), ("a", 2), ("b", 1)]
            # the refused batch wrote nothing; the positions it was given may stay unused
            last = rows[-1].position
            assert [r.position for r in rows][:2] == [1, 2] and last >= 3
            assert other.changes(1) == (last, {"a": 2, "b": 1})
            assert other.position() == last

    def test_two_batches_of_one_stream_in_one_commit(self, store: Store) -> None:
        results = store.append_many(
            [
                AppendRequest("a", 0, marks(2), [Meta()] * 2),
                AppendRequest("a", 2, marks(1), [Meta()]),
            ]
        )
        assert [r.seq for batch in results for r in batch] == [1, 2, 3]  # type: ignore[union-attr]
        assert store.stream_info("a").version == 3  # type: ignore[union-attr]

    def test_corrupted_row_names_stream_and_seq(self, store: Store) -> None:
        store.append("a", 0, marks(3))
        with store.connect() as db:  # type: ignore[attr-defined]
            db.execute("UPDATE events SET data = '\\xc1ff' WHERE stream = 'a' AND seq = 2")
        with pytest.raises(CorruptRecord, match="'a' seq 2"):
            store.read("a")
        assert [str(p) for p in store.check()] == [
            "match 'a' seq 2: checksum mismatch: the row changed after it was written"
        ]

    def test_unknown_event_type_is_an_error_naming_it(self, store: Store) -> None:
        store.append("a", 0, marks(2))
        with store.connect() as db:  # type: ignore[attr-defined]
            data, meta = db.execute("SELECT data, meta FROM events WHERE seq = 2").fetchone()
            crc = checksum("a", 2, "nowhere.Thing", 1, data, meta)
            db.execute("UPDATE events SET type = 'nowhere.Thing', crc = %s WHERE seq = 2", (crc,))
        with pytest.raises(UnknownEventType, match="'nowhere.Thing' at stream 'a' seq 2"):
            store.read("a")

    def test_a_newer_schema_is_refused_with_its_version(
        self, store: Store, registry: ContractPlugins
    ) -> None:
        from gamehall.core.errors import DamagedStore
        from gamehall.core.store.postgres import PostgresStore

        with store.connect() as db:  # type: ignore[attr-defined]
            db.execute("UPDATE gamehall SET value = '99' WHERE key = 'schema'")
        with pytest.raises(DamagedStore, match="store schema 99, written by a newer gamehall"):
            PostgresStore(self.url, registry.codec)

    def test_leases_are_held_by_one_node(self, store: Store, registry: ContractPlugins) -> None:
        from gamehall.core.store.postgres import PostgresStore

        other = PostgresStore(self.url, registry.codec)
        try:
            assert store.try_lease("m") and store.try_lease("m")
            assert not other.try_lease("m") and other.try_lease("n")
            store.release_lease("m")
            assert other.try_lease("m")
        finally:
            other.close()  # a node that goes away gives its leases up (once the server sees it)
        deadline = time.monotonic() + 5
        while not store.try_lease("n") and time.monotonic() < deadline:
            time.sleep(0.01)
        assert store.try_lease("n")


class TestPartitionedPostgresStore(TestPostgresStore):
    """The whole contract on the per-stream tables partitioned by a hash of the stream id (as a
    distributed PostgreSQL spreads them over workers), created before the store's migration,
    which takes them as they are."""

    unique_positions = False

    @pytest.fixture
    def store(self, registry: ContractPlugins, tmp_path: Path, pg_url: str) -> Store:
        from gamehall.core.store.postgres import PostgresStore

        self.url = pg_url
        self.registry = registry
        self.partitioned = partition_by_stream(pg_url)
        made = PostgresStore(pg_url, registry.codec)
        yield made
        made.close()

    def test_the_tables_stay_partitioned(self, store: Store) -> None:
        with store.connect() as db:  # type: ignore[attr-defined]
            kinds = dict(
                db.execute(
                    "SELECT relname, relkind FROM pg_class WHERE relnamespace = "
                    "current_schema()::regnamespace AND relkind IN ('r', 'p') "
                    "AND NOT relispartition"
                ).fetchall()
            )
        assert sorted(self.partitioned) == sorted(
            ["events", "streams", "stream_players", "snapshots", "seat_tokens"]
        )
        assert {name for name, kind in kinds.items() if kind == "p"} == set(self.partitioned)
        assert {name for name, kind in kinds.items() if kind == "r"} == {
            "players",
            "deleted",
            "gamehall",
        }

    def test_an_append_writes_only_partitioned_tables(self, store: Store) -> None:
        """Every write to a table that is not partitioned fails (a trigger refuses it, even
        a statement that changes no row): group commits of every kind still go through."""
        with store.connect() as db:  # type: ignore[attr-defined]
            db.execute(
                "CREATE FUNCTION refuse() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN "
                "RAISE EXCEPTION '% is not partitioned by stream', TG_TABLE_NAME; END $$"
            )
            plain = [
                name
                for (name,) in db.execute(
                    "SELECT relname FROM pg_class WHERE relnamespace = "
                    "current_schema()::regnamespace AND relkind = 'r' AND NOT relispartition"
                )
            ]
            for name in plain:
                db.execute(
                    f"CREATE TRIGGER refuse BEFORE INSERT OR UPDATE OR DELETE OR TRUNCATE "
                    f"ON {name} FOR EACH STATEMENT EXECUTE FUNCTION refuse()"
                )
        with pytest.raises(StoreFailed, match="players is not partitioned by stream"):
            store.save_player(PlayerRecord("p1", b"d" * 32, "Alice", 1.0))  # the triggers work
        created = {"game": "tictactoe", "seat_players": ["p1", None], "open_seats": 1}
        for i in range(8):
            store.append(f"m{i}", 0, marks(2), info=created, tokens=[(0, b"d0")])
        store.append("m0", 2, marks(1), info={"seat_players": ["p1", "p2"], "open_seats": 0})
        store.append("m0", 3, marks(1), info={"finished": True}, tokens=[(1, b"d1")])
        with pytest.raises(ConcurrencyError):
            store.append("m1", 1, marks(1))
        results = store.append_many(  # a stream twice in one commit: one transaction, two calls
            [
                AppendRequest("m2", 2, marks(1), [Meta()], info={"open_seats": 0}),
                AppendRequest("m2", 3, marks(1), [Meta()], tokens=[(1, b"d1")]),
                AppendRequest("m3", 0, marks(1), [Meta()]),
            ]
        )
        assert isinstance(results[0], list) and isinstance(results[1], list)
        assert isinstance(results[2], ConcurrencyError)  # m3 exists: only this batch fails
        assert len(store.read_all()) == 8 * 2 + 4
        assert store.stream_info("m0").info["finished"] is True  # type: ignore[union-attr]
        assert store.seat_tokens("m2") == {0: b"d0", 1: b"d1"}
        found = store.find_matches(MatchQuery(player="p2"))
        assert [e.stream for e in found.matches] == ["m0"]
        with store.connect() as db:  # type: ignore[attr-defined]
            parts = db.execute(
                "SELECT tableoid::regclass::text, count(*) FROM events GROUP BY 1"
            ).fetchall()
        assert len(parts) > 1 and all(part.startswith("events_") for part, _ in parts)


class TestMemoryStore(StoreContract):
    def make(self, registry: ContractPlugins, tmp_path: Path) -> Store:
        return MemoryStore(registry.codec)

    def damage(self, store: Store, stream: str, seq: int) -> None:
        rows = store._streams[stream]  # type: ignore[attr-defined]
        rows[seq - 1] = (*rows[seq - 1][:4], b"\xc1\xff", *rows[seq - 1][5:])

    def remove(self, store: Store, stream: str, seq: int) -> None:
        pytest.skip("the memory store's seqs are places in a list: none can go missing")


class TestSQLiteStore(StoreContract):
    durable = True

    def make(self, registry: ContractPlugins, tmp_path: Path) -> Store:
        return SQLiteStore(tmp_path / "events.db", registry.codec)

    def damage(self, store: Store, stream: str, seq: int) -> None:
        sql = "UPDATE events SET data=x'c1ff' WHERE stream=? AND seq=?"
        store._writer.execute(sql, (stream, seq))  # type: ignore[attr-defined]

    def remove(self, store: Store, stream: str, seq: int) -> None:
        sql = "DELETE FROM events WHERE stream=? AND seq=?"
        store._writer.execute(sql, (stream, seq))  # type: ignore[attr-defined]

    def test_reopen_after_close_keeps_everything(
        self, store: Store, registry: ContractPlugins
    ) -> None:
        store.append("a", 0, marks(3))
        store.save_snapshot(Snapshot("a", 2, "k", b"s"))
        before = store.read_all()
        store.close()
        again = SQLiteStore(self.tmp_path / "events.db", registry.codec)
        try:
            assert again.read_all() == before
            assert again.version("a") == 3
            assert again.load_snapshot("a") == Snapshot("a", 2, "k", b"s")
            again.append("a", 3, marks(1))
            assert [r.position for r in again.read_all()] == [1, 2, 3, 4]
        finally:
            again.close()

    def test_two_connections_on_one_file_respect_versions(
        self, store: Store, registry: ContractPlugins
    ) -> None:
        other = SQLiteStore(self.tmp_path / "events.db", registry.codec)
        try:
            store.append("a", 0, marks(1))
            other.append("a", 1, marks(1))
            with pytest.raises(ConcurrencyError):
                store.append("a", 1, marks(1))
            store.append("b", 0, marks(1))
            assert [r.position for r in other.read_all()] == [1, 2, 3]
        finally:
            other.close()

    def test_synchronous_setting(self, registry: ContractPlugins, tmp_path: Path) -> None:
        with pytest.raises(ValueError, match="synchronous"):
            SQLiteStore(tmp_path / "x.db", registry.codec, synchronous="sometimes")
        store = SQLiteStore(tmp_path / "y.db", registry.codec, synchronous="normal")
        try:
            level = store._reader().execute("PRAGMA synchronous").fetchone()[0]
            assert level == 1
            mode = store._reader().execute("PRAGMA journal_mode").fetchone()[0]
            assert mode == "wal"
        finally:
            store.close()

    def test_corrupted_row_names_stream_and_seq(self, store: Store) -> None:
        store.append("a", 0, marks(3))
        db = store._writer
        db.execute("UPDATE events SET data=x'c1ff' WHERE stream='a' AND seq=2")
        with pytest.raises(CorruptRecord, match="'a' seq 2"):
            store.read("a")

    def test_truncated_row_is_reported(self, store: Store) -> None:
        store.append("a", 0, marks(1))
        store._writer.execute("UPDATE events SET data=substr(data, 1, 3)")
        with pytest.raises(CorruptRecord):
            store.read("a")

    def test_schema_2_file_gets_the_lobby_columns(
        self, registry: ContractPlugins, tmp_path: Path
    ) -> None:
        import sqlite3

        path = tmp_path / "old.db"
        db = sqlite3.connect(path)
        db.executescript(
            "CREATE TABLE streams (stream TEXT PRIMARY KEY, created REAL NOT NULL, info BLOB)"
            " WITHOUT ROWID;"
            "CREATE TABLE gamehall (key TEXT PRIMARY KEY, value TEXT NOT NULL);"
            "INSERT INTO gamehall VALUES ('schema', '2');"
        )
        info = msgspec.msgpack.encode({"game": "tictactoe", "seat_players": ["p1"]})
        db.execute("INSERT INTO streams VALUES ('old', 5.0, ?)", (info,))
        db.commit()
        db.close()
        store = SQLiteStore(path, registry.codec)
        try:
            assert store.schema == 4
            found = store.find_matches(MatchQuery(player="p1", game="tictactoe"))
            assert [e.stream for e in found.matches] == ["old"]
        finally:
            store.close()

    def test_unknown_event_type_is_an_error_naming_it(self, store: Store) -> None:
        store.append("a", 0, marks(2))
        # As a plugin that is no longer installed left it: a sound row of an unknown type.
        data, meta = store._writer.execute("SELECT data, meta FROM events WHERE seq=2").fetchone()
        crc = checksum("a", 2, "nowhere.Thing", 1, data, meta)
        store._writer.execute("UPDATE events SET type='nowhere.Thing', crc=? WHERE seq=2", (crc,))
        with pytest.raises(UnknownEventType, match="'nowhere.Thing' at stream 'a' seq 2"):
            store.read("a")


def test_the_contract_imports_no_game() -> None:
    """A third-party store runs the contract with gamehall's core alone."""
    import subprocess
    import sys

    code = (
        "import sys, gamehall.core.testing.store; "
        "print([m for m in sys.modules if m.startswith('gamehall.plugins')])"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "[]"
