"""Build Gunsen positions by hand and send commands to them, for the scenario tests."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

import pytest
from gamehall.core import Command, Context, Event, IllegalCommand, Table, default_registry, engine
from gamehall.plugins.gunsen import commands as cmd
from gamehall.plugins.gunsen.board import Board
from gamehall.plugins.gunsen.play import GameOver, Play
from gamehall.plugins.gunsen.state import Activation, Combat, State, Step
from msgspec.structs import replace

RULESET = default_registry().ruleset("gunsen")
RULES: Any = RULESET.rules
CAT = RULES.cat
CLANS = ("crab", "crane", "dragon", "lion", "phoenix", "scorpion", "unicorn")


def started(players: int = 2, clans: Sequence[str] = (), seed: int = 0, **options: Any) -> Table:
    """Return a match after the clan choice; ``clans[seat]`` is the clan of each seat."""
    table = Table.new("gunsen", players, seed=seed, options=options)
    chosen = list(clans) or list(CLANS[:players])
    while table.state.phase == "clan":
        seat = table.state.asked
        table.send(seat, cmd.ChooseClan(clan=chosen[seat]))
    return table


def ready(players: int = 2, clans: Sequence[str] = (), seed: int = 0, **options: Any) -> State:
    """Return the state at seat 0's first turn, start player 0, before step 1."""
    state = started(players, clans, seed, **options).state
    return replace(state, turn=0, asked=0, start=0, phase="choose")


def board(state: State) -> Board:
    """Return the board side of a state."""
    return CAT.boards[state.side]


def sp(state: State, label: str) -> int:
    """Return a space number from its printed label ("E5")."""
    return board(state).by_id[label]


def fort(state: State, seat: int) -> int:
    """Return a seat's fort space."""
    return state.forts[seat]


def send(
    state: State, command: Command, seat: int | None = None, seed: int = 1
) -> tuple[list[Event], State]:
    """Decide a command for the asked seat (or ``seat``); return its events and the new state."""
    who = state.asked if seat is None else seat
    events, after = engine.decide(RULESET, state, who, command, Context(who, 100, seed))
    return list(events), after


def refused(state: State, command: Command, rule: str, seat: int | None = None) -> IllegalCommand:
    """Assert a command is refused with a rule id; return the error."""
    with pytest.raises(IllegalCommand) as caught:
        send(state, command, seat)
    assert caught.value.rule == rule, caught.value
    return caught.value


def kinds(events: Sequence[Event]) -> list[str]:
    """Return the event class names."""
    return [type(e).__name__ for e in events]


def of(events: Sequence[Event], kind: type[Any]) -> list[Any]:
    """Return the events of one class."""
    return [e for e in events if isinstance(e, kind)]


def player(state: State, seat: int, **changes: Any) -> State:
    """Return the state with a player's fields changed."""
    players = list(state.players)
    players[seat] = replace(players[seat], **changes)
    return replace(state, players=tuple(players))


def troops(
    state: State, seat: int, placement: Mapping[str | int, int], clear: bool = True
) -> State:
    """Return the state with a seat's troops placed (``clear``: nowhere else); supply adjusted."""
    row = bytearray(len(state.troops[seat])) if clear else bytearray(state.troops[seat])
    for where, count in placement.items():
        row[where if isinstance(where, int) else sp(state, where)] = count
    rows = list(state.troops)
    rows[seat] = bytes(row)
    state = replace(state, troops=tuple(rows))
    return player(state, seat, supply=15 - sum(row))


def acting(state: State, seat: int, steps: Sequence[Step], column: int = 0, **extra: Any) -> State:
    """Return the state in step 3 with a column's remaining actions."""
    return replace(
        state, turn=seat, asked=seat, phase="act",
        activation=Activation(column, tuple(steps), **extra),
    )  # fmt: skip


def step(kind: str, amount: int = 1, resource: str = "", source: str = "printed") -> Step:
    """Return one action of a column."""
    return Step(kind, amount, resource, source)


def fighting(state: State, space: int, attacker: int, defender: int, **fields: Any) -> State:
    """Return the state with a combat on a space (the attacker is the active player)."""
    return replace(
        state, turn=attacker, activation=None, combat=Combat(space, attacker, defender, **fields)
    )


def run(state: State, action: Any, *args: Any, seed: int = 3) -> Play:
    """Run an internal step of the rules on a state; return the play with its events."""
    play = RULES.play(state, lambda: random.Random(seed))
    try:
        action(play, *args)
    except GameOver:
        pass
    return play


def legal(state: State, seat: int | None = None) -> list[Command]:
    """Return the legal commands of the asked seat."""
    return list(RULES.legal(state, state.asked if seat is None else seat))
