"""Debugging commands: ``why``, ``shrink``, ``whatif`` and ``to-test``.

Each reads a full log file (with its seed). Bad input (a log that does not verify, a seq
outside the log, a replacement the rules refuse, a condition that never holds) gets one line
naming the problem and exit code 2, and nothing is written.
"""

from __future__ import annotations

import argparse
import importlib
import re
import sys
from pathlib import Path
from typing import Any

from gamehall.adapters.file.logfile import Log
from gamehall.adapters.file.tools import load, write
from gamehall.core import GamehallError, Registry, Table, default_registry
from gamehall.core.debug.common import game_records, seat_label
from gamehall.core.debug.provenance import why
from gamehall.core.debug.shrink import parse_condition, shrink
from gamehall.core.debug.totest import to_test
from gamehall.core.debug.whatif import whatif
from gamehall.core.engine import fold, initial_state
from gamehall.core.events import tag_of

from .common import COUNT, SEQ


class BadInput(GamehallError):
    """Input a debugging command cannot work with: exit code 2."""

    exit_code = 2


def register(sub: Any) -> None:
    """Add the debugging subcommands."""
    p = sub.add_parser("why", help="explain an event: command, hooks, rule and what it changed")
    p.add_argument("file", help="a full log (with its seed)")
    p.add_argument("seq", type=SEQ, metavar="SEQ")
    _plugins(p)
    p.set_defaults(func=run_why)

    p = sub.add_parser(
        "shrink", help="shrink a failing log to a shortest sequence that still fails"
    )
    p.add_argument("file")
    p.add_argument("--until", required=True, metavar="CONDITION",
                   help="invariant-fails[=NAME], refused=SEAT:COMMAND, raises, "
                   "outcome=draw|over|winner:SEAT, or module:function")  # fmt: skip
    p.add_argument("-o", "--output", required=True, metavar="FILE", help="the shrunk log")
    p.add_argument("--max-runs", type=COUNT, metavar="N", help="stop after N replays")
    p.add_argument("--max-seconds", type=float, metavar="S", help="stop after S seconds")
    _plugins(p)
    p.set_defaults(func=run_shrink)

    p = sub.add_parser("whatif", help="re-decide a match with one command dropped or replaced")
    p.add_argument("file")
    p.add_argument("--at", type=SEQ, required=True, metavar="SEQ", help="an event of the command")
    how = p.add_mutually_exclusive_group(required=True)
    how.add_argument("--drop", action="store_true", help="leave the command out")
    how.add_argument("--replace", metavar="COMMAND", help="send this command (JSON) instead")
    _plugins(p)
    p.set_defaults(func=run_whatif)

    p = sub.add_parser("to-test", help="write a pytest file that replays a log")
    p.add_argument("file")
    p.add_argument("-o", "--output", required=True, metavar="FILE.py")
    p.add_argument("--until", metavar="CONDITION", help="invariant-fails: assert every invariant")
    _plugins(p)
    p.set_defaults(func=run_to_test)


def _plugins(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--plugin", action="append", default=[], metavar="MODULE",
                        help="also load this plugin module (one not installed)")  # fmt: skip


def _log(args: argparse.Namespace) -> tuple[Log, Registry]:
    if args.plugin:
        try:
            modules = [importlib.import_module(name) for name in args.plugin]
        except ImportError as exc:
            raise BadInput(f"cannot load plugin module: {exc}") from None
        installed = default_registry()
        fresh = [m for m in modules if not installed.pm.is_registered(m)]
        registry = Registry(fresh) if fresh else installed
    else:
        registry = default_registry()
    try:
        log = load(args.file, registry)
    except GamehallError as exc:
        raise BadInput(str(exc)) from None
    if log.header.seat is not None or log.started.seed is None:
        raise BadInput(f"{args.file} is a seat's view (no seed): only a full log can be re-decided")
    return log, registry


def run_why(args: argparse.Namespace) -> int:
    """Explain one event of a log."""
    log, _ = _log(args)
    try:
        lines = why(log.ruleset, log.records, args.seq)
    except GamehallError as exc:
        raise BadInput(str(exc)) from None
    print("\n".join(lines))
    return 0


