"""The lobby listing is a projection of the log: rebuilt from it, it equals the live one.

Random sequences of lobby operations and commands (create with players, open seats and bots,
take seats, leave and free them, play moves to the end, rematches, renames, abandon and expire
matches) run on every store; the listing is
then wrecked and rebuilt from the logs, and must equal what the live appends wrote.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

import anyio
import pytest
from gamehall.core import Registry
from gamehall.core.errors import GamehallError
from gamehall.core.events import ExpireMatch
from gamehall.core.hall import Hall
from gamehall.core.seating import normal, rebuild_lobby
from gamehall.core.store import MemoryStore, SQLiteStore, Store
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from tests.postgres import drop_schema, need_postgres, schema_url

Op = tuple[str, int, int, int]
OPS = st.lists(
    st.tuples(
        st.sampled_from(
            [
                "create",
                "take",
                "take-any",
                "bot",
                "move",
                "play-out",
                "rematch",
                "rename",
                "leave",
                "free",
                "abandon",
                "expire",
            ]  # fmt: skip
        ),
        st.integers(0, 5),
        st.integers(0, 5),
        st.integers(0, 2**16),
    ),
    min_size=1,
    max_size=25,
)


async def run_ops(hall: Hall, ops: list[Op]) -> list[str]:
    """Run lobby operations and commands; refusals are part of the game. Return the matches."""
    players = [(await hall.lobby.register(f"P{i}"))[0].player for i in range(4)]
    matches: list[str] = []
    for kind, a, b, seed in ops:
        rng = random.Random(seed)
        try:
            if kind == "create" or not matches:
                game, count = ("tictactoe", 2) if a % 2 == 0 else ("gunsen", 3)
                seated = {s: players[(s + b) % 4] for s in range(count) if rng.random() < 0.3}
                bots = {s: "random" for s in range(count) if s not in seated and rng.random() < 0.2}
                free = [s for s in range(count) if s not in seated and s not in bots]
                matches.append(await hall.create(
                    game, count, seed=seed, seat_players=seated, bots=bots, open_seats=free,
                    clock="move:600" if rng.random() < 0.2 else None,
                    creator=players[b % 4] if rng.random() < 0.6 else None,
                ))  # fmt: skip
                continue
            match = matches[a % len(matches)]
            if kind == "take":
                await hall.lobby.take_seat(match, players[b % 4], b % 3)
            elif kind == "bot":
                await hall.lobby.give_seat_to_bot(match, b % 3, "random", seed)
            elif kind == "take-any":
                await hall.lobby.take_seat(match, None if b % 2 else players[b % 4])
            elif kind in ("move", "play-out"):
                for _ in range(1 if kind == "move" else 40):
                    awaiting = sorted(hall.awaiting(match))
                    if not awaiting:
                        break
                    seat = awaiting[0]
                    await hall.send(match, seat, rng.choice(hall.legal(match, seat)))
            elif kind == "rematch":
                again = await hall.rematch(match, seed=seed)
                if again not in matches:  # asked again, the same rematch
                    matches.append(again)
            elif kind == "leave":  # its holder leaves a seat (or someone else tries)
                held = hall.lobby.holders(match)
                who = held[b % len(held)] if a % 3 else None
                await hall.lobby.leave_seat(match, who or players[b % 4], b % len(held))
            elif kind == "free":
                creator = hall.lobby.entry(match).creator
                await hall.lobby.leave_seat(match, creator or players[0], b % 3)
            elif kind == "abandon":
                await hall.lobby.abandon(match, hall.lobby.entry(match).creator or players[b % 4])
            elif kind == "expire":
                idle = ExpireMatch(idle=3600.0, version=hall.store.version(match))
                await hall.lobby_command(match, idle)
            elif kind == "rename":
                await hall.lobby.rename(players[b % 4], None if a % 3 == 0 else f"N{seed}")
        except GamehallError:
            pass
    return matches


def listed(hall: Hall) -> dict[str, set[str]]:
    """Return what the listing's filters find: by player, open, finished."""
    found = {
        "open": {e.match for e in hall.lobby.find(open_seats=True, limit=500).matches},
        "finished": {e.match for e in hall.lobby.find(finished=True, limit=500).matches},
        "ended": {e.match for e in hall.lobby.find(limit=500).matches if e.ended},
    }
    for player in {p for e in hall.lobby.find(limit=500).matches for p in _ids(e)}:
        found[player] = {e.match for e in hall.lobby.find(player=player, limit=500).matches}
    return found


