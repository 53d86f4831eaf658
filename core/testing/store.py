"""The store contract (in the spirit of Akka's JournalSpec): every backend subclasses it.

A third-party store runs the same suite from its own tests; it needs pytest::

    from gamehall.core.testing.store import StoreContract

    class TestMyStore(StoreContract):
        def make(self, registry, tmp_path):
            return MyStore(tmp_path / "events", registry.codec)

``make`` returns a fresh, empty store; the suite closes it after each test. A durable store
sets ``durable = True``. ``registry.codec`` encodes the core's events and the suite's own
(:mod:`gamehall.core.testing.events`): no game is needed, and core imports none.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from pathlib import Path

import msgspec
import pytest

from ..errors import (
    ConcurrencyError,
    CorruptRecord,
    DuplicateMatch,
    InvalidQuery,
    StoreClosed,
)
from ..events import Clock, MatchStarted, Meta
from ..store import AppendRequest, MatchQuery, PlayerRecord, Snapshot, Store
from ..store.base import Loaded
from .events import ContractPlugins, Filled, Mark, Marked, Tally, evolve, marks

__all__ = [
    "ChecksContract",
    "ContractPlugins",
    "CoordinationContract",
    "EventLogContract",
    "LobbyContract",
    "SnapshotContract",
    "StoreContract",
    "marks",
]


class _Fixtures:
    """How the suites make a store: a subclass gives ``make`` (and ``damage``, ``remove``)."""

    """Every store must pass these; subclasses say how to make (and reopen) one."""

    durable = False
    # Positions are given without holes, so a missing one is a removed row. A store that takes
    # them from a sequence (PostgreSQL) keeps the holes of rolled-back appends: it says False.
    gapless = True

    @pytest.fixture
    def registry(self) -> ContractPlugins:
        """Return what ``make`` is given: the codec of the suite's own events."""
        return ContractPlugins()

    @pytest.fixture
    def store(self, registry: ContractPlugins, tmp_path: Path) -> Iterator[Store]:
        self.tmp_path = tmp_path
        made = self.make(registry, tmp_path)
        yield made
        made.close()

    def make(self, registry: ContractPlugins, tmp_path: Path) -> Store:
        raise NotImplementedError

    def damage(self, store: Store, stream: str, seq: int) -> None:
        """Change the payload of one stored row behind the store's back, so that its checksum
        no longer holds. A backend that cannot do that leaves this as it is: the tests that
        need it skip."""
        pytest.skip("this suite was not told how to damage a row of this store")

    def remove(self, store: Store, stream: str, seq: int) -> None:
        """Delete one stored row behind the store's back (its seq is then missing)."""
        pytest.skip("this suite was not told how to remove a row of this store")

    def other_node(self, store: Store) -> Store:
        """Return a second node on the same storage as ``store`` (a shared store's other
        gamehall), closed by the caller. A suite that cannot make one leaves this as it is:
        the tests of several nodes skip."""
        pytest.skip("this suite was not told how to open a second node of this store")

    def found(self, store: Store, **filters: object) -> list[str]:
        return [e.stream for e in store.find_matches(MatchQuery(**filters)).matches]  # type: ignore[arg-type]


