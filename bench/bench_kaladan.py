"""Random Generals of Kaladan games through ``Table``, and the odds calculator's worked example."""

from __future__ import annotations

import time

from gamehall.core import RandomBot, Table, default_registry
from gamehall.core import calculators as calc

from bench import Figure

WORKED_EXAMPLE = {
    "attacker": ["general", "archer", "archer", "sword"],
    "attacker_terrain": "forest",
    "defender": ["general", "shield"],
    "defender_terrain": "mountain",
}


def _games_per_second(games: int) -> float:
    started = time.perf_counter()
    for seed in range(games):
        table = Table.new("kaladan", 2 + seed % 5, seed=seed)
        if table.play(RandomBot(seed)) is None:
            raise RuntimeError(f"kaladan seed {seed} did not end")
    return games / (time.perf_counter() - started)


def _worked_example_seconds() -> float:
    calculator = calc.find(default_registry(), "kaladan", "odds")
    started = time.perf_counter()
    answer = calc.calculate(calculator, calc.decode(calculator, WORKED_EXAMPLE))
    if answer.method != "exact":
        raise RuntimeError("the worked example should be counted exactly")
    return time.perf_counter() - started


def run(quick: bool) -> dict[str, float]:
    """Return medians of 3 repeats: seeded random games for 2 to 6 players, and the time the
    odds calculator takes to count the seed's worked example exactly."""
    games = 5 if quick else 200
    rates = [_games_per_second(games) for _ in range(3)]
    odds = [_worked_example_seconds() for _ in range(3)]
    return {
        "playouts.kaladan.games_per_s": Figure(rates),
        "odds.kaladan.worked_example_s": Figure(odds),
    }
