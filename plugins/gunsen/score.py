"""How a match ends: the winner, why, and every clan's markers box by box (GUN-ACH-1..6)."""

from __future__ import annotations

from gamehall.core import Outcome, ScoreLine

from .catalog import Catalog
from .queries import markers
from .state import State


def breakdown(cat: Catalog, state: State) -> tuple[ScoreLine, ...]:
    """Return each box's markers per seat, in the order of the rules' list."""
    lines = []
    for box in cat.pieces.boxes:
        if box.on_tile:
            points = tuple(int(state.holder == seat) for seat in range(state.count))
        else:
            points = tuple(p.achievements.count(box.id) for p in state.players)
        lines.append(ScoreLine(box.name, points))
    return tuple(lines)


def reason(cat: Catalog, state: State, target: int) -> str:
    """Return why the match ended, naming the box of the last marker."""
    count = "seven" if target == 7 else str(target)
    return f"reached {count} achievements, the last: {cat.boxes[state.ending].name}"


def outcome(cat: Catalog, state: State, target: int) -> Outcome:
    """Return the finished match's outcome."""
    scores = tuple(markers(state, seat) for seat in range(state.count))
    return Outcome((state.winner,), reason(cat, state, target), scores, breakdown(cat, state))
