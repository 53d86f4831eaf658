"""Forks start only where a command's events end, for every game, and a fork always verifies."""

from __future__ import annotations

import pytest
from gamehall.core import RandomBot, Registry, Table, replay
from gamehall.core.errors import InvalidFork
from gamehall.core.hall import Hall
from gamehall.core.store import MemoryStore

pytestmark = pytest.mark.anyio
SEEDS = (1, 2)
COMMANDS = 24


def random_match(registry: Registry, game: str, seed: int) -> Table:
    """Play a seeded random prefix of a match (at most ``COMMANDS`` commands)."""
    table = Table.new(game, registry=registry, seed=seed)
    table.play(RandomBot(seed), max_commands=COMMANDS)
    return table


@pytest.mark.parametrize("seed", SEEDS)
async def test_every_fork_point_verifies_and_every_other_seq_is_refused(
    registry: Registry, seed: int
) -> None:
    for game in sorted(registry.games):
        table = random_match(registry, game, seed)
        records = table.records()
        points = set(replay.fork_points(records))
        store = MemoryStore(registry.codec)
        async with Hall(store, registry) as hall:
            match = await hall.import_records(records, match_id="m")
            for at_seq in range(1, len(records) + 2):
                streams = len(store.streams())
                if at_seq not in points:
                    with pytest.raises(InvalidFork, match=f"seq {at_seq} is"):
                        await hall.fork(match, at_seq)
                    assert len(store.streams()) == streams, "a refused fork wrote a match"
                    continue
                fork = await hall.fork(match, at_seq)
                forked = store.read(fork)
                assert len(forked) == at_seq
                ruleset = replay.ruleset_for(registry, forked)
                difference = replay.verify(ruleset, forked)
                assert difference is None, f"{game} seed {seed} fork at {at_seq}: {difference}"
                # the fork goes on from the same state: whoever is asked may act
                assert hall.view(fork, None).seq == at_seq


async def test_a_refused_fork_names_the_nearest_points_before_and_after(
    registry: Registry,
) -> None:
    table = Table.new("toy-battle", registry=registry, seed=3)
    table.play(RandomBot(3), max_commands=12)
    records = table.records()
    points = replay.fork_points(records)
    inside = next(s for s in range(points[1], points[-1]) if s not in points)
    before = max(p for p in points if p < inside)
    after = min(p for p in points if p > inside)
    async with Hall(MemoryStore(registry.codec), registry) as hall:
        match = await hall.import_records(records, match_id="tb")
        with pytest.raises(InvalidFork) as refused:
            await hall.fork(match, inside)
        assert f"nearest: {before} or {after}" in str(refused.value)
        with pytest.raises(InvalidFork, match=f"its last event is {len(records)}"):
            await hall.fork(match, len(records) + 5)
        with pytest.raises(InvalidFork, match="inside the match's setup"):
            await hall.fork(match, 1)
