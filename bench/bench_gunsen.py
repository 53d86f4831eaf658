"""Random Gunsen games through ``Table``: how many whole games a second, every player count."""

from __future__ import annotations

import time

from gamehall.core import RandomBot, Table

from bench import Figure


def _games_per_second(games: int) -> float:
    started = time.perf_counter()
    for seed in range(games):
        table = Table.new("gunsen", 2 + seed % 5, seed=seed)
        if table.play(RandomBot(seed)) is None:
            raise RuntimeError(f"gunsen seed {seed} did not end")
    return games / (time.perf_counter() - started)


def run(quick: bool) -> dict[str, float]:
    """Return the median of 3 repeats of seeded random games over 2-6 players."""
    games = 5 if quick else 100
    rates = [_games_per_second(games) for _ in range(3)]
    return {"playouts.gunsen.games_per_s": Figure(rates)}
