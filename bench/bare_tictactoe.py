"""A bare, pure-Python random tic-tac-toe: the floor that ``Table`` is compared with."""

from __future__ import annotations

import random

LINES = ((0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6))


def play(rng: random.Random) -> int:
    """Play one random game; return the winner (1 or 2) or 0 for a draw."""
    board = [0] * 9
    player = 1
    for _ in range(9):
        cell = rng.choice([i for i in range(9) if board[i] == 0])
        board[cell] = player
        for a, b, c in LINES:
            if board[a] == board[b] == board[c] == player:
                return player
        player = 3 - player
    return 0
