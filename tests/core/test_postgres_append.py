"""PostgreSQL's append is one round trip: the events, the listing entry and the seat tokens.

The listing entry (a msgpack map) is merged inside the database by ``gamehall_info_merge``;
its result is checked here against :func:`merged`, the merge every store means, over random
entries of every msgpack type and random changes.
"""

from __future__ import annotations

import os
import re
import secrets
import tempfile
from collections.abc import Callable, Iterator
from typing import Any

import msgspec
import psycopg
import pytest
from gamehall.core.errors import ConcurrencyError, StoreFailed
from gamehall.core.store import MatchQuery
from gamehall.core.store.base import listed, merged
from gamehall.core.testing.events import ContractPlugins, marks
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.postgres import drop_schema, need_postgres, schema_url


@pytest.fixture(scope="module")
def store() -> Iterator[Any]:
    need_postgres()
    from gamehall.core.store.postgres import PostgresStore

    schema = f"test_{secrets.token_hex(6)}"
    try:
        with PostgresStore(schema_url(schema), ContractPlugins().codec) as opened:
            yield opened
    finally:
        drop_schema(schema)


def round_trips(store: Any, action: Callable[[], object]) -> int:
    """Return how many times the writer's connection waited for the server during ``action``:
    the Sync and Query messages it sent (libpq's trace of the protocol)."""
    with store._lock:
        store._writer = store._writer if store._writer is not None else store.connect()
        writer = store._writer
    fd, path = tempfile.mkstemp()
    try:
        writer.pgconn.trace(fd)
        try:
            action()
        finally:
            writer.pgconn.untrace()
        with open(path) as trace:
            return len(re.findall(r"\tF\t\d+\t(?:Sync|Query)\b", trace.read()))
    finally:
        os.close(fd)
        os.unlink(path)


def test_a_seat_taken_with_its_token_is_one_round_trip(store: Any) -> None:
    stream = f"m_{secrets.token_hex(4)}"
    created = {"game": "g", "open": [0, 1], "seat_players": [None, None], "open_seats": 2}
    assert round_trips(store, lambda: store.append(stream, 0, marks(1), info=created)) == 1
    taken = {"open": [1], "seat_players": ["p1", None], "open_seats": 1}
    assert (
        round_trips(
            store, lambda: store.append(stream, 1, marks(1), info=taken, tokens=[(0, b"t")])
        )
        == 1
    )
    assert round_trips(store, lambda: store.append(stream, 2, marks(1))) == 1
    entry = store.stream_info(stream)
    assert entry.version == 3
    assert entry.info == merged(created, taken)
    assert store.seat_tokens(stream) == {0: b"t"}
    assert [e.stream for e in store.find_matches(MatchQuery(player="p1")).matches] == [stream]


def test_a_group_commit_of_many_streams_is_one_round_trip(store: Any) -> None:
    from gamehall.core.events import Meta
    from gamehall.core.store.base import AppendRequest

    names = [f"g_{secrets.token_hex(4)}" for _ in range(5)]
    requests = [
        AppendRequest(n, 0, marks(2), [Meta()] * 2, {"game": "g", "seat_players": [n]}, [(0, b"x")])
        for n in names
    ]
    assert round_trips(store, lambda: store.append_many(requests)) == 1
    for n in names:
        assert store.find_matches(MatchQuery(player=n)).total == 1
        assert store.seat_tokens(n) == {0: b"x"}


def test_a_conflicting_batch_changes_nothing_of_the_listing(store: Any) -> None:
    stream = f"c_{secrets.token_hex(4)}"
    store.append(stream, 0, marks(1), info={"game": "g", "seat_players": [None]})
    with pytest.raises(ConcurrencyError):
        store.append(stream, 5, marks(1), info={"seat_players": ["p9"]}, tokens=[(0, b"z")])
    assert store.stream_info(stream).info == {"game": "g", "seat_players": [None]}
    assert store.seat_tokens(stream) == {}
    assert store.find_matches(MatchQuery(player="p9")).total == 0


