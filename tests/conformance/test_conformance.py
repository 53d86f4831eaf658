"""The conformance suite over every registered game and expansion combination.

At least ``PLAYOUTS_PER_GAME`` seeded random playouts per game, spread over its combinations
(player counts, expansion sets, test options); a newly installed game is picked up by itself.
"""

from __future__ import annotations

import math

import pytest
from gamehall.core.conformance import Case, cases, check_playout
from gamehall.core.registry import builtin_registry

PLAYOUTS_PER_GAME = 200
CHUNK = 25


def _params() -> list[object]:
    registry = builtin_registry()
    params = []
    for game in sorted(registry.games):
        game_cases = cases(registry, game)
        per_case = max(1, math.ceil(PLAYOUTS_PER_GAME / len(game_cases)))
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
    assert all(n >= PLAYOUTS_PER_GAME for n in counted.values()), counted
