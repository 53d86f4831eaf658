"""The steps every runner shares (Table, actor, replay): start a match, check, decide, fold."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from .errors import IllegalCommand, InvalidCommand, MatchOver, NotAwaited
from .events import (
    Command,
    Event,
    LobbyEvent,
    MatchStarted,
    Meta,
    Recorded,
    TakenBack,
    redact_started,
    tag_of,
)
from .registry import Ruleset
from .rules import Context, LazyRandom, MatchConfig, Rules
from .words import seat_label


def begin(
    ruleset: Ruleset, started: MatchStarted, config: MatchConfig | None = None
) -> tuple[Any, list[Event]]:
    """Return the state after setup and the events of the first batch (``MatchStarted`` first).

    ``config`` is ``ruleset.config(started)``, when the caller has it already."""
    rules = ruleset.rules
    if config is None:
        config = ruleset.config(started)
    state = rules.initial(config)
    events: list[Event] = [started]
    if type(rules).start is Rules.start:
        return state, events  # no setup: the base class's start yields nothing
    setup = rules.start(state, config, LazyRandom(started.seed or 0, 2))
    for event in setup:
        state = rules.evolve(state, event)
        events.append(event)
    return state, events


def initial_state(ruleset: Ruleset, started: MatchStarted) -> Any:
    """Return the state before any setup event: the start of every fold."""
    return ruleset.rules.initial(ruleset.config(started))


def check(ruleset: Ruleset, state: Any, seat: int | None, command: Command) -> None:
    """Refuse a command of a foreign type, or from a seat that is neither awaited nor free to
    send it (a free action, see :meth:`Rules.free`)."""
    if type(command) not in ruleset.command_types:
        raise InvalidCommand(
            f"command type {tag_of(type(command))!r} is not part of {ruleset.name}"
        )
    rules = ruleset.rules
    awaiting = rules.awaiting(state)
    if seat in awaiting:
        return
    if not awaiting:
        raise MatchOver("the match is over")
    if seat is not None and type(command) in rules.free(state, seat):
        return
    asked = "; ".join(f"{seat_label(s)}: {d.prompt or d.kind}" for s, d in sorted(awaiting.items()))
    who = "a spectator" if seat is None else seat_label(seat)
    raise NotAwaited(f"{who} is not asked to act now (waiting for {asked})")


def decide(
    ruleset: Ruleset, state: Any, seat: int | None, command: Command, ctx: Context
) -> tuple[Sequence[Event], Any]:
    """Check and decide a command; return its events and the state after them.

    Raises :class:`IllegalCommand` (or a subclass) and changes nothing when refused; a rules
    bug that returns no events is refused too, so a command never vanishes silently.
    """
    check(ruleset, state, seat, command)
    rules = ruleset.rules
    events = rules.decide(state, command, ctx)
    if not events:
        raise IllegalCommand("the command changes nothing")
    for event in events:
        state = rules.evolve(state, event)
    return events, state


def fold(ruleset: Ruleset, state: Any, events: Iterable[Event]) -> Any:
    """Return the state after applying events in order (no checks, no randomness).

    The lobby's events (who sits where) are no part of the game: they are skipped."""
    evolve = ruleset.rules.evolve
    for event in events:
        if not isinstance(event, LobbyEvent):
            state = evolve(state, event)
    return state


def fold_live(ruleset: Ruleset, state: Any, events: Iterable[Event]) -> Any:
    """Return the state after evolving every event, none of them a lobby event nor a take-back
    (what :func:`live` hands back, or a store's read that holds none: ``Loaded.plain``).

    Each event goes straight to its type's ``@evolves`` method where the rules keep the table
    (:meth:`Rules.direct`): one call an event fewer than :meth:`Rules.evolve`, as a replay folds
    thousands of them.
    """
    rules = ruleset.rules
    evolve = rules.evolve
    table = rules.direct()[1]
    if not table:  # the game writes its own evolve
        for event in events:
            state = evolve(state, event)
        return state
    method_of = table.get
    for event in events:
        method = method_of(type(event))
        state = evolve(state, event) if method is None else method(state, event)
    return state


def live(events: Sequence[Event], first_seq: int) -> list[Event]:
    """Return the events a fold applies: without those a later ``TakenBack`` voids, nor it,
    nor the lobby's events (who sits where: no part of the game).

    ``first_seq`` is the seq of ``events[0]``. Events before the list cannot be voided by it
    (a caller that folds a tail checks :func:`voids_before` first).
    """
    void: set[int] = set()
    lobby = False
    for index, event in enumerate(events):
        if type(event) is TakenBack:
            void.update(range(event.first, event.last + 1))
            void.add(first_seq + index)
        elif isinstance(event, LobbyEvent):
            lobby = True
    if not void and not lobby:
        return list(events)
    return [
        e
        for i, e in enumerate(events)
        if first_seq + i not in void and not isinstance(e, LobbyEvent)
    ]


def voids_before(events: Sequence[Event], seq: int) -> bool:
    """Tell whether a ``TakenBack`` among ``events`` voids an event at or before ``seq``."""
    return any(type(e) is TakenBack and e.first <= seq for e in events)


def redact_record(ruleset: Ruleset, record: Recorded, seat: int | None) -> Recorded | None:
    """Return a record as ``seat`` may see it (``None`` is a spectator), or ``None``.

    The event goes through the game's ``redact``; the first event loses its seed; the metadata
    keeps the command and its id only for the seat that sent it.
    """
    event = record.event
    if isinstance(event, MatchStarted):
        shown: Event | None = redact_started(event)
    elif ruleset.public or type(event) is TakenBack or isinstance(event, LobbyEvent):
        shown = event  # public: every seat's view goes back; everyone sees who sits where
    else:
        shown = ruleset.rules.redact(event, seat)
    if shown is None:
        return None
    meta = record.meta
    if seat is None or meta.seat != seat:
        meta = Meta(seat=meta.seat, versions=meta.versions, clock=meta.clock)
    if shown is event and meta is record.meta:
        return record
    return Recorded(record.stream, record.seq, record.position, record.time, shown, meta)


def redact_records(
    ruleset: Ruleset, records: Iterable[Recorded], seat: int | None
) -> list[Recorded]:
    """Return the records ``seat`` may see, each as it may see it."""
    out = []
    for record in records:
        shown = redact_record(ruleset, record, seat)
        if shown is not None:
            out.append(shown)
    return out
