"""A match's life in the lobby beyond its seats: a seat left or freed while the match waits
for players, a match abandoned by its creator, a match expired after waiting idle, and the
listing's retention of matches that are over. Each is an event of the match decided by its
actor; bad requests are refused with words and store nothing. Time is an injected clock.
"""

from __future__ import annotations

import random
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import anyio
import pytest
from gamehall.adapters.file.logfile import read_log, write_log
from gamehall.core import Registry, replay
from gamehall.core.errors import InvalidCommand, MatchOver, UnknownMatch, UnknownPlayer
from gamehall.core.events import (
    ExpireMatch,
    MatchAbandoned,
    MatchExpired,
    SeatReleased,
    TakenBack,
)
from gamehall.core.hall import Hall
from gamehall.core.lifecycle import EXPIRE_AFTER, RETAIN_FOR
from gamehall.core.logformat import header_for
from gamehall.core.seating import (
    Forbidden,
    NoFreeSeat,
    NotIdle,
    SeatKept,
    SomeoneJoined,
    normal,
    rebuilt_entry,
)
from gamehall.core.store import MemoryStore, SQLiteStore, Store
from gamehall.core.words import ago, duration

from tests.postgres import drop_schema, need_postgres, schema_url

PLACE = "tictactoe.PlaceMark"
HOUR = 3600.0


class Clock:
    """A hall clock a test moves by hand (starting at the real time, as the store's)."""

    def __init__(self) -> None:
        self.now = time.time()

    def __call__(self) -> float:
        return self.now


def sqlite_hall(registry: Registry, tmp_path: Path, **kwargs: object) -> Hall:
    return Hall(SQLiteStore(tmp_path / "hall.db", registry.codec), registry, **kwargs)  # type: ignore[arg-type]


async def players(hall: Hall, count: int) -> list[str]:
    return [(await hall.lobby.register(f"P{i}"))[0].player for i in range(count)]


def test_defaults_are_a_day_and_a_week(registry: Registry) -> None:
    hall = Hall(MemoryStore(registry.codec), registry)
    assert hall.lifecycle.expire_after == EXPIRE_AFTER == 24 * HOUR
    assert hall.retain_for == RETAIN_FOR == 7 * 24 * HOUR
    for bad in (0, -1.0, "1h", True):
        with pytest.raises(ValueError, match="expire_after is a positive number of seconds"):
            Hall(MemoryStore(registry.codec), registry, expire_after=bad)  # type: ignore[arg-type]
        with pytest.raises(ValueError, match="retain_for is a positive number of seconds"):
            Hall(MemoryStore(registry.codec), registry, retain_for=bad)  # type: ignore[arg-type]
    never = Hall(MemoryStore(registry.codec), registry, expire_after=None, retain_for=None)
    assert never.lifecycle.expire_after is None and never.retain_for is None


def test_a_player_leaves_and_the_creator_frees_a_seat_while_the_match_waits(
    registry: Registry, tmp_path: Path
) -> None:
    async def body() -> None:
        async with sqlite_hall(registry, tmp_path) as hall:
            ada, bob, cat, dan = await players(hall, 4)
            match = await hall.create(
                "gunsen", 3, seat_players={0: ada}, open_seats=[1, 2], creator=ada, seed=3
            )
            await hall.lobby.take_seat(match, bob, 1)
            await hall.lobby.take_seat(match, cat, 2)
            assert hall.lobby.entry(match).open_seats == 0
            # Every seat taken: the match started, and its seats are kept.
            version = hall.store.version(match)
            with pytest.raises(SeatKept, match="the match has started and its seats are kept"):
                await hall.lobby.leave_seat(match, cat, 2)
            assert hall.store.version(match) == version

            again = await hall.create(
                "gunsen", 3, seat_players={0: ada}, open_seats=[1, 2], creator=ada, seed=4
            )
            await hall.lobby.take_seat(again, bob, 1)
            await hall.lobby.leave_seat(again, bob, 1)  # bob leaves
            entry = hall.lobby.entry(again)
            assert entry.seats[1].open and entry.seats[1].player is None
            assert again not in {e.match for e in hall.lobby.find(player=bob).matches}
            await hall.lobby.take_seat(again, bob, 1)
            await hall.lobby.leave_seat(again, ada, 1)  # the creator frees bob's seat
            assert hall.lobby.entry(again).seats[1].open
            await hall.lobby.take_seat(again, cat, 1)
            with pytest.raises(Forbidden, match="left by its player or freed by the match's"):
                await hall.lobby.leave_seat(again, dan, 1)  # neither holder nor creator
            released = [r.event for r in hall.read(again) if isinstance(r.event, SeatReleased)]
            assert released == [
                SeatReleased(seat=1, player=bob, by=bob),
                SeatReleased(seat=1, player=bob, by=ada),
            ]
            # The listing is the log's: rebuilt, it is the same.
            rebuilt = rebuilt_entry(registry, hall.read(again))
            assert rebuilt == normal(hall.store.stream_info(again).info)  # type: ignore[union-attr]

    anyio.run(body)


