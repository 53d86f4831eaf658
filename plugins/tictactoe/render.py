"""Draw a tic-tac-toe board for a terminal, and name its cells."""

from __future__ import annotations

from .state import MARKS, State


def render(view: State) -> str:
    """Return the board as three rows, empty cells shown by their number."""
    cells = [MARKS[mark] if mark else str(cell) for cell, mark in enumerate(view.board)]
    rows = [" | ".join(cells[row * 3 : row * 3 + 3]) for row in range(3)]
    status = (
        "draw" if view.over and view.winner is None
        else f"{MARKS[view.winner + 1]} wins" if view.winner is not None
        else f"{MARKS[view.turn + 1]} to move"
    )  # fmt: skip
    return "\n---------\n".join(rows) + f"\n{status}"


def cell_name(cell: int) -> str:
    """Return a cell as a player names it."""
    row, col = divmod(cell, 3)
    return f"cell {cell} (row {row + 1}, column {col + 1})"
