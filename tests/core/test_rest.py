"""Memory that does not only grow: resting timed matches need no actor, a pending take-back
goes with its actor, and a soak of many matches created and left returns its memory."""

from __future__ import annotations

import gc
import tracemalloc
from pathlib import Path

import pytest
from gamehall.core import Registry
from gamehall.core.hall import Hall
from gamehall.core.store import SQLiteStore
from gamehall.plugins.tictactoe.commands import PlaceMark

pytestmark = pytest.mark.anyio
MONTH = 30 * 24 * 3600.0


class FakeClock:
    """A clock that moves only when told."""

    def __init__(self, now: float = 1000.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


async def test_resting_timed_matches_are_timers_that_wake_at_their_expiry(
    registry: Registry, tmp_path: Path
) -> None:
    clock = FakeClock()
    store = SQLiteStore(tmp_path / "rest.db", registry.codec)
    async with Hall(store, registry, clock=clock, clock_poll=3600) as hall:
        matches = [await hall.create("tictactoe", seed=n, clock="move:2592000") for n in range(50)]
        assert hall.active == 50
        assert hall.passivate(0.0) == 50  # timed matches rest like any other
        assert hall.active == 0 and set(hall.timers) == set(matches)
        assert all(d == pytest.approx(1000.0 + MONTH) for d in hall.timers.values())
        assert await hall.fire_expired() == 0 and hall.active == 0  # nothing is due yet
        clock.now += MONTH + 1
        assert await hall.fire_expired() == 50  # each woke and its seat timed out
        assert not hall.timers
        assert all(hall.view(m, None).seq == 2 for m in matches)
        # a match used before its expiry keeps its clock in its actor again
        hall.passivate(0.0)
        hall.view(matches[0], None)
        await hall.fire_expired()
        assert matches[0] not in hall.timers


async def test_a_pending_take_back_goes_with_its_actor(registry: Registry, tmp_path: Path) -> None:
    store = SQLiteStore(tmp_path / "undo.db", registry.codec)
    async with Hall(store, registry) as hall:
        match = await hall.create("tictactoe", seed=1)
        await hall.send(match, 0, PlaceMark(cell=4), "a")
        await hall.request_undo(match, 0)
        assert match in hall.undos.pending
        hall.passivate(0.0)
        assert match not in hall.undos.pending and hall.undo_status(match) is None


async def soak(registry: Registry, path: Path, matches: int) -> tuple[int, int, int]:
    """Create ``matches`` timed matches and leave them; return traced memory before, with
    the matches active, and after passivation."""
    store = SQLiteStore(path, registry.codec)
    try:
        hall = Hall(store, registry, idle_seconds=3600, clock_poll=3600, max_active=matches + 1)
        async with hall:
            await hall.turn_clocks.resumed.wait()  # the start-up resume wakes nothing later
            await hall.create("tictactoe", seed=0, clock="move:2592000")  # warm every cache
            hall.passivate(0.0)
            hall.timers.clear()
            gc.collect()
            tracemalloc.start()
            start = tracemalloc.get_traced_memory()[0]
            for n in range(matches):
                await hall.create("tictactoe", seed=n, clock="move:2592000")
            active = tracemalloc.get_traced_memory()[0]
            assert hall.active == matches
            hall.passivate(0.0)
            assert hall.active == 0 and len(hall.timers) == matches
            gc.collect()
            after = tracemalloc.get_traced_memory()[0]
            tracemalloc.stop()
            return start, active, after
    finally:
        store.close()


async def test_soak_short(registry: Registry, tmp_path: Path) -> None:
    start, active, after = await soak(registry, tmp_path / "soak.db", 300)
    grown = active - start
    assert grown > 0
    # What stays is each timed match's timer entry (its id and next expiry, about 180 bytes):
    # measured 12.6% of what a lean active match takes (about 1.4 KB). Nothing else stays.
    assert (after - start) / 300 < 250, (start, active, after)
    assert after - start < 0.15 * grown, (start, active, after)


@pytest.mark.long
async def test_soak_full(registry: Registry, tmp_path: Path) -> None:
    matches = 20_000
    start, active, after = await soak(registry, tmp_path / "soak.db", matches)
    # Measured: about 1.4 KB a match while active (its state, listing entry and command ids:
    # an actor at rest owns no task and no queue), about 150 bytes a match once they rest (the
    # timer entry, the store's version cache, tables Python never shrinks).
    assert (active - start) / matches > 500, (start, active, after)
    assert (after - start) / matches < 250, (start, active, after)  # the timer entries
    assert after - start < 0.15 * (active - start), (start, active, after)


async def test_active_matches_are_capped_least_recently_used_first(
    registry: Registry, tmp_path: Path
) -> None:
    store = SQLiteStore(tmp_path / "cap.db", registry.codec)
    try:
        async with Hall(store, registry, max_active=10, clock_poll=3600) as hall:
            first = await hall.create("tictactoe", seed=0, clock="move:2592000")
            await hall.send(first, 0, PlaceMark(cell=4), "a")
            await hall.request_undo(first, 0)
            others = [await hall.create("tictactoe", seed=n) for n in range(1, 25)]
            assert hall.active <= 10
            assert first not in hall.actors and others[-1] in hall.actors  # the oldest went
            assert first in hall.timers  # a timed one rests as its timer entry
            assert first not in hall.undos.pending  # its pending request went with it
            assert hall.view(first, None).seq == 2 and hall.view(others[0], None).seq == 1
            with pytest.raises(ValueError, match="max_active"):
                Hall(store, registry, max_active=0)
    finally:
        store.close()


async def test_compacting_keeps_every_timer(registry: Registry, tmp_path: Path) -> None:
    clock = FakeClock()
    store = SQLiteStore(tmp_path / "compact.db", registry.codec)
    try:
        async with Hall(store, registry, clock=clock, clock_poll=3600) as hall:
            matches = [await hall.create("tictactoe", seed=n, clock="move:60") for n in range(5)]
            hall.passivate(0.0)
            timers = hall.timers
            before = dict(timers)
            hall.compact()
            assert hall.timers is timers and hall.timers == before
            assert all(a is not b for a, b in zip(hall.timers, before, strict=True))  # copies
            clock.now += 61
            assert await hall.fire_expired() == 5
            assert all(hall.view(m, None).seq == 2 for m in matches)
    finally:
        store.close()
