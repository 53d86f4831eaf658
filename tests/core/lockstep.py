"""Tic-tac-toe matches played in lockstep through a Hall: every match sends its next move once
the last one is acknowledged, as the durable benchmark's clients do. The shape in which the
journal's overlapped commits split one round into two groups."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

import anyio
from gamehall.core.codec import Codec
from gamehall.core.hall import Hall
from gamehall.core.store import SQLiteStore
from gamehall.plugins.tictactoe import PlaceMark

MOVES = [(0, 0), (1, 3), (0, 1), (1, 4)]  # (seat, cell): no line yet


async def play_in_lockstep(hall: Hall, count: int) -> tuple[list[str], list[tuple[str, int]], int]:
    """Create ``count`` matches, play MOVES in each at once; return the matches, each
    acknowledgement's (match, last seq) and the journal's commits made while they played."""
    matches = [await hall.create("tictactoe", seed=n) for n in range(count)]
    heard: list[tuple[str, int]] = []
    created = hall.journal.commits

    async def play(match: str) -> None:
        for seat, cell in MOVES:
            ack = await hall.send(match, seat, PlaceMark(cell=cell))
            heard.append((match, ack.last_seq))

    with anyio.fail_after(30):
        async with anyio.create_task_group() as tg:
            for match in matches:
                tg.start_soon(play, match)
    return matches, heard, hall.journal.commits - created


def stored_versions(path: Path, codec: Codec, matches: Iterable[str]) -> set[int]:
    """Open an SQLite store again and return the versions its matches are stored at."""
    again = SQLiteStore(path, codec)
    try:
        return {again.version(match) for match in matches}
    finally:
        again.close()
