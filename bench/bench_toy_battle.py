"""Random Toy Battle games through ``Table``: how many whole games a second."""

from __future__ import annotations

import time

from gamehall.core import RandomBot, Table

from bench import Figure

TERRAINS = ("castle", "pool", "clouds", "jungle", "cemetery", "caribbean", "metal-x", "battlefield")


def _games_per_second(games: int) -> float:
    started = time.perf_counter()
    for seed in range(games):
        table = Table.new(
            "toy-battle", options={"terrain": TERRAINS[seed % len(TERRAINS)]}, seed=seed
        )
        if table.play(RandomBot(seed)) is None:
            raise RuntimeError(f"toy-battle seed {seed} did not end")
    return games / (time.perf_counter() - started)


def run(quick: bool) -> dict[str, float]:
    """Return the median of 3 repeats of seeded random games on all eight terrains."""
    games = 8 if quick else 400
    rates = [_games_per_second(games) for _ in range(3)]
    return {"playouts.toy_battle.games_per_s": Figure(rates)}
