"""River of Gold playouts per second: seeded random games through ``Table.play``."""

from __future__ import annotations

import time

from gamehall.core import RandomBot, Table

from bench import Figure


def games_per_second(games: int, players: int = 3) -> float:
    """Return how many seeded random games of River of Gold one core plays per second."""
    started = time.perf_counter()
    for seed in range(games):
        table = Table.new("river-of-gold", players, seed=seed)
        if table.play(RandomBot(seed)) is None:
            raise RuntimeError(f"seed {seed} did not finish")
    return games / (time.perf_counter() - started)


def run(quick: bool) -> dict[str, float]:
    """Return the median of 3 repeats."""
    games = 2 if quick else 40
    figures = [games_per_second(games) for _ in range(3)]
    return {"playouts.river_of_gold.games_per_s": Figure(figures)}
