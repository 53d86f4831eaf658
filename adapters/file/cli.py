"""File commands: ``export``, ``import``, ``replay``, ``verify``, ``diff``, ``bisect``, ``run``."""

from __future__ import annotations

import argparse
from typing import Any

from gamehall.adapters.cli.common import SEQ, add_db_option, open_store, person_seat
from gamehall.core import GamehallError, default_registry, limits

from . import tools


def register(sub: Any) -> None:
    """Add the file subcommands."""
    export = sub.add_parser("export", help="write a stored match to a log file")
    export.add_argument("match", help="match id (see 'gamehall matches')")
    export.add_argument(
        "-o",
        "--output",
        required=True,
        metavar="FILE",
        help="FILE.jsonl (JSON Lines) or FILE.msgpack (MessagePack)",
    )
    export.add_argument(
        "--seat", type=person_seat, help="only what this seat (from 1) may see (no seed)"
    )
    add_db_option(export)
    export.set_defaults(func=run_export)

    imp = sub.add_parser("import", help="check a whole log file, then store its match")
    imp.add_argument("file", help="a full log written by 'gamehall export' or 'gamehall run'")
    imp.add_argument("--as", dest="as_id", metavar="NEW_ID", help="store the match under this id")
    add_db_option(imp)
    imp.set_defaults(func=run_import)

    replay = sub.add_parser("replay", help="show the board after an event, as a seat sees it")
    replay.add_argument("file")
    replay.add_argument(
        "--to", type=SEQ, metavar="N", help="stop after event N (default: the last)"
    )
    replay.add_argument(
        "--seat",
        type=person_seat,
        metavar="S",
        help="the seat (from 1) whose view to show (default: a spectator, or the log's seat)",
    )
    replay.add_argument(
        "--json", action="store_true", help="show the event as its JSON instead of in words"
    )
    replay.add_argument(
        "--diff", action="store_true", help="also show what the event changed in the seat's view"
    )
    replay.set_defaults(func=run_replay)

    verify = sub.add_parser(
        "verify", help="re-decide every command and report the first difference"
    )
    verify.add_argument("file")
    verify.set_defaults(func=run_verify)

    diff = sub.add_parser("diff", help="show what changed in the state between events A and B")
    diff.add_argument("file")
    diff.add_argument("a", type=SEQ, metavar="A")
    diff.add_argument("b", type=SEQ, metavar="B")
    diff.set_defaults(func=run_diff)

    bisect = sub.add_parser("bisect", help="find the first event after which an invariant fails")
    bisect.add_argument("file")
    bisect.add_argument("--invariant", metavar="NAME", help="one invariant (default: all of them)")
    bisect.set_defaults(func=run_bisect)

    run = sub.add_parser("run", help="play a file of commands and write its events")
    run.add_argument("commands", help="COMMANDS.jsonl: a match line, then one command per line")
    run.add_argument(
        "-o", "--output", required=True, metavar="FILE", help="FILE.jsonl or FILE.msgpack"
    )
    run.set_defaults(func=run_run)


def run_export(args: argparse.Namespace) -> int:
    """Write a stored match (or one seat's view of it) to a file."""
    registry = default_registry()
    store = open_store(args.db, registry)
    try:
        count = tools.export(store, registry, args.match, args.seat, args.output)
    finally:
        store.close()
    whose = "full log" if args.seat is None else f"seat {args.seat + 1}'s view"
    print(f"exported match {args.match} ({whose}, {count} events) to {args.output}")
    return 0


def run_import(args: argparse.Namespace) -> int:
    """Check a log file whole, then store its match."""
    registry = default_registry()
    log = tools.load(args.file, registry, "import")
    match = args.as_id or log.header.match
    limits.check_match_id(match, "--as" if args.as_id else "the log's match id")
    tools.check_importable(log)
    store = open_store(args.db, registry)
    try:
        if store.version(match):
            hint = "" if args.as_id else " (use --as NEW_ID to import it under another id)"
            raise GamehallError(f"match {match!r} already exists in {args.db}{hint}")
        tools.store_log(store, log, match)
    finally:
        store.close()
    print(f"imported match {match} ({len(log.records)} events) into {args.db}")
    return 0


def run_replay(args: argparse.Namespace) -> int:
    """Print the board after an event, as a seat would see it."""
    log = tools.load(args.file, default_registry())
    for line in tools.replay(log, args.to, args.seat, args.json):
        print(line)
    if args.diff:
        from gamehall.core.debug.statediff import change_lines, event_changes

        seat = log.header.seat if args.seat is None else args.seat
        change = event_changes(log.ruleset, log.records, args.to or log.last_seq, seat)
        print("changed in this seat's view:")
        for line in change_lines(change):
            print(f"  {line}")
    return 0


def run_verify(args: argparse.Namespace) -> int:
    """Re-decide every command of a log; exit 1 at the first difference."""
    log = tools.load(args.file, default_registry(), "verify")
    ok, lines = tools.verify(log)
    for line in lines:
        print(line)
    return 0 if ok else 1


def run_diff(args: argparse.Namespace) -> int:
    """Print the fields that differ between the states after events A and B."""
    log = tools.load(args.file, default_registry())
    for line in tools.diff(log, args.a, args.b):
        print(line)
    return 0


def run_bisect(args: argparse.Namespace) -> int:
    """Find the first event after which an invariant fails; exit 1 if one does."""
    log = tools.load(args.file, default_registry())
    ok, lines = tools.bisect(log, args.invariant)
    for line in lines:
        print(line)
    return 0 if ok else 1


def run_run(args: argparse.Namespace) -> int:
    """Play a file of commands into a log file."""
    registry = default_registry()
    records, summary = tools.run_commands(args.commands, registry)
    tools.write(args.output, records, None, registry)
    print(f"{summary}; wrote {len(records)} events to {args.output}")
    return 0
