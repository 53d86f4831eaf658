"""The store contract (``gamehall.core.testing.store``, after Akka's JournalSpec) for every
backend gamehall ships; a third-party store subclasses the same class."""

from __future__ import annotations

from pathlib import Path

import pytest
from gamehall.core import ConcurrencyError, CorruptRecord, Registry, UnknownEventType
from gamehall.core.store import MemoryStore, Snapshot, SQLiteStore, Store
from gamehall.core.store.base import checksum
from gamehall.core.testing.store import StoreContract, marks


class TestMemoryStore(StoreContract):
    def make(self, registry: Registry, tmp_path: Path) -> Store:
        return MemoryStore(registry.codec)


class TestSQLiteStore(StoreContract):
    durable = True

    def make(self, registry: Registry, tmp_path: Path) -> Store:
        return SQLiteStore(tmp_path / "events.db", registry.codec)

    def test_reopen_after_close_keeps_everything(self, store: Store, registry: Registry) -> None:
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
        self, store: Store, registry: Registry
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

    def test_synchronous_setting(self, registry: Registry, tmp_path: Path) -> None:
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

    def test_unknown_event_type_is_an_error_naming_it(self, store: Store) -> None:
        store.append("a", 0, marks(2))
        # As a plugin that is no longer installed left it: a sound row of an unknown type.
        data, meta = store._writer.execute("SELECT data, meta FROM events WHERE seq=2").fetchone()
        crc = checksum("a", 2, "nowhere.Thing", 1, data, meta)
        store._writer.execute("UPDATE events SET type='nowhere.Thing', crc=? WHERE seq=2", (crc,))
        with pytest.raises(UnknownEventType, match="'nowhere.Thing' at stream 'a' seq 2"):
            store.read("a")
