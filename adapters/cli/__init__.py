"""The ``gamehall`` command: one entry point, with subcommands contributed by each adapter.

Each adapter module listed in :data:`COMMAND_MODULES` defines ``register(subparsers)``, which
adds its subcommands and sets ``func`` on each; ``func(args)`` returns the exit code.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence

from gamehall.core import GamehallError
from gamehall.core.logs import configure

COMMAND_MODULES = (
    "gamehall.adapters.cli.demo",
    "gamehall.adapters.cli.calculate",
    "gamehall.adapters.stdin.cli",
    "gamehall.adapters.file.cli",
    "gamehall.adapters.http.cli",
)


def build_parser() -> argparse.ArgumentParser:
    """Return the parser with every installed adapter's subcommands."""
    parser = argparse.ArgumentParser(prog="gamehall", description="Host board games as event-sourced actors.")
    parser.add_argument("--log-json", action="store_true", help="log as JSON lines on stderr")
    parser.add_argument("--log-level", default="warning", help="debug, info, warning or error")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in COMMAND_MODULES:
        try:
            module = importlib.import_module(name)
        except ModuleNotFoundError as exc:
            if exc.name and name.startswith(exc.name):
                continue  # that adapter is not part of this installation
            raise
        module.register(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; return the exit code."""
    parser = build_parser()
    args = parser.parse_args(argv)
    configure(json=args.log_json, level=args.log_level)
    if not getattr(args, "func", None):
        parser.print_help()
        return 2
    try:
        code: int = args.func(args)
    except GamehallError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        return 130
    return code


if __name__ == "__main__":
    raise SystemExit(main())
