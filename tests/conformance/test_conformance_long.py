"""The conformance suite's long run: about four times the short run's playouts (Gunsen: 250)."""

from __future__ import annotations

import math

import pytest
from gamehall.core.conformance import Case, cases, check_playout
from gamehall.core.registry import builtin_registry

# 600 a game (Gunsen 300) took make test-long to 37 of its 40 minutes on a slower 2-core machine.
PLAYOUTS_PER_GAME = 500
# A Gunsen playout checks a hundred turns of up to six seats (about 1 s of checks each, five
# times a River of Gold one): fewer of them keep the long run inside its budget.
PLAYOUTS_OF = {"gunsen": 250}
CHUNK = 100
FIRST_SEED = 10_000  # past the seeds of the short run, so the long run adds new matches


def _params() -> list[object]:
    registry = builtin_registry()
    params = []
    for game in sorted(registry.games):
        game_cases = cases(registry, game)
        playouts = PLAYOUTS_OF.get(game, PLAYOUTS_PER_GAME)
        per_case = max(1, math.ceil(playouts / len(game_cases)))
        for case in game_cases:
            for start in range(0, per_case, CHUNK):
                seeds = range(FIRST_SEED + start, FIRST_SEED + min(start + CHUNK, per_case))
                params.append(
                    pytest.param(case, seeds, id=f"{case.name}-seeds{seeds.start}-{seeds.stop - 1}")
                )
    return params


@pytest.mark.long
@pytest.mark.parametrize(("case", "seeds"), _params())
def test_many_random_playouts_conform(case: Case, seeds: range) -> None:
    registry = builtin_registry()
    for seed in seeds:
        check_playout(registry, case, seed)
