"""Search bots: MCTS iterations a second on tic-tac-toe against OpenSpiel's Python MCTS on the
same game in the same run, and IS-MCTS iterations a second on Toy Battle and River of Gold.

One iteration is one path down the tree and one evaluation: a random playout to the end for
tic-tac-toe (both sides alike: OpenSpiel's ``RandomRolloutEvaluator`` with one rollout, UCT
without its solver), the game's estimate after a fresh sample of the hidden parts for Toy
Battle and River of Gold. OpenSpiel comes with the ``bench`` extra only; without it the
figures that need it are left out.
"""

from __future__ import annotations

import time
from typing import Any

from gamehall.core import RandomBot, Table
from gamehall.core.bots import make_bot

from bench import Figure


def _ours(iterations: int) -> float:
    table = Table.new("tictactoe", seed=1)
    bot = make_bot(f"mcts:{iterations}", table.ruleset, 1)
    started = time.perf_counter()
    bot.choose(0, table.legal(0), lambda: table.view(0))
    return iterations / (time.perf_counter() - started)


def _openspiel(iterations: int) -> float | None:
    try:
        import numpy as np
        import pyspiel
        from open_spiel.python.algorithms import mcts
    except ImportError:
        return None
    game = pyspiel.load_game("tic_tac_toe")
    rng = np.random.RandomState(1)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng)
    bot = mcts.MCTSBot(
        game, uct_c=2, max_simulations=iterations, evaluator=evaluator, solve=False,
        random_state=rng,
    )  # fmt: skip
    state = game.new_initial_state()
    started = time.perf_counter()
    bot.step(state)
    return iterations / (time.perf_counter() - started)


def _midgame(game: str, commands: int, **kw: Any) -> Table:
    table = Table.new(game, seed=3, **kw)
    table.play(RandomBot(3), max_commands=commands)
    return table


def _ismcts(game: str, iterations: int, commands: int) -> float:
    table = _midgame(game, commands)
    seat = next(iter(table.awaiting()))
    legal = table.legal(seat)
    bot = make_bot(f"ismcts:{iterations}", table.ruleset, 1)
    started = time.perf_counter()
    bot.choose(seat, [*legal, *legal[:1]] if len(legal) == 1 else legal, lambda: table.view(seat))
    return iterations / (time.perf_counter() - started)


TARGETS = {"mcts.vs_openspiel": (">=", 1.0)}


def run(quick: bool) -> dict[str, float]:
    """Return 3 rounds of each figure (and the ratio to OpenSpiel, if there, round by round:
    ours and OpenSpiel's alternate, so both sides of a round meet the same load)."""
    ttt = 200 if quick else 5000
    hidden = 50 if quick else 2000
    mine: list[float] = []
    theirs: list[float | None] = []
    for _ in range(3):
        mine.append(_ours(ttt))
        theirs.append(_openspiel(ttt))
    ours = Figure(mine)
    figures = {
        "mcts.tictactoe.iterations_per_s": ours,
        "ismcts.toy_battle.iterations_per_s": Figure(
            _ismcts("toy-battle", hidden, 12) for _ in range(3)
        ),
        "ismcts.river_of_gold.iterations_per_s": Figure(
            _ismcts("river-of-gold", hidden, 40) for _ in range(3)
        ),
    }
    if all(rate is not None for rate in theirs):
        known = [rate for rate in theirs if rate is not None]
        figures["openspiel.tictactoe.iterations_per_s"] = Figure(known)
        figures["mcts.vs_openspiel"] = Figure(a / b for a, b in zip(mine, known, strict=True))
    return figures
