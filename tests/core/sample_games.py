"""Small games for the engine's own tests: a hidden-information duel and a game with a bug.

``secrets``: each seat is dealt a hidden card (a token like ``card-07``); seats take turns to
either reveal their card or pass; the first to reveal a higher card than the other's revealed
one wins, and after four passes in a row the match is a draw. ``buggy``: counting to five,
where one command makes ``decide`` crash, for the actor's error handling.
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


class SecretEvent(Event, frozen=True, tag=namespaced("secrets")):
    pass


class CardDealt(SecretEvent, frozen=True):
    seat: int
    card: str | None


class CardRevealed(SecretEvent, frozen=True):
    seat: int
    card: str


class Passed(SecretEvent, frozen=True):
    seat: int


class Reveal(Command, frozen=True, tag=namespaced("secrets")):
    pass


class Pass(Command, frozen=True, tag=namespaced("secrets")):
    pass


class SecretState(msgspec.Struct, frozen=True):
    players: int
    hands: tuple[str | None, ...]
    shown: tuple[str | None, ...]
    turn: int = 0
    passes: int = 0
    over: bool = False


class SecretView(msgspec.Struct, frozen=True):
    mine: str | None
    shown: tuple[str | None, ...]
    turn: int
    over: bool
    passes: int = 0


CARDS = tuple(f"card-{c:02d}" for c in range(1, 20))


class Secrets(Rules[SecretState]):
    leak = False

    def initial(self, config: MatchConfig) -> SecretState:
        n = config.players
        return SecretState(n, (None,) * n, (None,) * n)

    def start(self, state: SecretState, config: MatchConfig, rng: Any) -> Sequence[Event]:
        cards = rng.sample(CARDS, state.players)
        return [CardDealt(seat=s, card=c) for s, c in enumerate(cards)]

    def decide(self, state: SecretState, command: Command, ctx: Context) -> Sequence[Event]:
        seat = state.turn
        if isinstance(command, Reveal):
            if state.shown[seat] is not None:
                raise IllegalCommand("your card is already shown", "SEC-2")
            return [CardRevealed(seat=seat, card=state.hands[seat] or "")]
        if isinstance(command, Pass):
            return [Passed(seat=seat)]
        raise IllegalCommand("unknown command")

    def evolve(self, state: SecretState, event: Event) -> SecretState:
        if isinstance(event, CardDealt):
            hands = list(state.hands)
            hands[event.seat] = event.card
            return msgspec.structs.replace(state, hands=tuple(hands))
        nxt = (state.turn + 1) % state.players
        if isinstance(event, CardRevealed):
            shown = list(state.shown)
            shown[event.seat] = event.card
            over = all(s is not None for s in shown)
            return msgspec.structs.replace(state, shown=tuple(shown), turn=nxt, passes=0, over=over)
        if isinstance(event, Passed):
            passes = state.passes + 1
            return msgspec.structs.replace(state, turn=nxt, passes=passes, over=passes >= 4)
        return state

    def awaiting(self, state: SecretState) -> Mapping[int, Decision]:
        return {} if state.over else {state.turn: Decision("turn", "reveal or pass")}

    def legal(self, state: SecretState, seat: int) -> Sequence[Command]:
        if state.over or seat != state.turn:
            return []
        return [Pass()] if state.shown[seat] is not None else [Reveal(), Pass()]

    def outcome(self, state: SecretState) -> Outcome | None:
        if not state.over:
            return None
        if any(s is None for s in state.shown):
            return Outcome((), "everyone passed")
        best = max(state.shown, key=lambda c: c or "")
        return Outcome((state.shown.index(best),), "highest card")

    def view(self, state: SecretState, seat: int | None) -> Any:
        if self.leak:
            return SecretView(state.hands[1], state.shown, state.turn, state.over, state.passes)
        mine = state.hands[seat] if seat is not None else None
        return SecretView(mine, state.shown, state.turn, state.over, state.passes)

    def sample(self, view: Any, seat: int, rng: Any) -> SecretState:
        seen = {view.mine, *view.shown}
        unseen = [c for c in CARDS if c not in seen]
        rng.shuffle(unseen)
        hands = tuple(
            view.mine if s == seat else shown if shown is not None else unseen.pop()
            for s, shown in enumerate(view.shown)
        )
        return SecretState(len(hands), hands, view.shown, view.turn, view.passes, view.over)

    def redact(self, event: Event, seat: int | None) -> Event | None:
        if isinstance(event, CardDealt) and event.seat != seat:
            return CardDealt(seat=event.seat, card=None)
        return event

    def hidden(self, state: SecretState, seat: int | None) -> Collection[str]:
        return [
            card
            for s, card in enumerate(state.hands)
            if card is not None and s != seat and state.shown[s] is None
        ]


class LeakySecrets(Secrets):
    leak = True


class BuggyEvent(Event, frozen=True, tag=namespaced("buggy")):
    pass


class Counted(BuggyEvent, frozen=True):
    value: int


class Count(Command, frozen=True, tag=namespaced("buggy")):
    crash: bool = False


class BuggyState(msgspec.Struct, frozen=True):
    value: int = 0


class Buggy(Rules[BuggyState]):
    def initial(self, config: MatchConfig) -> BuggyState:
        return BuggyState()

    def decide(self, state: BuggyState, command: Command, ctx: Context) -> Sequence[Event]:
        assert isinstance(command, Count)
        if command.crash:
            raise RuntimeError("boom")
        return [Counted(value=state.value + 1)]

    def evolve(self, state: BuggyState, event: Event) -> BuggyState:
        return BuggyState(event.value) if isinstance(event, Counted) else state

    def awaiting(self, state: BuggyState) -> Mapping[int, Decision]:
        return {} if state.value >= 5 else {0: Decision("count")}

    def legal(self, state: BuggyState, seat: int) -> Sequence[Command]:
        return [Count()] if seat == 0 and state.value < 5 else []

    def outcome(self, state: BuggyState) -> Outcome | None:
        return Outcome((0,), "counted to five") if state.value >= 5 else None


SECRETS = GameSpec(
    id="secrets", name="Secrets", version="1.0.0", rules=Secrets, state=SecretState,
    min_players=2, max_players=3, hidden_information=True,
)  # fmt: skip
LEAKY = GameSpec(
    id="leaky-secrets", name="Leaky", version="1.0.0", rules=LeakySecrets, state=SecretState,
    min_players=2, max_players=2, hidden_information=True,
)  # fmt: skip
BUGGY = GameSpec(
    id="buggy", name="Buggy", version="1.0.0", rules=Buggy, state=BuggyState,
    min_players=1, max_players=1,
)  # fmt: skip


class SamplePlugin:
    """Registers the sample games (not through entry points: only tests load it)."""

    def __init__(self, *games: GameSpec) -> None:
        self.games = games

    @hookimpl
    def gamehall_games(self) -> list[GameSpec]:
        return list(self.games)

    @hookimpl
    def gamehall_event_types(self) -> list[type]:
        return [CardDealt, CardRevealed, Passed, Counted]

    @hookimpl
    def gamehall_command_types(self) -> list[type]:
        return [Reveal, Pass, Count]
