"""The debugging tools skip events another plugin recorded in a match's stream (the lobby's
``gamehall.*`` events, such as a seat taken) and never fail on them."""

from __future__ import annotations

from typing import Any

import msgspec
from gamehall.core import Event, Recorded, Registry, Table, hookimpl
from gamehall.core.debug.provenance import why
from gamehall.core.debug.shrink import Condition, shrink
from gamehall.core.debug.statediff import event_changes
from gamehall.core.debug.totest import to_test
from gamehall.core.debug.whatif import whatif
from gamehall.core.events import Meta


class SeatTakenHere(Event, frozen=True, tag="gamehall.TestSeatTaken"):
    """A system event of the hall, not of any game."""

    seat: int
    player: str


class SystemEvents:
    @hookimpl
    def gamehall_event_types(self) -> list[type[Event]]:
        return [SeatTakenHere]


def with_system_event(records: list[Recorded], after: int) -> list[Recorded]:
    """Insert a system event after seq ``after``; later seqs move up by one."""
    out: list[Recorded] = []
    for record in records:
        if record.seq > after:
            record = msgspec.structs.replace(record, seq=record.seq + 1, position=record.seq + 1)
        out.append(record)
        if record.seq == after:
            out.append(Recorded(record.stream, after + 1, after + 1, 0.0,
                                SeatTakenHere(seat=1, player="p2"), Meta()))  # fmt: skip
    return out


def test_every_tool_skips_a_system_event() -> None:
    registry = Registry([SystemEvents()])
    ruleset = registry.ruleset("tictactoe")
    table = Table(ruleset, ruleset.started(seed=3), stream="m")
    for seat, cell in ((0, 4), (1, 0), (0, 2), (1, 1), (0, 6)):
        table.send(
            seat,
            registry.codec.command_from_json(f'{{"type": "tictactoe.PlaceMark", "cell": {cell}}}'),
        )
    records = with_system_event(table.records(), 3)
    assert isinstance(records[3].event, SeatTakenHere)
    explained = "\n".join(why(ruleset, records, 8))
    assert "rule TTT-3" in explained
    assert "another plugin" in why_error(ruleset, records, 4)
    result = whatif(ruleset, records, 5, None)
    assert result.first_difference is not None and not result.invariant
    assert "def test_m()" in to_test(ruleset, records, "m.jsonl", "m")
    shrunk = shrink(ruleset, records, Condition("outcome", "winner:1"))
    assert shrunk.before == 5
    assert event_changes(ruleset, records, 4, None).changes == []
    assert [c.path for c in event_changes(ruleset, records, 5, None).changes] == [
        "board[2]",
        "turn",
    ]


def why_error(ruleset: Any, records: list[Recorded], seq: int) -> str:
    from gamehall.core import GamehallError

    try:
        why(ruleset, records, seq)
    except GamehallError as exc:
        return str(exc)
    return ""
