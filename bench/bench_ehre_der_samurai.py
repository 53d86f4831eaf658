"""Random Ehre der Samurai games through ``Table``: how many whole games a second."""

from __future__ import annotations

import time

from gamehall.core import RandomBot, Table

from bench import Figure

PLAYERS = (3, 4, 5, 6)


def _games_per_second(games: int) -> float:
    started = time.perf_counter()
    for seed in range(games):
        table = Table.new("ehre-der-samurai", PLAYERS[seed % len(PLAYERS)], seed=seed)
        if table.play(RandomBot(seed)) is None:
            raise RuntimeError(f"ehre-der-samurai seed {seed} did not end")
    return games / (time.perf_counter() - started)


def run(quick: bool) -> dict[str, float]:
    """Return the median of 3 repeats of seeded random games with 3 to 6 players."""
    games = 8 if quick else 400
    rates = [_games_per_second(games) for _ in range(3)]
    return {"playouts.ehre_der_samurai.games_per_s": Figure(rates)}
