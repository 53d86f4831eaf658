"""The conformance suite itself: it passes a correct hidden-information game and catches bugs."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

import msgspec
import pytest
from gamehall.core import Command, Context, Event, Registry, Rules
from gamehall.core.conformance import Case, ConformanceError, cases, check_playout

from tests.core.sample_games import LEAKY, SECRETS, Reveal, SamplePlugin, Secrets


def registry_with(*games: Any) -> Registry:
    return Registry([SamplePlugin(*games)], entry_points=False)


def test_a_correct_hidden_information_game_passes() -> None:
    registry = registry_with(SECRETS)
    found = cases(registry, "secrets")
    assert [c.players for c in found] == [2, 3]
    for case in found:
        for seed in range(30):
            check_playout(registry, case, seed)


def test_a_view_that_shows_another_hand_is_caught() -> None:
    registry = registry_with(LEAKY)
    with pytest.raises(ConformanceError, match="shows hidden"):
        for seed in range(10):
            check_playout(registry, Case("leaky-secrets", (), 2, {}), seed)


class _RedactsNothing(Secrets):
    def redact(self, event: Event, seat: int | None) -> Event | None:
        return event


class _AcceptsIllegal(Secrets):
    # Leaves out Pass for seat 1, though decide accepts it.
    def legal(self, state: Any, seat: int) -> Sequence[Command]:
        listed = super().legal(state, seat)
        return listed[:1] if seat == 1 and len(listed) == 2 else listed


class _ListsRefused(Secrets):
    # Keeps offering Reveal after the card is shown, though decide refuses it.
    def legal(self, state: Any, seat: int) -> Sequence[Command]:
        listed = list(super().legal(state, seat))
        return [Reveal(), *listed] if listed and len(listed) == 1 else listed


class _NoSampler(Secrets):
    sample = Rules.sample  # type: ignore[assignment]


class _SamplerForgetsPasses(Secrets):
    # Loses what the view tells: the passes in a row.
    def sample(self, view: Any, seat: int, rng: Any) -> Any:
        return msgspec.structs.replace(super().sample(view, seat, rng), passes=0)


class _SamplerNeverVaries(Secrets):
    # Draws the other hands in one fixed order, not at random.
    def sample(self, view: Any, seat: int, rng: Any) -> Any:
        return super().sample(view, seat, random.Random(0))


class _Nondeterministic(Secrets):
    calls = 0

    def decide(self, state: Any, command: Command, ctx: Context) -> Sequence[Event]:
        type(self).calls += 1
        if type(self).calls % 7 == 0:
            ctx.rng.random()
            from tests.core.sample_games import Passed

            return [Passed(seat=state.turn)]
        return super().decide(state, command, ctx)


class _DrawsUnnamed(Secrets):
    """Rolls a die on every command but says no event reveals anything: undo could re-roll."""

    def decide(self, state: Any, command: Command, ctx: Context) -> Sequence[Event]:
        ctx.rng.random()
        return super().decide(state, command, ctx)

    def reveals(self, event: Event) -> bool:
        return False


class _RemembersMoves(Secrets):
    """Memoises the commands it lists on the shared rules object, keyed by a match's state."""

    def __init__(self, hook: Any) -> None:
        super().__init__(hook)
        self._listed: dict[bytes, int] = {}

    def legal(self, state: Any, seat: int) -> Sequence[Command]:
        listed = super().legal(state, seat)
        self._listed[msgspec.msgpack.encode(state)] = len(listed)
        return listed


class _CountsCalls(Secrets):
    """Keeps a counter inside a nested record: a change below the top level is found too."""

    def __init__(self, hook: Any) -> None:
        super().__init__(hook)
        self.stats = {"calls": [0]}

    def decide(self, state: Any, command: Command, ctx: Context) -> Sequence[Event]:
        self.stats["calls"][0] += 1
        return super().decide(state, command, ctx)


@pytest.mark.parametrize(
    ("rules", "message"),
    [
        (_RemembersMoves, r"rules object changed during the playout \(at rules._listed"),
        (_CountsCalls, r"rules object changed during the playout \(at rules.stats.'calls'\[0\]"),
        (_DrawsUnnamed, "drew from the generator, but Rules.reveals names none"),
        (_RedactsNothing, "sees hidden"),
        (_AcceptsIllegal, "accepted but is not in legal"),
        (_ListsRefused, "legal command .* refused"),
        (_Nondeterministic, "verify|refused|accepted"),
        (_NoSampler, "cannot sample a state from a view"),
        (_SamplerForgetsPasses, r"sampled from seat \d's view does not give that view back"),
        (_SamplerNeverVaries, "were all the same"),
    ],
)
def test_contract_breaches_are_caught(rules: type, message: str) -> None:
    import dataclasses

    spec = dataclasses.replace(SECRETS, rules=rules)
    registry = registry_with(spec)
    with pytest.raises(ConformanceError, match=message):
        for seed in range(40):
            check_playout(registry, Case("secrets", (), 2, {}), seed)
