"""How well the bots play, on fixed seeds with modest budgets (the long runs in make test-long).

MCTS never loses tic-tac-toe to the random bot; IS-MCTS, deciding from its seat's view alone,
beats the random bot in at least 70% of the matches of Toy Battle and two-player River of Gold.
The bot takes each seat in turn.
"""

from __future__ import annotations

import pytest
from gamehall.core import RandomBot, Registry, Table
from gamehall.core.bots import make_bot

TOY_BATTLE = "ismcts:60"
RIVER_OF_GOLD = "ismcts:30"


def results(registry: Registry, game: str, spec: str, games: int, seed: int) -> list[str]:
    """Play the bot against the random bot; return W, D or L per match, from the bot's side."""
    ruleset = registry.ruleset(game)
    out = []
    for index in range(games):
        table = Table(ruleset, ruleset.started(2, None, None, seed + index))
        mine = index % 2
        bots = {mine: make_bot(spec, ruleset, seed + index), 1 - mine: RandomBot(seed - index)}
        outcome = table.play(bots)
        assert outcome is not None, f"{game} seed {seed + index} did not end"
        won = mine in outcome.winners
        out.append("D" if not outcome.winners else "W" if won else "L")
    return out


def test_mcts_never_loses_tictactoe_to_random_in_50_matches(registry: Registry) -> None:
    played = results(registry, "tictactoe", "mcts:200", 50, 100)
    assert "L" not in played, "".join(played)


@pytest.mark.parametrize(
    ("game", "spec"), [("toy-battle", TOY_BATTLE), ("river-of-gold", RIVER_OF_GOLD)]
)
def test_ismcts_beats_random_in_20_matches(registry: Registry, game: str, spec: str) -> None:
    played = results(registry, game, spec, 20, 200)
    assert played.count("W") >= 14, "".join(played)


@pytest.mark.long
@pytest.mark.parametrize(
    ("game", "spec"), [("toy-battle", TOY_BATTLE), ("river-of-gold", RIVER_OF_GOLD)]
)
def test_ismcts_beats_random_in_100_matches(registry: Registry, game: str, spec: str) -> None:
    played = results(registry, game, spec, 100, 1000)
    assert played.count("W") >= 70, "".join(played)
