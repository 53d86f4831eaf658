"""A tiny hidden-information game for the HTTP leak tests, registered by the tests themselves.

``draws``: two seats take turns to draw a face-down card (tokens ``gem-00`` … ``gem-19``)
into their own hand, or to pass once they hold one; after three draws each the hands are
revealed and the larger sum of gem numbers wins. Another seat's hand is hidden until then.
``LeakyDraws`` is the same game whose ``redact`` forgets to hide: the negative control.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
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

GEMS = tuple(f"gem-{n:02d}" for n in range(20))
DRAWS = 3
tag = namespaced("draws")


class Drawn(Event, frozen=True, tag=tag):
    seat: int
    gem: str | None


class Passed(Event, frozen=True, tag=tag):
    seat: int


class Revealed(Event, frozen=True, tag=tag):
    hands: tuple[tuple[str, ...], ...]


class Draw(Command, frozen=True, tag=tag):
    pass


class Pass(Command, frozen=True, tag=tag):
    pass


class State(msgspec.Struct, frozen=True):
    hands: tuple[tuple[str, ...], ...] = ((), ())
    turn: int = 0
    draws: int = 0
    over: bool = False


class HandView(msgspec.Struct, frozen=True):
    mine: tuple[str, ...] | None
    counts: tuple[int, ...]
    turn: int
    revealed: tuple[tuple[str, ...], ...] | None


TURN = Decision("draw", "draw a gem, or pass")


class Draws(Rules[State]):
    """Draw gems face down; the larger sum wins once all are revealed."""

    def initial(self, config: MatchConfig) -> State:
        return State()

    def decide(self, state: State, command: Command, ctx: Context) -> Sequence[Event]:
        seat = state.turn
        if isinstance(command, Pass):
            if not state.hands[seat]:
                raise IllegalCommand("you cannot pass before you hold a gem", "DR-2")
            return self._after(state, Passed(seat=seat))
        if not isinstance(command, Draw):
            raise IllegalCommand("draws takes Draw or Pass")
        taken = {g for hand in state.hands for g in hand}
        gem = ctx.rng.choice([g for g in GEMS if g not in taken])
        return self._after(state, Drawn(seat=seat, gem=gem))

    def _after(self, state: State, event: Event) -> Sequence[Event]:
        if state.draws + 1 < 2 * DRAWS:
            return (event,)
        after = self.evolve(state, event)
        return (event, Revealed(hands=after.hands))

    def evolve(self, state: State, event: Event) -> State:
        if isinstance(event, Drawn):
            hands = list(state.hands)
            hands[event.seat] = (*hands[event.seat], event.gem or "?")
            return State(tuple(hands), 1 - state.turn, state.draws + 1)
        if isinstance(event, Passed):
            return State(state.hands, 1 - state.turn, state.draws + 1)
        if isinstance(event, Revealed):
            return State(event.hands, state.turn, state.draws, True)
        return state

    def awaiting(self, state: State) -> Mapping[int, Decision]:
        return {} if state.over else {state.turn: TURN}

    def legal(self, state: State, seat: int) -> Sequence[Command]:
        if state.over or seat != state.turn:
            return ()
        return [Draw(), Pass()] if state.hands[seat] else [Draw()]

    def outcome(self, state: State) -> Outcome | None:
        if not state.over:
            return None
        sums = [sum(int(g[4:]) for g in hand) for hand in state.hands]
        best = max(sums)
        return Outcome(tuple(s for s, v in enumerate(sums) if v == best), "largest sum")

    def view(self, state: State, seat: int | None) -> Any:
        mine = state.hands[seat] if seat is not None else None
        revealed = state.hands if state.over else None
        return HandView(mine, tuple(len(h) for h in state.hands), state.turn, revealed)

    def redact(self, event: Event, seat: int | None) -> Event | None:
        if isinstance(event, Drawn) and event.seat != seat:
            return Drawn(seat=event.seat, gem=None)
        return event

    def hidden(self, state: State, seat: int | None) -> Collection[str]:
        if state.over:
            return ()
        return {g for s, hand in enumerate(state.hands) if s != seat for g in hand}


class LeakyDraws(Draws):
    """The same game with a redaction bug: other seats see every gem drawn."""

    def redact(self, event: Event, seat: int | None) -> Event | None:
        return event


class Plugin:
    """Registers ``draws`` (and ``leaky-draws``)."""

    @hookimpl
    def gamehall_games(self) -> list[GameSpec]:
        spec: dict[str, Any] = {
            "state": State,
            "min_players": 2,
            "max_players": 2,
            "hidden_information": True,
        }
        return [
            GameSpec(id="draws", name="Draws", version="1.0.0", rules=Draws, **spec),  # type: ignore[arg-type]
            GameSpec(id="leaky-draws", name="Leaky", version="1.0.0", rules=LeakyDraws, **spec),  # type: ignore[arg-type]
        ]

    @hookimpl
    def gamehall_event_types(self) -> list[type]:
        return [Drawn, Passed, Revealed]

    @hookimpl
    def gamehall_command_types(self) -> list[type]:
        return [Draw, Pass]