def run_shrink(args: argparse.Namespace) -> int:
    """Shrink a log and write the shortest sequence found."""
    log, registry = _log(args)
    try:
        condition = parse_condition(args.until)
        result = shrink(
            log.ruleset, log.records, condition, max_runs=args.max_runs,
            max_seconds=args.max_seconds, progress=lambda line: print(line, file=sys.stderr),
        )  # fmt: skip
    except GamehallError as exc:
        raise BadInput(str(exc)) from None
    table = Table(log.ruleset, log.started, stream=log.header.match)
    moves = result.moves[:-1] if result.raised else result.moves
    for seat, command in moves:
        table.send(seat, command)  # type: ignore[arg-type]
    records = table.records()
    write(args.output, records, None, registry)
    ratio = result.after / result.before if result.before else 0.0
    print(
        f"shrunk {result.before} commands to {result.after} ({ratio:.3f}) for {result.condition} "
        f"in {result.runs} runs, {result.seconds:.1f} s; wrote {len(records)} events to {args.output}"
    )
    if condition.kind == "invariant-fails":
        from gamehall.core.replay import bisect

        found = bisect(log.ruleset, records, condition.arg or None)
        if found is not None:
            print(f"invariant {found.invariant!r} fails first after event {found.seq}")
    if result.stopped:
        print(f"stopped at {result.stopped}: this is the best found so far")
    if result.raised:
        seat, command = result.moves[-1]
        shown = registry.codec.to_json(command).decode()
        print(f"the next command, seat {(seat or 0) + 1}'s {shown}, raises {result.raised}")
    return 0


def run_whatif(args: argparse.Namespace) -> int:
    """Re-decide the rest of a match after a change; report where it goes otherwise."""
    log, registry = _log(args)
    ruleset = log.ruleset
    replace = None
    if args.replace is not None:
        try:
            command = registry.codec.command_from_json(args.replace)
        except GamehallError as exc:
            raise BadInput(f"--replace: {exc}") from None
        seat = next(
            (r.meta.seat for r in reversed(log.records) if r.seq <= args.at and r.meta.command),
            None,
        )
        replace = (seat, command)
    try:
        result = whatif(ruleset, log.records, args.at, replace)
    except GamehallError as exc:
        raise BadInput(str(exc)) from None
    change = "dropping" if replace is None else "replacing"
    lines = [
        f"{change} the command of event {args.at}, then re-deciding the rest with the same seed:"
    ]
    if result.first_difference is None:
        lines.append("no event differs")
    else:
        lines.append(f"first difference at event {result.first_difference}:")
        own = [r.event for r in game_records(ruleset, log.records)]
        index = next(
            (i for i, (a, b) in enumerate(zip(own, result.events, strict=False)) if a != b),
            min(len(own), len(result.events)),
        )
        for label, events in (("recorded", own), ("now", result.events)):
            if index < len(events):
                lines.append(f"  {label + ':':9} {_told(ruleset, events, index)}")
            else:
                lines.append(f"  {label + ':':9} (no more events)")
    view = ruleset.rules.view(initial_state(ruleset, log.started), None)
    names = ruleset.seat_names(view, log.started.players)
    for seq, reason in result.refused:
        lines.append(f"the command at event {seq} is now refused: {reason}")
    lines.append(
        f"outcome now: {_outcome(result.outcome, names)}; "
        f"recorded: {_outcome(result.recorded_outcome, names)}"
    )
    lines.append(result.invariant and f"invariant {result.invariant}" or "every invariant holds")
    print("\n".join(lines))
    return 0


def _told(ruleset: Any, events: list[Any], index: int) -> str:
    """Tell ``events[index]`` in words, as a spectator of the whole log reads it."""
    state = fold(ruleset, initial_state(ruleset, events[0]), events[1:index])
    event = events[index]
    text = ruleset.describe_event(event, ruleset.rules.view(state, None), None)
    return f"{text} ({tag_of(type(event))})"


def _outcome(outcome: Any, names: list[str]) -> str:
    if outcome is None:
        return "the match goes on"
    if not outcome.winners:
        return "a draw"
    won = ", ".join(f"{names[s]} (seat {s + 1})" if s < len(names) else f"seat {s + 1}"
                    for s in outcome.winners)  # fmt: skip
    return f"won by {won}"


def run_to_test(args: argparse.Namespace) -> int:
    """Write a pytest file from a log."""
    log, _ = _log(args)
    name = re.sub(r"\W", "_", Path(args.output).stem.removeprefix("test_")) or "log"
    try:
        until = parse_condition(args.until, allow_code=False) if args.until else None
        text = to_test(log.ruleset, log.records, args.file, name, until, args.plugin)
    except GamehallError as exc:
        raise BadInput(str(exc)) from None
    Path(args.output).write_text(text)
    print(f"wrote {args.output}: {len(text.splitlines())} lines")
    return 0


__all__ = ["register", "seat_label"]