def test_leaving_a_seat_refuses_bad_requests_and_stores_nothing(
    registry: Registry, tmp_path: Path
) -> None:
    async def body() -> None:
        async with sqlite_hall(registry, tmp_path) as hall:
            ada, bob = await players(hall, 2)
            match = await hall.create(
                "gunsen", 3, seat_players={0: ada}, bots={1: "random"}, open_seats=[2],
                creator=ada, seat_tokens={}, seed=5,
            )  # fmt: skip
            token_match = await hall.create(
                "tictactoe", seat_tokens={0: b"t" * 32}, open_seats=[1], creator=ada
            )
            cases: list[tuple[str, str, object, type[Exception], str]] = [
                (match, ada, 3, InvalidCommand, "seat 3 does not exist"),
                (match, ada, -1, InvalidCommand, "seat -1 does not exist"),
                (match, ada, "1", NoFreeSeat, "is not a seat number"),
                (match, ada, True, NoFreeSeat, "is not a seat number"),
                (match, ada, 1, SeatKept, "played by a bot"),
                (match, ada, 2, SeatKept, "is open already"),
                (match, bob, 0, Forbidden, "nobody else"),
                (match, "nobody", 0, UnknownPlayer, "unknown player"),
                (token_match, ada, 0, SeatKept, "held by a seat token"),
                ("0123456789abcdef", ada, 0, UnknownMatch, "0123456789abcdef"),
            ]
            for where, who, seat, error, words in cases:
                version = hall.store.version(where) if where != "0123456789abcdef" else 0
                with pytest.raises(error, match=words):
                    await hall.lobby.leave_seat(where, who, seat)  # type: ignore[arg-type]
                if version:
                    assert hall.store.version(where) == version

    anyio.run(body)


def test_the_creator_abandons_a_match_nobody_else_joined(
    registry: Registry, tmp_path: Path
) -> None:
    async def body() -> None:
        async with sqlite_hall(registry, tmp_path) as hall:
            ada, bob = await players(hall, 2)
            match = await hall.create(
                "gunsen", 3, seat_players={0: ada}, bots={1: "random"}, open_seats=[2],
                creator=ada, seed=6,
            )  # fmt: skip
            with pytest.raises(Forbidden, match="only the creator"):
                await hall.lobby.abandon(match, bob)
            await hall.bots.settled(match)
            seat = sorted(hall.awaiting(match))[0]
            legal = hall.legal(match, seat)
            assert legal  # a seat has a move to send, until the match is abandoned
            await hall.lobby.abandon(match, ada)
            entry = hall.lobby.entry(match)
            assert entry.finished and entry.ended == "abandoned" and entry.open_seats == 0
            assert entry.creator == ada
            last = hall.read(match)[-1]
            assert last.event == MatchAbandoned(player=ada)
            # Over: seats and commands are refused with words, nothing stored; nobody awaited.
            version = hall.store.version(match)
            with pytest.raises(MatchOver, match="was abandoned by its creator: its seats are"):
                await hall.lobby.take_seat(match, bob, 2)
            with pytest.raises(MatchOver, match="was abandoned by its creator: its seats are"):
                await hall.lobby.give_seat_to_bot(match, 2, "random")
            with pytest.raises(MatchOver, match="abandoned by its creator: it takes no more"):
                await hall.send(match, seat, legal[0])
            with pytest.raises(MatchOver, match="abandoned by its creator: it cannot be"):
                await hall.lobby.abandon(match, ada)
            with pytest.raises(MatchOver, match="abandoned by its creator"):
                await hall.lobby.leave_seat(match, ada, 0)
            with pytest.raises(MatchOver, match="abandoned by its creator: nothing in it is"):
                await hall.request_undo(match, seat)
            assert hall.store.version(match) == version
            assert hall.awaiting(match) == {} and hall.view(match, seat).legal == []
            assert hall.turn(match, seat).awaiting == [] and hall.legal(match, seat) == []
            hall.passivate()  # read again from the store: still over
            with pytest.raises(MatchOver, match="abandoned"):
                await hall.lobby.take_seat(match, bob, 2)
            narrated = [n.text for n in hall.narrated_history(match, 0)]
            assert narrated[-1] == (
                "The match was abandoned by its creator: it is over, without a winner."
            )
            # It is finished for the listing's filters, and still deleted only by the admin.
            assert match in {e.match for e in hall.lobby.find(finished=True).matches}
            assert match not in {e.match for e in hall.lobby.find(open_seats=True).matches}

            joined = await hall.create(
                "tictactoe", seat_players={0: ada}, open_seats=[1], creator=ada
            )
            await hall.lobby.take_seat(joined, bob, 1)
            version = hall.store.version(joined)
            with pytest.raises(SomeoneJoined, match="someone else holds a seat"):
                await hall.lobby.abandon(joined, ada)
            assert hall.store.version(joined) == version
            anonymous = await hall.create("tictactoe", open_seats=[0, 1])
            with pytest.raises(Forbidden, match="was not created by a player"):
                await hall.lobby.abandon(anonymous, ada)
            with pytest.raises(UnknownPlayer):
                await hall.lobby.abandon(joined, "nobody")
            with pytest.raises(UnknownMatch):
                await hall.lobby.abandon("0123456789abcdef", ada)

    anyio.run(body)


