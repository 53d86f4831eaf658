"""Balance with random bots: the full measurement is long; make test runs a seeded sample."""

from __future__ import annotations

import pytest
from gunsen_balance import TOLERANCE, measure, table_text


@pytest.mark.parametrize("players", [2, 6])
def test_a_seeded_sample_of_random_games_ends_and_spreads_its_wins(players: int) -> None:
    tally = measure(players, 8, seed=1)
    assert tally.unfinished == 0 and sum(tally.wins.values()) == 8
    assert len(tally.plays) == 7 if players == 6 else len(tally.plays) >= 5
    assert len(tally.wins) >= 2
    assert "| target |" in table_text([tally], 8, 1)


@pytest.mark.long
@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_every_clan_wins_within_ten_points_of_its_share(players: int) -> None:
    tally = measure(players, 500, seed=1)
    assert tally.unfinished == 0
    assert tally.worst() <= TOLERANCE, table_text([tally], 500, 1)
