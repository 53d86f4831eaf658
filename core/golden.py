"""Golden replays: one seeded random match per combination, as a compact, reviewable record.

A golden file has one line a step, in the spirit of perft files: the seat, how many events the
command caused, a hash of those events, a hash of the whole state after them and the command in
words. A change to the rules shows as the first line that differs; the full transcript of a
match (every command, every event and the spectator's board after each command) is printed on
demand with ``python -m gamehall.core.golden --full CASE``.

``python -m gamehall.core.golden --update`` rewrites the files; the test suite regenerates
every registered combination's record in memory and fails on any difference, and when a
registered combination has no file or a file names no combination.
"""

from __future__ import annotations

import argparse
import hashlib
import sys
from collections.abc import Collection, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import msgspec

from .bots import RandomBot
from .conformance import Case, cases, table_for
from .events import Command, Event
from .registry import Registry, default_registry
from .table import Table

GOLDEN_SEED = 7
MAX_COMMANDS = 5_000
HASH_LENGTH = 12


def golden_cases(registry: Registry, only: Collection[str] | None = None) -> list[Case]:
    """Return one case per game, expansion set and test option set, at the lowest player count.

    With ``only`` (plugin ids: one distribution's games and expansions), just the cases that
    play one of them, so an outside package keeps golden files for its own plugins alone.
    """
    chosen: dict[tuple[object, ...], Case] = {}
    for case in cases(registry):
        if only is not None and case.game not in only and not set(case.expansions) & set(only):
            continue
        key = (
            case.game,
            case.expansions,
            repr(sorted(case.options.items())),
            repr(case.expansion_options),
        )
        if key not in chosen:
            chosen[key] = case
    return list(chosen.values())


@dataclass(frozen=True)
class Step:
    """One command of a golden match (``seat`` is ``None`` for the setup) and what it caused."""

    seat: int | None
    command: Command | None
    described: str
    first: int
    events: Sequence[Event]
    board: str


def steps(table: Table, seed: int = GOLDEN_SEED) -> Iterator[Step]:
    """Yield the setup, then each command a seeded random bot sends, until the match ends."""
    yield Step(None, None, "setup", 1, list(table.events), table.render(None))
    bot = RandomBot(seed)
    for _ in range(MAX_COMMANDS):
        asked = table.awaiting()
        if not asked:
            return
        seat = next(iter(asked))
        command = bot.choose(seat, table.legal(seat), lambda: None)
        described = table.ruleset.describe(command, table.view(seat), seat)
        first = table.seq + 1
        events = list(table.send(seat, command))
        yield Step(seat, command, described, first, events, table.render(None))


def digest(data: bytes) -> str:
    """Return the short hash a golden file shows for some bytes."""
    return hashlib.sha256(data).hexdigest()[:HASH_LENGTH]


def _header(case: Case, seed: int, kind: str) -> list[str]:
    return [
        f"# golden replay ({kind}): {case.name}, seed {seed}",
        "# regenerate: python -m gamehall.core.golden --update; "
        f"full transcript: python -m gamehall.core.golden --full {case.name}",
    ]


def playthrough(registry: Registry, case: Case, seed: int = GOLDEN_SEED) -> str:
    """Return the compact golden record of one seeded random match: one line a step."""
    table = table_for(registry, case, seed)
    codec = table.ruleset.codec
    lines = [
        *_header(case, seed, "compact"),
        "# step seat: events, hash of the events, hash of the state after them, the command",
    ]
    total = hashlib.sha256()
    count = events = 0
    for count, step in enumerate(steps(table, seed)):
        encoded = b"\n".join(codec.to_json(e) for e in step.events)
        state = _state_bytes(table.state)
        total.update(encoded + state)
        events += len(step.events)
        seat = "-" if step.seat is None else str(step.seat)
        lines.append(
            f"{count:4} {seat:>2}: {len(step.events):3} events {digest(encoded)} "
            f"state {digest(state)}  {step.described}"
        )
    outcome = table.outcome()
    lines.append(f"# outcome: {codec.to_json(outcome).decode()}")
    lines.append(f"# {count} commands, {events} events, digest {total.hexdigest()[:32]}")
    return "\n".join(lines) + "\n"


