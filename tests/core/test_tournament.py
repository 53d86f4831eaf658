"""Round robins between bots: every pair plays, ratings follow the results, intervals hold them."""

from __future__ import annotations

import random

import pytest
from gamehall.core import InvalidOptions, Registry
from gamehall.core.tournament import Pairing, labels, ratings_of, round_robin, standings


def test_equal_results_give_equal_ratings_around_1500() -> None:
    ratings = ratings_of(["a", "b"], [Pairing("a", "b", "WLWLDD")])
    assert ratings["a"] == pytest.approx(1500) and ratings["b"] == pytest.approx(1500)


def test_the_stronger_bot_rates_higher_and_a_clean_sweep_stays_finite() -> None:
    pairings = [Pairing("a", "b", "WWWWWWWWWW"), Pairing("a", "c", "WWWWWWWWWW"),
                Pairing("b", "c", "WLWLWLWLWL")]  # fmt: skip
    ratings = ratings_of(["a", "b", "c"], pairings)
    assert ratings["a"] > ratings["b"] == pytest.approx(ratings["c"])
    assert ratings["a"] - ratings["b"] < 1000  # one virtual draw keeps it finite
    assert sum(ratings.values()) / 3 == pytest.approx(1500)


def test_intervals_hold_the_rating_and_shrink_with_more_matches() -> None:
    few = standings(["a", "b"], [Pairing("a", "b", "WWWL")], random.Random(1))
    many = standings(["a", "b"], [Pairing("a", "b", "WWWL" * 25)], random.Random(1))
    for rows in (few, many):
        for row in rows:
            assert row.low <= row.elo <= row.high
    assert many[0].high - many[0].low < few[0].high - few[0].low
    assert [r.bot for r in many] == ["a", "b"] and many[0].wins == 75 and many[1].losses == 75


def test_labels_number_a_bot_named_twice() -> None:
    assert labels(["random", "mcts:50", "mcts:50", "bot" if False else "random"]) == [
        "random", "mcts:50", "mcts:50#2", "random#2",
    ]  # fmt: skip


def test_a_round_robin_plays_every_pair_from_both_seats(registry: Registry) -> None:
    result = round_robin(registry, "tictactoe", ["random", "mcts:100", "mcts:5"], 6, seed=3)
    assert [(p.first, p.second) for p in result.pairings] == [
        ("random", "mcts:100"), ("random", "mcts:5"), ("mcts:100", "mcts:5"),
    ]  # fmt: skip
    assert all(len(p.results) == 6 for p in result.pairings)
    assert result.standings[0].bot == "mcts:100"
    assert all(s.games == 12 for s in result.standings)
    again = round_robin(registry, "tictactoe", ["random", "mcts:100", "mcts:5"], 6, seed=3)
    assert [p.results for p in again.pairings] == [p.results for p in result.pairings]
    assert result.score("mcts:100", "random") == 1 - result.score("random", "mcts:100")  # type: ignore[operator]


@pytest.mark.parametrize(
    ("specs", "games", "message"),
    [
        (["random"], 4, "at least two bots"),
        (["random", "mcts"], 0, "at least one match"),
        (["random", "wizard"], 2, "unknown bot 'wizard'"),
    ],
)
def test_a_round_robin_refuses_what_it_cannot_play(
    registry: Registry, specs: list[str], games: int, message: str
) -> None:
    with pytest.raises(InvalidOptions, match=message):
        round_robin(registry, "tictactoe", specs, games)
    with pytest.raises(InvalidOptions, match="use ismcts"):
        round_robin(registry, "toy-battle", ["random", "mcts:5"], 2)
