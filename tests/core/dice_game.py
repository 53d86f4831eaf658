"""A small game that draws in ``start`` and in ``decide``, for tests of seeding and replay.

``dice``: a first player is drawn at setup; seats then take turns to roll a die (each roll is
drawn from the command's generator); after ``rounds`` rolls per seat the highest total wins.
``Hold`` ends a seat's turn without rolling: it is refused once the seat has held twice, so a
test can make a recorded command illegal by editing its log.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import msgspec
from gamehall.core import (
    Command,
    Context,
    Decision,
    Event,
    GameSpec,
    IllegalCommand,
    Outcome,
    Rules,
    hookimpl,
    namespaced,
)
from gamehall.core.rules import MatchConfig


class DiceEvent(Event, frozen=True, tag=namespaced("dice")):
    pass


class FirstPlayerDrawn(DiceEvent, frozen=True):
    seat: int


class Rolled(DiceEvent, frozen=True):
    seat: int
    value: int


class Held(DiceEvent, frozen=True):
    seat: int


class Roll(Command, frozen=True, tag=namespaced("dice")):
    pass


class Hold(Command, frozen=True, tag=namespaced("dice")):
    pass


class DiceOptions(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    rounds: int = 3


class DiceState(msgspec.Struct, frozen=True):
    players: int
    rounds: int
    turn: int = 0
    totals: tuple[int, ...] = ()
    moves: tuple[int, ...] = ()
    holds: tuple[int, ...] = ()


class Dice(Rules[DiceState]):
    def initial(self, config: MatchConfig) -> DiceState:
        n = config.players
        return DiceState(n, config.options.rounds, 0, (0,) * n, (0,) * n, (0,) * n)

    def start(self, state: DiceState, config: MatchConfig, rng: Any) -> Sequence[Event]:
        return [FirstPlayerDrawn(seat=rng.randrange(state.players))]

    def decide(self, state: DiceState, command: Command, ctx: Context) -> Sequence[Event]:
        seat = state.turn
        if isinstance(command, Roll):
            return [Rolled(seat=seat, value=ctx.rng.randint(1, 6))]
        if isinstance(command, Hold):
            if state.holds[seat] >= 2:
                raise IllegalCommand("you may hold twice only", "DICE-1")
            return [Held(seat=seat)]
        raise IllegalCommand("unknown command")

    def evolve(self, state: DiceState, event: Event) -> DiceState:
        if isinstance(event, FirstPlayerDrawn):
            return msgspec.structs.replace(state, turn=event.seat)
        if isinstance(event, Rolled | Held):
            seat = event.seat
            totals, moves, holds = list(state.totals), list(state.moves), list(state.holds)
            moves[seat] += 1
            if isinstance(event, Rolled):
                totals[seat] += event.value
            else:
                holds[seat] += 1
            return msgspec.structs.replace(
                state,
                turn=(seat + 1) % state.players,
                totals=tuple(totals),
                moves=tuple(moves),
                holds=tuple(holds),
            )
        return state

    def awaiting(self, state: DiceState) -> Mapping[int, Decision]:
        if min(state.moves) >= state.rounds:
            return {}
        return {state.turn: Decision("roll", "roll or hold")}

    def legal(self, state: DiceState, seat: int) -> Sequence[Command]:
        if seat not in self.awaiting(state):
            return []
        return [Roll(), Hold()] if state.holds[seat] < 2 else [Roll()]

    def outcome(self, state: DiceState) -> Outcome | None:
        if self.awaiting(state):
            return None
        best = max(state.totals)
        winners = tuple(s for s, t in enumerate(state.totals) if t == best)
        return Outcome(winners, "highest total", state.totals)


DICE = GameSpec(
    id="dice", name="Dice", version="1.2.0", rules=Dice, state=DiceState,
    min_players=2, max_players=4, options=DiceOptions,
)  # fmt: skip


class DicePlugin:
    """Registers the dice game (tests only; not an entry point)."""

    @hookimpl
    def gamehall_games(self) -> list[GameSpec]:
        return [DICE]

    @hookimpl
    def gamehall_event_types(self) -> list[type]:
        return [FirstPlayerDrawn, Rolled, Held]

    @hookimpl
    def gamehall_command_types(self) -> list[type]:
        return [Roll, Hold]


class DiceWith(DicePlugin):
    """Registers the dice game played by other rules (a subclass of :class:`Dice`)."""

    def __init__(self, rules: type[Dice]) -> None:
        self.spec = GameSpec(**{**DICE.__dict__, "rules": rules})

    @hookimpl
    def gamehall_games(self) -> list[GameSpec]:
        return [self.spec]


class SecretRolls(Dice):
    """Dice whose rolls nobody sees, their sender included."""

    secret_fields = {Rolled: ("value",)}


class PrivateRolls(Dice):
    """Dice whose rolls only their own seat sees."""

    private_fields = {Rolled: ("value",)}


class OwnRedact(Dice):
    """Dice that redact events their own way (here: showing no roll to a spectator)."""

    def redact(self, event: Event, seat: int | None) -> Event | None:
        if isinstance(event, Rolled) and seat is None:
            return Rolled(seat=event.seat, value=0)
        return event
