"""The state of a tic-tac-toe match: the board and whose turn it is."""

from __future__ import annotations

import msgspec

EMPTY = 0
MARKS = ".XO"


class State(msgspec.Struct, frozen=True, gc=False):
    """Board cells hold 0 (empty), 1 (seat 0, X) or 2 (seat 1, O)."""

    board: tuple[int, ...] = (EMPTY,) * 9
    turn: int = 0
    winner: int | None = None
    line: tuple[int, ...] | None = None
    over: bool = False
