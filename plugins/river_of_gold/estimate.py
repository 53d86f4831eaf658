"""A quick guess at who is winning a River of Gold match, for bots that cut playouts short.

Each clan is scored as if the game ended now (ROG-SCORE-1..5), plus what its koku, goods and
hand may still become; the guesses are shared out by a softmax. The worths of supplies are a
rule of thumb measured against random play, not part of the rules.
"""

from __future__ import annotations

import math
from typing import Any

from .scoring import final_scores
from .state import State

KOKU = 0.25  # points one koku may still become
GOOD = 0.8  # points one good may still become
CARD = 1.5  # points one customer in hand may still become
SPREAD = 6.0  # points of lead that make a clan e (2.7) times likelier to win


def estimate(state: State, hook: Any) -> tuple[float, ...]:
    """Return each clan's chance of winning, as a rule of thumb."""
    scores = final_scores(state, hook)
    worth = [
        score + KOKU * p.koku + GOOD * sum(p.goods) + CARD * len(p.hand)
        for score, p in zip(scores, state.players, strict=True)
    ]
    top = max(worth)
    weights = [math.exp((w - top) / SPREAD) for w in worth]
    total = sum(weights)
    return tuple(w / total for w in weights)
