"""The debugging requests of the stdio protocol: ``why``, ``shrink``, ``whatif``, ``to_test``
and ``replay_diff`` (see ``docs/stdio-protocol.md``).

``why``, ``shrink``, ``whatif`` and ``to_test`` re-decide commands with the match's seed,
which would reveal hidden information while a match goes on: they take finished matches only
(a finished match's whole log is public, as on the web replay page). ``replay_diff`` shows one
seat's view, so it takes any match. Nothing is stored: a shrunk log comes back in the answer.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

import msgspec
from gamehall.core import GamehallError
from gamehall.core.debug.provenance import why
from gamehall.core.debug.shrink import parse_condition, shrink
from gamehall.core.debug.statediff import event_changes
from gamehall.core.debug.totest import to_test
from gamehall.core.debug.whatif import whatif
from gamehall.core.hall import Hall
from gamehall.core.limits import Count, Seat, Seq
from gamehall.core.table import Table


class BadDebugRequest(GamehallError):
    """A debugging request the log cannot answer (out of range, refused, never holds)."""

    code = "bad_debug_request"


class Why(msgspec.Struct, forbid_unknown_fields=True):
    """Explain an event of a finished match."""

    match: str
    seq: Seq


class Shrink(msgspec.Struct, forbid_unknown_fields=True):
    """Shrink a finished match to a shortest command sequence that still shows ``until``."""

    match: str
    until: str
    max_runs: Count | None = None
    max_seconds: float | None = None


class WhatIfRequest(msgspec.Struct, forbid_unknown_fields=True):
    """Re-decide a finished match with the command of event ``at`` dropped or replaced."""

    match: str
    at: Seq
    drop: bool = False
    replace: dict[str, Any] | None = None


class ToTest(msgspec.Struct, forbid_unknown_fields=True):
    """Return a pytest file that replays a finished match."""

    match: str
    until: str | None = None


class ReplayDiff(msgspec.Struct, forbid_unknown_fields=True):
    """What the event at ``seq`` changed in a seat's view (no seat: a spectator's)."""

    match: str
    seq: Seq
    seat: Seat | None = None


PARAMS: dict[str, type[msgspec.Struct]] = {
    "why": Why,
    "shrink": Shrink,
    "whatif": WhatIfRequest,
    "to_test": ToTest,
    "replay_diff": ReplayDiff,
}


def _finished(hall: Hall, match: str) -> list[Any]:
    records = hall.read(match)
    if hall.view(match, None).outcome is None:
        raise BadDebugRequest(
            f"match {match!r} is still going on: re-deciding it with its seed would reveal "
            "hidden information (finished matches only)"
        )
    return records


def _bad(fn: Callable[[], Any]) -> Any:
    try:
        return fn()
    except BadDebugRequest:
        raise
    except GamehallError as exc:
        raise BadDebugRequest(str(exc)) from None


async def do_why(hall: Hall, req: Why) -> Any:
    records = _finished(hall, req.match)
    lines = _bad(lambda: why(hall.ruleset(req.match), records, req.seq))
    return {"match": req.match, "seq": req.seq, "lines": lines}


async def do_shrink(hall: Hall, req: Shrink) -> Any:
    records = _finished(hall, req.match)
    ruleset = hall.ruleset(req.match)
    condition = _bad(lambda: parse_condition(req.until, allow_code=False))
    result = _bad(lambda: shrink(ruleset, records, condition, max_runs=req.max_runs,
                                 max_seconds=req.max_seconds))  # fmt: skip
    table = Table(ruleset, engine_started(records), stream=req.match)
    moves = result.moves[:-1] if result.raised else result.moves
    for seat, command in moves:
        table.send(seat, command)
    codec = hall.registry.codec
    return {
        "before": result.before,
        "after": result.after,
        "runs": result.runs,
        "seconds": round(result.seconds, 3),
        "stopped": result.stopped,
        "raised": result.raised,
        "commands": [{"seat": s, "command": msgspec.to_builtins(c)} for s, c in result.moves],
        "events": [msgspec.Raw(codec.record_to_json(r)) for r in table.records()],
    }


def engine_started(records: list[Any]) -> Any:
    from gamehall.core.replay import started_of

    return started_of(records)


async def do_whatif(hall: Hall, req: WhatIfRequest) -> Any:
    if req.drop == (req.replace is not None):
        raise BadDebugRequest("whatif takes either drop: true or a replace command")
    records = _finished(hall, req.match)
    ruleset = hall.ruleset(req.match)
    replace = None
    if req.replace is not None:
        command = _bad(lambda: hall.registry.codec.command_from_builtins(req.replace))
        seat = next((r.meta.seat for r in reversed(records)
                     if r.seq <= req.at and r.meta.command is not None), None)  # fmt: skip
        replace = (seat, command)
    result = _bad(lambda: whatif(ruleset, records, req.at, replace))
    builtins = msgspec.to_builtins
    return {
        "at": result.at,
        "first_difference": result.first_difference,
        "recorded": builtins(result.recorded),
        "now": builtins(result.now),
        "refused": [{"seq": seq, "reason": reason} for seq, reason in result.refused],
        "outcome": builtins(result.outcome),
        "recorded_outcome": builtins(result.recorded_outcome),
        "invariant": result.invariant,
    }


async def do_to_test(hall: Hall, req: ToTest) -> Any:
    records = _finished(hall, req.match)
    ruleset = hall.ruleset(req.match)
    given = req.until
    until = _bad(lambda: parse_condition(given, allow_code=False)) if given else None
    name = "".join(c if c.isalnum() else "_" for c in req.match)
    text = _bad(lambda: to_test(ruleset, records, req.match, name, until))
    return {"match": req.match, "file": f"test_{name}.py", "text": text}


async def do_replay_diff(hall: Hall, req: ReplayDiff) -> Any:
    players = hall.info(req.match).players
    if req.seat is not None and not 0 <= req.seat < players:
        raise BadDebugRequest(f"seat {req.seat} does not exist: seats are 0 to {players - 1}")
    records = hall.read(req.match)
    last = records[-1].seq if records else 0
    if not 1 <= req.seq <= last:
        raise BadDebugRequest(f"seq {req.seq} is outside the match (events 1 to {last})")
    change = event_changes(hall.ruleset(req.match), records, req.seq, req.seat)
    return {
        "seq": change.seq,
        "text": change.text,
        "changes": [msgspec.to_builtins(c) for c in change.changes],
    }


HANDLERS: dict[str, Callable[[Hall, Any], Awaitable[Any]]] = {
    "why": do_why,
    "shrink": do_shrink,
    "whatif": do_whatif,
    "to_test": do_to_test,
    "replay_diff": do_replay_diff,
}
