"""Tic-tac-toe's rules as a decider: the smallest complete game (rule ids in docs/rules)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from types import MappingProxyType

from gamehall.core import Command, Context, Decision, Event, IllegalCommand, Outcome, Rules
from gamehall.core.rules import MatchConfig

from .commands import PlaceMark
from .events import BoardFilled, LineCompleted, MarkPlaced, TicTacToeEvent
from .state import EMPTY, State

LINES = (
    (0, 1, 2), (3, 4, 5), (6, 7, 8),
    (0, 3, 6), (1, 4, 7), (2, 5, 8),
    (0, 4, 8), (2, 4, 6),
)  # fmt: skip
LINES_THROUGH = tuple(tuple(line for line in LINES if cell in line) for cell in range(9))
Line = tuple[int, int, int]


def _others(line: Line, cell: int) -> tuple[Line, int, int]:
    first, second = (c for c in line if c != cell)
    return line, first, second


# For each cell, the lines through it with their two other cells: a mark placed there completes
# a line when the mover holds both others (checked on the board before the mark, not after).
OTHERS = tuple(tuple(_others(line, cell) for line in LINES_THROUGH[cell]) for cell in range(9))
PLACE = Decision("place", "place your mark in an empty cell")
MOVES = tuple(PlaceMark(cell=cell) for cell in range(9))
# Who is awaited when seat 0 or seat 1 moves, and when nobody is (read-only, made once).
AWAITED = (MappingProxyType({0: PLACE}), MappingProxyType({1: PLACE}))
NOBODY: Mapping[int, Decision] = MappingProxyType({})


class TicTacToe(Rules[State]):
    """Two seats take turns placing X and O; three in a row wins."""

    # The rule of each event decide returns (it needs no emitter for so few).
    event_rules = {MarkPlaced: "TTT-2", LineCompleted: "TTT-3", BoardFilled: "TTT-4"}

    def line_winner(self, seat: int) -> int:
        """Return who wins when ``seat`` completes a line (TTT-3): the hook is asked each time,
        at most once a match, so the rules keep no memo of its answer."""
        winner: int = self.hook.tictactoe_line_winner(seat=seat)
        return winner

    def initial(self, config: MatchConfig) -> State:
        """Return an empty board with X (seat 0) to move (TTT-1)."""
        return State()

    def decide(self, state: State, command: Command, ctx: Context) -> Sequence[Event]:
        """Place the mover's mark and record a completed line or a full board."""
        if type(command) is not PlaceMark and not isinstance(command, PlaceMark):
            raise IllegalCommand("tic-tac-toe only takes PlaceMark")
        cell, seat, board = command.cell, state.turn, state.board
        if board[cell] != EMPTY:
            raise IllegalCommand(f"cell {cell} is already taken", "TTT-2")
        mark = seat + 1
        placed = MarkPlaced(seat, cell)
        for line, a, b in OTHERS[cell]:
            if board[a] == mark and board[b] == mark:
                return (placed, LineCompleted(line, self.line_winner(seat)))
        if board.count(EMPTY) == 1:  # this cell was the last empty one
            return (placed, BoardFilled())
        return (placed,)

    def evolve(self, state: State, event: Event) -> State:
        """Apply one event."""
        if type(event) is MarkPlaced:
            board = [*state.board]
            board[event.cell] = event.seat + 1
            return State(tuple(board), 1 - event.seat)
        if type(event) is LineCompleted:
            return State(state.board, state.turn, event.winner, event.line, True)
        if type(event) is BoardFilled:
            return State(state.board, state.turn, None, None, True)
        return state

    def awaiting(self, state: State) -> Mapping[int, Decision]:
        """Return the mover, unless the match is over."""
        return NOBODY if state.over else AWAITED[state.turn]

    def legal(self, state: State, seat: int) -> Sequence[Command]:
        """Return a PlaceMark for every empty cell when ``seat`` is to move."""
        if seat != state.turn or state.over:
            return ()
        board = state.board
        return [MOVES[cell] for cell in range(9) if not board[cell]]  # EMPTY is 0

    def reveals(self, event: Event) -> bool:
        """Return whether an event is chance or shows what was hidden: none of ours is.

        Another
        plugin's event (an expansion's) counts as revealing: it cannot be taken back.
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
