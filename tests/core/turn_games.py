"""A test game for commands out of turn: reaction windows and free actions.

``strike`` (3-4 players): the active seat strikes; every other seat is then awaited at once
(a reaction window) and answers with a hidden ward card or lets the strike pass, in any order.
When the last answer is in, the window resolves in seat order from the striker: the first
ward stops the strike (the other wards stay in their hands); an unstopped strike scores a
point. Any seat may at any moment, awaited or not, trade two coins for a new ward (a free
action); every strike gives every seat a coin. First to three points wins; after twelve strikes
the most points win.
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

WARDS = tuple(f"ward-{n:02d}" for n in range(40))
TARGET, STRIKES = 3, 12


class StrikeEvent(Event, frozen=True, tag=namespaced("strike")):
    pass


class WardDealt(StrikeEvent, frozen=True):
    seat: int
    card: str | None


class Struck(StrikeEvent, frozen=True):
    seat: int


class Answered(StrikeEvent, frozen=True):
    """A seat answered the window; ``card`` (its ward, or None to let it pass) is its secret."""

    seat: int
    card: str | None = None


class WindowClosed(StrikeEvent, frozen=True):
    """The window resolved: ``stopped_by`` warded with ``card``, or the strike scored."""

    striker: int
    stopped_by: int | None
    card: str | None


class Traded(StrikeEvent, frozen=True):
    seat: int
    card: str | None


class StrikeCommand(Command, frozen=True, tag=namespaced("strike")):
    pass


class Strike(StrikeCommand, frozen=True):
    pass


class Ward(StrikeCommand, frozen=True):
    card: str


class LetPass(StrikeCommand, frozen=True):
    pass


class Trade(StrikeCommand, frozen=True):
    pass


class StrikeState(msgspec.Struct, frozen=True):
    players: int
    hands: tuple[tuple[str, ...], ...]
    coins: tuple[int, ...]
    points: tuple[int, ...]
    turn: int = 0
    striking: bool = False
    answers: tuple[str | None, ...] = ()  # per seat: "" not yet, "let", or the ward card
    strikes: int = 0
    dealt: int = 0
    discard: tuple[str, ...] = ()


class StrikeView(msgspec.Struct, frozen=True):
    hand: tuple[str, ...]
    hand_sizes: tuple[int, ...]
    coins: tuple[int, ...]
    points: tuple[int, ...]
    turn: int
    striking: bool
    answered: tuple[bool, ...]
    discard: tuple[str, ...]
    answer: str | None = None  # the seat's own answer to the window ("", "let" or its ward)
    strikes: int = 0


def _replace(state: StrikeState, **changes: Any) -> StrikeState:
    return msgspec.structs.replace(state, **changes)


def _set(values: tuple[Any, ...], index: int, value: Any) -> tuple[Any, ...]:
    return values[:index] + (value,) + values[index + 1 :]


class StrikeRules(Rules[StrikeState]):
    def initial(self, config: MatchConfig) -> StrikeState:
        n = config.players
        return StrikeState(n, ((),) * n, (0,) * n, (0,) * n)

    def start(self, state: StrikeState, config: MatchConfig, rng: Any) -> Sequence[Event]:
        cards = iter(WARDS)
        return [
            WardDealt(seat=seat, card=next(cards))
            for seat in range(state.players)
            for _ in range(rng.randint(0, 1))
        ]

    def over(self, state: StrikeState) -> bool:
        return max(state.points) >= TARGET or state.strikes >= STRIKES

    def decide(self, state: StrikeState, command: Command, ctx: Context) -> Sequence[Event]:
        seat = ctx.seat
        assert seat is not None
        if isinstance(command, Trade):
            if state.coins[seat] < 2:
                raise IllegalCommand("a trade takes two coins", "STRIKE-4")
            if state.dealt >= len(WARDS):
                raise IllegalCommand("no ward is left", "STRIKE-4")
            return [Traded(seat=seat, card=WARDS[state.dealt])]
        if isinstance(command, Strike):
            if state.striking or seat != state.turn:
                raise IllegalCommand("only the active seat strikes, once", "STRIKE-1")
            return [Struck(seat=seat)]
        if not state.striking or seat == state.turn or state.answers[seat] != "":
            raise IllegalCommand("there is no strike for you to answer", "STRIKE-2")
        if isinstance(command, Ward):
            if command.card not in state.hands[seat]:
                raise IllegalCommand(f"{command.card} is not in your hand", "STRIKE-2")
            answer = Answered(seat=seat, card=command.card)
        else:
            answer = Answered(seat=seat)
        after = self.evolve(state, answer)
        if "" in after.answers:
            return [answer]
        return [answer, self.resolve(after)]

    def resolve(self, state: StrikeState) -> WindowClosed:
        n = state.players
        for step in range(1, n):
            seat = (state.turn + step) % n
            card = state.answers[seat]
            if card not in ("", "let", None):
                return WindowClosed(striker=state.turn, stopped_by=seat, card=card)
        return WindowClosed(striker=state.turn, stopped_by=None, card=None)

    def evolve(self, state: StrikeState, event: Event) -> StrikeState:
        if isinstance(event, (WardDealt, Traded)):
            hand = state.hands[event.seat] + (event.card or "",)
            coins = state.coins
            if isinstance(event, Traded):
                coins = _set(coins, event.seat, coins[event.seat] - 2)
            return _replace(
                state, hands=_set(state.hands, event.seat, hand), coins=coins, dealt=state.dealt + 1
            )
        if isinstance(event, Struck):
            answers = tuple(None if s == event.seat else "" for s in range(state.players))
            return _replace(state, striking=True, answers=answers)
        if isinstance(event, Answered):
            return _replace(state, answers=_set(state.answers, event.seat, event.card or "let"))
        if isinstance(event, WindowClosed):
            hands, points, discard = state.hands, state.points, state.discard
            if event.stopped_by is None:
                points = _set(points, event.striker, points[event.striker] + 1)
            else:
                kept = tuple(c for c in hands[event.stopped_by] if c != event.card)
                hands = _set(hands, event.stopped_by, kept)
                discard = discard + (event.card or "",)
            return _replace(
                state,
                hands=hands,
                points=points,
                discard=discard,
                coins=tuple(c + 1 for c in state.coins),
                striking=False,
                answers=(),
                strikes=state.strikes + 1,
                turn=(state.turn + 1) % state.players,
            )
        return state

    def awaiting(self, state: StrikeState) -> Mapping[int, Decision]:
        if self.over(state):
            return {}
        if not state.striking:
            return {state.turn: Decision("strike", "strike")}
        window = Decision("reaction", "ward off the strike or let it pass")
        return {s: window for s, answer in enumerate(state.answers) if answer == ""}

    def free(self, state: StrikeState, seat: int) -> Collection[type[Command]]:
        return () if self.over(state) else (Trade,)

    def legal(self, state: StrikeState, seat: int) -> Sequence[Command]:
        if self.over(state):
            return []
        out: list[Command] = []
        if seat == state.turn and not state.striking:
            out.append(Strike())
        if state.striking and state.answers[seat] == "":
            out.extend(Ward(card=c) for c in state.hands[seat])
            out.append(LetPass())
        if state.coins[seat] >= 2 and state.dealt < len(WARDS):
            out.append(Trade())
        return out

    def outcome(self, state: StrikeState) -> Outcome | None:
        if not self.over(state):
            return None
        best = max(state.points)
        winners = tuple(s for s, p in enumerate(state.points) if p == best)
        return Outcome(winners, "most points", state.points)

    def view(self, state: StrikeState, seat: int | None) -> StrikeView:
        answered = tuple(a not in ("", None) for a in state.answers) if state.striking else ()
        return StrikeView(
            hand=state.hands[seat] if seat is not None else (),
            hand_sizes=tuple(len(h) for h in state.hands),
            coins=state.coins,
            points=state.points,
            turn=state.turn,
            striking=state.striking,
            answered=answered,
            discard=state.discard,
            answer=state.answers[seat] if seat is not None and state.striking else None,
            strikes=state.strikes,
        )

    def sample(self, view: StrikeView, seat: int, rng: Any) -> StrikeState:
        # Wards are dealt in order and leave hands only for the discard pile.
        dealt = sum(view.hand_sizes) + len(view.discard)
        unseen = [w for w in WARDS[:dealt] if w not in view.hand and w not in view.discard]
        rng.shuffle(unseen)
        hands = tuple(
            view.hand if s == seat else tuple(unseen.pop() for _ in range(size))
            for s, size in enumerate(view.hand_sizes)
        )
        answers: tuple[str | None, ...] = ()
        if view.striking:
            answers = tuple(
                None if s == view.turn
                else view.answer if s == seat
                else "" if not view.answered[s]
                else rng.choice(["let", *hands[s]])
                for s in range(len(hands))
            )  # fmt: skip
        return StrikeState(
            len(hands), hands, view.coins, view.points, view.turn, view.striking, answers,
            view.strikes, dealt, view.discard,
        )  # fmt: skip

    def redact(self, event: Event, seat: int | None) -> Event | None:
        if isinstance(event, (WardDealt, Traded, Answered)) and event.seat != seat:
            return msgspec.structs.replace(event, card=None)
        return event

    def hidden(self, state: StrikeState, seat: int | None) -> Collection[str]:
        return [c for s, hand in enumerate(state.hands) if s != seat for c in hand]


STRIKE = GameSpec(
    id="strike", name="Strike", version="1.0.0", rules=StrikeRules, state=StrikeState,
    min_players=3, max_players=4, hidden_information=True,
)  # fmt: skip


class StrikePlugin:
    """Registers the strike game (not through entry points: only tests load it)."""

    @hookimpl
    def gamehall_games(self) -> list[GameSpec]:
        return [STRIKE]

    @hookimpl
    def gamehall_event_types(self) -> list[type]:
        return [WardDealt, Struck, Answered, WindowClosed, Traded]

    @hookimpl
    def gamehall_command_types(self) -> list[type]:
        return [Strike, Ward, LetPass, Trade]
