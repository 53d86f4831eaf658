"""The hall's reads off the event loop (:mod:`gamehall.core.reads`): not one store read of
theirs runs on the loop's thread, and each answers what the synchronous method answers."""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

import anyio
import pytest
from gamehall.core import Registry, reads
from gamehall.core.errors import MatchQuarantined, UnknownMatch
from gamehall.core.hall import Hall
from gamehall.core.kernel import activation
from watched_store import WatchedStore


@pytest.fixture
def store(tmp_path: Path, registry: Registry) -> Any:
    made = WatchedStore(tmp_path / "r.db", registry.codec)
    yield made
    made.close()


def test_every_read_runs_off_the_loop_and_answers_as_the_sync_one(
    store: WatchedStore, registry: Registry
) -> None:
    async def main() -> None:
        async with Hall(store, registry) as hall:
            ann, _ = await hall.lobby.register("Ann")
            match = await hall.create("tictactoe", open_seats=[0, 1], seed=4)
            await hall.lobby.take_seat(match, ann.player, 0)
            await hall.lobby.take_seat(match, None, 1)
            await hall.send(match, 0, hall.legal(match, 0)[0])
            hall.passivate()
            assert match not in hall.actors
            store.loop_thread = threading.get_ident()
            view = await reads.view(hall, match, 0)
            info = await reads.info(hall, match)
            told = await reads.narrated_history(hall, match, 1, 0, 10)
            records = await reads.history(hall, match, 1)
            whole = await reads.read(hall, match)
            entry = await reads.entry(hall, match)
            version = await reads.version(hall, match)
            assert store.on_loop == []
            assert view.names == ["Ann", None] and view.seat == 0 and view.seq == version
            assert whole[-1].seq == version == info.version == 4
            store.loop_thread = None
            assert view == hall.view(match, 0)
            assert info == hall.info(match)
            assert told == hall.narrated_history(match, 1, 0, 10)
            assert records == hall.history(match, 1)
            assert whole == hall.read(match)
            assert entry == hall.lobby.entry(match)
            with pytest.raises(UnknownMatch):
                await reads.info(hall, "nothing-here")
            hall.passivate()  # the watch itself sees a read on the loop: the sync path's
            store.loop_thread = threading.get_ident()
            hall.info(match)
            hall.view(match, 0)
            assert "read" in store.on_loop and "load_stream" in store.on_loop

    anyio.run(main)


def test_a_damaged_match_read_off_the_loop_is_quarantined(
    store: WatchedStore, registry: Registry
) -> None:
    async def main() -> None:
        async with Hall(store, registry) as hall:
            match = await hall.create("tictactoe", seed=1)
            await hall.send(match, 0, hall.legal(match, 0)[0])
            store._writer.execute(
                "UPDATE events SET data = x'c1ff' WHERE stream = ? AND seq = 2", (match,)
            )
            with pytest.raises(MatchQuarantined, match="seq 2"):
                await reads.read(hall, match)
            with pytest.raises(MatchQuarantined):
                await reads.info(hall, match)

    anyio.run(main)


def test_a_cold_load_shortens_the_switch_interval_and_the_last_restores_it() -> None:
    import gc
    import sys

    before = sys.getswitchinterval()
    assert gc.isenabled()
    with activation.loop_first():
        assert sys.getswitchinterval() == pytest.approx(activation.SWITCH_INTERVAL)
        assert not gc.isenabled()
        with activation.loop_first():  # another load at once
            assert sys.getswitchinterval() == pytest.approx(activation.SWITCH_INTERVAL)
        assert sys.getswitchinterval() == pytest.approx(activation.SWITCH_INTERVAL)
    assert sys.getswitchinterval() == before and gc.isenabled()
    with pytest.raises(RuntimeError), activation.loop_first():
        raise RuntimeError("a load that fails restores it too")
    assert sys.getswitchinterval() == before and gc.isenabled()


