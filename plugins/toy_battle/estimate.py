"""A quick guess at who is winning a Toy Battle match, for bots that cut their playouts short.

A seat is ahead when it is nearer the enemy headquarters than the other is to its own, has
more of the medal target, and holds more bases. The weights are a rule of thumb measured
against random play, not part of the rules.
"""

from __future__ import annotations

import math

from .placement import reachable, seat_of
from .state import State
from .terrain import Board

MEDALS = 4.0  # the whole medal target, in the same units as one step nearer the enemy
STEP = 0.6  # one spot nearer the enemy headquarters
BASE = 0.08  # one more base held


def distance_to_enemy(board: Board, state: State, seat: int) -> int:
    """Return how many spots lie between what ``seat`` reaches and an enemy headquarters."""
    reach = reachable(board, state, seat)
    enemy = set(board.headquarters[state.colour(1 - seat)])
    if reach & enemy:
        return 0
    seen, frontier, steps = set(reach), list(reach), 0
    while frontier:
        steps += 1
        nearer: list[int] = []
        for spot in frontier:
            for nxt in board.adjacent[spot]:
                if nxt in enemy:
                    return steps
                if nxt not in seen:
                    seen.add(nxt)
                    nearer.append(nxt)
        frontier = nearer
    return len(board.spot_ids)


def estimate(board: Board, state: State) -> tuple[float, float]:
    """Return each seat's chance of winning, as a rule of thumb."""
    target = board.terrain.medal_target or 1
    held = [0, 0]
    for spot, stack in state.stacks.items():
        if stack and spot not in board.hq_owner:
            held[seat_of(state, stack[-1])] += 1
    score = [
        MEDALS * state.medals[s] / target
        - STEP * distance_to_enemy(board, state, s)
        + BASE * held[s]
        for s in (0, 1)
    ]
    edge = score[0] - score[1]
    # The seat to move strikes first: half a step of tempo.
    edge += STEP / 2 if state.turn == 0 else -STEP / 2
    zero = 1.0 / (1.0 + math.exp(-edge))
    return zero, 1.0 - zero