_scalars = (
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**63), max_value=2**64 - 1)
    | st.floats(allow_nan=False)
    | st.text(max_size=40)
    | st.binary(max_size=40)
    | st.sampled_from(["x" * 300, b"z" * 300])
    | st.builds(msgspec.msgpack.Ext, st.integers(0, 127), st.binary(max_size=20))
    | st.sampled_from([msgspec.msgpack.Ext(5, b"e" * n) for n in (1, 2, 4, 8, 16, 300)])
)
_values = st.recursive(
    _scalars,
    lambda inner: (
        st.lists(inner, max_size=20)
        | st.dictionaries(st.text(max_size=5) | st.integers(-5, 300), inner, max_size=20)
    ),
    max_leaves=30,
)
# The listing's indexed keys hold what the lobby puts there; any other key holds anything.
_listed = {
    # a game id: PostgreSQL text holds no NUL, and no registered game's id has one
    "game": st.none()
    | st.text(st.characters(codec="utf-8", blacklist_characters="\x00"), max_size=10),
    "finished": st.none() | st.booleans(),
    "open_seats": st.none() | st.integers(0, 1000),
    "seat_players": st.none() | st.lists(st.none() | st.sampled_from(["p1", "p2", "p3"])),
}
_others = st.dictionaries(
    st.sampled_from(["open", "bots", "clock"])
    | st.text(max_size=20).filter(lambda k: k not in _listed),
    _values,
    max_size=15,
)
_entries = st.builds(
    lambda listed_part, rest: {**rest, **listed_part},
    st.fixed_dictionaries({}, optional=_listed),
    _others,
)


@settings(
    max_examples=20, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    start=_entries,
    changes=st.lists(_entries, min_size=1, max_size=3),
)
def test_the_listing_merge_in_the_database_is_the_stores_merge(
    store: Any, start: dict[str, Any], changes: list[dict[str, Any]]
) -> None:
    stream = f"p_{secrets.token_hex(6)}"
    store.append(stream, 0, marks(1), info=start)
    expected = start
    for version, change in enumerate(changes, 1):
        store.append(stream, version, marks(1), info=change)
        expected = merged(expected, change) if change else expected
    assert store.stream_info(stream).info == expected
    game, finished, open_seats, players = listed(expected)
    row = store._rows(
        "SELECT game, finished, open_seats FROM streams WHERE stream = %s", (stream,)
    )[0]
    assert tuple(row) == (game, finished, open_seats)
    found = store._rows("SELECT player FROM stream_players WHERE stream = %s", (stream,))
    assert sorted(p for (p,) in found) == players


def test_text_utf8_cannot_hold_is_refused_naming_it_and_nothing_stored(store: Any) -> None:
    stream = f"s_{secrets.token_hex(4)}"
    with pytest.raises(StoreFailed, match="lone surrogate"):
        store.append(stream, 0, marks(1), info={"game": "\ud800"})
    assert store.version(stream) == 0 and store.stream_info(stream) is None


def test_a_map_of_more_than_sixteen_keys_merges(store: Any) -> None:
    large = ["y" * 70_000, b"w" * 70_000, msgspec.msgpack.Ext(5, b"e" * 70_000), [0] * 70_000]
    for size in (15, 16, 17, 70_000):
        stream = f"big_{secrets.token_hex(4)}"
        start = {f"k{i}": large[i] if i < len(large) else i for i in range(size)}
        store.append(stream, 0, marks(1), info=start)
        store.append(stream, 1, marks(1), info={"k0": None, "new": [1, 2]})
        assert store.stream_info(stream).info == merged(start, {"k0": None, "new": [1, 2]})


def test_an_entry_that_is_not_msgpack_fails_the_append_and_stores_nothing(store: Any) -> None:
    stream = f"bad_{secrets.token_hex(4)}"
    store.append(stream, 0, marks(1), info={"game": "g"})
    store._rows("UPDATE streams SET info = '\\xc1'::bytea WHERE stream = %s RETURNING 1", (stream,))
    with pytest.raises(StoreFailed, match="not a msgpack map"):
        store.append(stream, 1, marks(1), info={"open": [0]})
    assert store.version(stream) == 1
    with pytest.raises(psycopg.Error):  # the function refuses the entry in SQL too
        store._rows("SELECT gamehall_info_merge('\\x81a1'::bytea, '{}', '{}')", ())


def test_a_group_commit_that_changes_no_listing_moves_only_versions_and_deadlines(
    store: Any,
) -> None:
    from gamehall.core.events import Meta
    from gamehall.core.store.base import AppendRequest

    names = [f"v_{secrets.token_hex(4)}" for _ in range(4)]
    entry = {"game": "g", "seat_players": ["pv"], "open_seats": 0}
    for n in names:
        store.append(n, 0, marks(1), info=entry)
    before = {n: store.stream_info(n) for n in names}
    # later batches with no listing change: the append's listing arrays go empty
    store.append_many([AppendRequest(n, 1, marks(2), [Meta()] * 2) for n in names])
    for n in names:
        info = store.stream_info(n)
        assert info.version == 3
        assert info.info == entry
        assert info.updated >= before[n].updated
    assert store.find_matches(MatchQuery(player="pv")).total == len(names)
    # and a round that mixes such batches with one that changes its listing
    mixed = [AppendRequest(n, 3, marks(1), [Meta()]) for n in names[1:]]
    mixed.append(AppendRequest(names[0], 3, marks(1), [Meta()], {"seat_players": ["pw"]}))
    store.append_many(mixed)
    assert [store.stream_info(n).version for n in names] == [4] * 4
    assert store.stream_info(names[0]).info == merged(entry, {"seat_players": ["pw"]})
    assert store.find_matches(MatchQuery(player="pv")).total == len(names) - 1


