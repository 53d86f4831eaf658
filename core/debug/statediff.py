"""What one event changed, as a seat may know it: the difference of its views.

``gamehall diff A B`` compares whole states between two points of a full log (hidden facts
included: it is a tool for whoever holds the log). This compares one seat's *views* before
and after one event, so it never shows a hidden fact: it is what ``gamehall replay --diff``
and the web replay page show for each event.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import msgspec

from .. import engine
from ..events import Recorded
from ..registry import Ruleset
from ..replay import Change, diff_states, started_of
from .common import game_records


class EventChange(msgspec.Struct, frozen=True):
    """An event as a seat read it, and the fields of its view that changed."""

    seq: int
    text: str
    changes: list[Change]


def view_changes(ruleset: Ruleset, before: Any, after: Any, seat: int | None) -> list[Change]:
    """Return the fields of ``seat``'s view that differ between two states."""
    rules = ruleset.rules
    return diff_states(rules.view(before, seat), rules.view(after, seat))


def event_changes(
    ruleset: Ruleset, records: Sequence[Recorded], seq: int, seat: int | None
) -> EventChange:
    """Return what the event at ``seq`` changed in ``seat``'s view (records: a full log, or a
    seat's own redacted log), with the event in words as that seat reads it."""
    started = started_of(records)
    if not any(r.seq == seq for r in game_records(ruleset, records)):
        return EventChange(seq, "(an event of another plugin: the game's state is unchanged)", [])
    kept = [r for r in game_records(ruleset, records) if r.seq <= seq]
    before_records = [r for r in kept if r.seq < seq]
    initial = engine.initial_state(ruleset, started)
    before = engine.fold(ruleset, initial, (r.event for r in before_records[1:]))
    after = engine.fold(ruleset, initial, (r.event for r in kept[1:])) if seq > 1 else before
    record = kept[-1] if kept and kept[-1].seq == seq else None
    text = "(hidden from this seat)"
    if record is not None:
        shown = engine.redact_record(ruleset, record, seat)
        if shown is not None:
            text = ruleset.describe_event(shown.event, ruleset.rules.view(before, seat), seat)
    return EventChange(seq, text, view_changes(ruleset, before, after, seat))


def change_lines(change: EventChange) -> list[str]:
    """Return the changes as lines: ``path: before → after``."""
    if not change.changes:
        return ["nothing this seat sees changed"]
    encode = msgspec.json.encode
    return [
        f"{c.path}: {encode(c.before).decode()} → {encode(c.after).decode()}"
        for c in change.changes
    ]