def _state_bytes(state: Any) -> bytes:
    # Sets and int-keyed maps in a canonical order, so the hash holds under any PYTHONHASHSEED.
    plain = msgspec.to_builtins(state, str_keys=True, order="deterministic")
    return msgspec.json.encode(plain, order="deterministic")


def transcript(registry: Registry, case: Case, seed: int = GOLDEN_SEED) -> str:
    """Return the full transcript of the same match: every command, event and board."""
    table = table_for(registry, case, seed)
    codec = table.ruleset.codec
    lines = _header(case, seed, "full")
    for step in steps(table, seed):
        if step.command is not None:
            shown = codec.to_json(step.command).decode()
            lines.append(f"> seat {step.seat}: {step.described}  {shown}")
        for offset, event in enumerate(step.events):
            lines.append(f"[{step.first + offset}] {codec.to_json(event).decode()}")
        lines.extend(step.board.splitlines())
    lines.append(f"# outcome: {codec.to_json(table.outcome()).decode()}")
    return "\n".join(lines) + "\n"


def path_for(folder: Path, case: Case) -> Path:
    """Return the file of a case."""
    return folder / f"{case.name}.txt"


def first_difference(expected: str, got: str) -> str:
    """Return where two golden records part, in words (the first line that differs)."""
    old, new = expected.splitlines(), got.splitlines()
    for number, (before, after) in enumerate(zip(old, new, strict=False), start=1):
        if before != after:
            return f"line {number}: file has {before!r}, the rules now give {after!r}"
    return f"the file has {len(old)} lines, the rules now give {len(new)}"


def check(
    registry: Registry,
    folder: Path,
    game: str | None = None,
    only: Collection[str] | None = None,
) -> list[str]:
    """Return what is wrong with a folder's golden files: missing, stale or unclaimed ones.

    With ``game``, only that game's combinations are checked, and files of others are left be;
    ``only`` keeps the cases of some plugins (see :func:`golden_cases`).
    """
    problems: list[str] = []
    chosen = [c for c in golden_cases(registry, only) if game is None or c.game == game]
    for case in chosen:
        path = path_for(folder, case)
        if not path.exists():
            problems.append(f"missing: {path} (write it with --update)")
            continue
        text, old = playthrough(registry, case), path.read_text()
        if old != text:
            where = first_difference(old, text)
            problems.append(f"differs: {path} at {where} (rewrite it with --update)")
    names = {path_for(folder, c).name for c in chosen}
    for path in sorted(folder.glob("*.txt")) if game is None else ():
        if path.name not in names:
            problems.append(f"unclaimed: {path} is the golden file of no registered combination")
    return problems


def main(argv: list[str] | None = None) -> int:
    """Check or rewrite the golden files, or print one match's full transcript."""
    parser = argparse.ArgumentParser(prog="python -m gamehall.core.golden")
    parser.add_argument("--dir", default="tests/golden", help="folder of the golden files")
    parser.add_argument("--update", action="store_true", help="rewrite the files")
    parser.add_argument("--game", help="only this game")
    parser.add_argument("--full", metavar="CASE", help="print the full transcript of one case")
    parser.add_argument(
        "--plugin",
        action="append",
        metavar="ID",
        help="only the cases that play this game or expansion (repeatable)",
    )
    parser.add_argument(
        "--distribution",
        action="append",
        metavar="NAME",
        help="only the plugins of this installed distribution (e.g. gamehall); default: all",
    )
    args = parser.parse_args(argv)
    folder = Path(args.dir)
    registry = (
        Registry(distributions=args.distribution) if args.distribution else default_registry()
    )
    chosen = [
        c for c in golden_cases(registry, args.plugin) if not args.game or c.game == args.game
    ]
    if args.full:
        named = [c for c in chosen if c.name == args.full]
        if not named:
            known = ", ".join(c.name for c in chosen)
            print(f"no golden case {args.full!r}; the cases are: {known}", file=sys.stderr)
            return 2
        sys.stdout.write(transcript(registry, named[0]))
        return 0
    if args.update:
        folder.mkdir(parents=True, exist_ok=True)
        for case in chosen:
            path_for(folder, case).write_text(playthrough(registry, case))
            print(f"wrote {path_for(folder, case)}")
        return 0
    problems = check(registry, folder, args.game, args.plugin)
    for problem in problems:
        print(problem, file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    raise SystemExit(main())
