"""Replay tools: the state at any seq of a log, verify it, diff two points, find where an invariant breaks.

They work on a list of recorded events (from a store or a file) and the registry that holds the
plugins the match was recorded with. Replay never draws a random number: every outcome is in
the log. Only ``verify`` re-decides commands, with the generator the match had, to prove that
today's rules still produce the recorded events.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from typing import Any

import msgspec

from . import engine
from .errors import CorruptRecord, GamehallError, InvalidFork
from .events import Event, LobbyCommand, LobbyEvent, MatchStarted, Recorded, TakeBack, TakenBack
from .registry import Registry, Ruleset
from .rules import Context

Progress = Callable[[int], None]


class Batch(msgspec.Struct, frozen=True):
    """The events one command (or the match's start) caused: ``records[start:end]``."""

    start: int
    end: int


class Difference(msgspec.Struct, frozen=True):
    """The first place where a log and today's rules disagree."""

    seq: int
    kind: str
    message: str
    recorded: list[Event] = []
    redecided: list[Event] = []


class Change(msgspec.Struct, frozen=True):
    """One field that differs between two states; ``path`` is like ``racks[1][0]``."""

    path: str
    before: Any
    after: Any


class Violation(msgspec.Struct, frozen=True):
    """An invariant that failed right after the event at ``seq``."""

    seq: int
    invariant: str
    message: str
    event: Event


def started_of(records: Sequence[Recorded]) -> MatchStarted:
    """Return the first event, checking that the log starts a match."""
    if not records or records[0].seq != 1 or not isinstance(records[0].event, MatchStarted):
        where = records[0].seq if records else 0
        raise CorruptRecord(
            records[0].stream if records else "?", where, "a log must start with MatchStarted"
        )
    return records[0].event


def check_sequence(records: Sequence[Recorded]) -> None:
    """Raise :class:`CorruptRecord` at the first missing, repeated or foreign event."""
    stream = records[0].stream if records else "?"
    for expected, record in enumerate(records, start=1):
        if record.stream != stream:
            raise CorruptRecord(
                record.stream, record.seq, f"belongs to another match than {stream!r}"
            )
        if record.seq != expected:
            raise CorruptRecord(
                stream, record.seq, f"expected seq {expected}: events are missing or repeated"
            )


def batches(records: Sequence[Recorded]) -> list[Batch]:
    """Split a log into the batches of its commands (the first batch is the start)."""
    if not records:
        return []
    starts = [
        i
        for i, r in enumerate(records)
        if i == 0 or r.meta.command is not None or isinstance(r.event, MatchStarted)
    ]
    ends = starts[1:] + [len(records)]
    return [Batch(s, e) for s, e in zip(starts, ends, strict=True)]


def fork_points(records: Sequence[Recorded]) -> list[int]:
    """Return the seqs a fork may start after: the last event of each batch, in order."""
    return [records[b.end - 1].seq for b in batches(records)]


def check_fork_point(match: str, records: Sequence[Recorded], at_seq: int) -> None:
    """Refuse a fork point that does not end a batch, naming the nearest points that do.

    ``records`` is the whole log of the match: only the event after ``at_seq`` tells whether
    ``at_seq`` ends its command's events.
    """
    points = fork_points(records)
    if at_seq in points:
        return
    last = records[-1].seq if records else 0
    if at_seq > last:
        raise InvalidFork(
            f"seq {at_seq} is past the end of match {match!r}: its last event is {last}, "
            f"where a fork can start"
        )
    before = [p for p in points if p < at_seq]
    after = [p for p in points if p > at_seq]
    nearest = " or ".join(str(p) for p in (before[-1:] + after[:1]))
    where = "the match's setup" if not before else "a command's events"
    raise InvalidFork(
        f"seq {at_seq} is inside {where}: a fork starts after the last event of a command "
        f"(nearest: {nearest})"
    )


def ruleset_for(registry: Registry, records: Sequence[Recorded]) -> Ruleset:
    """Return the ruleset a log was recorded with."""
    return registry.ruleset_of(started_of(records))


def states(ruleset: Ruleset, records: Sequence[Recorded]) -> Iterator[tuple[Recorded, Any]]:
    """Yield each record with the state right after it."""
    started = started_of(records)
    state = engine.initial_state(ruleset, started)
    evolve = ruleset.rules.evolve
    for index, record in enumerate(records):
        if type(record.event) is TakenBack:  # back to the state before the voided events
            kept = engine.live([r.event for r in records[1 : index + 1]], 2)
            state = engine.fold(ruleset, engine.initial_state(ruleset, started), kept)
        elif index and not isinstance(record.event, LobbyEvent):
            state = evolve(state, record.event)
        yield record, state


def state_at(ruleset: Ruleset, records: Sequence[Recorded], to_seq: int | None = None) -> Any:
    """Return the state after event ``to_seq`` (the last one by default)."""
    if to_seq is not None and not 1 <= to_seq <= len(records):
        raise GamehallError(f"seq {to_seq} is outside the log (1..{len(records)})")
    state: Any = None
    for record, state in states(ruleset, records):
        if record.seq == to_seq:
            break
    return state


def verify(
    ruleset: Ruleset, records: Sequence[Recorded], progress: Progress | None = None
) -> Difference | None:
    """Re-decide every command against the state before it; return the first difference.

    ``progress`` is called with the seq reached after each command, for progress bars.
    """
    check_sequence(records)
    started = started_of(records)
    if started.seed is None:
        raise GamehallError("the log has no seed (a seat's export): it cannot be verified")
    groups = batches(records)
    state, expected = engine.begin(ruleset, started)
    first = [r.event for r in records[groups[0].start : groups[0].end]]
    if first != expected:
        return Difference(1, "setup", "the start of the match differs", first, expected)
    for group in groups[1:]:
        batch = records[group.start : group.end]
        head = batch[0]
        recorded = [r.event for r in batch]
        ctx = Context(head.meta.seat, head.seq, started.seed, head.meta.command_id)
        command = head.meta.command
        assert command is not None
        if isinstance(command, LobbyCommand):  # who sits where: no part of the game's rules
            if not all(isinstance(event, LobbyEvent) for event in recorded):
                return Difference(head.seq, "events", "a lobby command recorded game events",
                                  recorded)  # fmt: skip
            continue
        if isinstance(command, TakeBack):
            expected_back = [
                TakenBack(command.first, head.seq - 1, head.meta.seat or 0, command.agreed)
            ]
            if recorded != expected_back:
                return Difference(head.seq, "events", "the take-back voids other events",
                                  recorded, list(expected_back))  # fmt: skip
            kept = engine.live([r.event for r in records[1 : group.end]], 2)
            state = engine.fold(ruleset, engine.initial_state(ruleset, started), kept)
            continue
        try:
            redecided, state = engine.decide(ruleset, state, head.meta.seat, command, ctx)
        except GamehallError as exc:
            return Difference(head.seq, "refused", f"the command is now refused: {exc}", recorded)
        if list(redecided) != recorded:
            return Difference(
                head.seq, "events", "re-deciding gives other events", recorded, list(redecided)
            )
        if progress is not None:
            progress(batch[-1].seq)
    return None


def diff(ruleset: Ruleset, records: Sequence[Recorded], a: int, b: int) -> list[Change]:
    """Return every field that differs between the states after events ``a`` and ``b``."""
    return diff_states(state_at(ruleset, records, a), state_at(ruleset, records, b))


def diff_states(before: Any, after: Any) -> list[Change]:
    """Return every field that differs between two states (or any msgspec data), by path.

    Paths read ``players[0].koku``; a field only one side has shows the other as missing.
    """
    changes: list[Change] = []
    _diff("", msgspec.to_builtins(before), msgspec.to_builtins(after), changes)
    return changes


def _diff(path: str, before: Any, after: Any, out: list[Change]) -> None:
    if isinstance(before, dict) and isinstance(after, dict):
        for key in sorted(set(before) | set(after), key=str):
            step = f"{path}.{key}" if path else str(key)
            _diff(step, before.get(key, _MISSING), after.get(key, _MISSING), out)
    elif (
        isinstance(before, (list, tuple))
        and isinstance(after, (list, tuple))
        and len(before) == len(after)
    ):
        for index, (x, y) in enumerate(zip(before, after, strict=True)):
            _diff(f"{path}[{index}]", x, y, out)
    elif before != after:
        out.append(Change(path or ".", _shown(before), _shown(after)))


_MISSING = object()


def _shown(value: Any) -> Any:
    return None if value is _MISSING else value


def bisect(
    ruleset: Ruleset,
    records: Sequence[Recorded],
    invariant: str | None = None,
    progress: Progress | None = None,
) -> Violation | None:
    """Return the first event after which an invariant (all by default) fails.

    Every state is checked in order, so the answer is the exact first failure even when an
    invariant breaks and heals again; a fold costs one ``evolve`` per event.
    """
    checks = ruleset.invariants
    if invariant is not None:
        if invariant not in checks:
            known = ", ".join(sorted(checks)) or "none"
            raise GamehallError(f"unknown invariant {invariant!r} (declared: {known})")
        checks = {invariant: checks[invariant]}
    for record, state in states(ruleset, records):
        for name, inv in checks.items():
            message = inv.check(state)
            if message is not None:
                return Violation(record.seq, name, message, record.event)
        if progress is not None:
            progress(record.seq)
    return None
