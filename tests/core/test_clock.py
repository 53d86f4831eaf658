"""Turn clocks: recorded, replayed, and a seat that stops answering never stalls the match."""

from __future__ import annotations

from pathlib import Path

import pytest
from gamehall.core import InvalidOptions, Registry, engine
from gamehall.core.clock import ClockSpec, advance, parse_clock, recompute
from gamehall.core.events import Clock
from gamehall.core.hall import Hall
from gamehall.core.store import MemoryStore, SQLiteStore

pytestmark = pytest.mark.anyio


class FakeClock:
    """A clock that moves only when told."""

    def __init__(self, now: float = 1000.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


def test_written_time_controls() -> None:
    assert parse_clock("move:30") == ClockSpec(30.0, "move")
    assert parse_clock("match:300+5") == ClockSpec(300.0, "match", 5.0)
    assert parse_clock({"seconds": 60}) == ClockSpec(60.0, "match")
    for bad, why in [
        ("move:0", "above 0"),
        ("move:30+2", "increment"),
        ("fast", "not 'move"),
        ({"seconds": 1, "speed": 2}, "speed"),
    ]:
        with pytest.raises(InvalidOptions, match=why):
            parse_clock(bad)  # type: ignore[arg-type]


def test_fischer_increment_and_move_time() -> None:
    match = Clock("match", 60.0, 5.0, 0.0, (60.0, 60.0), (0,))
    after = advance(match, 10.0, 0, [1])
    assert after.remaining == (55.0, 60.0) and after.running == (1,)
    after = advance(after, 40.0, 1, [0])
    assert after.remaining == (55.0, 35.0)
    move = Clock("move", 30.0, 0.0, 0.0, (30.0, 30.0), (0,))
    after = advance(move, 20.0, 0, [1])
    assert after.remaining == (10.0, 30.0)
    after = advance(after, 45.0, 1, [0])
    assert after.remaining == (30.0, 5.0)  # a fresh move for seat 0
    free = advance(match, 10.0, 1, [0])  # a free action of a seat not running
    assert free.remaining == (50.0, 60.0)


async def test_a_seat_that_stops_answering_is_played_by_its_clock(
    registry: Registry, tmp_path: Path
) -> None:
    fake = FakeClock()
    store = SQLiteStore(tmp_path / "clock.db", registry.codec)
    async with Hall(store, registry, clock=fake, clock_poll=3600.0) as hall:  # only we fire
        match = await hall.create("tictactoe", seed=3, clock="match:60+2")
        seen = hall.view(match, 0)
        assert seen.clock is not None and seen.clock.running == [0]
        assert seen.clock.remaining == [60.0, 60.0] and seen.clock.deadline == 1060.0
        fake.now += 10
        await hall.send(match, 0, seen.legal[0], "c1")
        clock = hall.view(match, 1).clock
        assert clock is not None and clock.remaining == [52.0, 60.0] and clock.running == [1]
        assert await hall.fire_expired() == 0  # not yet
        # Seat 1 stops answering; seat 0 answers every time it is asked, 3 s later.
        turns = 0
        while hall.view(match, None).outcome is None:
            turns += 1
            awaited = hall.awaiting(match)
            if 0 in awaited:
                fake.now += 3
                seen = hall.view(match, 0)
                await hall.send(match, 0, seen.legal[0], f"c{seen.seq}")
            else:
                fake.now += 61
                assert await hall.fire_expired() == 1
                assert await hall.fire_expired() == 0  # fired once, not again
            assert turns < 20
        records = hall.read(match)
        fallbacks = [  # the first event of each fallback batch: it carries the command
            r
            for r in records
            if (r.meta.command_id or "").startswith("clock-1-") and r.meta.command is not None
        ]
        assert fallbacks, "seat 1 never timed out"
        assert all(r.meta.command_id == f"clock-1-{r.seq - 1}" for r in fallbacks)
        assert hall.lobby.entry(match).finished
        version = hall.view(match, None).seq
    # The clocks follow from the recorded times: a replay computes the same ones.
    ruleset = registry.ruleset("tictactoe")
    state, awaited, batch_ends = None, [], [r for r in records if r.meta.clock is not None]
    for record in records:
        if record.seq == 1:
            state = engine.initial_state(ruleset, record.event)  # type: ignore[arg-type]
        else:
            state = engine.fold(ruleset, state, [record.event])
        if record.meta.clock is not None:
            awaited.append(sorted(ruleset.rules.awaiting(state)))
    assert recompute(awaited, records) == [r.meta.clock for r in batch_ends]
    # A restarted hall reads the clock back from the last record.
    hall_at = {"clock": fake, "clock_poll": 3600.0}
    async with Hall(
        SQLiteStore(tmp_path / "clock.db", registry.codec), registry, **hall_at
    ) as hall:
        running = await hall.create("tictactoe", seed=4, clock="move:5")
    async with Hall(
        SQLiteStore(tmp_path / "clock.db", registry.codec), registry, **hall_at
    ) as hall:
        assert await hall.resume_clocks() == 0  # also run at start: nothing is due yet
        assert hall.active == 0  # the running timed match rests: its expiry is in the store
        assert [d.stream for d in hall.store.due_matches(fake.now + 5)] == [running]
        fake.now += 6
        assert await hall.fire_expired() == 1 and hall.view(running, None).seq == 2
        assert hall.view(match, None).seq == version
        assert hall.view(match, None).clock == hall.clock(match)
        assert hall.clock(match) is not None


async def test_the_pass_where_the_rules_have_one(registry: Registry) -> None:
    fake = FakeClock()
    async with Hall(MemoryStore(registry.codec), registry, clock=fake, clock_poll=3600.0) as hall:
        match = await hall.create("gunsen", seed=4, clock="move:30")
        awaited = sorted(hall.awaiting(match))
        state = hall.state(match)
        rules = hall.ruleset(match).rules
        passes = {seat: rules.timeout(state, seat) for seat in awaited}
        fake.now += 31
        assert await hall.fire_expired() == 1
        first = hall.read(match)[-1]
        seat = first.meta.seat
        assert first.meta.command_id is not None and first.meta.command_id.startswith("clock-")
        if passes.get(seat) is not None:
            batch = [r for r in hall.read(match) if r.meta.command is not None][-1]
            assert batch.meta.command == passes[seat]


async def test_no_clock_no_clock_fields(registry: Registry) -> None:
    async with Hall(MemoryStore(registry.codec), registry) as hall:
        match = await hall.create("tictactoe", seed=1)
        assert hall.view(match, 0).clock is None
        assert all(r.meta.clock is None for r in hall.read(match))
        with pytest.raises(InvalidOptions):
            await hall.create("tictactoe", clock="move:-1")


@pytest.mark.parametrize("snapshot_every", [0, 1])
async def test_a_reloaded_match_keeps_its_clock_with_or_without_a_snapshot_at_its_end(
    registry: Registry, tmp_path: Path, snapshot_every: int
) -> None:
    fake = FakeClock()
    db = tmp_path / "clock.db"
    options = {"clock": fake, "clock_poll": 3600.0, "snapshot_every": snapshot_every}
    async with Hall(SQLiteStore(db, registry.codec), registry, **options) as hall:
        match = await hall.create("tictactoe", seed=4, clock="match:60+2")
        fake.now += 7
        await hall.send(match, 0, {"type": "tictactoe.PlaceMark", "cell": 4})
        before = hall.clock(match)
        assert before is not None and before.remaining[0] == pytest.approx(55)
    async with Hall(SQLiteStore(db, registry.codec), registry, **options) as hall:
        stored = hall.store.load_stream(match, snapshot=snapshot_every > 0)
        assert (stored.snapshot is not None) == bool(snapshot_every)
        assert hall.clock(match) == before
