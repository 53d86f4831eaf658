"""``gamehall check-store``: SQLite's full integrity check and the checks of every event chain;
``gamehall rebuild-lobby``: the lobby listing rebuilt from the matches' logs;
``gamehall expire-matches``: the matches left waiting for players too long expired now."""

from __future__ import annotations

import argparse
import sqlite3
from collections.abc import Iterator
from contextlib import closing
from pathlib import Path
from typing import Any

import anyio
from gamehall.adapters.cli.common import add_db_option
from gamehall.core import DamagedStore, GamehallError, default_registry, lifecycle
from gamehall.core.hall import Hall
from gamehall.core.seating import rebuild_lobby
from gamehall.core.store import SQLiteStore, Store
from gamehall.core.store.opening import open_store_url
from gamehall.core.store.sqlite import SCHEMA_VERSION, report_lines
from gamehall.core.store.url import parse_store_url
from gamehall.core.words import duration

SHOWN = 50


def register(sub: Any) -> None:
    """Add the ``check-store`` subcommand."""
    check = sub.add_parser(
        "check-store",
        help="check a store: SQLite's integrity_check, every row's checksum, no event missing",
    )
    add_db_option(check)
    check.add_argument(
        "--replay", action="store_true",
        help="also rebuild every match with the installed games and expansions (finds the "
        "matches an upgrade of a game can no longer read)",
    )  # fmt: skip
    check.set_defaults(func=run_check)
    rebuild = sub.add_parser(
        "rebuild-lobby",
        help="rebuild the lobby listing (seats, players, rematch links) from the matches' logs",
    )
    add_db_option(rebuild)
    rebuild.set_defaults(func=run_rebuild)
    expire = sub.add_parser(
        "expire-matches",
        help="expire now every match that waited for players longer than --after without an "
        "event (a server does this by itself)",
    )
    add_db_option(expire)
    expire.add_argument(
        "--after", type=_period, default=lifecycle.EXPIRE_AFTER, metavar="PERIOD",
        help="how long a match may wait for players without an event (30m, 24h, 7d; default 24h)",
    )  # fmt: skip
    expire.set_defaults(func=run_expire)


def _period(text: str) -> float:
    try:
        seconds = lifecycle.parse_period(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None
    if seconds is None:
        raise argparse.ArgumentTypeError("'never' expires nothing: give a period (24h, 7d)")
    return seconds


def run_expire(args: argparse.Namespace) -> int:
    """Expire the matches idle while waiting for players, each through its actor; say how many."""
    registry = default_registry()
    store = open_store_url(args.db, registry.codec)

    async def sweep() -> int:
        # No sweep of the hall's own runs beside this one: every expiry is counted here.
        async with Hall(store, registry, expire_after=None) as hall:
            return await hall.lifecycle.sweep(after=args.after)

    try:
        expired = anyio.run(sweep)
    finally:
        store.close()
    print(
        f"{args.db}: {expired} {'match' if expired == 1 else 'matches'} expired (waiting for "
        f"players with no event for {duration(args.after)} or more)"
    )
    return 0


def run_rebuild(args: argparse.Namespace) -> int:
    """Rebuild every match's listing entry from its log; say what changed."""
    registry = default_registry()
    store = open_store_url(args.db, registry.codec)
    try:
        done = rebuild_lobby(store, registry)
    finally:
        store.close()
    rewritten = len(done.changed)
    print(
        f"{args.db}: {done.matches} matches read; {rewritten} listing "
        f"{'entry' if rewritten == 1 else 'entries'} rewritten from the log"
    )
    for match in done.changed[:SHOWN]:
        print(f"{args.db}: match {match}: its listing differed from its log and was rewritten")
    if done.unrecorded:
        print(
            f"{args.db}: {len(done.unrecorded)} matches were stored before the listing went "
            "into the log: their listing is kept as it is"
        )
    if done.moved:
        print(
            f"{args.db}: {len(done.moved)} matches moved while being rebuilt: their own appends "
            "keep their listing; run again to check them"
        )
    return 0


def run_check(args: argparse.Namespace) -> int:
    """Check every page and every row; print what is wrong; exit 1 if anything is."""
    registry = default_registry()
    url = parse_store_url(args.db)
    if url.backend == "postgresql":
        return _check_shared(
            str(url), open_store_url(args.db, registry.codec), registry, args.replay
        )
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
        unread = _replay(store, registry) if args.replay and not problems else []
        schema = store.schema
    finally:
        store.close()
    if _report(args.db, problems, unread):
        return 1
    if schema is not None and schema < SCHEMA_VERSION:
        print(f"{args.db}: store schema {schema}: its rows get checksums when it is next opened")
    print(f"{args.db}: ok ({matches} matches; integrity_check, checksums and event chains"
          f"{REPLAYED if args.replay else ''})")  # fmt: skip
    return 0


REPLAYED = "; every match rebuilt with the installed games"


def _check_shared(shown: str, store: Store, registry: Any, replay: bool) -> int:
    """Check every row of a PostgreSQL store (its server keeps its own pages)."""
    try:
        problems = store.check()
        matches = 0 if problems else len(store.streams())
        unread = _replay(store, registry) if replay and not problems else []
    finally:
        store.close()
    if _report(shown, problems, unread):
        return 1
    print(
        f"{shown}: ok ({matches} matches; checksums and event chains{REPLAYED if replay else ''})"
    )
    return 0


def _report(shown: str, problems: list[Any], unread: list[str]) -> bool:
    """Print what a check found; tell whether it found anything."""
    for problem in problems[:SHOWN]:
        print(f"{shown}: {problem}")
    if len(problems) > SHOWN:
        print(f"{shown}: … and {len(problems) - SHOWN} more problems")
    if problems:
        print(f"{shown}: damaged ({len(problems)} problems found)")
        return True
    for line in unread[:SHOWN]:
        print(f"{shown}: {line}")
    if len(unread) > SHOWN:
        print(f"{shown}: … and {len(unread) - SHOWN} more matches that do not rebuild")
    if unread:
        some = "1 match does" if len(unread) == 1 else f"{len(unread)} matches do"
        print(f"{shown}: {some} not rebuild with the installed games")
        return True
    return False


def _replay(store: Store, registry: Any) -> list[str]:
    """Rebuild every match of a store as activating it would; say why each that fails does."""
    unread = []

    async def hall() -> Hall:  # a shared store's hall is made inside an event loop
        return Hall(store, registry)

    for match, loaded in anyio.run(hall).load_many(_match_ids(store)):
        if isinstance(loaded, GamehallError):
            unread.append(f"match {match} does not rebuild: {loaded}")
        elif isinstance(loaded, Exception):  # the game's own code failed
            unread.append(
                f"match {match} does not rebuild: the game's code raised "
                f"{type(loaded).__name__}: {loaded}"
            )
    return unread


def _match_ids(store: Store) -> Iterator[str]:
    """Every match id of a store, read a page at a time."""
    after = ""
    while page := store.streams(after, limit=1000):
        for entry in page:
            yield entry.stream
        after = page[-1].stream


def _integrity(path: str) -> list[str]:
    try:
        with closing(sqlite3.connect(f"{Path(path).resolve().as_uri()}?mode=ro", uri=True)) as db:
            return report_lines(row[0] for row in db.execute("PRAGMA integrity_check(20)"))
    except sqlite3.Error as exc:
        return [str(exc)]
