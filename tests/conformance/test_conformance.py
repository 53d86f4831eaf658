"""The conformance suite over every registered game and expansion combination.

At least ``PLAYOUTS_PER_GAME`` seeded random playouts per game (Gunsen: 50), spread over its combinations
(player counts, expansion sets, test options); a newly installed game is picked up by itself.
"""

from __future__ import annotations

import math

import pytest
from gamehall.core.conformance import Case, cases, check_playout
from gamehall.core.registry import builtin_registry

# The short run's share of the fuzzing: these keep make test inside its ten minutes on a slower
# 2-core machine (200 a game, Gunsen 100, took it to twelve; 120 and 60 to 9:56 with the venv
# made); make test-long plays 500 a game more (Gunsen 250), from other seeds.
PLAYOUTS_PER_GAME = 100
# A Gunsen playout checks a hundred turns of up to six seats, five times the checks of a River of
# Gold one.
PLAYOUTS_OF = {"gunsen": 50}
CHUNK = 25


def _wanted(game: str) -> int:
    return PLAYOUTS_OF.get(game, PLAYOUTS_PER_GAME)


def _params() -> list[object]:
    registry = builtin_registry()
    params = []
    for game in sorted(registry.games):
        game_cases = cases(registry, game)
        per_case = max(1, math.ceil(_wanted(game) / len(game_cases)))
        for case in game_cases:
            for start in range(0, per_case, CHUNK):
                seeds = range(start, min(start + CHUNK, per_case))
                params.append(
                    pytest.param(case, seeds, id=f"{case.name}-seeds{seeds.start}-{seeds.stop - 1}")
                )
    return params


@pytest.mark.parametrize(("case", "seeds"), _params())
def test_random_playouts_conform(case: Case, seeds: range) -> None:
    registry = builtin_registry()
    for seed in seeds:
        check_playout(registry, case, seed)


def test_every_game_gets_at_least_the_required_playouts() -> None:
    registry = builtin_registry()
    counted: dict[str, int] = {}
    for param in _params():
        case, seeds = param.values  # type: ignore[attr-defined]
        counted[case.game] = counted.get(case.game, 0) + len(seeds)
    assert set(counted) == set(registry.games)
    assert all(n >= _wanted(game) for game, n in counted.items()), counted
