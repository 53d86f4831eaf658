"""Shrink a failing log to a shortest command sequence that still shows the failure.

Delta debugging (Zeller's ddmin) over the log's commands, then over each seat's commands,
then each command made as simple as the rules allow (the first legal command at its place).
Every candidate is re-decided from the match's start with the same seed. A command the rules
refuse at its place in a candidate is left out of it, so every sequence tried, and the one
reported, is legal throughout. Randomness is keyed on (seed, seq): removing a command changes
every later draw, and the shrunk log records the draws it got.
"""

from __future__ import annotations

import importlib
import math
import time
from collections.abc import Callable, Sequence
from typing import Any

import msgspec

from ..errors import GamehallError, IllegalCommand, MatchOver, NotAwaited
from ..events import Command, Event, Recorded
from ..registry import Ruleset
from ..replay import started_of
from .common import Played, begin, game_records, live_steps, send, steps_of

Move = tuple[int | None, Command]
Progress = Callable[[str], None]


class Condition(msgspec.Struct, frozen=True):
    """What a shrunk sequence must still show.

    ``kind`` is ``invariant-fails`` (``arg``: one invariant's name, or empty for any),
    ``refused`` (``arg``: ``SEAT:COMMAND_JSON``, that seat's command refused at the end),
    ``raises`` (a plugin raises while deciding), ``outcome`` (``arg``: ``draw``, ``over`` or
    ``winner:SEAT``) or ``predicate`` (``arg``: ``module:function``, called with the state and
    every event so far after each command).
    """

    kind: str
    arg: str = ""

    def __str__(self) -> str:
        return self.kind + (f"={self.arg}" if self.arg else "")


KINDS = ("invariant-fails", "refused", "raises", "outcome", "predicate")


def parse_condition(text: str, allow_code: bool = True) -> Condition:
    """Read ``--until``: one of the kinds, ``KIND=ARG``, or ``module:function``."""
    kind, _, arg = text.partition("=")
    if kind in KINDS and kind != "predicate":
        if kind in ("refused", "outcome") and not arg:
            example = "refused=2:{...}" if kind == "refused" else "outcome=draw"
            raise GamehallError(f"--until {kind} needs what to look for, as in {example}")
        return Condition(kind, arg)
    if ":" in text and "=" not in text and "{" not in text:
        if not allow_code:
            raise GamehallError(
                "a Python predicate runs code: it is only taken on the command line"
            )
        return Condition("predicate", text)
    raise GamehallError(
        f"unknown condition {text!r}: use invariant-fails, refused=SEAT:COMMAND, raises, "
        "outcome=draw|over|winner:SEAT, or module:function"
    )


class _Failed(Exception):
    """The condition's own code failed (a predicate that raises)."""


class Checker:
    """Plays candidate sequences and tells whether the condition shows, and where."""

    def __init__(self, ruleset: Ruleset, records: Sequence[Recorded], condition: Condition):
        self.ruleset = ruleset
        self.started = started_of(records)
        if self.started.seed is None:
            raise GamehallError("the log has no seed (a seat's view): it cannot be shrunk")
        self.condition = condition
        self.runs = 0
        self.raised: tuple[Move, str] | None = None
        self._predicate: Callable[[Any, list[Event]], bool] | None = None
        self._refused: Move | None = None
        if condition.kind == "predicate":
            self._predicate = _load_predicate(condition.arg)
        elif condition.kind == "refused":
            self._refused = _refused_move(ruleset, condition.arg)
        elif condition.kind == "invariant-fails" and condition.arg:
            if condition.arg not in ruleset.invariants:
                known = ", ".join(sorted(ruleset.invariants)) or "none"
                raise GamehallError(f"unknown invariant {condition.arg!r} (declared: {known})")
        elif condition.kind == "outcome":
            _outcome_matcher(condition.arg)

    def run(self, moves: Sequence[Move]) -> tuple[bool, list[Move]]:
        """Play ``moves`` from the start, leaving out refused ones; return whether the condition
        showed and the moves played up to the point where it first did."""
        self.runs += 1
        played = begin(self.ruleset, self.started)
        kept: list[Move] = []
        broken: list[bool] = [False]
        invariants = self.ruleset.invariants
        if self.condition.kind == "invariant-fails" and self.condition.arg:
            invariants = {self.condition.arg: invariants[self.condition.arg]}
        check_each = self.condition.kind == "invariant-fails"

        def after(state: Any, event: Event, seq: int) -> None:
            if not broken[0]:
                broken[0] = any(inv.check(state) is not None for inv in invariants.values())

        if self._holds(played, broken[0]):
            return True, kept
        for seat, command in moves:
            try:
                send(self.ruleset, played, seat, command, after if check_each else None)
            except GamehallError:
                continue
            except _Failed:
                raise
            except Exception as exc:  # noqa: BLE001 - a plugin that raises is what is sought
                if self.condition.kind == "raises":
                    self.raised = ((seat, command), f"{type(exc).__name__}: {exc}")
                    kept.append((seat, command))
                    return True, kept
                continue
            kept.append((seat, command))
            if self._holds(played, broken[0]):
                return True, kept
        return False, kept

    def _holds(self, played: Played, broken: bool) -> bool:
        kind = self.condition.kind
        if kind == "invariant-fails":
            return broken
        rules = self.ruleset.rules
        if kind == "outcome":
            return _outcome_matcher(self.condition.arg)(rules.outcome(played.state))
        if kind == "refused":
            assert self._refused is not None
            seat, command = self._refused
            if not rules.awaiting(played.state) and len(played.events) <= 1:
                return False
            try:
                from .. import engine

                engine.check(self.ruleset, played.state, seat, command)
                rules.decide(played.state, command, _ctx(seat, played))
            except (NotAwaited, MatchOver):
                return False  # not a refusal by the rules: the seat is not asked now
            except IllegalCommand:
                return bool(played.steps)
            except Exception:  # noqa: BLE001 - the plugin under test may raise anything: no refusal
                return False
            return False
        if kind == "predicate":
            assert self._predicate is not None
            try:
                return bool(self._predicate(played.state, list(played.events)))
            except Exception as exc:  # noqa: BLE001 - the user's predicate may raise anything: told
                raise _Failed(
                    f"the predicate {self.condition.arg} raised {type(exc).__name__}: {exc}"
                ) from None
        return False


