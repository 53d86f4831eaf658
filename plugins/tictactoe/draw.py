"""Draw the tic-tac-toe board for the web page: every empty cell the mover may take is a place."""

from __future__ import annotations

from collections.abc import Sequence

from gamehall.core import Command
from gamehall.core.drawing import Drawing, Shape, canvas, group, shape

from .commands import PlaceMark
from .render import cell_name
from .state import State

CELL = 100


def _mark(mark: int, x: float, y: float) -> Shape | None:
    if mark == 1:  # X
        d = f"M{x + 22},{y + 22} L{x + 78},{y + 78} M{x + 78},{y + 22} L{x + 22},{y + 78}"
        return shape("path", d=d, stroke="#1f5fa8", stroke_width=12, stroke_linecap="round")
    if mark == 2:  # O
        return shape("circle", cx=x + 50, cy=y + 50, r=29, fill="none", stroke="#c0392b",
                     stroke_width=11)  # fmt: skip
    return None


def draw(view: State, seat: int | None, legal: Sequence[Command]) -> Drawing:
    """Return the board, the winning line struck through, the free cells as places."""
    moves = {c.cell: c for c in legal if isinstance(c, PlaceMark)}
    cells = []
    for cell, mark in enumerate(view.board):
        x, y = 10 + (cell % 3) * CELL, 10 + (cell // 3) * CELL
        move = moves.get(cell)
        cells.append(group(
            shape("rect", x=x + 4, y=y + 4, width=CELL - 8, height=CELL - 8, rx=10,
                  fill="#fff8e1" if move else "#ffffff", stroke="#f4a100" if move else "#d8d2c6",
                  stroke_width=3),
            _mark(mark, x, y),
            commands=[move] if move else [], label=cell_name(cell),
        ))  # fmt: skip
    strike = None
    if view.line:
        first, last = view.line[0], view.line[-1]
        ax, ay = 60 + (first % 3) * CELL, 60 + (first // 3) * CELL
        bx, by = 60 + (last % 3) * CELL, 60 + (last // 3) * CELL
        strike = shape("line", x1=ax, y1=ay, x2=bx, y2=by, stroke="#2e7d32", stroke_width=10,
                       stroke_linecap="round", opacity=0.8)  # fmt: skip
    root = canvas(320, 320, shape("rect", width=320, height=320, fill="#2f4858", rx=14),
                  *cells, strike, title="Tic-tac-toe")  # fmt: skip
    return Drawing(root)
