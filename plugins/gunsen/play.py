"""One command's worth of play: an emitter with the catalog, asking and winning.

Every handler works on a :class:`Play`: it emits events (each applied at once, so
``play.state`` is always current) and ends by asking a seat for its next decision. A seventh
achievement marker ends the game at once: :class:`GameOver` unwinds whatever was going on.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from gamehall.core import Emitter, Rules

from . import events as ev
from .board import Board
from .catalog import Catalog
from .queries import markers
from .state import State


class GameOver(Exception):
    """A clan placed its last achievement marker: nothing more happens."""


class Play(Emitter[State]):
    """The events of one command, with what the rules need to decide them."""

    __slots__ = ("_rng", "cat", "settled", "target")

    def __init__(
        self,
        rules: Rules[State],
        state: State,
        rng: Callable[[], random.Random],
        cat: Catalog,
        target: int,
    ) -> None:
        super().__init__(rules, state)
        self.cat = cat  # the ruleset's catalog (base game and expansions)
        self.target = target  # achievement markers that win
        # What each seat's achievements were last checked against in this command (see
        # claims.settle); kept per command, since the rules object is shared by every match.
        self.settled: dict[int, tuple[object, ...]] = {}
        self._rng = rng

    @property
    def rng(self) -> random.Random:
        """Return the command's generator (seeded only when first used)."""
        return self._rng()

    @property
    def board(self) -> Board:
        """Return the board side of the match."""
        return self.cat.boards[self.state.side]

    def ask(self, seat: int, phase: str) -> None:
        """Wait for ``seat`` to make a decision of ``phase`` (GUN-TURN-1)."""
        if (self.state.phase, self.state.asked) != (phase, seat):
            self.emit(ev.Asked(seat=seat, phase=phase))

    def award(self, seat: int, box: str, objective: str = "") -> None:
        """Place an achievement marker; the last marker wins at once (GUN-ACH-1, GUN-ACH-7)."""
        self.emit(ev.AchievementEarned(seat=seat, box=box, objective=objective))
        self.check_win(seat, box)

    def check_win(self, seat: int, box: str) -> None:
        """End the game if ``seat`` has placed all its markers."""
        if markers(self.state, seat) >= self.target:
            self.emit(ev.GameWon(seat=seat, box=box))
            raise GameOver


def earned(state: State, seat: int, box: str) -> int:
    """Return how many markers a seat has on a box."""
    return state.players[seat].achievements.count(box)