def test_an_idle_waiting_match_expires_through_its_actor(
    registry: Registry, tmp_path: Path
) -> None:
    async def body() -> None:
        clock = Clock()
        async with sqlite_hall(registry, tmp_path, clock=clock, expire_after=HOUR) as hall:
            ada, bob = await players(hall, 2)
            waiting = await hall.create("tictactoe", seat_players={0: ada}, open_seats=[1])
            full = await hall.create("tictactoe", seat_players={0: ada, 1: bob})
            timed = await hall.create(
                "tictactoe", seat_players={0: ada}, open_seats=[1], clock="move:30"
            )
            clock.now += HOUR / 2
            assert await hall.lifecycle.sweep() == 0  # not idle long enough
            clock.now += HOUR
            assert await hall.lifecycle.sweep() == 2
            assert hall.lobby.entry(waiting).ended == "expired"
            assert hall.lobby.entry(timed).ended == "expired"
            assert hall.lobby.entry(full).ended is None and not hall.lobby.entry(full).finished
            assert hall.read(waiting)[-1].event == MatchExpired(idle=HOUR)
            assert await hall.lifecycle.sweep() == 0  # expired once
            version = hall.store.version(waiting)
            with pytest.raises(MatchOver, match="expired while waiting for players: its seats"):
                await hall.lobby.take_seat(waiting, bob, 1)
            with pytest.raises(MatchOver, match="expired while waiting for players: it takes"):
                await hall.send(waiting, 0, {"type": PLACE, "cell": 4})
            assert hall.store.version(waiting) == version
            # An expired timed match's clock no longer runs out.
            clock.now += HOUR
            assert await hall.fire_expired() == 0
            text = [n.text for n in hall.narrated_history(waiting, None)][-1]
            assert text.startswith("The match expired: it waited for players for 1 hour")

            # A match that moved since it was found idle is not expired.
            moved = await hall.create("tictactoe", seat_players={0: ada}, open_seats=[1])
            seen = hall.store.version(moved)
            await hall.lobby.leave_seat(moved, ada, 0)
            with pytest.raises(NotIdle, match="moved since it was found idle"):
                await hall.lobby_command(moved, ExpireMatch(idle=HOUR, version=seen))
            with pytest.raises(NotIdle, match="waits for no player"):
                await hall.lobby_command(
                    full, ExpireMatch(idle=HOUR, version=hall.store.version(full))
                )

    anyio.run(body)


def test_a_hall_without_expiry_expires_nothing(registry: Registry, tmp_path: Path) -> None:
    async def body() -> None:
        clock = Clock()
        async with sqlite_hall(registry, tmp_path, clock=clock, expire_after=None) as hall:
            match = await hall.create("tictactoe", open_seats=[0, 1])
            clock.now += 1000 * HOUR
            assert await hall.lifecycle.sweep() == 0
            assert not hall.lobby.entry(match).finished

    anyio.run(body)


