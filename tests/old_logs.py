"""Logs an older version of a plugin made, verified and resumed by today's version.

A plugin that changes a default or adds an option keeps logs of its earlier versions (made by
that version's code, never edited) beside its tests; these helpers check that today's code
re-decides every recorded command to the same events and that the match goes on from where the
log stops, in a hall, with the options the match began with.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from gamehall.adapters.file.logfile import Log, read_log
from gamehall.adapters.file.tools import verify
from gamehall.core import RandomBot, Registry, default_registry
from gamehall.core import replay as core_replay
from gamehall.core.hall import Hall
from gamehall.core.store import MemoryStore


def verified(path: Path, registry: Registry | None = None) -> Log:
    """Read a log file, assert that today's code verifies it, and return it."""
    log = read_log(path, registry or default_registry())
    ok, lines = verify(log)
    assert ok, "\n".join(lines)
    return log


async def resumed(log: Log, commands: int, seed: int = 1) -> tuple[Any, Any]:
    """Import a log into a hall, play on with random legal commands; return the states.

    Returns the state the hall resumed from and the state after up to ``commands`` more
    commands (fewer when the match ends); the whole stored match is verified again after.
    """
    registry = default_registry()
    async with Hall(MemoryStore(registry.codec), registry) as hall:
        match = await hall.import_records(log.records, match_id="resumed")
        first = hall.state(match)
        bot = RandomBot(seed)
        for _ in range(commands):
            awaiting = hall.awaiting(match)
            if not awaiting:
                break
            seat = next(iter(awaiting))
            command = bot.choose(seat, hall.legal(match, seat), lambda: None)
            await hall.send(match, seat, command)
        records = hall.read(match)
        assert len(records) > len(log.records), "the resumed match took no command"
        difference = core_replay.verify(hall.ruleset(match), records)
        assert difference is None, difference
        return first, hall.state(match)
