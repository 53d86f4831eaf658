"""A plugin's bug stays in its match, and every command is answered exactly once.

A game that raises inside ``decide``, ``evolve`` or one of its hooks, or a bot that raises,
fails that command (or that bot) only: the hall goes on, the other matches play, and the match
itself is rebuilt from the store and plays on. Commands that reach a match while its actor is
being activated, passivated, quarantined or restarted are each answered once, and each
accepted command is stored once (SQLite and PostgreSQL).
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import anyio
import pytest
from gamehall.core import Registry, hookimpl
from gamehall.core.errors import CorruptRecord, GamehallError, MatchFailed, MatchQuarantined
from gamehall.core.hall import Hall
from gamehall.core.kernel import journal as journal_module
from gamehall.core.store import SQLiteStore, Store
from gamehall.plugins import tictactoe
from gamehall.plugins.tictactoe import MarkPlaced, PlaceMark
from gamehall.plugins.tictactoe.hooks import Defaults
from gamehall.plugins.tictactoe.rules import TicTacToe

pytestmark = pytest.mark.anyio
BUGGY_SEED = 13


@pytest.fixture
def store(registry: Registry, tmp_path: Any) -> Iterator[SQLiteStore]:
    made = SQLiteStore(tmp_path / "faults.db", registry.codec)
    try:
        yield made
    finally:
        made.close()


class PluginBug(RuntimeError):
    """What the faulty plugin raises."""


async def _plays_on(hall: Hall, match: str, cells: list[int]) -> None:
    """Play cells in turn from the match's current seat and check each is stored."""
    for cell in cells:
        before = hall.view(match, None).seq  # seq 1 starts the match; seat 0 moves first
        ack = await hall.send(match, (before - 1) % 2, PlaceMark(cell=cell))
        assert ack.first_seq == before + 1


async def _survives(hall: Hall, buggy: str, other: str) -> None:
    assert not hall.closed
    await _plays_on(hall, other, [0, 1, 3])
    assert hall.view(other, None).seq == 4
    assert hall.store.version(buggy) == hall.view(buggy, None).seq  # nothing half-applied


