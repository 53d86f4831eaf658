"""What the Hall answers about a match: a seat's view, whose turn it is, a listing entry.

The functions at the end build them from what a match's actor holds (its state and entry): an
abandoned or expired match awaits nobody and offers no command.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

import msgspec

from . import clock as clocks
from . import seating
from .clock import ClockView
from .events import Command
from .rules import Decision, Outcome
from .words import seat_label

if TYPE_CHECKING:
    from .kernel.actor import Actor

NOBODY: Mapping[int, Decision] = MappingProxyType({})  # an ended match awaits nobody


class SeatView(msgspec.Struct, frozen=True):
    """What one seat may know of a match now, with what it is asked and may send."""

    match: str
    seq: int
    seat: int | None
    view: Any
    awaiting: dict[int, Decision]
    legal: list[Command]
    outcome: Outcome | None
    names: list[str | None] = []
    clock: ClockView | None = None


class Turn(msgspec.Struct, frozen=True):
    """Whose move it is, as one seat may know it: sent on live streams when it changes.

    ``awaiting`` lists the seats the match waits for (public); ``decision`` is what this seat
    is asked, if it is awaited; ``free`` tells whether it may send free actions now.
    """

    match: str
    seq: int
    seat: int | None
    awaiting: list[int]
    decision: Decision | None = None
    free: bool = False


class MatchInfo(msgspec.Struct, frozen=True):
    """A match as listings show it."""

    match: str
    game: str
    expansions: list[str]
    players: int
    version: int
    created: float
    updated: float
    forked_from: str | None = None
    fork_seq: int | None = None
    bots: dict[int, str] = {}


def seat_view(actor: Actor, seat: int | None, names: list[str | None], now: float) -> SeatView:
    """Return a seat's view of a match's actor (``None`` is a spectator)."""
    rules, state = actor.ruleset.rules, actor.state
    live = not seating.ending(actor.info)  # an abandoned or expired match awaits nobody
    legal = list(rules.legal(state, seat)) if seat is not None and live else []
    return SeatView(
        actor.match,
        actor.version,
        seat,
        rules.view(state, seat),
        dict(rules.awaiting(state)) if live else {},
        legal,
        rules.outcome(state),
        names,
        clocks.view(actor.clock, now),
    )


def turn(actor: Actor, seat: int | None) -> Turn:
    """Return whose move it is in a match's actor, as ``seat`` may know it."""
    rules, state = actor.ruleset.rules, actor.state
    live = not seating.ending(actor.info)
    asked = rules.awaiting(state) if live else {}
    # A seat that is not awaited has no legal command but its free actions.
    free = live and seat is not None and seat not in asked and bool(rules.legal(state, seat))
    decision = asked.get(seat) if seat is not None else None
    return Turn(actor.match, actor.version, seat, sorted(asked), decision, free)


def awaiting(actor: Actor) -> Mapping[int, Decision]:
    """Return the seats a match's actor waits for (none once the match is over), read-only.

    The rules' own answer where it is read-only already (a game's constants, as tic-tac-toe's),
    else a read-only view of it: no copy for each asker (clients and bots ask before every
    command).
    """
    if seating.ending(actor.info):  # abandoned or expired
        return NOBODY
    asked = actor.ruleset.rules.awaiting(actor.state)
    return asked if type(asked) is MappingProxyType else MappingProxyType(asked)


def legal(actor: Actor, seat: int) -> list[Command]:
    """Return the commands a seat may send now."""
    if seating.ending(actor.info):
        return []
    return list(actor.ruleset.rules.legal(actor.state, seat))


def render(actor: Actor, seat: int | None, names: list[str | None]) -> str:
    """Return a seat's board as text, headed by the seats' names when any is known."""
    board = actor.ruleset.render(actor.ruleset.rules.view(actor.state, seat), seat)
    if not any(names):
        return board
    told = ", ".join(f"{seat_label(s)}: {n}" for s, n in enumerate(names) if n)
    return f"Players: {told}\n{board}"
