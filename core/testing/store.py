"""The store contract (in the spirit of Akka's JournalSpec): every backend subclasses it.

A third-party store runs the same suite from its own tests; it needs pytest::

    from gamehall.core.testing.store import StoreContract

    class TestMyStore(StoreContract):
        def make(self, registry, tmp_path):
            return MyStore(tmp_path / "events", registry.codec)

``make`` returns a fresh, empty store; the suite closes it after each test. A durable store
sets ``durable = True``. The events are tic-tac-toe's, which ship with gamehall.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from pathlib import Path

import msgspec
import pytest

# The suite stores tic-tac-toe's events: the example game ships in every gamehall install.
from ...plugins.tictactoe.commands import PlaceMark
from ...plugins.tictactoe.events import BoardFilled, MarkPlaced
from ..errors import ConcurrencyError, DuplicateMatch, StoreClosed
from ..events import Meta
from ..registry import Registry, builtin_registry
from ..store import AppendRequest, Snapshot, Store


def marks(n: int, start: int = 0) -> list[MarkPlaced]:
    """Return ``n`` tic-tac-toe marks, seats alternating, cells from ``start`` on."""
    return [MarkPlaced(seat=i % 2, cell=(start + i) % 9) for i in range(n)]


class StoreContract:
    """Every store must pass these; subclasses say how to make (and reopen) one."""

    durable = False

    @pytest.fixture
    def registry(self) -> Registry:
        """Return the registry of gamehall's own plugins, whose events the suite stores."""
        return builtin_registry()

    @pytest.fixture
    def store(self, registry: Registry, tmp_path: Path) -> Iterator[Store]:
        self.tmp_path = tmp_path
        made = self.make(registry, tmp_path)
        yield made
        made.close()

    def make(self, registry: Registry, tmp_path: Path) -> Store:
        raise NotImplementedError

    def test_new_stream_has_version_zero(self, store: Store) -> None:
        assert store.version("nope") == 0
        assert store.read("nope") == []
        assert store.stream_info("nope") is None

    def test_append_and_read_back(self, store: Store) -> None:
        records = store.append("a", 0, marks(3), info={"game": "tictactoe"})
        assert [r.seq for r in records] == [1, 2, 3]
        back = store.read("a")
        assert back == records
        assert [r.event for r in back] == marks(3)
        assert store.version("a") == 3
        assert store.stream_info("a").info == {"game": "tictactoe"}  # type: ignore[union-attr]

    def test_read_bounds(self, store: Store) -> None:
        store.append("a", 0, marks(10))
        assert [r.seq for r in store.read("a", after=3)] == list(range(4, 11))
        assert [r.seq for r in store.read("a", after=3, upto=5)] == [4, 5]
        assert [r.seq for r in store.read("a", after=0, limit=2)] == [1, 2]
        assert store.read("a", after=0, limit=0) == []
        assert store.read("a", after=10) == []
        assert store.read("a", after=5, upto=3) == []
        assert [e for e in store.read_events("a", after=8)] == marks(10)[8:]

    def test_stale_expected_version_conflicts_and_stores_nothing(self, store: Store) -> None:
        store.append("a", 0, marks(2))
        with pytest.raises(ConcurrencyError) as caught:
            store.append("a", 1, marks(1))
        assert caught.value.expected == 1 and caught.value.actual == 2
        assert "version 2" in str(caught.value)
        with pytest.raises(DuplicateMatch):
            store.append("a", 0, marks(1))
        assert store.version("a") == 2

    def test_ahead_expected_version_conflicts(self, store: Store) -> None:
        with pytest.raises(ConcurrencyError):
            store.append("a", 5, marks(1))
        assert store.version("a") == 0

    def test_seq_is_never_reused(self, store: Store) -> None:
        store.append("a", 0, marks(2))
        store.append("a", 2, marks(2))
        assert [r.seq for r in store.read("a")] == [1, 2, 3, 4]

    def test_global_order_follows_commits(self, store: Store) -> None:
        store.append("a", 0, marks(2))
        store.append("b", 0, marks(1))
        store.append("a", 2, marks(1))
        everything = store.read_all()
        assert [(r.stream, r.seq) for r in everything] == [("a", 1), ("a", 2), ("b", 1), ("a", 3)]
        assert [r.position for r in everything] == [1, 2, 3, 4]
        assert [r.position for r in store.read_all(after=2, limit=1)] == [3]

    def test_append_many_fails_only_the_conflicting_batch(self, store: Store) -> None:
        store.append("b", 0, marks(1))
        results = store.append_many(
            [
                AppendRequest("a", 0, marks(2), [Meta()] * 2),
                AppendRequest("b", 0, marks(1), [Meta()]),
                AppendRequest("c", 0, marks(1), [Meta()]),
            ]
        )
        assert isinstance(results[1], DuplicateMatch)
        assert store.version("a") == 2 and store.version("b") == 1 and store.version("c") == 1
        assert [r.position for r in store.read_all()] == [1, 2, 3, 4]

    def test_metadata_round_trips(self, store: Store) -> None:
        command = PlaceMark(cell=4)
        metas = [Meta("cmd-1", 0, command, {"tictactoe": "1.0.0"}), Meta("cmd-1", 0)]
        store.append("a", 0, [MarkPlaced(seat=0, cell=4), BoardFilled()], metas)
        back = store.read("a")
        assert [r.meta for r in back] == metas
        assert store.command_ids("a") == {"cmd-1": (1, 2)}

    def test_command_ids_span_batches(self, store: Store) -> None:
        store.append("a", 0, marks(1), [Meta(versions={"x": "1"})])
        store.append("a", 1, marks(2), [Meta("c1", 0, PlaceMark(cell=1)), Meta("c1", 0)])
        store.append("a", 3, marks(1), [Meta(None, 1, PlaceMark(cell=2))])
        store.append("a", 4, marks(1), [Meta("c3", 0, PlaceMark(cell=3))])
        assert store.command_ids("a") == {"c1": (2, 3), "c3": (5, 5)}

    def test_snapshot_plus_tail_equals_full_fold(self, store: Store, registry: Registry) -> None:
        ruleset = registry.ruleset("tictactoe")
        started = ruleset.started(seed=1)
        moves = [MarkPlaced(seat=i % 2, cell=c) for i, c in enumerate([4, 0, 8, 2])]
        store.append("m", 0, [started, *moves])
        rules = ruleset.rules
        state = rules.initial(ruleset.config(started))
        for event in moves[:2]:
            state = rules.evolve(state, event)
        store.save_snapshot(Snapshot("m", 3, "k", msgspec.msgpack.encode(state)))
        snap = store.load_snapshot("m")
        assert snap is not None and snap.seq == 3
        resumed = msgspec.msgpack.decode(snap.data, type=ruleset.game.state)
        for stored in store.read_events("m", after=snap.seq):
            resumed = rules.evolve(resumed, stored)
        full = rules.initial(ruleset.config(started))
        for record in store.read("m")[1:]:
            full = rules.evolve(full, record.event)
        assert resumed == full

    def test_snapshot_is_replaced(self, store: Store) -> None:
        store.save_snapshot(Snapshot("m", 3, "k", b"one"))
        store.save_snapshot(Snapshot("m", 6, "k", b"two"))
        assert store.load_snapshot("m") == Snapshot("m", 6, "k", b"two")
        assert store.load_snapshot("other") is None

    def test_streams_listing(self, store: Store) -> None:
        for name in ["b", "a", "c"]:
            store.append(name, 0, marks(1))
        assert [s.stream for s in store.streams()] == ["a", "b", "c"]
        assert [s.stream for s in store.streams(after="a", limit=1)] == ["b"]

    def test_unencodable_event_is_refused_and_nothing_stored(self, store: Store) -> None:
        bad = MarkPlaced(seat=0, cell=object())  # type: ignore[arg-type]
        with pytest.raises(Exception, match="encode"):
            store.append("a", 0, [MarkPlaced(seat=0, cell=1), bad])
        assert store.version("a") == 0 and store.read_all() == []

    def test_closed_store_refuses(self, store: Store) -> None:
        store.close()
        with pytest.raises(StoreClosed):
            store.append("a", 0, marks(1))

    def test_many_writers_at_once(self, store: Store) -> None:
        errors: list[BaseException] = []

        def writer(name: str) -> None:
            try:
                for i in range(20):
                    store.append(name, i * 2, marks(2))
            except BaseException as exc:  # noqa: BLE001
                errors.append(exc)

        threads = [threading.Thread(target=writer, args=(f"s{i}",)) for i in range(8)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert not errors
        everything = store.read_all()
        assert [r.position for r in everything] == list(range(1, 8 * 40 + 1))
        for i in range(8):
            assert [r.seq for r in store.read(f"s{i}")] == list(range(1, 41))

    def test_racing_writers_on_one_stream_never_both_win(self, store: Store) -> None:
        store.append("a", 0, marks(1))
        outcomes: list[str] = []

        def writer() -> None:
            try:
                store.append("a", 1, marks(1))
                outcomes.append("ok")
            except ConcurrencyError:
                outcomes.append("conflict")

        threads = [threading.Thread(target=writer) for _ in range(6)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert sorted(outcomes) == ["conflict"] * 5 + ["ok"]
        assert store.version("a") == 2
