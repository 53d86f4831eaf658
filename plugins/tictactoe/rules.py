"""Tic-tac-toe's rules as a decider: the smallest complete game (rule ids in docs/rules).

Read it top to bottom: the state a match starts from, the one method that decides the one
command, the methods that apply each event, then who is asked, what they may send and how the
match ends.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from types import MappingProxyType

from gamehall.core import (
    Command,
    Context,
    Decision,
    Event,
    IllegalCommand,
    Outcome,
    Rules,
    decides,
    evolves,
)
from gamehall.core.rules import MatchConfig
from msgspec.structs import replace

from .commands import PlaceMark
from .events import BoardFilled, LineCompleted, MarkPlaced, TicTacToeEvent
from .state import EMPTY, State

Line = tuple[int, int, int]
LINES: tuple[Line, ...] = (
    (0, 1, 2), (3, 4, 5), (6, 7, 8),  # rows
    (0, 3, 6), (1, 4, 7), (2, 5, 8),  # columns
    (0, 4, 8), (2, 4, 6),  # diagonals
)  # fmt: skip


def lines_through(cell: int) -> tuple[tuple[Line, int, int], ...]:
    """Return the lines through a cell, each with its two other cells: a mark placed in the
    cell completes a line when the mover already holds both others."""
    found = []
    for line in LINES:
        if cell in line:
            first, second = (c for c in line if c != cell)
            found.append((line, first, second))
    return tuple(found)


LINES_THROUGH = tuple(lines_through(cell) for cell in range(9))
PLACE = Decision("place", "place your mark in an empty cell")
# Who is asked when X (seat 0) or O (seat 1) is to move, made once and read-only: the engine
# asks after every command, and a new dict each time costs a playout 4% (bench/README.md).
ASKED = (MappingProxyType({0: PLACE}), MappingProxyType({1: PLACE}))
NOBODY: Mapping[int, Decision] = MappingProxyType({})
MOVES = tuple(PlaceMark(cell=cell) for cell in range(9))  # one command per cell, made once


class TicTacToe(Rules[State]):
    """Two seats take turns placing X and O; three in a row wins."""

    def initial(self, config: MatchConfig) -> State:
        """Return an empty board with X (seat 0) to move (TTT-1)."""
        return State()

    # -- deciding --------------------------------------------------------------------------

    @decides(PlaceMark)
    def place_mark(self, state: State, command: PlaceMark, ctx: Context) -> Sequence[Event]:
        """Place the mover's mark in an empty cell (TTT-2); a line of three ends the match
        (TTT-3), and so does the last empty cell (TTT-4)."""
        cell, seat, board = command.cell, state.turn, state.board
        if board[cell] != EMPTY:
            raise IllegalCommand(f"cell {cell} is already taken", "TTT-2")
        placed = MarkPlaced(seat, cell)
        mark = seat + 1
        for line, first, second in LINES_THROUGH[cell]:
            if board[first] == mark and board[second] == mark:
                winner: int = self.hook.tictactoe_line_winner(seat=seat)
                return (placed, LineCompleted(line, winner))
        if board.count(EMPTY) == 1:  # this cell was the last empty one
            return (placed, BoardFilled())
        return (placed,)

    # -- applying events -------------------------------------------------------------------

    @evolves(MarkPlaced, rule="TTT-2")
    def mark_placed(self, state: State, event: MarkPlaced) -> State:
        """Put the mark in its cell and give the turn to the other seat."""
        board = [*state.board]
        board[event.cell] = event.seat + 1
        return State(tuple(board), 1 - event.seat)

    @evolves(LineCompleted, rule="TTT-3")
    def line_completed(self, state: State, event: LineCompleted) -> State:
        """End the match with the line and its winner."""
        return replace(state, winner=event.winner, line=event.line, over=True)

    @evolves(BoardFilled, rule="TTT-4")
    def board_filled(self, state: State, event: BoardFilled) -> State:
        """End the match in a draw."""
        return replace(state, over=True)

    # -- asking ----------------------------------------------------------------------------

    def awaiting(self, state: State) -> Mapping[int, Decision]:
        """Return the mover, unless the match is over."""
        return NOBODY if state.over else ASKED[state.turn]

    def legal(self, state: State, seat: int) -> Sequence[Command]:
        """Return a PlaceMark for every empty cell when ``seat`` is to move."""
        if seat != state.turn or state.over:
            return []
        return [MOVES[cell] for cell, mark in enumerate(state.board) if mark == EMPTY]

    def reveals(self, event: Event) -> bool:
        """Return whether an event is chance or shows what was hidden: none of ours is.

        Another plugin's event (an expansion's) counts as revealing: it cannot be taken back.
        """
        return not isinstance(event, TicTacToeEvent)

    def outcome(self, state: State) -> Outcome | None:
        """Return the winner or a draw once the match is over (TTT-3, TTT-4)."""
        if not state.over:
            return None
        if state.winner is None or state.line is None:
            return Outcome((), "the board is full")
        line = state.line
        seat = state.board[line[0]] - 1  # who completed the line, by its marks
        why = self.hook.tictactoe_line_reason(seat=seat, winner=state.winner, line=line)
        return Outcome((state.winner,), why)
