"""Golden replays: one seeded random match per combination, as a readable log.

Each file shows every command, every event and the board (as a spectator sees it) after each
command. ``python -m gamehall.core.golden --update`` rewrites the files; the test suite
regenerates them in memory and fails on any difference, and when a registered combination
has no file.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from .bots import RandomBot
from .conformance import Case, cases, table_for
from .registry import Registry, default_registry

GOLDEN_SEED = 7
MAX_COMMANDS = 5_000


def golden_cases(registry: Registry) -> list[Case]:
    """Return one case per game, expansion set and test option set, at the lowest player count."""
    chosen: dict[tuple[object, ...], Case] = {}
    for case in cases(registry):
        key = (
            case.game,
            case.expansions,
            repr(sorted(case.options.items())),
            repr(case.expansion_options),
        )
        if key not in chosen:
            chosen[key] = case
    return list(chosen.values())


def playthrough(registry: Registry, case: Case, seed: int = GOLDEN_SEED) -> str:
    """Return the golden text of one seeded random match."""
    table = table_for(registry, case, seed)
    codec = table.ruleset.codec
    lines = [
        f"# golden replay: {case.name}, seed {seed}",
        "# regenerate: python -m gamehall.core.golden --update",
    ]
    for seq, event in enumerate(table.events, start=1):
        lines.append(f"[{seq}] {codec.to_json(event).decode()}")
    lines.extend(table.render(None).splitlines())
    bot = RandomBot(seed)
    for _ in range(MAX_COMMANDS):
        asked = table.awaiting()
        if not asked:
            break
        seat = next(iter(asked))
        command = bot.choose(seat, table.legal(seat), lambda: None)
        described = table.ruleset.describe(command, table.view(seat), seat)
        lines.append(f"> seat {seat}: {described}  {codec.to_json(command).decode()}")
        first = table.seq + 1
        for offset, event in enumerate(table.send(seat, command)):
            lines.append(f"[{first + offset}] {codec.to_json(event).decode()}")
        lines.extend(table.render(None).splitlines())
    outcome = table.outcome()
    lines.append(f"# outcome: {codec.to_json(outcome).decode()}")
    return "\n".join(lines) + "\n"


def path_for(folder: Path, case: Case) -> Path:
    """Return the file of a case."""
    return folder / f"{case.name}.txt"


def main(argv: list[str] | None = None) -> int:
    """Check or rewrite the golden files."""
    parser = argparse.ArgumentParser(prog="python -m gamehall.core.golden")
    parser.add_argument("--dir", default="tests/golden", help="folder of the golden files")
    parser.add_argument("--update", action="store_true", help="rewrite the files")
    parser.add_argument("--game", help="only this game")
    parser.add_argument(
        "--distribution",
        action="append",
        metavar="NAME",
        help="only the plugins of this installed distribution (e.g. gamehall); default: all",
    )
    args = parser.parse_args(argv)
    folder = Path(args.dir)
    folder.mkdir(parents=True, exist_ok=True)
    registry = Registry(distributions=args.distribution) if args.distribution else default_registry()
    stale = 0
    for case in golden_cases(registry):
        if args.game and case.game != args.game:
            continue
        text = playthrough(registry, case)
        path = path_for(folder, case)
        if args.update:
            path.write_text(text)
            print(f"wrote {path}")
        elif not path.exists():
            stale += 1
            print(f"missing: {path} (write it with --update)", file=sys.stderr)
        elif path.read_text() != text:
            stale += 1
            print(f"differs: {path} (rewrite it with --update)", file=sys.stderr)
    return 1 if stale else 0


if __name__ == "__main__":
    raise SystemExit(main())
