"""What-if: re-decide the rest of a match with one command dropped or replaced."""

from __future__ import annotations

from collections.abc import Sequence

import msgspec

from ..errors import GamehallError
from ..events import Command, Event, Recorded, tag_of
from ..registry import Ruleset
from ..replay import started_of
from ..rules import Outcome
from .common import begin, first_difference, game_records, live_steps, send, steps_of


class WhatIf(msgspec.Struct):
    """The continuation of a match after one change, beside the real one."""

    at: int  # the seq of the changed command's first event
    first_difference: int | None  # the first seq whose event differs, or None
    recorded: Event | None
    now: Event | None
    refused: list[tuple[int, str]]  # kept commands now refused: recorded seq, reason
    outcome: Outcome | None
    recorded_outcome: Outcome | None
    invariant: str | None  # the first invariant that fails in the continuation, in words
    events: list[Event]


def whatif(
    ruleset: Ruleset,
    records: Sequence[Recorded],
    at: int,
    replace: tuple[int | None, Command] | None = None,
) -> WhatIf:
    """Drop (``replace`` is ``None``) or replace the command whose events include seq ``at``
    and re-decide every later command with the same seed."""
    last = records[-1].seq if records else 0
    if not 1 <= at <= last:
        raise GamehallError(f"seq {at} is outside the log (events 1 to {last})")
    problem = first_difference(ruleset, records)
    if problem is not None:
        raise GamehallError(f"the log does not verify: {problem}")
    started = started_of(records)
    own = game_records(ruleset, records)
    steps = live_steps(steps_of(ruleset, own))
    target = next((i for i, s in enumerate(steps) if s.seq <= at <= s.last), None)
    if target is None:
        raise GamehallError(f"event {at} belongs to no command (the setup): nothing to change")
    played = begin(ruleset, started)
    for step in steps[:target]:
        send(ruleset, played, step.seat, step.command)
    if replace is not None:
        seat, command = replace
        try:
            send(ruleset, played, seat, command)
        except GamehallError as exc:
            raise GamehallError(f"the replacement is not legal at event {at}: {exc}") from None
    refused: list[tuple[int, str]] = []
    for step in steps[target + 1 :]:
        try:
            send(ruleset, played, step.seat, step.command)
        except GamehallError as exc:
            refused.append((step.seq, str(exc)))
    real = [r.event for r in own]
    now = played.events
    first = next((i for i, (a, b) in enumerate(zip(real, now, strict=False)) if a != b), None)
    if first is None and len(real) != len(now):
        first = min(len(real), len(now))
    seq = own[first].seq if first is not None and first < len(own) else None
    if first is not None and seq is None:
        seq = own[-1].seq + 1 + first - len(own)
    invariant = None
    checked = begin(ruleset, started)
    state = checked.state
    for number, event in enumerate(now[len(checked.events) :], start=len(checked.events) + 1):
        state = ruleset.rules.evolve(state, event)
        for name, inv in ruleset.invariants.items():
            message = inv.check(state)
            if message is not None and invariant is None:
                invariant = f"{name} fails after event {number} ({tag_of(type(event))}): {message}"
    from ..replay import state_at

    return WhatIf(
        at, seq,
        real[first] if first is not None and first < len(real) else None,
        now[first] if first is not None and first < len(now) else None,
        refused, ruleset.rules.outcome(played.state),
        ruleset.rules.outcome(state_at(ruleset, own)), invariant, now,
    )  # fmt: skip