class EventLogContract(_Fixtures):
    """The event log: append with an expected version, read a stream, read all, delete."""

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
        positions = [r.position for r in store.read_all()]
        assert [(r.stream, r.seq) for r in store.read_all()] == [
            ("b", 1),
            ("a", 1),
            ("a", 2),
            ("c", 1),
        ]
        if self.gapless:  # elsewhere the batch refused may leave its positions unused
            assert positions == [1, 2, 3, 4]
        else:
            assert positions == sorted(set(positions)) and positions[0] == 1

    def test_metadata_round_trips(self, store: Store) -> None:
        command = Mark(cell=4)
        metas = [Meta("cmd-1", 0, command, {"testing": "1.0.0"}), Meta("cmd-1", 0)]
        store.append("a", 0, [Marked(seat=0, cell=4), Filled()], metas)
        back = store.read("a")
        assert [r.meta for r in back] == metas
        assert store.command_ids("a") == {"cmd-1": (1, 2)}

    def test_command_ids_span_batches(self, store: Store) -> None:
        store.append("a", 0, marks(1), [Meta(versions={"x": "1"})])
        store.append("a", 1, marks(2), [Meta("c1", 0, Mark(cell=1)), Meta("c1", 0)])
        store.append("a", 3, marks(1), [Meta(None, 1, Mark(cell=2))])
        store.append("a", 4, marks(1), [Meta("c3", 0, Mark(cell=3))])
        assert store.command_ids("a") == {"c1": (2, 3), "c3": (5, 5)}

    def test_load_stream_reads_a_match_for_activation(self, store: Store) -> None:
        store.append("m", 0, marks(1), [Meta(versions={"x": "1"})])
        store.append("m", 1, marks(2, 1), [Meta("c2", 0, Mark(cell=1)), Meta("c2", 0)])
        store.append("m", 3, marks(1, 3), [Meta(None, 1, Mark(cell=3))])  # no id
        for seq in range(5, 11):
            store.append("m", seq - 1, marks(1, seq), [Meta(f"c{seq}", 0, Mark(cell=1))])
        ids = {"c2": (2, 3), **{f"c{seq}": (seq, seq) for seq in range(5, 11)}}
        events = [r.event for r in store.read("m")]
        whole = store.load_stream("m")
        assert (whole.first, whole.events, whole.commands) == (events[0], events[1:], ids)
        assert (whole.after, whole.snapshot) == (1, None)
        assert store.load_stream("m", snapshot=True) == whole  # no snapshot yet
        store.save_snapshot(Snapshot("m", 6, "k", b"state"))
        assert store.load_stream("m") == whole  # not asked for the snapshot
        tail = store.load_stream("m", snapshot=True)
        assert (tail.after, tail.snapshot) == (6, Snapshot("m", 6, "k", b"state"))
        assert (tail.first, tail.events) == (events[0], events[6:])
        assert self._every_id(store, "m", tail) == ids
        later = store.load_stream("m", after=7, snapshot=True)  # the snapshot is not after 7
        assert (later.after, later.snapshot, later.events) == (7, None, events[7:])
        store.save_snapshot(Snapshot("m", 10, "k", b"end"))
        end = store.load_stream("m", snapshot=True)
        assert (end.after, end.events) == (10, [])
        assert self._every_id(store, "m", end) == ids
        assert store.load_stream("nope", snapshot=True).first is None

    @staticmethod
    def _every_id(store: Store, stream: str, loaded: Loaded) -> dict[str, tuple[int, int]]:
        """The command ids a loaded stream gives with those it left to ``command_ids``: it may
        leave out those of the commands that begin at or before ``ids_after``, no other."""
        if not loaded.ids_after:
            return loaded.commands
        assert 0 < loaded.ids_after <= loaded.after
        every = store.command_ids(stream)
        kept = {cid: span for cid, span in every.items() if span[0] > loaded.ids_after}
        assert loaded.commands == kept
        return every

    def test_streams_listing(self, store: Store) -> None:
        for name in ["b", "a", "c"]:
            store.append(name, 0, marks(1))
        assert [s.stream for s in store.streams()] == ["a", "b", "c"]
        assert [s.stream for s in store.streams(after="a", limit=1)] == ["b"]

    def test_delete_stream_keeps_positions_taken(self, store: Store) -> None:
        store.append("a", 0, marks(2))
        store.append("b", 0, marks(2), info={"game": "tictactoe", "seat_players": ["p"]})
        store.append("a", 2, marks(1))
        store.save_snapshot(Snapshot("b", 2, "k", b"s"))
        assert store.delete_stream("b") is True
        assert store.delete_stream("b") is False
        assert store.version("b") == 0 and store.read("b") == [] and store.stream_info("b") is None
        assert store.load_snapshot("b") is None
        assert self.found(store, player="p") == []
        assert [(r.stream, r.position) for r in store.read_all()] == [("a", 1), ("a", 2), ("a", 5)]
        assert store.deleted_positions() == [(3, 4)]
        assert store.check() == []
        store.append("c", 0, marks(1))
        assert store.read("c")[0].position == 6  # never a deleted one again
        store.append("b", 0, marks(1))  # the id is free again
        assert store.version("b") == 1

    def test_delete_the_newest_stream_keeps_its_positions(self, store: Store) -> None:
        store.append("a", 0, marks(1))
        store.append("b", 0, marks(2))
        store.delete_stream("b")
        store.append("c", 0, marks(1))
        assert [r.position for r in store.read_all()] == [1, 4]
        assert store.check() == []

    def test_unencodable_event_is_refused_and_nothing_stored(self, store: Store) -> None:
        bad = Marked(seat=0, cell=object())  # type: ignore[arg-type]
        with pytest.raises(Exception, match="encode"):
            store.append("a", 0, [Marked(seat=0, cell=1), bad])
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
            # A store under test may raise anything: the test reports it, not the thread.
            except Exception as exc:  # noqa: BLE001
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