def _ids(entry: Any) -> list[str]:
    return [s.player for s in entry.seats if s.player is not None]


def check_rebuild(registry: Registry, store: Store, ops: list[Op]) -> None:
    async def body() -> None:
        async with Hall(store, registry, idle_seconds=60.0) as hall:
            matches = await run_ops(hall, ops)
            if ops == LIFECYCLE:  # the fixed example makes every lifecycle event
                made = {type(r.event).__name__ for m in matches for r in hall.read(m)}
                assert {"SeatReleased", "MatchAbandoned", "MatchExpired"} <= made
            for match in matches:  # the bots' moves land before anything is compared
                await hall.bots.settled(match)
            live = {m: normal(store.stream_info(m).info) for m in matches}  # type: ignore[union-attr]
            indexed = listed(hall)
            # Rebuilt from the logs now: nothing differs from what the appends wrote.
            untouched = rebuild_lobby(store, registry)
            assert untouched.changed == [] and untouched.unrecorded == []
            # Wrecked, then rebuilt: every entry (and its index) is back.
            for match in matches:
                assert store.put_entry(match, {"game": "wrecked"}, store.version(match))
            rebuilt = rebuild_lobby(store, registry)
            assert sorted(rebuilt.changed) == sorted(matches)
            again = {m: normal(store.stream_info(m).info) for m in matches}  # type: ignore[union-attr]
            assert again == live
            assert listed(hall) == indexed  # the index (players, open seats) is rebuilt too

    anyio.run(body)


# Every lifecycle event on every store: a seat left, taken, freed by the creator; a match
# abandoned; one expired; one left waiting with a seat taken.
LIFECYCLE: list[Op] = [
    ("create", 0, 0, 1), ("leave", 3, 0, 1), ("take", 0, 1, 1), ("free", 0, 1, 1),
    ("abandon", 0, 0, 1), ("create", 0, 0, 13), ("expire", 1, 0, 1), ("create", 0, 0, 14),
    ("take", 2, 1, 1),
]  # fmt: skip

SETTINGS = settings(
    max_examples=10, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)


@SETTINGS
@given(ops=OPS)
@example(ops=LIFECYCLE)
def test_rebuilt_lobby_equals_live_on_memory(registry: Registry, ops: list[Op]) -> None:
    check_rebuild(registry, MemoryStore(registry.codec), ops)


@SETTINGS
@given(ops=OPS)
@example(ops=LIFECYCLE)
def test_rebuilt_lobby_equals_live_on_sqlite(
    registry: Registry, tmp_path_factory: pytest.TempPathFactory, ops: list[Op]
) -> None:
    path = tmp_path_factory.mktemp("rebuild") / "hall.db"
    store = SQLiteStore(path, registry.codec)
    try:
        check_rebuild(registry, store, ops)
    finally:
        store.close()


@settings(
    max_examples=5, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(ops=OPS)
@example(ops=LIFECYCLE)
def test_rebuilt_lobby_equals_live_on_postgres(registry: Registry, ops: list[Op]) -> None:
    need_postgres()
    from gamehall.core.store.postgres import PostgresStore

    schema = f"test_rebuild_{random.getrandbits(40):x}"
    store = PostgresStore(schema_url(schema), registry.codec)
    try:
        check_rebuild(registry, store, ops)
    finally:
        store.close()
        drop_schema(schema)


def test_rebuild_lobby_command(registry: Registry, tmp_path: Path, capsys: Any) -> None:
    import argparse

    from gamehall.adapters.cli.store import run_rebuild

    path = tmp_path / "hall.db"
    store = SQLiteStore(path, registry.codec)
    ops: list[Op] = [("create", 0, 1, 5), ("take-any", 0, 1, 1), ("play-out", 0, 0, 2)]
    check_rebuild(registry, store, ops)
    match = store.streams()[0].stream
    assert store.put_entry(match, {"game": "wrecked"}, store.version(match))
    store.close()
    # The subcommand's own function: the whole CLI would configure the process's logging.
    run: Callable[[argparse.Namespace], int] = run_rebuild
    assert run(argparse.Namespace(db=str(path))) == 0
    out = capsys.readouterr().out
    assert "1 listing entry rewritten" in out
    store = SQLiteStore(path, registry.codec)
    try:
        assert store.stream_info(match).info["game"] == "tictactoe"  # type: ignore[union-attr]
    finally:
        store.close()
