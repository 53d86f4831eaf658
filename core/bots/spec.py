"""Bots named in words: ``random``, ``mcts:2000``, ``ismcts:500``, ``ismcts:2s``.

A spec is ``KIND[:BUDGET]``: the kind, then an iteration budget per decision (a whole
number, reproducible) or a time budget per decision (a number of seconds ending in ``s``, not
reproducible). Every adapter takes the same words (``--seat 1=bot:mcts:2000``, a seat role
in a create request) and turns them into a bot with :func:`make_bot`.
"""

from __future__ import annotations

from typing import Any

import msgspec

from ..registry import Ruleset
from .base import Bot, BotError, RandomBot
from .mcts import ISMCTSBot, MCTSBot

KINDS = ("random", "mcts", "ismcts")
DEFAULT_ITERATIONS = {"mcts": 1000, "ismcts": 500}
MAX_ITERATIONS = 10_000_000
MAX_SECONDS = 600.0


class BotSpec(msgspec.Struct, frozen=True):
    """A kind of bot and its budget per decision (``None``: the kind's default)."""

    kind: str = "random"
    iterations: int | None = None
    seconds: float | None = None

    def __str__(self) -> str:
        if self.seconds is not None:
            return f"{self.kind}:{self.seconds:g}s"
        if self.iterations is not None:
            return f"{self.kind}:{self.iterations}"
        return self.kind

    @property
    def reproducible(self) -> bool:
        """Tell whether the same seed gives the same decisions (no time budget)."""
        return self.seconds is None


class BudgetLimit(msgspec.Struct, frozen=True):
    """The largest budget a bot of a match created through a server may think with, per
    decision (each adapter that serves others has one, configurable): the server's few
    thinking slots are shared in slices, and a budget this large keeps a decision short."""

    iterations: int = 50_000
    seconds: float = 5.0

    def check(self, spec: BotSpec) -> BotSpec:
        """Return ``spec``, or raise :class:`BotError` naming the maximum it is over."""
        if spec.iterations is not None and spec.iterations > self.iterations:
            raise BotError(
                f"{spec}: this server lets a bot think at most {self.iterations:,} iterations "
                "a decision"
            )
        if spec.seconds is not None and spec.seconds > self.seconds:
            raise BotError(
                f"{spec}: this server lets a bot think at most {self.seconds:g} s a decision"
            )
        return spec


def parse_bot(text: str) -> BotSpec:
    """Read a bot spec such as ``mcts:2000``, ``ismcts:2s`` or ``random`` (``""`` is random)."""
    kind, _, budget = text.strip().partition(":")
    kind = kind or "random"
    if kind not in KINDS:
        raise BotError(f"unknown bot {kind!r}: bots are {', '.join(KINDS)}")
    if not budget:
        return BotSpec(kind)
    if kind == "random":
        raise BotError(f"the random bot takes no budget, not {budget!r}")
    if budget.endswith("s"):
        return BotSpec(kind, seconds=_seconds(kind, budget[:-1]))
    return BotSpec(kind, iterations=_iterations(kind, budget))


def _iterations(kind: str, text: str) -> int:
    try:
        count = int(text)
    except ValueError:
        raise BotError(
            f"{kind}:{text}: the budget is a number of iterations (2000) or of seconds (2s)"
        ) from None
    if not 1 <= count <= MAX_ITERATIONS:
        raise BotError(f"{kind}:{text}: iterations go from 1 to {MAX_ITERATIONS:,}")
    return count


def _seconds(kind: str, text: str) -> float:
    try:
        seconds = float(text)
    except ValueError:
        raise BotError(f"{kind}:{text}s: the time budget is a number of seconds (2s)") from None
    if not 0 < seconds <= MAX_SECONDS:
        raise BotError(f"{kind}:{text}s: a time budget is above 0 and at most {MAX_SECONDS:g}s")
    return seconds


def parse_role(text: str) -> BotSpec | None:
    """Read a seat role: ``human`` (``None``), ``bot`` or ``bot:SPEC`` (a bot spec)."""
    role = text.strip()
    if role == "human":
        return None
    if role == "bot":
        return BotSpec()
    if role.startswith("bot:"):
        return parse_bot(role[4:])
    raise BotError(f"unknown seat role {text!r}: use human, bot or bot:KIND[:BUDGET]")


def check_bot(spec: BotSpec, ruleset: Ruleset) -> None:
    """Refuse a bot that cannot play a ruleset (mcts in a game with hidden information)."""
    make_bot(spec, ruleset, 0)


def make_bot(spec: BotSpec | str, ruleset: Ruleset, seed: int | str | None, **options: Any) -> Bot:
    """Return a bot for a ruleset with its own generator seeded by ``seed``."""
    if isinstance(spec, str):
        spec = parse_bot(spec)
    if spec.kind == "random":
        return RandomBot(seed)
    budget = spec.iterations
    if budget is None and spec.seconds is None:
        budget = DEFAULT_ITERATIONS[spec.kind]
    cls = MCTSBot if spec.kind == "mcts" else ISMCTSBot
    return cls(ruleset, budget, seconds=spec.seconds, seed=seed, **options)