def _ctx(seat: int | None, played: Played) -> Any:
    from ..rules import Context

    return Context(seat, played.seq + 1, played.started.seed or 0)


def _load_predicate(spec: str) -> Callable[[Any, list[Event]], bool]:
    module, _, name = spec.partition(":")
    try:
        found = getattr(importlib.import_module(module), name)
    except (ImportError, AttributeError) as exc:
        raise GamehallError(f"cannot load the predicate {spec}: {exc}") from None
    if not callable(found):
        raise GamehallError(f"the predicate {spec} is not a function")
    return found  # type: ignore[no-any-return]


def _refused_move(ruleset: Ruleset, arg: str) -> Move:
    seat_text, _, body = arg.partition(":")
    try:
        seat = int(seat_text) - 1
        command = ruleset.codec.command_from_json(body)
    except (ValueError, GamehallError) as exc:
        raise GamehallError(
            f"refused= takes SEAT:COMMAND_JSON (seat counted from 1), not {arg!r}: {exc}"
        ) from None
    return seat, command


def _outcome_matcher(arg: str) -> Callable[[Any], bool]:
    if arg == "over":
        return lambda outcome: outcome is not None
    if arg == "draw":
        return lambda outcome: outcome is not None and not outcome.winners
    if arg.startswith("winner:") and arg[7:].isdigit():
        seat = int(arg[7:]) - 1
        return lambda outcome: outcome is not None and seat in outcome.winners
    raise GamehallError(f"outcome={arg} is not understood: use draw, over or winner:SEAT")


class ShrinkResult(msgspec.Struct):
    """A shrink's answer: the best sequence found and what it took."""

    condition: str
    before: int
    after: int
    moves: list[Move]
    runs: int
    seconds: float
    stopped: str | None  # the budget that ended it early, or None when ddmin finished
    raised: str | None = None  # for ``raises``: the last command's exception


