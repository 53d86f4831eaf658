"""The clients of the durable figures: one task a match, each playing random legal moves.

Every client is made, its bot seeded and its task started before the clock starts: the
figures time the commands (what the hall does), not the harness making its clients. Once
every client waits at the gate, the collector's youngest generation is emptied (what making
the clients left in it, about 30 tracked objects a task with anyio's task handles, would
otherwise be scanned by the first collection of the play, at 10,000 clients 55-80 ms of
a 1.8 s round, paid by the commands), the clock starts and the gate opens.
"""

from __future__ import annotations

import gc
import time
from collections.abc import Sequence

import anyio
from gamehall.core import RandomBot
from gamehall.core.hall import Hall


def _no_view() -> None:
    return None


async def play_all(hall: Hall, ids: Sequence[str], seed: int = 0) -> tuple[int, float]:
    """Play every match of ``ids`` to its end at once; return commands sent and the seconds
    from the gate's opening to the last answer."""
    counted = [0]
    gate = anyio.Event()
    ready = anyio.Event()
    waiting = [len(ids)]

    async def play(match: str, bot: RandomBot) -> None:
        waiting[0] -= 1
        if not waiting[0]:
            ready.set()
        await gate.wait()
        sent = 0
        while True:
            asked = hall.awaiting(match)
            if not asked:
                break
            seat = next(iter(asked))
            await hall.send(match, seat, bot.choose(seat, hall.legal(match, seat), _no_view))
            sent += 1
        counted[0] += sent

    started = 0.0
    async with anyio.create_task_group() as tg:
        for i, match in enumerate(ids):
            tg.start_soon(play, match, RandomBot(seed + i))
        if ids:
            await ready.wait()
        gc.collect(0)
        started = time.perf_counter()
        gate.set()
    return counted[0], time.perf_counter() - started
