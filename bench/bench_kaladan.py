"""Random Generals of Kaladan games through ``Table``, and the odds calculator's worked example."""

from __future__ import annotations

import statistics
import time

from gamehall.core import RandomBot, Table


def _games_per_second(games: int) -> float:
    started = time.perf_counter()
    for seed in range(games):
        table = Table.new("kaladan", 2 + seed % 5, seed=seed)
        if table.play(RandomBot(seed)) is None:
            raise RuntimeError(f"kaladan seed {seed} did not end")
    return games / (time.perf_counter() - started)


def run(quick: bool) -> dict[str, float]:
    """Return the median of 3 repeats: seeded random games for 2 to 6 players."""
    games = 5 if quick else 200
    rates = [_games_per_second(games) for _ in range(3)]
    return {"playouts.kaladan.games_per_s": statistics.median(rates)}