class SnapshotContract(_Fixtures):
    """Snapshots: kept, replaced, and what activation reads with one."""

    def test_snapshot_plus_tail_equals_full_fold(self, store: Store) -> None:
        started = MatchStarted(game="testing", game_version="1.0.0", players=2, seed=1)
        moves = [Marked(seat=i % 2, cell=c) for i, c in enumerate([4, 0, 8, 2])]
        store.append("m", 0, [started, *moves, Filled()])
        state = Tally()
        for event in moves[:2]:
            state = evolve(state, event)
        store.save_snapshot(Snapshot("m", 3, "k", msgspec.msgpack.encode(state)))
        snap = store.load_snapshot("m")
        assert snap is not None and snap.seq == 3
        resumed = msgspec.msgpack.decode(snap.data, type=Tally)
        for stored in store.read_events("m", after=snap.seq):
            resumed = evolve(resumed, stored)
        full = Tally()
        for record in store.read("m")[1:]:
            full = evolve(full, record.event)
        assert resumed == full == Tally((4, 0, 8, 2), True)

    def test_activation_from_a_snapshot_reads_no_row_before_it(self, store: Store) -> None:
        store.append("m", 0, marks(10))
        store.save_snapshot(Snapshot("m", 6, "k", b"state"))
        self.damage(store, "m", 4)
        with pytest.raises(CorruptRecord, match="'m' seq 4"):
            store.load_stream("m")  # from the first event, the damaged row is met
        tail = store.load_stream("m", snapshot=True)  # from the snapshot, it is not read
        assert tail.after == 6 and tail.events == marks(10)[6:]
        self.damage(store, "m", 8)  # a row after the snapshot is read and checked
        with pytest.raises(CorruptRecord, match="'m' seq 8"):
            store.load_stream("m", snapshot=True)

    def test_activation_from_a_snapshot_checks_the_first_row(self, store: Store) -> None:
        store.append("m", 0, marks(5))
        store.save_snapshot(Snapshot("m", 3, "k", b"state"))
        self.damage(store, "m", 1)
        with pytest.raises(CorruptRecord, match="'m' seq 1"):
            store.load_stream("m", snapshot=True)

    def test_activation_from_a_snapshot_finds_a_missing_row_before_it(self, store: Store) -> None:
        store.append("m", 0, marks(8))
        store.save_snapshot(Snapshot("m", 6, "k", b"state"))
        self.remove(store, "m", 3)
        with pytest.raises(CorruptRecord, match="'m' seq 3: the event is missing"):
            store.load_stream("m", snapshot=True)

    def test_a_snapshot_past_the_last_event_means_events_were_lost(self, store: Store) -> None:
        store.append("m", 0, marks(3))
        store.save_snapshot(Snapshot("m", 5, "k", b"state"))
        with pytest.raises(CorruptRecord, match="'m' seq 4: the events after seq 3 are missing"):
            store.load_stream("m", snapshot=True)
        assert store.load_stream("m").events == marks(3)[1:]  # read without it

    def test_snapshot_is_replaced(self, store: Store) -> None:
        store.save_snapshot(Snapshot("m", 3, "k", b"one"))
        store.save_snapshot(Snapshot("m", 6, "k", b"two"))
        assert store.load_snapshot("m") == Snapshot("m", 6, "k", b"two")
        assert store.load_snapshot("other") is None