def test_a_row_another_append_wrote_meanwhile_fails_its_batch_only(store: Any) -> None:
    """The append inserts a group's rows as they are, and only where another append's row is
    in the way (written after its version check, committed while it waited) inserts again
    leaving such rows out: that batch is a conflict, the others are stored."""
    import threading

    from gamehall.core.events import Meta
    from gamehall.core.store.base import AppendRequest
    from gamehall.core.store.postgres import _APPEND, _append_args

    raced, other = f"r_{secrets.token_hex(4)}", f"o_{secrets.token_hex(4)}"
    for n in (raced, other):
        store.append(n, 0, marks(1))
    (ahead,) = store.encode([AppendRequest(raced, 1, marks(1), [Meta()])])
    with psycopg.connect(store.url.conninfo, options=f"-c search_path={store.schema}") as first:
        first.execute(_APPEND, _append_args([(0, ahead)], 1.0)[0])  # not committed yet
        results: list[Any] = []
        behind = threading.Thread(
            target=lambda: results.extend(
                store.append_many(
                    [AppendRequest(n, 1, marks(2), [Meta()] * 2) for n in (raced, other)]
                )
            )
        )
        behind.start()
        behind.join(0.5)
        assert behind.is_alive()  # waiting for the first append's row
        first.commit()
        behind.join(10)
    assert isinstance(results[0], ConcurrencyError)
    assert [r.seq for r in results[1]] == [2, 3]
    assert [e.seq for e in store.read(raced)] == [1, 2]
    assert [e.seq for e in store.read(other)] == [1, 2, 3]
    assert store.stream_info(raced).version == 2


def _seqs(store: Any, stream: str) -> list[int]:
    """The seqs of a stream's rows as stored (no check of the rows)."""
    found = store._rows("SELECT seq FROM events WHERE stream = %s ORDER BY seq", (stream,))
    return [int(seq) for (seq,) in found]


def test_a_version_past_the_streams_end_is_refused_and_writes_nothing(store: Any) -> None:
    """No look-up comes before the insert: the rows of a batch at a version the stream has
    not reached go in (no row is in their way) and the check of the stream's row refuses
    them, alone and in a group, leaving the others' rows and the listing as they were."""
    from gamehall.core.events import Meta
    from gamehall.core.store.base import AppendRequest

    ahead, fine = f"a_{secrets.token_hex(4)}", f"f_{secrets.token_hex(4)}"
    entry = {"game": "g", "seat_players": [None]}
    for n in (ahead, fine):
        store.append(n, 0, marks(2), info=entry)
    with pytest.raises(ConcurrencyError) as refused:
        store.append(ahead, 5, marks(1), info={"seat_players": ["p7"]}, tokens=[(0, b"q")])
    assert (refused.value.expected, refused.value.actual) == (5, 2)
    results = store.append_many(
        [
            AppendRequest(ahead, 3, marks(2), [Meta()] * 2, {"seat_players": ["p7"]}),
            AppendRequest(fine, 2, marks(1), [Meta()], {"seat_players": ["p8"]}),
        ]
    )
    assert isinstance(results[0], ConcurrencyError) and results[0].actual == 2
    assert [r.seq for r in results[1]] == [3]
    assert _seqs(store, ahead) == [1, 2] and _seqs(store, fine) == [1, 2, 3]
    assert store.stream_info(ahead).version == 2 and store.stream_info(ahead).info == entry
    assert store.seat_tokens(ahead) == {}
    assert store.find_matches(MatchQuery(player="p7")).total == 0
    assert store.find_matches(MatchQuery(player="p8")).total == 1


