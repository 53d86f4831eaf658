"""What a seat may ask for in tic-tac-toe."""

from __future__ import annotations

from typing import Annotated

import msgspec
from gamehall.core import Command, namespaced

Cell = Annotated[int, msgspec.Meta(ge=0, le=8, description="cell 0-8, row by row")]


class PlaceMark(Command, frozen=True, gc=False, tag=namespaced("tictactoe")):
    """Put the mover's mark in an empty cell."""

    cell: Cell


COMMANDS = (PlaceMark,)
