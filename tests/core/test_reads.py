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
from gamehall.core.store import SQLiteStore

READS = (
    "read", "read_events", "load_stream", "stream_info", "player", "player_by_digest",
    "seat_tokens", "streams", "find_matches", "version", "command_ids", "load_snapshot",
)  # fmt: skip


class WatchedStore(SQLiteStore):
    """An SQLite store that notes every read made on the event loop's thread."""

    loop_thread: int | None = None

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.on_loop: list[str] = []

    def __getattribute__(self, name: str) -> Any:
        found = super().__getattribute__(name)
        if name not in READS:
            return found

        def called(*args: Any, **kwargs: Any) -> Any:
            if threading.get_ident() == self.loop_thread:
                self.on_loop.append(name)
            return found(*args, **kwargs)

        return called


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
