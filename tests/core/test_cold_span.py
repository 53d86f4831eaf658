"""A cold activation off the loop counts the rows before a snapshot in parts, pausing between
them (``SQLiteStore``'s background reads): the same answer as one count, found gaps included."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import anyio
import pytest
from gamehall.core import CorruptRecord, Registry
from gamehall.core.hall import Hall
from gamehall.core.store import Snapshot
from gamehall.core.store import sqlite as sqlite_store
from gamehall.core.store.base import in_background, reading_in_background
from gamehall.core.store.sqlite import SQLiteStore
from gamehall.core.testing.events import ContractPlugins, marks
from gamehall.plugins.tictactoe import PlaceMark


class Clock:
    """``time`` as the store sees it, with its pauses written down instead of slept."""

    def __init__(self) -> None:
        self.slept: list[float] = []

    def __getattr__(self, name: str) -> Any:
        return getattr(time, name)

    def sleep(self, seconds: float) -> None:
        self.slept.append(seconds)


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> Clock:
    made = Clock()
    monkeypatch.setattr(sqlite_store, "time", made)
    monkeypatch.setattr(sqlite_store, "SPAN_PART", 4)
    return made


def stored(tmp_path: Path) -> SQLiteStore:
    store = SQLiteStore(tmp_path / "events.db", ContractPlugins().codec)
    store.append("m", 0, marks(20))
    store.save_snapshot(Snapshot("m", 18, "k", b"state"))
    return store


def test_a_count_in_the_background_goes_in_parts_with_the_same_answer(
    tmp_path: Path, clock: Clock
) -> None:
    store = stored(tmp_path)
    try:
        at_once = store.load_stream("m", snapshot=True)
        assert clock.slept == []  # not in the background: one query
        with in_background():
            assert reading_in_background()
            parted = store.load_stream("m", snapshot=True)
        assert not reading_in_background()
        assert parted == at_once
        assert parted.after == 18 and [e.cell for e in parted.events] == [0, 1]
        # seqs 2..18 in parts of 4 after seq 1: (1,5] (5,9] (9,13] (13,17] (17,18]
        assert clock.slept == [sqlite_store.SPAN_PAUSE] * 4
    finally:
        store.close()


def test_a_count_in_parts_finds_a_missing_row(tmp_path: Path, clock: Clock) -> None:
    store = stored(tmp_path)
    try:
        store._writer.execute("DELETE FROM events WHERE stream='m' AND seq=11")
        with (
            in_background(),
            pytest.raises(CorruptRecord, match="'m' seq 11: the event is missing"),
        ):
            store.load_stream("m", snapshot=True)
        assert clock.slept
    finally:
        store.close()


def test_an_activation_off_the_loop_reads_in_the_background(
    tmp_path: Path, registry: Registry, monkeypatch: pytest.MonkeyPatch
) -> None:
    store = SQLiteStore(tmp_path / "events.db", registry.codec)
    seen: list[bool] = []
    load_stream = store.load_stream

    def watched(*args: Any, **kwargs: Any) -> Any:
        seen.append(reading_in_background())
        return load_stream(*args, **kwargs)

    monkeypatch.setattr(store, "load_stream", watched)

    async def main() -> None:
        async with Hall(store, registry) as hall:
            match = await hall.create("tictactoe", seed=1)
            await hall.send(match, 0, PlaceMark(cell=4))
            hall.actors.stop(match)
            while hall.kernel.active(match) is not None:
                await anyio.sleep(0.01)
            seen.clear()
            await hall.activate(match)

    try:
        anyio.run(main)
        assert seen and all(seen)
        assert not reading_in_background()
    finally:
        store.close()
