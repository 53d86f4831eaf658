"""Commands out of turn: reaction windows for several seats and free actions at any moment."""

from __future__ import annotations

import dataclasses
import itertools
from collections.abc import Collection, Sequence

import anyio
import msgspec
import pytest
from gamehall.core import Command, GameSpec, NotAwaited, Registry, Table, hookimpl
from gamehall.core.conformance import Case, ConformanceError, cases, check_playout
from gamehall.core.hall import Hall
from gamehall.core.store import MemoryStore

from tests.core.turn_games import (
    STRIKE,
    Answered,
    LetPass,
    Strike,
    StrikePlugin,
    StrikeRules,
    StrikeState,
    Trade,
    Ward,
    WindowClosed,
)


@pytest.fixture(scope="module")
def registry() -> Registry:
    return Registry([StrikePlugin()], entry_points=False)


def _table(registry: Registry, players: int = 4, seed: int = 3) -> Table:
    return Table.new("strike", players, seed=seed, registry=registry)


def _deal(table: Table, hands: dict[int, tuple[str, ...]]) -> None:
    # Scenario tests fix the hands; the state is a plain Struct, so a test may set it.
    state: StrikeState = table.state
    new = tuple(hands.get(s, ()) for s in range(state.players))
    table.state = msgspec.structs.replace(state, hands=new)


def test_the_suite_plays_reaction_windows_and_free_actions(registry: Registry) -> None:
    found = cases(registry, "strike")
    assert [c.players for c in found] == [3, 4]
    interjected = 0
    for case in found:
        for seed in range(40):
            table = check_playout(registry, case, seed)
            seats = [r.meta.seat for r in table.records() if isinstance(r.meta.command, Trade)]
            interjected += sum(1 for r in table.records() if isinstance(r.meta.command, Trade))
            assert all(s is not None for s in seats)
    assert interjected > 0, "no playout interjected a free action"


def test_a_window_awaits_every_other_seat_at_once(registry: Registry) -> None:
    table = _table(registry)
    table.send(0, Strike())
    assert sorted(table.awaiting()) == [1, 2, 3]
    kinds = {d.kind for d in table.awaiting().values()}
    assert kinds == {"reaction"}


@pytest.mark.parametrize("order", list(itertools.permutations([1, 2, 3])))
def test_a_window_resolves_the_same_in_every_order(
    registry: Registry, order: tuple[int, ...]
) -> None:
    table = _table(registry)
    _deal(table, {1: ("ward-01",), 3: ("ward-03",)})
    table.send(0, Strike())
    answers: dict[int, Command] = {1: Ward(card="ward-01"), 2: LetPass(), 3: Ward(card="ward-03")}
    closed = []
    for position, seat in enumerate(order):
        events = table.send(seat, answers[seat])
        assert isinstance(events[0], Answered)
        if position < 2:
            assert seat not in table.awaiting() and len(events) == 1
        else:
            closed = [e for e in events if isinstance(e, WindowClosed)]
    assert closed == [WindowClosed(striker=0, stopped_by=1, card="ward-01")]
    state: StrikeState = table.state
    assert state.hands[3] == ("ward-03",), "a second ward stays in its hand"
    assert state.points == (0, 0, 0, 0) and state.turn == 1


def test_a_seat_that_answered_is_no_longer_awaited(registry: Registry) -> None:
    table = _table(registry)
    table.send(0, Strike())
    table.send(2, LetPass())
    with pytest.raises(NotAwaited):
        table.send(2, LetPass())


def test_the_window_is_offered_whether_or_not_a_seat_holds_a_ward(registry: Registry) -> None:
    table = _table(registry)
    _deal(table, {1: ("ward-01",)})
    table.send(0, Strike())
    asked = table.awaiting()
    assert asked[1] == asked[2] == asked[3], "who is asked tells nothing about the hands"
    for seat in (1, 2, 3):
        shown = table.ruleset.rules.redact(Answered(seat=seat, card="ward-01"), (seat + 1) % 4)
        assert shown == Answered(seat=seat, card=None)


def test_a_free_action_is_accepted_from_a_seat_that_is_not_awaited(registry: Registry) -> None:
    table = _table(registry)
    table.state = msgspec.structs.replace(table.state, coins=(0, 0, 2, 0))
    assert 2 not in table.awaiting()
    assert table.legal(2) == [Trade()]
    events = table.send(2, Trade())
    assert len(events) == 1 and table.state.coins[2] == 0


def test_only_free_actions_pass_for_a_seat_that_is_not_awaited(registry: Registry) -> None:
    table = _table(registry)
    before = table.state
    with pytest.raises(NotAwaited, match="seat 3 is not asked"):  # API seat 2, counted from 1
        table.send(2, Strike())
    assert table.state is before


def test_a_free_action_the_rules_refuse_changes_nothing(registry: Registry) -> None:
    table = _table(registry)
    before = table.state
    with pytest.raises(Exception, match="STRIKE-4"):
        table.send(1, Trade())
    assert table.state is before and table.seq == len(table.events)


async def _race(registry: Registry) -> tuple[list[int], StrikeState]:
    async with Hall(MemoryStore(registry.codec), registry) as hall:
        match = await hall.create("strike", 4, seed=3)
        state = hall.state(match)
        hall.kernel.actor(match).state = msgspec.structs.replace(state, coins=(2, 2, 2, 2))
        order: list[int] = []

        async def send(seat: int, command: Command) -> None:
            ack = await hall.send(match, seat, command, f"c{seat}")
            order.append(ack.first_seq)

        async with anyio.create_task_group() as tg:
            tg.start_soon(send, 0, Strike())
            tg.start_soon(send, 3, Trade())
            tg.start_soon(send, 1, Trade())
        return order, hall.state(match)


@pytest.mark.anyio
async def test_racing_seats_are_decided_in_arrival_order(registry: Registry) -> None:
    order, state = await _race(registry)
    assert len(set(order)) == 3, "each command got its own place in the log"
    assert state.striking and state.coins == (2, 0, 2, 0)


class _StrayLegal(StrikeRules):
    def legal(self, state: StrikeState, seat: int) -> Sequence[Command]:
        out = list(super().legal(state, seat))
        if not self.over(state) and seat != state.turn and not state.striking:
            out.append(Strike())
        return out


class _NoFree(StrikeRules):
    def free(self, state: StrikeState, seat: int) -> Collection[type[Command]]:
        return ()


class _BrokenPlugin(StrikePlugin):
    def __init__(self, rules: type) -> None:
        self.spec = dataclasses.replace(STRIKE, rules=rules)

    @hookimpl
    def gamehall_games(self) -> list[GameSpec]:
        return [self.spec]


@pytest.mark.parametrize("rules", [_StrayLegal, _NoFree])
def test_the_suite_catches_legal_commands_out_of_turn_that_are_not_free(rules: type) -> None:
    registry = Registry([_BrokenPlugin(rules)], entry_points=False)
    with pytest.raises(ConformanceError, match="not free actions"):
        for seed in range(20):
            check_playout(registry, Case("strike", (), 3, {}), seed)