async def test_a_rules_bug_in_decide_fails_that_command_only(
    registry: Registry, store: SQLiteStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    decide = TicTacToe.decide

    def buggy(self: TicTacToe, state: Any, command: Any, ctx: Any) -> Any:
        if ctx.command_id == "bug":
            raise PluginBug("decide failed")
        return decide(self, state, command, ctx)

    monkeypatch.setattr(TicTacToe, "decide", buggy)
    async with Hall(store, registry) as hall:
        match = await hall.create("tictactoe", seed=BUGGY_SEED)
        other = await hall.create("tictactoe", seed=1)
        with pytest.raises(MatchFailed, match="the rules failed"):
            await hall.send(match, 0, PlaceMark(cell=8), "bug")
        await _survives(hall, match, other)
        await hall.send(match, 0, PlaceMark(cell=4))  # the match itself plays on
        assert hall.view(match, None).seq == 2


async def test_a_rules_bug_in_evolve_fails_that_command_only(
    registry: Registry, store: SQLiteStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    evolve = TicTacToe.evolve

    def buggy(self: TicTacToe, state: Any, event: Any) -> Any:
        if isinstance(event, MarkPlaced) and event.cell == 7:
            raise PluginBug("evolve failed")
        return evolve(self, state, event)

    monkeypatch.setattr(TicTacToe, "evolve", buggy)
    async with Hall(store, registry) as hall:
        match = await hall.create("tictactoe", seed=BUGGY_SEED)
        other = await hall.create("tictactoe", seed=1)
        with pytest.raises(MatchFailed):
            await hall.send(match, 0, PlaceMark(cell=7))
        await _survives(hall, match, other)
        await hall.send(match, 0, PlaceMark(cell=4))
        assert hall.view(match, None).seq == 2


async def test_a_hook_that_raises_fails_that_command_only(
    store: SQLiteStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    @hookimpl(trylast=True)
    def buggy(self: Defaults, seat: int) -> int:
        raise PluginBug("hook failed")

    monkeypatch.setattr(Defaults, "tictactoe_line_winner", buggy)
    registry = Registry([tictactoe], entry_points=False)  # registers the buggy hook
    async with Hall(store, registry) as hall:
        match = await hall.create("tictactoe", seed=BUGGY_SEED)
        other = await hall.create("tictactoe", seed=1)
        await _plays_on(hall, match, [0, 3, 1, 4])
        with pytest.raises(MatchFailed):  # the line 0-1-2 asks the hook who wins
            await hall.send(match, 0, PlaceMark(cell=2))
        await _survives(hall, match, other)
        assert hall.view(match, None).seq == 5


async def test_a_bot_that_raises_stops_its_seat_only(
    registry: Registry, store: SQLiteStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    from gamehall.core.bots.base import RandomBot

    def buggy(self: RandomBot, seat: int, legal: Any, view: Any) -> Any:
        raise PluginBug("the bot failed")

    monkeypatch.setattr(RandomBot, "choose", buggy)
    async with Hall(store, registry) as hall:
        match = await hall.create("tictactoe", seed=BUGGY_SEED, bots={1: "random"})
        other = await hall.create("tictactoe", seed=1)
        await hall.send(match, 0, PlaceMark(cell=4))
        with anyio.fail_after(10), pytest.raises(GamehallError, match="bot of match"):
            await hall.bots.settled(match)
        await _survives(hall, match, other)
        assert hall.view(match, None).seq == 2  # the bot's seat waits; nothing was stored


# -- every command answered once --------------------------------------------------------------


class _Counted(journal_module.Pending):
    """A reply that remembers how often it was given (it must be exactly once)."""

    given: list[_Counted] = []

    def __init__(self, loop: Any = None) -> None:
        super().__init__()
        self.times = 0
        _Counted.given.append(self)

    def resolve(self, value: Any) -> None:
        self.times += 1
        super().resolve(value)

    def fail(self, error: BaseException) -> None:
        self.times += 1
        super().fail(error)


@pytest.fixture
def counted(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[_Counted]]:
    import gamehall.core.hall as hall_module

    _Counted.given = []
    monkeypatch.setattr(hall_module, "new_pending", _Counted)
    yield _Counted.given


@pytest.fixture(params=["sqlite", "postgres"])
def any_store(request: pytest.FixtureRequest, registry: Registry, tmp_path: Any) -> Iterator[Store]:
    if request.param == "sqlite":
        made: Store = SQLiteStore(tmp_path / "once.db", registry.codec)
    else:
        from gamehall.core.store.postgres import PostgresStore

        made = PostgresStore(request.getfixturevalue("pg_url"), registry.codec)
    try:
        yield made
    finally:
        made.close()


async def _storm(hall: Hall, match: str, disturb: Any, commands: int = 24) -> list[Any]:
    """Send free-for-all commands (each seat's fresh id) while ``disturb`` runs; return the
    answers, errors included."""
    answers: list[Any] = [None] * commands

    async def send(n: int) -> None:
        try:
            answers[n] = await hall.send(match, n % 2, PlaceMark(cell=n % 9), f"c{n}")
        except GamehallError as exc:
            answers[n] = exc

    with anyio.fail_after(30):
        async with anyio.create_task_group() as tg:
            for n in range(commands):
                tg.start_soon(send, n)
                if n % 4 == 0:
                    await disturb()
                await anyio.sleep(0)
    return answers


def _once(hall: Hall, match: str, answers: list[Any], counted: list[_Counted]) -> None:
    assert all(answer is not None for answer in answers)  # everyone was answered
    assert [c.times for c in counted if c.times != 1] == []  # and exactly once
    records = hall.store.read(match, 0)
    stored = [r.meta.command_id for r in records if r.meta.command_id and r.meta.command]
    assert len(stored) == len(set(stored))  # each accepted command stored once
    acked = {f"c{n}" for n, answer in enumerate(answers) if not isinstance(answer, Exception)}
    assert acked == set(stored)


async def test_commands_racing_activation_and_passivation_are_answered_once(
    any_store: Store, registry: Registry, counted: list[_Counted]
) -> None:
    async with Hall(any_store, registry, idle_seconds=3600) as hall:
        match = await hall.create("tictactoe", seed=3)

        async def passivate() -> None:
            hall.passivate(0.0)  # the next command activates the match again

        answers = await _storm(hall, match, passivate)
        _once(hall, match, answers, counted)


async def test_commands_reaching_a_match_while_it_is_activated_are_answered_once(
    any_store: Store, registry: Registry, counted: list[_Counted], monkeypatch: pytest.MonkeyPatch
) -> None:
    load_stream = any_store.load_stream

    def slow(*args: Any, **kwargs: Any) -> Any:
        time.sleep(0.02)  # in the worker thread: commands arrive while the load is in flight
        return load_stream(*args, **kwargs)

    monkeypatch.setattr(any_store, "load_stream", slow)
    async with Hall(any_store, registry, idle_seconds=3600) as hall:
        match = await hall.create("tictactoe", seed=3)

        async def passivate() -> None:
            hall.passivate(0.0)

        answers = await _storm(hall, match, passivate)
        _once(hall, match, answers, counted)


async def test_commands_racing_a_restart_after_a_fault_are_answered_once(
    any_store: Store, registry: Registry, counted: list[_Counted]
) -> None:
    async with Hall(any_store, registry, idle_seconds=3600) as hall:
        match = await hall.create("tictactoe", seed=3)

        async def restart() -> None:
            actor = hall.actors.get(match)
            if actor is not None:
                hall.actors.forget(actor)  # as after a store error: reload on the next use

        answers = await _storm(hall, match, restart)
        _once(hall, match, answers, counted)


async def test_commands_racing_a_quarantine_are_answered_once(
    any_store: Store, registry: Registry, counted: list[_Counted]
) -> None:
    async with Hall(any_store, registry, idle_seconds=3600) as hall:
        match = await hall.create("tictactoe", seed=3)
        other = await hall.create("tictactoe", seed=4)
        sent = 0

        async def quarantine() -> None:
            nonlocal sent
            sent += 1
            if sent == 3:
                hall.quarantine(match, CorruptRecord(match, 1, "a row failed its check"))

        answers = await _storm(hall, match, quarantine)
        assert any(isinstance(a, MatchQuarantined) for a in answers)
        _once(hall, match, answers, counted)
        await _plays_on(hall, other, [4])  # the others go on