class LobbyContract(_Fixtures):
    """The lobby and player read model: listings, filters, pages, seat tokens, players."""

    def lobby(self, store: Store) -> None:
        # a: tictactoe, open; b: tictactoe running, p1 and p2; c: river finished, p1.
        store.append("a", 0, marks(1), info={"game": "tictactoe", "open_seats": 2})
        store.append("b", 0, marks(1), info={"game": "tictactoe", "seat_players": ["p1", "p2"]})
        info = {"game": "river-of-gold", "seat_players": ["p1", None], "open_seats": 1}
        store.append("c", 0, marks(1), info=info)
        store.append("c", 1, marks(1), info={"finished": True})

    def test_find_matches_filters_newest_first(self, store: Store) -> None:
        self.lobby(store)
        assert self.found(store) == ["c", "b", "a"]
        assert self.found(store, game="tictactoe") == ["b", "a"]
        assert self.found(store, finished=True) == ["c"]
        assert self.found(store, finished=False) == ["b", "a"]
        assert self.found(store, open_seats=True) == ["a"]  # c has one, but it is finished
        assert self.found(store, open_seats=False) == ["c", "b"]
        assert self.found(store, player="p1") == ["c", "b"]
        assert self.found(store, player="p2", game="tictactoe") == ["b"]
        assert self.found(store, player="nobody") == []
        assert self.found(store, game="kaladan") == []

    def test_find_matches_pages_with_a_cursor(self, store: Store) -> None:
        for i in range(7):
            store.append(f"m{i}", 0, marks(1), info={"game": "tictactoe"})
        seen: list[str] = []
        cursor = None
        pages = 0
        while True:
            page = store.find_matches(MatchQuery(limit=3, cursor=cursor))
            assert page.total == 7
            seen += [e.stream for e in page.matches]
            pages += 1
            if page.next is None:
                break
            cursor = page.next
        assert pages == 3 and sorted(seen) == [f"m{i}" for i in range(7)]
        assert len(set(seen)) == 7
        created = [store.stream_info(s).created for s in seen]  # type: ignore[union-attr]
        assert created == sorted(created, reverse=True)

    def test_find_matches_refuses_a_bad_limit_or_cursor(self, store: Store) -> None:
        for bad in (0, -1, 501):
            with pytest.raises(InvalidQuery, match="limit"):
                store.find_matches(MatchQuery(limit=bad))
        for cursor in ("nonsense", "abc/def", "1.5/"):
            with pytest.raises(InvalidQuery, match="cursor"):
                store.find_matches(MatchQuery(cursor=cursor))

    def test_append_merges_info_and_reindexes(self, store: Store) -> None:
        self.lobby(store)
        store.append("a", 1, marks(1), info={"seat_players": ["p3", None], "open_seats": 1})
        entry = store.stream_info("a")
        assert entry is not None
        assert entry.info == {"game": "tictactoe", "seat_players": ["p3", None], "open_seats": 1}
        assert self.found(store, player="p3") == ["a"]
        store.append("a", 2, marks(1), info={"open_seats": None, "seat_players": ["p3", "p4"]})
        assert self.found(store, open_seats=True) == []
        assert self.found(store, player="p4") == ["a"]
        assert "open_seats" not in store.stream_info("a").info  # type: ignore[union-attr]

    def test_seat_tokens_are_stored_with_their_batch(self, store: Store) -> None:
        store.append("a", 0, marks(1), info={"game": "tictactoe"}, tokens=[(0, b"d0")])
        assert store.seat_tokens("a") == {0: b"d0"}
        store.append("a", 1, marks(1), tokens=[(1, b"d1")])
        assert store.seat_tokens("a") == {0: b"d0", 1: b"d1"}
        with pytest.raises(ConcurrencyError):
            store.append("a", 1, marks(1), tokens=[(1, b"late")])  # a beaten batch: none
        assert store.seat_tokens("a") == {0: b"d0", 1: b"d1"}
        assert store.seat_tokens("nope") == {}
        assert store.delete_stream("a")
        assert store.seat_tokens("a") == {}

    def test_append_merges_info_into_an_existing_stream(self, store: Store) -> None:
        self.lobby(store)
        entry = store.stream_info("c")
        assert entry is not None and entry.info["finished"] is True
        assert entry.info["game"] == "river-of-gold"

    def test_players(self, store: Store) -> None:
        alice = PlayerRecord("p1", b"d" * 32, "Alice", 1.0)
        store.save_player(alice)
        assert store.player("p1") == alice
        assert store.player_by_digest(b"d" * 32) == alice
        assert store.player("p2") is None and store.player_by_digest(b"x" * 32) is None
        erased = PlayerRecord("p1", b"d" * 32, None, 1.0)
        store.save_player(erased)
        assert store.player("p1") == erased
        with pytest.raises(Exception, match="token"):
            store.save_player(PlayerRecord("p2", b"d" * 32, "Mallory", 2.0))
        assert store.player("p2") is None

    def test_put_entry_replaces_an_entry_only_at_its_version(self, store: Store) -> None:
        store.append("a", 0, marks(1), info={"game": "tictactoe", "seat_players": ["p1"]})
        store.append("a", 1, marks(1))
        assert not store.put_entry("a", {"game": "stale"}, 1)  # the stream moved on since
        assert store.stream_info("a").info["game"] == "tictactoe"  # type: ignore[union-attr]
        assert store.put_entry("a", {"game": "kaladan", "seat_players": ["p2"], "open_seats": 1}, 2)
        entry = store.stream_info("a")
        assert entry is not None and entry.version == 2
        assert entry.info == {"game": "kaladan", "seat_players": ["p2"], "open_seats": 1}
        assert self.found(store, player="p1") == [] and self.found(store, player="p2") == ["a"]
        assert self.found(store, game="kaladan", open_seats=True) == ["a"]
        assert not store.put_entry("nope", {"game": "x"}, 0)
        assert store.stream_info("nope") is None

    def test_a_beaten_append_changes_neither_entry_nor_tokens(self, store: Store) -> None:
        store.append("a", 0, marks(1), info={"game": "g", "seat_players": [None], "open_seats": 1})
        store.append("a", 1, marks(1), info={"seat_players": ["p1"], "open_seats": 0})
        with pytest.raises(ConcurrencyError):  # a second taker decided on the older version
            store.append(
                "a", 1, marks(1), info={"seat_players": ["p2"], "open_seats": 0}, tokens=[(0, b"t")]
            )
        assert store.stream_info("a").info["seat_players"] == ["p1"]  # type: ignore[union-attr]
        assert self.found(store, player="p2") == [] and store.seat_tokens("a") == {}
        results = store.append_many(
            [
                AppendRequest("a", 2, marks(1), [Meta()], {"seat_players": ["p3"]}, [(0, b"3")]),
                AppendRequest("b", 5, marks(1), [Meta()], {"game": "h"}, [(0, b"b")]),
            ]
        )
        assert isinstance(results[1], ConcurrencyError) and store.stream_info("b") is None
        assert self.found(store, player="p3") == ["a"] and store.seat_tokens("a") == {0: b"3"}
        assert store.seat_tokens("b") == {}

    def test_due_matches_follow_the_clocks_each_append_records(self, store: Store) -> None:
        def clocked(at: float, left: float, *running: int) -> Meta:
            return Meta(clock=Clock("move", 60.0, 0.0, at, (left, left), running))

        def due(before: float = 1e12) -> list[tuple[str, float]]:
            return [(d.stream, d.deadline) for d in store.due_matches(before)]

        store.append("t", 0, marks(2), [Meta(), clocked(1000.0, 60.0, 0)], {"game": "g"})
        store.append("u", 0, marks(1), info={"game": "g"})  # untimed: never due
        store.append("v", 0, marks(1), [clocked(1000.0, 30.0, 1)], {"game": "g"})
        assert due() == [("v", 1030.0), ("t", 1060.0)] and due(1059.0) == [("v", 1030.0)]
        assert due(999.0) == []
        store.append("t", 2, marks(1), [clocked(1050.0, 60.0, 1)])  # the next seat's turn
        assert due() == [("v", 1030.0), ("t", 1110.0)]
        store.append("t", 3, marks(1))  # a batch without clocks leaves the expiry
        store.append("u", 1, marks(1), info={"open_seats": 1})
        assert due() == [("v", 1030.0), ("t", 1110.0)]
        store.append("v", 1, marks(1), [clocked(1040.0, 30.0)])  # no seat's clock runs
        assert due() == [("t", 1110.0)]
        store.append("v", 2, marks(1), [clocked(1050.0, 30.0, 0)])
        with pytest.raises(ConcurrencyError):  # a beaten append changes no expiry
            store.append("v", 2, marks(1), [clocked(1050.0, 1.0, 0)])
        assert due() == [("v", 1080.0), ("t", 1110.0)]
        store.append("v", 3, marks(1), [clocked(1060.0, 30.0, 0)], {"finished": True})
        assert due() == [("t", 1110.0)]  # a finished match has no expiry, whatever its clocks
        # Pages, earliest first then by id, each starting past the last of the one before.
        for name in ("b", "a", "c"):
            store.append(name, 0, marks(1), [clocked(1000.0, 110.0, 0)], {"game": "g"})
        page = store.due_matches(2000.0, limit=2)
        assert [(d.stream, d.deadline) for d in page] == [("a", 1110.0), ("b", 1110.0)]
        rest = store.due_matches(2000.0, page[-1], limit=2)
        assert [d.stream for d in rest] == ["c", "t"]
        assert store.due_matches(2000.0, rest[-1]) == []
        store.delete_stream("t")
        assert [name for name, _ in due()] == ["a", "b", "c"]


