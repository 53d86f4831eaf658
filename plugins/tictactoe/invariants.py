"""What must hold after every event of a tic-tac-toe match (the conformance suite checks it)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from gamehall.core import Invariant

from .state import EMPTY, State


def marks_alternate(state: State) -> str | None:
    """Check that X has placed as many marks as O, or one more."""
    xs, os = state.board.count(1), state.board.count(2)
    return None if xs - os in (0, 1) else f"X has {xs} marks and O has {os}"


def over_means_line_or_full(state: State) -> str | None:
    """Check that a finished match has a line or a full board."""
    if state.over and state.line is None and EMPTY in state.board:
        return "the match is over without a line or a full board"
    return None


def invariants(rules: Any) -> Sequence[Invariant]:
    """Return the game's invariants (``rules`` is the ruleset's; tic-tac-toe reads nothing)."""
    return [
        Invariant("marks-alternate", marks_alternate, "X and O take turns"),
        Invariant("over-means-line-or-full", over_means_line_or_full),
    ]