def test_the_expiry_sweep_runs_by_itself(registry: Registry, tmp_path: Path) -> None:
    async def body() -> None:
        clock = Clock()
        hall = sqlite_hall(registry, tmp_path, clock=clock, expire_after=HOUR, sweep_every=0.01)
        async with hall:
            match = await hall.create("tictactoe", open_seats=[0, 1])
            clock.now += 2 * HOUR
            with anyio.fail_after(5):
                while not hall.lobby.entry(match).finished:
                    await anyio.sleep(0.01)
            assert hall.lobby.entry(match).ended == "expired"

    anyio.run(body)


def test_lifecycle_events_meet_verify_take_backs_and_log_files(
    registry: Registry, tmp_path: Path
) -> None:
    async def body() -> None:
        async with sqlite_hall(registry, tmp_path) as hall:
            ada, bob = await players(hall, 2)
            match = await hall.create(
                "tictactoe", open_seats=[0, 1], creator=ada, undo="free", seed=2
            )
            await hall.lobby.take_seat(match, bob, 0)
            await hall.send(match, 0, {"type": PLACE, "cell": 4})
            await hall.lobby.leave_seat(match, ada, 0)  # freed after a move, while waiting
            await hall.lobby.take_seat(match, bob, 0)
            # The take-back of seat 0's move passes over the seat events after it.
            await hall.request_undo(match, 0)
            assert any(isinstance(r.event, TakenBack) for r in hall.read(match))
            assert sorted(hall.awaiting(match)) == [0]  # the mark was taken back
            await hall.lobby.leave_seat(match, bob, 0)
            before = hall.store.version(match)
            await hall.lobby.abandon(match, ada)
            records = hall.read(match)
            ruleset = hall.ruleset(match)
            assert replay.verify(ruleset, records) is None
            assert replay.bisect(ruleset, records) is None
            marked = next(r.seq for r in records if type(r.event).__name__ == "MarkPlaced")
            assert replay.diff(ruleset, records, marked - 1, marked) != []  # the game's change
            assert replay.diff(ruleset, records, before, len(records)) == []  # none of its own
            path = tmp_path / "abandoned.jsonl"
            write_log(path, header_for(match, None, records), records, registry)
            log = read_log(path, registry)
            copy = await hall.import_records(log.records, match_id="c0ffee00c0ffee00")
            entry = hall.lobby.entry(copy)
            assert entry.ended == "abandoned" and entry.finished
            assert entry.seats[0].open and entry.seats[0].player is None
            with pytest.raises(MatchOver, match="abandoned"):
                await hall.lobby.take_seat(copy, bob, 1)

    anyio.run(body)


# -- retention, on every store ---------------------------------------------------------------


@pytest.fixture(params=["memory", "sqlite", "postgres"])
def store(request: pytest.FixtureRequest, registry: Registry, tmp_path: Path) -> Iterator[Store]:
    if request.param == "memory":
        yield MemoryStore(registry.codec)
    elif request.param == "sqlite":
        made = SQLiteStore(tmp_path / "hall.db", registry.codec)
        yield made
        made.close()
    else:
        need_postgres()
        from gamehall.core.store.postgres import PostgresStore

        schema = f"test_lifecycle_{random.getrandbits(40):x}"
        made = PostgresStore(schema_url(schema), registry.codec)
        try:
            yield made
        finally:
            made.close()
            drop_schema(schema)


