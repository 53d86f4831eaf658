"""Tic-tac-toe's own hooks, and the default implementation of each."""

from __future__ import annotations

from gamehall.core import hookimpl, hookspec


class TicTacToeSpecs:
    """Hooks an expansion of tic-tac-toe may implement."""

    @hookspec(firstresult=True)
    def tictactoe_line_winner(self, seat: int) -> int:  # type: ignore[empty-body]
        """Return the seat that wins when ``seat`` completes a line of three.

        Fires each time a mark completes a line; replay asks again and must get the same
        answer, so it may depend on nothing but the seat (TTT-3). Stops at the first
        non-``None`` result; the game's default returns ``seat``.

        :param seat: the seat that placed the mark.
        """

    @hookspec(firstresult=True)
    def tictactoe_line_reason(self, seat: int, winner: int, line: tuple[int, int, int]) -> str:  # type: ignore[empty-body]
        """Return why the match ended when ``seat`` completed ``line`` and ``winner`` won.

        An expansion that changes who wins a line also says why, so the ending never gives the
        base game's reason for another rule's result. Stops at the first non-``None`` result.

        :param seat: the seat that completed the line.
        :param winner: the seat that wins (``tictactoe_line_winner``'s answer).
        :param line: the three cells of the line.
        """


class Defaults:
    """The rulebook's answer to every tic-tac-toe hook."""

    @hookimpl(trylast=True)
    def tictactoe_line_winner(self, seat: int) -> int:
        """Let the seat that completes a line win (TTT-3)."""
        return seat

    @hookimpl(trylast=True)
    def tictactoe_line_reason(self, seat: int, winner: int, line: tuple[int, int, int]) -> str:
        """Say that the winner made three in a row (TTT-3)."""
        return "three in a row"
