"""The ``gamehall`` command: one entry point, with subcommands contributed by each adapter.

Each adapter module listed in :data:`COMMAND_MODULES` defines ``register(subparsers)``, which
adds its subcommands and sets ``func`` on each; ``func(args)`` returns the exit code.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from collections.abc import Sequence
from typing import Any

from gamehall.core import GamehallError
from gamehall.core.logs import configure

COMMAND_MODULES = (
    "gamehall.adapters.cli.demo",
    "gamehall.adapters.cli.calculate",
    "gamehall.adapters.stdin.cli",
    "gamehall.adapters.file.cli",
    "gamehall.adapters.http.cli",
    "gamehall.adapters.cli.store",
    "gamehall.adapters.cli.debug",
)

# Packages that come with an extra, not with gamehall itself: the extra to install for each.
EXTRAS = {"litestar": "http", "uvicorn": "http", "rich": "terminal", "psycopg": "postgres"}

# The commands of a module that needs an extra, listed so that they can say so when it is absent.
NEEDS_EXTRA = {"gamehall.adapters.http.cli": ("serve",)}


def build_parser() -> argparse.ArgumentParser:
    """Return the parser with every installed adapter's subcommands."""
    parser = argparse.ArgumentParser(
        prog="gamehall", description="Host board games as event-sourced actors."
    )
    parser.add_argument("--log-json", action="store_true", help="log as JSON lines on stderr")
    parser.add_argument("--log-level", default="warning", help="debug, info, warning or error")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in COMMAND_MODULES:
        try:
            module = importlib.import_module(name)
        except ModuleNotFoundError as exc:
            if exc.name and name.startswith(exc.name):
                continue  # that adapter is not part of this installation
            extra = missing_extra(exc)
            if extra is None or name not in NEEDS_EXTRA:
                raise
            for command in NEEDS_EXTRA[name]:
                _needs_extra(sub, command, exc.name or "", extra)
            continue
        module.register(sub)
    return parser


def missing_extra(exc: ModuleNotFoundError) -> str | None:
    """Return the extra that brings the module an import missed, or ``None``."""
    top = (exc.name or "").split(".")[0]
    return EXTRAS.get(top)


def extra_hint(package: str, extra: str) -> str:
    """Say, in words, what to install for a command whose package is missing."""
    return (
        f"this command needs {package}, which comes with the '{extra}' extra: "
        f"pip install 'gamehall[{extra}]'"
    )


def _needs_extra(sub: Any, command: str, package: str, extra: str) -> None:
    """Register ``command`` as one that only says which extra it needs."""
    parser = sub.add_parser(command, help=f"(needs: pip install 'gamehall[{extra}]')")
    parser.add_argument("rest", nargs=argparse.REMAINDER, help=argparse.SUPPRESS)

    def refuse(args: argparse.Namespace) -> int:
        print(f"error: {extra_hint(package, extra)}", file=sys.stderr)
        return 2

    parser.set_defaults(func=refuse)


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
        sys.stdout.flush()  # a closed pipe shows here, not at exit
    except GamehallError as exc:
        print(f"error: {exc}", file=sys.stderr)
        code = getattr(exc, "exit_code", 1)  # 2: the store cannot be reached or named
        return code if isinstance(code, int) else 1
    except KeyboardInterrupt:
        return 130
    except ModuleNotFoundError as exc:
        extra = missing_extra(exc)
        if extra is None:
            raise
        print(f"error: {extra_hint(exc.name or '', extra)}", file=sys.stderr)
        return 2
    except (BrokenPipeError, BaseExceptionGroup) as exc:  # the reader of stdout left?
        if not _broken_pipe(exc):
            raise
        return _stop_writing()
    return code


def _broken_pipe(exc: BaseException) -> bool:
    """Tell whether an error (or every error in a group) is a reader that went away."""
    if isinstance(exc, BaseExceptionGroup):
        return all(_broken_pipe(e) for e in exc.exceptions)
    return isinstance(exc, BrokenPipeError)


def _stop_writing() -> int:
    """End quietly when the reader of stdout left (``gamehall matches | head``).

    stdout goes to /dev/null so that the flush at exit cannot fail again; the exit code is the
    one of a command stopped by SIGPIPE.
    """
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError):  # stdout is no file (an embedding caller replaced it)
        pass
    return 128 + 13


if __name__ == "__main__":
    raise SystemExit(main())