def test_matches_that_are_over_leave_the_listing_after_retention(
    registry: Registry, store: Store
) -> None:
    async def body() -> None:
        clock = Clock()
        async with Hall(store, registry, clock=clock, retain_for=HOUR, expire_after=HOUR) as hall:
            ada, bob = await players(hall, 2)
            abandoned = await hall.create(
                "tictactoe", seat_players={0: ada}, open_seats=[1], creator=ada
            )
            await hall.lobby.abandon(abandoned, ada)
            finished = await hall.create("tictactoe", seat_players={0: ada, 1: bob}, seed=1)
            for seat, cell in ((0, 0), (1, 3), (0, 1), (1, 4), (0, 2)):
                await hall.send(finished, seat, {"type": PLACE, "cell": cell})
            running = await hall.create("tictactoe", seat_players={0: ada, 1: bob})
            waiting = await hall.create("tictactoe", seat_players={0: ada}, open_seats=[1])
            listed = {e.match for e in hall.lobby.find().matches}
            assert listed == {abandoned, finished, running, waiting}
            clock.now += HOUR / 2
            assert {e.match for e in hall.lobby.find(finished=True).matches} == {
                abandoned, finished
            }  # fmt: skip
            assert await hall.lifecycle.sweep() == 0  # waiting, but not idle long enough
            clock.now += HOUR
            # Over for longer than the retention: gone from every listing, kept in the store.
            assert {e.match for e in hall.lobby.find().matches} == {running, waiting}
            assert hall.lobby.find(finished=True).total == 0
            assert {e.match for e in hall.lobby.find(player=ada).matches} == {running, waiting}
            assert {e.match for e in hall.lobby.find(open_seats=True).matches} == {waiting}
            # The waiting one expires now; its last event is older than the retention (the
            # store's time is the real one): it leaves the listings at once.
            assert await hall.lifecycle.sweep() == 1
            assert {e.match for e in hall.lobby.find().matches} == {running}
            assert hall.lobby.find(open_seats=True).total == 0
            assert hall.lobby.entry(abandoned).ended == "abandoned"  # by id, for the admin
            assert len(hall.read(finished)) == hall.store.version(finished) > 5  # its log stays

    anyio.run(body)


def test_age_and_last_activity_in_words() -> None:
    assert ago(5) == "just now"
    assert ago(60) == "1 minute ago"
    assert ago(5 * 60 + 59) == "5 minutes ago"
    assert ago(3 * HOUR + 10) == "3 hours ago"
    assert ago(49 * HOUR) == "2 days ago"
    assert duration(HOUR) == "1 hour"
    assert duration(24 * HOUR) == "1 day"
    assert duration(90) == "90 seconds"
    assert duration(150) == "2 minutes"


def test_expire_matches_command(registry: Registry, tmp_path: Path, capsys: Any) -> None:
    import argparse

    from gamehall.adapters.cli.store import run_expire

    path = tmp_path / "hall.db"

    async def make() -> tuple[str, str]:
        async with Hall(SQLiteStore(path, registry.codec), registry) as hall:
            waiting = await hall.create("tictactoe", open_seats=[0, 1])
            full = await hall.create("tictactoe")
            return waiting, full

    waiting, full = anyio.run(make)
    # The subcommand's own function: the whole CLI would configure the process's logging.
    assert run_expire(argparse.Namespace(db=str(path), after=0.001)) == 0
    assert "1 match expired (waiting for players with no event for 0 seconds" in (
        capsys.readouterr().out
    )
    store = SQLiteStore(path, registry.codec)
    try:
        assert store.stream_info(waiting).info["ended"] == "expired"  # type: ignore[union-attr]
        assert "ended" not in store.stream_info(full).info  # type: ignore[union-attr]
    finally:
        store.close()
    from gamehall.adapters.stdin.cli import run_matches

    listing = argparse.Namespace(
        db=str(path), game=None, state=None, open=False, player=None, cursor=None, limit=50
    )
    assert run_matches(listing) == 0
    rows = {line.split()[0]: line for line in capsys.readouterr().out.splitlines()}
    assert rows[waiting].endswith("expired waiting for players")
    assert "waiting for X" in rows[full]


def test_serve_takes_expiry_and_retention_in_words(capsys: Any) -> None:
    import argparse

    from gamehall.adapters.http.cli import register

    parser = argparse.ArgumentParser(prog="gamehall")
    register(parser.add_subparsers())
    args = parser.parse_args(["serve", "--expire-after", "90m", "--retain-for", "never"])
    assert args.expire_after == 90 * 60 and args.retain_for is None
    args = parser.parse_args(["serve"])
    assert args.expire_after == EXPIRE_AFTER and args.retain_for == RETAIN_FOR
    assert parser.parse_args(["serve", "--retain-for", "2d"]).retain_for == 48 * HOUR
    for bad in ("0h", "-1d", "12", "soon", "infh"):
        with pytest.raises(SystemExit):
            parser.parse_args(["serve", f"--expire-after={bad}"])
        assert f"{bad!r} is not a period" in capsys.readouterr().err