def shrink(
    ruleset: Ruleset,
    records: Sequence[Recorded],
    condition: Condition,
    *,
    max_runs: int | None = None,
    max_seconds: float | None = None,
    explore: int = 200,
    progress: Progress | None = None,
) -> ShrinkResult:
    """Return a shortest legal command sequence of a log that still shows ``condition``.

    Before ddmin, ``explore`` random legal playouts from the start (each a seeded random bot,
    cut at the length of the best so far) look for a shorter way to the condition: with
    randomness keyed on seq, a removed command changes every later draw, and a short path that
    ddmin cannot reach by removal alone is often found this way.
    """
    started_at = time.monotonic()
    checker = Checker(ruleset, records, condition)
    steps = live_steps(steps_of(ruleset, game_records(ruleset, records)))
    original: list[Move] = [(s.seat, s.command) for s in steps]
    try:
        holds, best = checker.run(original)
    except _Failed as exc:
        raise GamehallError(str(exc)) from None
    if not holds:
        raise GamehallError(f"the condition {condition} never holds on this log: nothing to shrink")
    report = progress or (lambda _: None)
    report(f"{len(original)} commands; the condition holds after {len(best)} of them")

    class _Budget(Exception):
        pass

    stopped: list[str | None] = [None]

    def test(moves: list[Move]) -> tuple[bool, list[Move]]:
        if max_runs is not None and checker.runs >= max_runs:
            stopped[0] = f"the budget of {max_runs} runs"
            raise _Budget
        if max_seconds is not None and time.monotonic() - started_at > max_seconds:
            stopped[0] = f"the budget of {max_seconds:g} seconds"
            raise _Budget
        try:
            holds, kept = checker.run(moves)
        except _Failed as exc:
            raise GamehallError(str(exc)) from None
        if holds and len(kept) < len(best_box[0]):
            best_box[0] = kept
            report(f"{len(kept)} commands (after {checker.runs} runs)")
        return holds, kept

    best_box = [best]
    try:
        best_box[0] = _explore(ruleset, checker, best_box[0], test, explore)
        best_box[0] = _ddmin(best_box[0], test)
        for seat in sorted({s for s, _ in best_box[0] if s is not None}):
            best_box[0] = _ddmin_seat(best_box[0], seat, test)
        best_box[0] = _simplify(ruleset, checker, best_box[0], test)
    except _Budget:
        report(f"stopped at {stopped[0]}: keeping the best found")
    final = best_box[0]
    holds, kept = checker.run(final)  # never report what does not reproduce
    if not holds or kept != final:
        raise GamehallError("the shrunk sequence did not reproduce the condition (a bug in shrink)")
    return ShrinkResult(
        str(condition), len(original), len(final), final, checker.runs,
        time.monotonic() - started_at, stopped[0],
        checker.raised[1] if checker.raised and condition.kind == "raises" else None,
    )  # fmt: skip


Test = Callable[[list[Move]], tuple[bool, list[Move]]]


def _ddmin(moves: list[Move], test: Test) -> list[Move]:
    n = 2
    while len(moves) >= 2:
        chunk = math.ceil(len(moves) / n)
        parts = [moves[i : i + chunk] for i in range(0, len(moves), chunk)]
        reduced = False
        for i in range(len(parts)):
            complement = [m for j, part in enumerate(parts) if j != i for m in part]
            holds, kept = test(complement)
            if holds and len(kept) < len(moves):
                moves, n, reduced = kept, max(n - 1, 2), True
                break
        if not reduced:
            if n >= len(moves):
                break
            n = min(len(moves), n * 2)
    if len(moves) == 1:
        holds, kept = test([])
        if holds:
            return kept
    return moves


def _explore(
    ruleset: Ruleset, checker: Checker, moves: list[Move], test: Test, tries: int
) -> list[Move]:
    """Try seeded random legal playouts shorter than ``moves``; keep the shortest that shows."""
    import random

    rules = ruleset.rules
    for attempt in range(tries):
        rng = random.Random(attempt)
        played = begin(ruleset, checker.started)
        path: list[Move] = []
        while len(path) < len(moves) - 1:
            awaiting = rules.awaiting(played.state)
            if not awaiting:
                break
            seat = rng.choice(sorted(awaiting))
            options = rules.legal(played.state, seat)
            if not options:
                break
            command = rng.choice(list(options))
            try:
                send(ruleset, played, seat, command)
            except Exception:  # noqa: BLE001 - the plugin under test may raise: the playout ends
                path.append((seat, command))
                break
            path.append((seat, command))
        holds, kept = test(path)
        if holds and len(kept) < len(moves):
            moves = kept
    return moves


def _ddmin_seat(moves: list[Move], seat: int, test: Test) -> list[Move]:
    """ddmin over one seat's commands, the others' kept in place."""
    n = 2
    while True:
        mine = [i for i, (s, _) in enumerate(moves) if s == seat]
        if len(mine) < 2 or n > len(mine):
            return moves
        chunk = math.ceil(len(mine) / n)
        reduced = False
        for start in range(0, len(mine), chunk):
            drop = set(mine[start : start + chunk])
            holds, kept = test([m for i, m in enumerate(moves) if i not in drop])
            if holds and len(kept) < len(moves):
                moves, n, reduced = kept, max(n - 1, 2), True
                break
        if not reduced:
            if n >= len(mine):
                return moves
            n = min(len(mine), n * 2)


def _simplify(ruleset: Ruleset, checker: Checker, moves: list[Move], test: Test) -> list[Move]:
    """Replace each command by the first legal one at its place where the condition holds."""
    index = 0
    while index < len(moves):
        played = begin(ruleset, checker.started)
        for seat, command in moves[:index]:
            send(ruleset, played, seat, command)
        seat, command = moves[index]
        if seat is not None:
            options = ruleset.rules.legal(played.state, seat)
            first = options[0] if options else None
            if first is not None and first != command:
                holds, kept = test([*moves[:index], (seat, first), *moves[index + 1 :]])
                if holds and len(kept) <= len(moves):
                    moves = kept
        index += 1
    return moves
