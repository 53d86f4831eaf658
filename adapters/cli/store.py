"""``gamehall check-store``: SQLite's full integrity check and the checks of every event chain."""

from __future__ import annotations

import argparse
import sqlite3
from contextlib import closing
from pathlib import Path
from typing import Any

from gamehall.adapters.cli.common import add_db_option
from gamehall.core import DamagedStore, default_registry
from gamehall.core.store import SQLiteStore
from gamehall.core.store.sqlite import SCHEMA_VERSION, report_lines

SHOWN = 50


def register(sub: Any) -> None:
    """Add the ``check-store`` subcommand."""
    check = sub.add_parser(
        "check-store",
        help="check a store: SQLite's integrity_check, every row's checksum, no event missing",
    )
    add_db_option(check)
    check.set_defaults(func=run_check)


def run_check(args: argparse.Namespace) -> int:
    """Check every page and every row; print what is wrong; exit 1 if anything is."""
    registry = default_registry()
    try:
        store = SQLiteStore(args.db, registry.codec, readonly=True, quick_check_bytes=0)
    except DamagedStore as exc:
        if not Path(args.db).exists():
            raise
        print(f"{args.db}: {exc}")
        for line in _integrity(args.db):
            print(f"{args.db}: integrity_check: {line}")
        return 1
    try:
        problems = store.check()
        matches = 0 if problems else len(store.streams())
        schema = store.schema
    finally:
        store.close()
    for problem in problems[:SHOWN]:
        print(f"{args.db}: {problem}")
    if len(problems) > SHOWN:
        print(f"{args.db}: … and {len(problems) - SHOWN} more problems")
    if problems:
        print(f"{args.db}: damaged ({len(problems)} problems found)")
        return 1
    if schema is not None and schema < SCHEMA_VERSION:
        print(f"{args.db}: store schema {schema}: its rows get checksums when it is next opened")
    print(f"{args.db}: ok ({matches} matches; integrity_check, checksums and event chains)")
    return 0


def _integrity(path: str) -> list[str]:
    try:
        with closing(sqlite3.connect(f"{Path(path).resolve().as_uri()}?mode=ro", uri=True)) as db:
            return report_lines(row[0] for row in db.execute("PRAGMA integrity_check(20)"))
    except sqlite3.Error as exc:
        return [str(exc)]
