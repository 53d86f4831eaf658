"""Narration: follow a match event by event and tell one seat what each event was."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from . import engine
from .events import LobbyEvent, MatchStarted, Recorded, TakenBack
from .registry import Ruleset
from .words import Narrated, describe_event


class Narrator:
    """Follow a match event by event and tell one seat, in words, what each event was.

    It is fed the *whole* log from its first event (it folds the true state to know what came
    before each event) and answers with each event as the seat may see it, or ``None``.
    """

    def __init__(self, ruleset: Ruleset, seat: int | None) -> None:
        self.ruleset = ruleset
        self.seat = seat
        self.state: Any = None
        self._started: MatchStarted | None = None
        self._seen: list[Any] = []  # every event after the first, for a take-back

    def tell(self, record: Recorded) -> Narrated | None:
        """Advance past a stored record; return it as the seat may see it, in words."""
        ruleset, seat, rules = self.ruleset, self.seat, self.ruleset.rules
        event = record.event
        if isinstance(event, MatchStarted):
            self.state = engine.initial_state(ruleset, event)
            self._started, self._seen = event, []
        shown = engine.redact_record(ruleset, record, seat)
        told = None
        if shown is not None:
            view = rules.view(self.state, seat)
            told = Narrated(shown, describe_event(ruleset, shown.event, view, seat))
        if type(event) is TakenBack:
            # Back to the state before the voided events: fold what remains again.
            self._seen.append(event)
            assert self._started is not None
            state = engine.initial_state(ruleset, self._started)
            self.state = engine.fold(ruleset, state, engine.live(self._seen, 2))
        elif not isinstance(event, (MatchStarted, LobbyEvent)):
            self.state = rules.evolve(self.state, event)
            self._seen.append(event)
        return told

    def tell_all(self, records: Iterable[Recorded], after: int = 0) -> list[Narrated]:
        """Advance past every record; return those after ``after`` that the seat may see."""
        out = []
        for record in records:
            told = self.tell(record)
            if told is not None and record.seq > after:
                out.append(told)
        return out
