"""Build Generals of Kaladan positions by hand and send commands to them, with scripted dice."""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import msgspec
import pytest
from gamehall.core import Command, Context, Event, IllegalCommand, default_registry, engine
from gamehall.plugins.kaladan.components import kind_of
from gamehall.plugins.kaladan.state import NOBODY, Battle, Options, State

RULESET = default_registry().ruleset("kaladan")
RULES: Any = RULESET.rules
CAT = RULES.catalogue
REALMS = ("khalisia", "verdance", "highcrag", "sunmarch", "tidereach", "emberfall")


class Scripted(random.Random):
    """A generator that returns the given die values in order (and draws the first item)."""

    def __init__(self, values: Iterable[int] = ()) -> None:
        super().__init__(0)
        self.values = list(values)

    def randint(self, a: int, b: int) -> int:
        value = self.values.pop(0)
        assert a <= value <= b, f"scripted {value} is not a die of {a}-{b}"
        return value

    def choice(self, seq: Sequence[Any]) -> Any:
        return seq[0]

    def shuffle(self, x: list[Any], *args: Any) -> None:
        return None


def make(
    players: int = 2,
    *,
    terrain: Sequence[str] | None = None,
    units: Mapping[int, tuple[int, Sequence[str]]] | None = None,
    castles: Mapping[int, int] | None = None,
    hands: Mapping[int, Sequence[str]] | None = None,
    gold: Sequence[int] | None = None,
    phase: str = "action",
    turn: int = 0,
    options: Options | None = None,
    **changes: Any,
) -> State:
    """Return a position: ``units`` maps a tile to (seat, unit kinds); the rest is in reserve."""
    realms = REALMS[:players]
    world = CAT.worlds[players]
    armies = [list(CAT.army(r)) for r in realms]
    board: list[tuple[str, ...]] = [() for _ in world.cells]
    holder = [NOBODY] * len(world.cells)
    for tile, (seat, kinds) in (units or {}).items():
        placed = []
        for kind in kinds:
            unit = next(u for u in armies[seat] if kind_of(u) == kind)
            armies[seat].remove(unit)
            placed.append(unit)
        board[tile], holder[tile] = tuple(placed), seat
    hands = hands or {}
    hand_tuples = tuple(tuple(sorted(hands.get(s, ()))) for s in range(players))
    held = {c for h in hand_tuples for c in h}
    piles = {
        r: tuple(sorted(c for c in (f"{r}/{k.key}" for k in CAT.realms[r].cards) if c not in held))
        for r in realms
    }
    deck = tuple(CAT.deck())
    state = State(
        players=players,
        options=options or Options(),
        terrain=tuple(terrain or ["field"] * len(world.cells)),
        castles=dict(castles or {}),
        board=tuple(board),
        holder=tuple(holder),
        reserve=tuple(tuple(a) for a in armies),
        ready=((),) * players,
        graveyard=((),) * players,
        gold=tuple(gold or [10] * players),
        realms=realms,
        order=tuple(range(players)),
        alive=(True,) * players,
        hands=hand_tuples,
        piles=piles,
        pile_owner={r: s for s, r in enumerate(realms)},
        deck=deck,
        phase=phase,
        turn=turn,
        round=1,
    )
    return msgspec.structs.replace(state, **changes) if changes else state


def unit(state: State, tile: int, kind: str, index: int = 0) -> str:
    """Return the id of the ``index``-th unit of a kind on a tile."""
    return [u for u in state.board[tile] if kind_of(u) == kind][index]


def send(
    state: State, seat: int, command: Command, rolls: Iterable[int] = ()
) -> tuple[list[Event], State]:
    """Decide a command with scripted dice; return its events and the state after them."""
    ctx = Context(seat, 1000, 0)
    ctx._rng = Scripted(rolls)
    events, after = engine.decide(RULESET, state, seat, command, ctx)
    return list(events), after


def refused(state: State, seat: int, command: Command, rule: str) -> IllegalCommand:
    """Assert that a command is refused with a rule id and changes nothing."""
    before = msgspec.msgpack.encode(state)
    with pytest.raises(IllegalCommand) as caught:
        send(state, seat, command)
    assert caught.value.rule == rule, caught.value
    assert msgspec.msgpack.encode(state) == before
    return caught.value


def of(events: Iterable[Event], kind: type[Any]) -> list[Any]:
    """Return the events of one type."""
    return [e for e in events if isinstance(e, kind)]


def battle_of(state: State) -> Battle:
    """Return the battle in progress."""
    assert state.battle is not None
    return state.battle


def names(events: Iterable[Event]) -> list[str]:
    """Return the type names of events."""
    return [type(e).__name__ for e in events]