class ChecksContract(_Fixtures):
    """Checks: every stored row undecoded, in order, and the positions deleted on purpose."""

    def three(self, store: Store) -> None:
        # positions: b 1, a 2-3, c 4-5, b 6
        store.append("b", 0, marks(1))
        store.append("a", 0, marks(2), [Meta("c1", 0, Mark(cell=1))] * 2)
        store.append("c", 0, [Marked(seat=0, cell=4), Filled()])
        store.append("b", 1, marks(1, 5))

    def test_raw_rows_are_every_row_in_stream_and_seq_order(self, store: Store) -> None:
        from ..store.base import check_row

        self.three(store)
        rows = list(store.raw_rows())
        assert [(r.stream, r.seq, r.position) for r in rows] == [
            ("a", 1, 2), ("a", 2, 3), ("b", 1, 1), ("b", 2, 6), ("c", 1, 4), ("c", 2, 5),
        ]  # fmt: skip
        for row in rows:
            check_row(row.stream, row.seq, row.tag, row.version, row.data, row.meta, row.crc)
            event = store.codec.decode_event(row.tag, row.version, row.data, row.stream, row.seq)
            assert event == store.read(row.stream, row.seq - 1, row.seq)[0].event
        assert list(store.raw_rows()) == rows  # a second pass reads the same

    def test_a_sound_store_checks_clean(self, store: Store) -> None:
        assert store.check() == [] and store.deleted_positions() == []
        self.three(store)
        assert store.check() == []

    def test_deleted_positions_are_kept_and_not_missing(self, store: Store) -> None:
        self.three(store)
        assert store.delete_stream("c")
        assert store.deleted_positions() == [(4, 5)]
        assert store.delete_stream("b")
        covered = {p for first, last in store.deleted_positions() for p in range(first, last + 1)}
        assert covered == {1, 4, 5, 6}  # in ranges as the store keeps them
        assert not store.delete_stream("nope")
        assert store.check() == []
        assert [(r.stream, r.seq) for r in store.raw_rows()] == [("a", 1), ("a", 2)]
        store.append("d", 0, marks(1))
        assert store.read("d")[0].position == 7 and store.check() == []

    def test_a_changed_row_is_found(self, store: Store) -> None:
        self.three(store)
        self.damage(store, "a", 2)
        problems = store.check()
        assert [(p.stream, p.seq) for p in problems] == [("a", 2)]
        assert "checksum mismatch" in problems[0].message

    def test_a_removed_row_is_found(self, store: Store) -> None:
        self.three(store)
        self.remove(store, "c", 1)
        found = [str(p) for p in store.check()]
        assert "match 'c' seq 1: events 1 are missing" in found
        if self.gapless:
            assert any("global positions 4 to 4 are missing" in p for p in found)


