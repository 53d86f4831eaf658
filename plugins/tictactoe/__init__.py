"""Tic-tac-toe: the smallest complete gamehall game, and the template for new ones."""

from __future__ import annotations

from gamehall.core import GameSpec, hookimpl

from .commands import COMMANDS, PlaceMark
from .events import EVENTS, BoardFilled, LineCompleted, MarkPlaced
from .hooks import Defaults, TicTacToeSpecs
from .invariants import invariants
from .presentation import TicTacToePresentation
from .rules import TicTacToe
from .state import State

GAME = GameSpec(
    id="tictactoe",
    name="Tic-tac-toe",
    version="1.0.0",
    rules=TicTacToe,
    state=State,
    min_players=2,
    max_players=2,
    events=EVENTS,
    commands=COMMANDS,
    presentation=TicTacToePresentation,
    invariants=invariants,
    hookspecs=(TicTacToeSpecs,),
    hookimpls=(Defaults(),),
    description="Three in a row on a 3x3 board.",
    rules_doc="docs/rules/tictactoe.md",
)


@hookimpl
def gamehall_games() -> list[GameSpec]:
    """Register tic-tac-toe."""
    return [GAME]


__all__ = ["GAME", "BoardFilled", "LineCompleted", "MarkPlaced", "PlaceMark", "gamehall_games"]