async def _play_out(hall: Hall, match: str) -> None:
    """Play a match to its end, each awaited seat sending its first legal command."""
    while (now := await reads.view(hall, match, None)).outcome is None:
        seat = min(now.awaiting)
        legal = (await reads.view(hall, match, seat)).legal
        await hall.send(match, seat, legal[0])


def test_a_match_played_through_the_async_api_reads_nothing_on_the_loop(
    store: WatchedStore, registry: Registry
) -> None:
    """Every store read of the hall's async API runs in a worker thread: starting the hall
    (the timed matches it resumes), creating, taking seats, renaming, sending, rematching,
    leaving, deleting, and the reads of :mod:`gamehall.core.reads` (views, boards, histories).

    On the loop by design: the synchronous methods of the hall and the lobby (``Hall.view``,
    ``Hall.info``, ``Hall.read``, ``Hall.history``, ``Hall.render`` without names,
    ``Lobby.names``, ``Lobby.entry``, ``Lobby.find``, ``Lobby.player_of``), for scripts and
    code without a loop. A resting timed match that its clock wakes, and a take-back the seats
    agree to, read off the loop too."""

    async def main() -> None:
        store.watch_this_thread()
        async with Hall(store, registry) as hall:
            ann, _ = await hall.lobby.register("Ann")
            bob, _ = await hall.lobby.register("Bob")
            match = await hall.create(
                "tictactoe", open_seats=[0, 1], seed=4, creator=ann.player, clock="move:600"
            )
            assert await hall.lobby.take_seat(match, ann.player, 0) == 0
            assert await hall.lobby.take_seat(match, bob.player) == 1
            await hall.lobby.rename(bob.player, "Bea")
            await _play_out(hall, match)
            board = await reads.render(hall, match, 0)
            assert board.startswith("Players: ") and "Ann" in board and "Bea" in board
            told = await reads.narrated_history(hall, match, 1)
            assert told and told[-1].record.seq == await reads.version(hall, match)
            new = await hall.rematch(match)
            assert await hall.rematch(match) == new  # asked again: the same one
            assert (await reads.names(hall, new)) == ["Bea", "Ann"]  # the seats rotated
            assert (await reads.entry(hall, match)).rematch == new
            waiting = await hall.create(
                "tictactoe", open_seats=[0, 1], clock="move:600", creator=ann.player
            )
            await hall.lobby.take_seat(waiting, ann.player, 0)
            await hall.lobby.leave_seat(waiting, ann.player, 0)
            await hall.lobby.abandon(waiting, ann.player)
            await hall.lobby.delete(match)
            running = await hall.create("tictactoe", seed=2, clock="move:600")
            await hall.send(running, 0, (await reads.view(hall, running, 0)).legal[0])
            assert store.on_loop == []
        async with Hall(store, registry) as again:  # the timed matches rest in the store
            with anyio.fail_after(5):
                await again.turn_clocks.resumed.wait()  # the start-up look, off the loop
            assert running not in again.actors and new not in again.actors  # nothing is due
            assert await again.resume_clocks() == 0
            assert (await reads.view(again, running, None)).seq == 2
            await _play_out(again, running)
            assert store.on_loop == []
        now = [1_000.0]
        async with Hall(store, registry, clock=lambda: now[0], clock_poll=3600) as timed:
            taken = await timed.create("tictactoe", seed=6)
            await timed.send(taken, 0, (await reads.view(timed, taken, 0)).legal[0])
            await timed.request_undo(taken, 0)
            await timed.answer_undo(taken, 1, True)  # recorded: its log read off the loop
            assert (await reads.view(timed, taken, 0)).awaiting.keys() == {0}
            slow = await timed.create("tictactoe", seed=5, clock="move:60")
            timed.passivate(0.0)
            assert slow not in timed.actors  # its expiry is in the store, read off the loop
            now[0] += 61
            assert await timed.fire_expired() == 1  # woken and timed out off the loop
            assert store.on_loop == []
        store.loop_thread = None

    anyio.run(main)