def test_an_append_to_a_stream_deleted_meanwhile_is_refused(store: Any) -> None:
    """Another node deletes the match after this one read it: its rows go in where none are,
    and the stream's row, gone, refuses them."""
    from gamehall.core.store.postgres import PostgresStore

    stream = f"d_{secrets.token_hex(4)}"
    store.append(stream, 0, marks(2))
    with PostgresStore(schema_url(store.schema), store.codec) as other:
        assert other.delete_stream(stream)
    with pytest.raises(ConcurrencyError) as refused:
        store.append(stream, 2, marks(1))
    assert refused.value.actual == 0
    assert _seqs(store, stream) == [] and store.stream_info(stream) is None


def test_a_stream_whose_row_is_behind_its_events_takes_appends_and_catches_up(
    store: Any,
) -> None:
    """A stream whose first batch was empty kept its row at version 0 under older releases
    while its events went on, and a stream may have no row at all: an append at the events'
    end is stored, and brings the row (where there is one) up to it with the listing."""
    from gamehall.core.events import Meta
    from gamehall.core.store.base import AppendRequest

    behind, rowless = f"b_{secrets.token_hex(4)}", f"n_{secrets.token_hex(4)}"
    for n in (behind, rowless):
        store.append(n, 0, marks(2), info={"game": "g", "seat_players": [None]})
    store._rows("UPDATE streams SET version = 0 WHERE stream = %s RETURNING 1", (behind,))
    store._rows("DELETE FROM streams WHERE stream = %s RETURNING 1", (rowless,))
    store.append(behind, 2, marks(1), info={"seat_players": ["p5"]})
    assert store.stream_info(behind).version == 3
    assert store.find_matches(MatchQuery(player="p5")).total == 1
    results = store.append_many(
        [AppendRequest(n, 3 if n == behind else 2, marks(1), [Meta()]) for n in (behind, rowless)]
    )
    assert [[r.seq for r in batch] for batch in results] == [[4], [3]]
    assert _seqs(store, rowless) == [1, 2, 3] and store.stream_info(behind).version == 4
    with pytest.raises(ConcurrencyError):  # and a version behind the events is still refused
        store.append(rowless, 2, marks(1))


def test_an_empty_first_batch_then_the_first_events(store: Any) -> None:
    """An empty first batch leaves the stream's row at version 0; the batch with the first
    events takes the row (version and listing entry), and an empty first batch for a stream
    that has events is a conflict."""
    stream = f"e_{secrets.token_hex(4)}"
    store.append(stream, 0, [], info={"game": "g", "seat_players": [None]})
    assert store.stream_info(stream).version == 0
    store.append(stream, 0, marks(2), info={"game": "h", "seat_players": ["p6"]})
    entry = store.stream_info(stream)
    assert entry.version == 2 and entry.info == {"game": "h", "seat_players": ["p6"]}
    assert store.find_matches(MatchQuery(player="p6")).total == 1
    with pytest.raises(ConcurrencyError):
        store.append(stream, 0, [], info={"game": "g"})
    assert _seqs(store, stream) == [1, 2] and store.stream_info(stream).info["game"] == "h"


def test_the_streams_table_leaves_room_on_its_pages_and_a_non_owner_opens_it(store: Any) -> None:
    """Each command moves its stream's row on: the table keeps half of each page free so the
    new row version stays on its page (no index touched); a store opened on a schema whose
    table lost the setting sets it again, and a role that may write but not alter the table
    leaves it as it is."""
    from gamehall.core.store.postgres import STREAMS_ROOM, PostgresStore

    def options() -> list[str]:
        found = store._rows("SELECT reloptions FROM pg_class WHERE oid = 'streams'::regclass", ())
        return list(found[0][0] or [])

    assert options() == ["fillfactor=50"]
    role = f"gh_writer_{secrets.token_hex(4)}"
    with psycopg.connect(store.url.conninfo, autocommit=True) as db:
        db.execute(f'ALTER TABLE "{store.schema}".streams RESET (fillfactor)')
        assert options() == []
        with PostgresStore(schema_url(store.schema), store.codec):
            assert options() == ["fillfactor=50"]
        db.execute(f'CREATE ROLE "{role}" NOLOGIN')
        try:
            db.execute(f'GRANT USAGE ON SCHEMA "{store.schema}" TO "{role}"')
            db.execute(f'ALTER TABLE "{store.schema}".streams RESET (fillfactor)')
            with db.transaction():
                db.execute(f'SET LOCAL search_path = "{store.schema}"')
                db.execute(f'SET LOCAL ROLE "{role}"')
                db.execute(STREAMS_ROOM)  # not the owner: no error, and no change
            assert options() == []
        finally:
            db.execute(f'DROP OWNED BY "{role}"')
            db.execute(f'DROP ROLE "{role}"')
