"""What every debugging tool shares: a log's own events, its commands, and re-deciding them."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import msgspec

from .. import engine
from ..errors import GamehallError
from ..events import Command, Event, MatchStarted, Recorded, TakeBack, TakenBack
from ..registry import Ruleset
from ..replay import started_of
from ..rules import Context


class Step(msgspec.Struct, frozen=True):
    """One command of a log: who sent it, what, and the events it caused there.

    ``seq`` is the seq of its first event (its generator's key), ``last`` that of its last;
    ``events`` are the game's own events of the batch (another plugin's are left out).
    """

    seat: int | None
    command: Command
    seq: int
    last: int
    command_id: str | None = None
    events: tuple[Event, ...] = ()


def game_records(ruleset: Ruleset, records: Sequence[Recorded]) -> list[Recorded]:
    """Return the records of the match's own events, in order (their seqs unchanged)."""
    return [r for r in records if _own(ruleset, r.event)]


def _own(ruleset: Ruleset, event: Event) -> bool:
    """Tell whether an event is the match's own: the game's, an expansion's, or the engine's
    start and take-backs (a lobby's ``gamehall.*`` events and other plugins' are not)."""
    if type(event) in (MatchStarted, TakenBack):
        return True
    if type(event) not in ruleset.event_types:
        return False
    tag = type(event).__struct_config__.tag
    return not (isinstance(tag, str) and tag.startswith("gamehall."))


def steps_of(ruleset: Ruleset, records: Sequence[Recorded]) -> list[Step]:
    """Return the commands of a log in order, each with its recorded events.

    A take-back (``gamehall.TakeBack``) is kept as a step; :func:`live_steps` leaves out
    what it voids.
    """
    steps: list[Step] = []
    current: list[Any] | None = None
    for record in records:
        meta = record.meta
        if meta.command is not None:
            if current is not None:
                steps.append(_step(current))
            current = [meta.seat, meta.command, record.seq, record.seq, meta.command_id, []]
        if current is None or not _own(ruleset, record.event):
            continue
        if meta.command is None and meta.command_id is not None and meta.command_id != current[4]:
            continue  # an event of another command's id (a system event between batches)
        current[3] = record.seq
        current[5].append(record.event)
    if current is not None:
        steps.append(_step(current))
    return steps


def _step(parts: list[Any]) -> Step:
    seat, command, seq, last, command_id, events = parts
    return Step(seat, command, seq, last, command_id, tuple(events))


def live_steps(steps: Sequence[Step]) -> list[Step]:
    """Return the steps a take-back did not void, without the take-backs themselves."""
    void: set[int] = set()
    for step in steps:
        if isinstance(step.command, TakeBack):
            void.update(s.seq for s in steps if step.command.first <= s.seq < step.seq)
    return [s for s in steps if s.seq not in void and not isinstance(s.command, TakeBack)]


class Played(msgspec.Struct):
    """Commands re-decided from a match's start: the events and the state after each."""

    started: MatchStarted
    state: Any
    events: list[Event]
    seq: int
    steps: list[Step]


def begin(ruleset: Ruleset, started: MatchStarted) -> Played:
    """Return a match right after its setup, ready to take commands."""
    state, events = engine.begin(ruleset, started)
    return Played(started, state, list(events), len(events), [])


def send(
    ruleset: Ruleset,
    played: Played,
    seat: int | None,
    command: Command,
    after_event: Callable[[Any, Event, int], None] | None = None,
) -> Step:
    """Decide a command on a played match with the generator its seq gets; return its step.

    Raises ``IllegalCommand`` (and changes nothing) when the rules refuse it. ``after_event``
    is called with the state after each event, the event and its seq.
    """
    if played.started.seed is None:
        raise GamehallError(
            "the log has no seed (a seat's view): its commands cannot be re-decided"
        )
    seq = played.seq + 1
    ctx = Context(seat, seq, played.started.seed)
    engine.check(ruleset, played.state, seat, command)
    events = ruleset.rules.decide(played.state, command, ctx)
    if not events:
        from ..errors import IllegalCommand

        raise IllegalCommand("the command changes nothing")
    state = played.state
    evolve = ruleset.rules.evolve
    for offset, event in enumerate(events):
        state = evolve(state, event)
        if after_event is not None:
            after_event(state, event, seq + offset)
    played.state = state
    played.events.extend(events)
    played.seq += len(events)
    step = Step(seat, command, seq, played.seq, None, tuple(events))
    played.steps.append(step)
    return step


def first_difference(ruleset: Ruleset, records: Sequence[Recorded]) -> str | None:
    """Re-decide every command of a full log; return the first disagreement in words, or
    ``None`` when today's rules give exactly the recorded events.

    Events of other plugins (a lobby's seat taken) are skipped; each command is re-decided
    with the generator of the seq it was recorded at.
    """
    started = started_of(records)
    if started.seed is None:
        return "the log has no seed (a seat's view): its commands cannot be re-decided"
    own = game_records(ruleset, records)
    state, expected = engine.begin(ruleset, started)
    setup = [r.event for r in own if r.meta.command is None and not _after_first_command(own, r)]
    if setup != list(expected):
        return "its setup differs from what today's rules deal with its seed"
    for step in steps_of(ruleset, own):
        if isinstance(step.command, TakeBack):
            kept = engine.live([r.event for r in own if r.seq <= step.last][1:], 2)
            state = engine.fold(ruleset, engine.initial_state(ruleset, started), kept)
            continue
        ctx = Context(step.seat, step.seq, started.seed, step.command_id)
        try:
            events, state = engine.decide(ruleset, state, step.seat, step.command, ctx)
        except GamehallError as exc:
            return f"the command at event {step.seq} is now refused: {exc}"
        if tuple(events) != step.events:
            return f"re-deciding the command at event {step.seq} gives other events"
    return None


def _after_first_command(records: Sequence[Recorded], record: Recorded) -> bool:
    first = next((r.seq for r in records if r.meta.command is not None), None)
    return first is not None and record.seq >= first


def seat_label(ruleset: Ruleset, state: Any, seat: int | None, players: int) -> str:
    """Name a seat for people: counted from 1, with the game's name for it."""
    if seat is None:
        return "the engine"
    names = ruleset.seat_names(ruleset.rules.view(state, None), players)
    name = names[seat] if 0 <= seat < len(names) else ""
    plain = f"seat {seat + 1}"
    return plain if not name or name in (f"seat {seat}", plain) else f"{plain} ({name})"
