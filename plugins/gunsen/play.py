"""One command's worth of play: the core emitter, the ruleset it plays, asking and winning.

Every handler works on a :data:`Play`, the core's :class:`~gamehall.core.Emitter`: it emits
events (each applied at once, so ``play.state`` is always current) and ends by asking a seat
for its next decision. A seventh achievement marker ends the game at once: :class:`GameOver`
unwinds whatever was going on.
"""

from __future__ import annotations

from typing import Protocol, cast

from gamehall.core import Emitter, effect

from . import events as ev
from .board import Board
from .catalog import Catalog
from .queries import markers
from .state import State

Play = Emitter[State]
"""The events of one command as they are decided, and the state after each of them: the
core's :class:`~gamehall.core.Emitter`, made with the command's context (``play.rng``). The
functions marked ``@effect`` below are the game's shared effects on it."""


class GameOver(Exception):
    """A clan placed its last achievement marker: nothing more happens."""


class Ruled(Protocol):
    """What the effects read of the rules object that made a play (Gunsen's rules, which
    this module does not import: they import it)."""

    cat: Catalog
    target: int


def game_of(p: Play) -> Ruled:
    """Return the ruleset's rules (the rules object that made ``p``)."""
    return cast(Ruled, p.rules)


def catalog_of(p: Play) -> Catalog:
    """Return the ruleset's catalog (base game and expansions)."""
    return game_of(p).cat


def board_side(p: Play) -> Board:
    """Return the board side of the match."""
    return game_of(p).cat.boards[p.state.side]


@effect
def ask(p: Play, seat: int, phase: str) -> None:
    """Wait for ``seat`` to make a decision of ``phase`` (GUN-TURN-1)."""
    if (p.state.phase, p.state.asked) != (phase, seat):
        p.emit(ev.Asked(seat=seat, phase=phase))


@effect
def award(p: Play, seat: int, box: str, objective: str = "") -> None:
    """Place an achievement marker; the last marker wins at once (GUN-ACH-1, GUN-ACH-7)."""
    p.emit(ev.AchievementEarned(seat=seat, box=box, objective=objective))
    check_win(p, seat, box)


@effect
def check_win(p: Play, seat: int, box: str) -> None:
    """End the game if ``seat`` has placed all its markers."""
    if markers(p.state, seat) >= game_of(p).target:
        p.emit(ev.GameWon(seat=seat, box=box))
        raise GameOver


def earned(state: State, seat: int, box: str) -> int:
    """Return how many markers a seat has on a box."""
    return state.players[seat].achievements.count(box)
