"""What every command of the ``gamehall`` CLI shares: the store option, whole-number and
``K=V`` arguments, and the one-line outcome. Each adapter's commands take these from here."""

from __future__ import annotations

import argparse
import json
import os
import sqlite3
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from gamehall.adapters.launch import ALLOCATOR_ENV, ALLOCATORS, allocator_refusal
from gamehall.core import GamehallError, InvalidOptions, Registry, default_registry, words
from gamehall.core.limits import INT64_MAX
from gamehall.core.store import Store
from gamehall.core.store.opening import open_store_url

DEFAULT_DB = "gamehall.db"


def open_store(path: str, registry: Registry | None = None) -> Store:
    """Open (or create) the store ``path`` names: a file path or ``sqlite:///PATH`` (SQLite),
    ``postgresql://…`` (PostgreSQL, with the ``postgres`` extra), ``memory:``."""
    registry = registry or default_registry()
    try:
        return open_store_url(path, registry.codec)
    except sqlite3.Error as exc:  # a directory, a file that is not a database
        raise GamehallError(f"cannot open the store {path!r}: {exc}") from None


def add_server_limits(parser: argparse.ArgumentParser) -> None:
    """Add the options every server shares: the largest bot budget a match may ask for and
    how many matches stay active at once (``--max-bot-iterations``, ``--max-bot-seconds``,
    ``--max-active``)."""
    from gamehall.core.bots.spec import MAX_ITERATIONS, MAX_SECONDS, BudgetLimit
    from gamehall.core.hall import MAX_ACTIVE

    limit = BudgetLimit()
    parser.add_argument(
        "--max-bot-iterations", type=int_arg(1, MAX_ITERATIONS), default=limit.iterations,
        metavar="N", help=f"largest iteration budget of a bot a decision (default {limit.iterations:,})",
    )  # fmt: skip
    parser.add_argument(
        "--max-bot-seconds", type=float_arg(0.001, MAX_SECONDS), default=limit.seconds,
        metavar="SECONDS", help=f"largest time budget of a bot a decision (default {limit.seconds:g})",
    )  # fmt: skip
    parser.add_argument(
        "--max-active", type=int_arg(1, 10**7), default=MAX_ACTIVE, metavar="N",
        help="matches kept active at once; past it the least recently used resting ones are "
        f"passivated (default {MAX_ACTIVE:,})",
    )  # fmt: skip
    parser.add_argument(
        "--allocator", default=None, choices=ALLOCATORS,
        help="memory allocator: c (default: the C library's, which gives the memory of "
        "matches gone to rest back to the system) or python (Python's own, a little faster, "
        f"keeps a peak's memory); also ${ALLOCATOR_ENV}; PYTHONMALLOC, when set, wins",
    )  # fmt: skip


def check_server_limits(args: argparse.Namespace) -> None:
    """Refuse in words what :func:`add_server_limits`' options take from the environment."""
    refusal = allocator_refusal(args.allocator, os.environ)
    if refusal:
        raise GamehallError(refusal)


def float_arg(low: float, high: float) -> Callable[[str], float]:
    """Return an argparse type taking a number within ``low..high``."""

    def parse(text: str) -> float:
        try:
            value = float(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None
        if not low <= value <= high:
            raise argparse.ArgumentTypeError(f"{text!r} must be from {low:g} to {high:g}")
        return value

    return parse


def int_arg(low: int = 0, high: int = INT64_MAX) -> Callable[[str], int]:
    """Return an argparse type taking a whole number within ``low..high``."""

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
        if not low <= value <= high:
            raise argparse.ArgumentTypeError(f"{text!r} must be between {low} and {high}")
        return value

    return parse


SEQ = int_arg(0)
SEED = int_arg(0)
SEAT = int_arg(0)
COUNT = int_arg(0)


def person_seat(text: str) -> int:
    """Read a seat as people count it, from 1, and return the API's seat (from 0).

    ``0``, the form of earlier versions, is refused with a message saying what changed.
    """
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a seat number") from None
    if value == 0:
        raise argparse.ArgumentTypeError("seats are counted from 1 now: the first seat is 1")
    if not 1 <= value <= INT64_MAX:
        raise argparse.ArgumentTypeError(f"{text!r} is no seat: seats are counted from 1")
    return value - 1


def parse_value(text: str) -> Any:
    """Read an option value: JSON when it parses (``3``, ``true``, ``[1,2]``), else the text."""
    try:
        return json.loads(text)
    except ValueError:
        return text


def parse_options(pairs: Iterable[str]) -> tuple[dict[str, Any], dict[str, dict[str, Any]]]:
    """Split ``K=V`` options into game options and per-expansion ones (``EXPANSION:K=V``)."""
    options: dict[str, Any] = {}
    per_expansion: dict[str, dict[str, Any]] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key:
            raise InvalidOptions(f"option {pair!r} is not KEY=VALUE")
        owner, colon, name = key.rpartition(":")
        target = per_expansion.setdefault(owner, {}) if colon else options
        target[name if colon else key] = parse_value(value)
    return options, per_expansion


def add_db_option(
    parser: argparse.ArgumentParser, *, default: str | None = DEFAULT_DB, help: str = ""
) -> None:
    """Add ``--db``, the store a command reads and writes (see :func:`open_store`)."""
    shown = help or (
        f"the store: an SQLite file (default ./{default}) or postgresql://…"
        if default
        else "store the matches here: an SQLite file or postgresql://…"
    )
    parser.add_argument("--db", default=default, help=shown)


def outcome_text(outcome: Any, names: Sequence[str] | None = None) -> str:
    """Return how a match ended in one line of words."""
    if outcome is None:
        return "in progress"
    players = max([*outcome.winners, len(outcome.scores or ()) - 1, 0]) + 1
    shown = list(names) if names is not None else [words.seat_label(s) for s in range(players)]
    return words.outcome_lines(outcome, shown)[0].rstrip(".")
