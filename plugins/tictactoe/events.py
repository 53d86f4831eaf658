"""What happens in tic-tac-toe: facts in the past tense."""

from __future__ import annotations

from gamehall.core import Event, namespaced


class TicTacToeEvent(Event, frozen=True, gc=False, tag=namespaced("tictactoe")):
    """Base of the game's events."""


class MarkPlaced(TicTacToeEvent, frozen=True):
    """A seat put its mark in a cell (0-8, row by row)."""

    seat: int
    cell: int


class LineCompleted(TicTacToeEvent, frozen=True):
    """A line of three was completed; ``winner`` won the match (TTT-3)."""

    line: tuple[int, int, int]
    winner: int


class BoardFilled(TicTacToeEvent, frozen=True):
    """The ninth mark was placed without a line: a draw (TTT-4)."""


EVENTS = (MarkPlaced, LineCompleted, BoardFilled)
