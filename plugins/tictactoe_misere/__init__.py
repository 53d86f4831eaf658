"""Misère tic-tac-toe: an expansion that changes one rule by implementing two hooks.

Whoever completes a line of three loses (TTT-M-1). Everything else is the base game. Changing
who wins, it also says why: the ending names the line completed and the rule that it loses.
"""

from __future__ import annotations

from gamehall.core import ExpansionSpec, hookimpl

EXPANSION = ExpansionSpec(
    id="tictactoe-misere",
    name="Misère",
    version="1.0.0",
    game="tictactoe",
    description="Completing a line of three loses.",
    rules_doc="docs/rules/tictactoe.md",
)


@hookimpl
def gamehall_expansions() -> list[ExpansionSpec]:
    """Register the misère expansion."""
    return [EXPANSION]


@hookimpl
def tictactoe_line_winner(seat: int) -> int:
    """Give the win to the other seat when ``seat`` completes a line (TTT-M-1)."""
    return 1 - seat


@hookimpl
def tictactoe_line_reason(seat: int, winner: int, line: tuple[int, int, int]) -> str:
    """Say that the loser completed a line, which loses in misère (TTT-M-1)."""
    cells = "-".join(str(c) for c in line)
    return f"{'XO'[seat]} completed the line {cells}, and completing a line loses"
