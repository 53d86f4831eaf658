"""The public extension API of tic-tac-toe: everything an expansion may use.

Stability: the names below are kept from one minor version of the game to the next; fields
may be added to the Structs (with defaults), never removed or renamed. An expansion imports
only this module (and ``gamehall.core``).

Tic-tac-toe has one hook, ``tictactoe_line_winner`` (:class:`TicTacToeSpecs`): who wins when a
line is completed. The misère expansion (``plugins/tictactoe_misere``) implements it.
"""

from __future__ import annotations

from gamehall.core import hookimpl

from .commands import PlaceMark
from .events import BoardFilled, LineCompleted, MarkPlaced
from .hooks import TicTacToeSpecs
from .state import State

__all__ = [
    "BoardFilled",
    "LineCompleted",
    "MarkPlaced",
    "PlaceMark",
    "State",
    "TicTacToeSpecs",
    "hookimpl",
]
