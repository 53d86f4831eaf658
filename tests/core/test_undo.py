"""Undo by consent: taken back when the seats concerned agree, never past a die roll."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
from gamehall.core import Registry
from gamehall.core.events import TakenBack
from gamehall.core.hall import Hall
from gamehall.core.replay import state_at, verify
from gamehall.core.store import MemoryStore, SQLiteStore
from gamehall.core.undo import UndoRefused, plan
from gamehall.plugins.tictactoe.commands import PlaceMark

pytestmark = pytest.mark.anyio

DICE = {"river-of-gold": "DieRolled", "gunsen": "DiceThrown", "kaladan": "DiceRolled"}


async def play_one(hall: Hall, match: str, rng: random.Random) -> int | None:
    """Send one random legal command of an awaited seat; return the seat."""
    awaited = sorted(hall.awaiting(match))
    if not awaited:
        return None
    seat = awaited[0]
    legal = hall.legal(match, seat)
    await hall.send(match, seat, rng.choice(legal), f"r{hall.view(match, None).seq}")
    return seat


def last_batch(hall: Hall, match: str) -> list[Any]:
    records = hall.read(match)
    start = max(i for i, r in enumerate(records) if r.meta.command is not None)
    return records[start:]


async def test_tictactoe_take_back_by_consent(registry: Registry, tmp_path: Path) -> None:
    async with Hall(SQLiteStore(tmp_path / "u.db", registry.codec), registry) as hall:
        match = await hall.create("tictactoe", seed=1)
        await hall.send(match, 0, PlaceMark(cell=4), "a")
        before = hall.state(match)
        await hall.send(match, 1, PlaceMark(cell=0), "b")
        asked = await hall.request_undo(match, 1)
        assert asked.state == "pending" and asked.needed == [0] and asked.agreed == []
        assert hall.undo_status(match) == asked
        with pytest.raises(UndoRefused, match="not asked"):
            await hall.answer_undo(match, 1, True)
        done = await hall.answer_undo(match, 0, True)
        assert done.state == "done"
        assert hall.state(match) == before and sorted(hall.awaiting(match)) == [1]
        await hall.send(match, 1, PlaceMark(cell=8), "c")  # the seat plays another move
        records = hall.read(match)
        assert [type(r.event).__name__ for r in records].count("TakenBack") == 1
        assert verify(hall.ruleset(match), records) is None
        assert state_at(hall.ruleset(match), records) == hall.state(match)
        # A declined take-back changes nothing.
        asked = await hall.request_undo(match, 1)
        declined = await hall.answer_undo(match, 0, False)
        assert declined.state == "declined" and hall.undo_status(match) is None
        assert hall.read(match) == records
        told = hall.narrated_history(match, 0)
        assert any("took back" in t.text for t in told)
        state, version = hall.state(match), hall.view(match, None).seq
    async with Hall(SQLiteStore(tmp_path / "u.db", registry.codec), registry) as hall:
        assert hall.state(match) == state and hall.view(match, None).seq == version
        with pytest.raises(UndoRefused, match="no command"):
            fresh = await hall.create("tictactoe", seed=2)
            await hall.request_undo(fresh, 0)


async def test_free_undo_and_off(registry: Registry) -> None:
    async with Hall(MemoryStore(registry.codec), registry) as hall:
        match = await hall.create("tictactoe", seed=1, undo="free")
        await hall.send(match, 0, PlaceMark(cell=4), "a")
        done = await hall.request_undo(match, 0)  # nobody acted since, nothing revealed
        assert done.state == "done" and hall.awaiting(match).keys() == {0}
        await hall.send(match, 0, PlaceMark(cell=4), "a2")
        await hall.send(match, 1, PlaceMark(cell=1), "b")
        assert (await hall.request_undo(match, 0)).state == "pending"  # seat 1 acted since
        off = await hall.create("tictactoe", seed=1, undo="off")
        await hall.send(off, 0, PlaceMark(cell=4), "a")
        with pytest.raises(UndoRefused, match="allows no take-back"):
            await hall.request_undo(off, 0)


@pytest.mark.parametrize("game", ["river-of-gold", "gunsen"])
async def test_take_back_by_consent_and_refused_after_a_die_roll(
    registry: Registry, game: str
) -> None:
    rng = random.Random(5)
    agreed_once = refused_once = False
    async with Hall(MemoryStore(registry.codec), registry) as hall:
        match = await hall.create(game, seed=11)
        ruleset = hall.ruleset(match)
        players = hall.info(match).players
        for _ in range(400):
            seat = await play_one(hall, match, rng)
            if seat is None:
                break
            batch = last_batch(hall, match)
            rolled = any(type(r.event).__name__ == DICE[game] for r in batch)
            if rolled and not refused_once:
                with pytest.raises(UndoRefused, match=DICE[game]):
                    await hall.request_undo(match, seat)
                assert hall.read(match)[-1].seq == batch[-1].seq  # nothing stored
                refused_once = True
            if agreed_once:
                if refused_once:
                    break
                continue
            try:
                plan(ruleset, hall.read(match), seat, players)
            except UndoRefused:
                continue
            before = state_at(ruleset, hall.read(match), batch[0].seq - 1)
            asked = await hall.request_undo(match, seat)
            assert asked.state == "pending" and seat not in asked.needed and asked.needed
            for other in asked.needed:
                status = await hall.answer_undo(match, other, True)
            assert status.state == "done"
            assert hall.state(match) == before
            records = hall.read(match)
            assert isinstance(records[-1].event, TakenBack)
            assert verify(ruleset, records) is None
            agreed_once = True
        assert agreed_once, "no command could be taken back"
        assert refused_once, "no die was rolled"