class CoordinationContract(_Fixtures):
    """Several nodes on one store: following commits by position, notifications, leases. A
    store that is not shared has one node: every lease is its own."""

    def test_a_store_that_is_not_shared_holds_every_lease(self, store: Store) -> None:
        if store.shared:
            pytest.skip("a shared store: its leases are checked with two nodes")
        assert store.try_lease("a") and store.try_lease("a") and store.try_lease("b")
        store.release_lease("a")
        store.release_lease("never")
        assert store.try_lease("a")

    def _shared(self, store: Store) -> Store:
        if not store.shared:
            pytest.skip("a store that is not shared has one node")
        return self.other_node(store)

    def test_changes_follow_every_node_by_position(self, store: Store) -> None:
        other = self._shared(store)
        try:
            assert store.position() == 0 and other.changes(0) == (0, {})
            store.append("a", 0, marks(2))
            other.append("b", 0, marks(1))
            store.append("a", 2, marks(1))
            assert store.position() == other.position() == 4
            assert other.changes(0) == (4, {"a": 3, "b": 1})
            assert store.changes(1) == (4, {"a": 3, "b": 1})
            assert store.changes(3) == (4, {"a": 3})
            assert store.changes(0, limit=2) == (2, {"a": 2})
            assert store.changes(4) == (4, {})
        finally:
            other.close()

    def test_follow_says_when_a_page_was_full(self, store: Store) -> None:
        other = self._shared(store)
        try:
            store.append("a", 0, marks(2))
            other.append("b", 0, marks(1))
            assert other.follow(0, limit=2) == (2, {"a": 2}, True)
            assert other.follow(2)[:2] == (3, {"b": 1})
            assert other.follow(3) == (3, {}, False)
        finally:
            other.close()

    def test_a_commit_of_one_node_is_notified_to_another(self, store: Store) -> None:
        other = self._shared(store)
        try:
            other.wait_for_commits(0.01)  # starts listening: nothing committed since
            assert not other.wait_for_commits(0.05)
            store.append("a", 0, marks(1))
            assert other.wait_for_commits(10)
        finally:
            other.close()

    def test_a_lease_is_held_by_one_node_at_a_time(self, store: Store) -> None:
        other = self._shared(store)
        try:
            assert store.try_lease("m") and store.try_lease("m")
            assert not other.try_lease("m") and other.try_lease("n")
            assert not store.try_lease("n")
            store.release_lease("m")
            assert other.try_lease("m") and not store.try_lease("m")
            other.release_lease("n")
            assert store.try_lease("n")
        finally:
            other.close()


class StoreContract(
    EventLogContract, SnapshotContract, LobbyContract, ChecksContract, CoordinationContract
):
    """Every store must pass these; subclasses say how to make (and reopen) one."""
