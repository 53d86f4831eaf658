"""What a match page shows at one point: the seat's view, who is asked, the log in words.

Live, the scene is the hall's view now, with the seat's legal commands. In a replay it is the
match folded to a seq and viewed by the seat, as it saw it then, and nothing can be sent. Once
a match has ended its whole log is public, so a replay may look through any seat's eyes.
"""

from __future__ import annotations

from typing import Any

import msgspec
from gamehall.core import clock as clocks
from gamehall.core import engine, reads
from gamehall.core.clock import ClockView
from gamehall.core.debug.statediff import change_lines, event_changes
from gamehall.core.events import Command, MatchStarted, Recorded
from gamehall.core.hall import Hall
from gamehall.core.narration import Narrator
from gamehall.core.registry import Ruleset
from gamehall.core.replay import fork_points
from gamehall.core.rules import Decision, Outcome
from gamehall.core.words import seat_names


class Scene(msgspec.Struct, frozen=True):
    """A seat's match at one seq: everything a frame of the page draws."""

    match: str
    game: str
    seq: int
    """The seq the scene shows."""
    last: int
    """The seq of the match's last event (the live end of the replay slider)."""
    seat: int | None
    """The seat whose eyes the scene is seen through (``None``: a spectator)."""
    view: Any
    awaiting: dict[int, Decision]
    legal: list[Command]
    outcome: Outcome | None
    names: list[str]
    """What the game calls each seat (colours, clans)."""
    holders: list[str | None]
    """Who plays each seat: a player's display name, a bot, or ``None`` (open, or unnamed)."""
    clock: ClockView | None
    """The clocks of a timed match: now when live, as recorded at ``seq`` in a replay."""
    log: list[tuple[int, str]]
    """Each event the seat may see, up to ``seq``: its seq and its words."""
    fork_points: list[int]
    ended: bool
    """Whether the match (not only the scene) has ended."""
    live: bool
    changes: list[str] = []
    """In a replay: what the event at ``seq`` changed in the seat's view (never a hidden fact)."""


def _names(ruleset: Ruleset, view: Any, players: int) -> list[str]:
    return seat_names(ruleset, view, players)


async def live(hall: Hall, match: str, seat: int | None, as_seat: int | None = None) -> Scene:
    """Return the scene now, for ``seat`` (or, once ended, through ``as_seat``'s eyes); the
    store (the log, the players' names) is read off the event loop."""
    names = await reads.names(hall, match)  # activates the match off the loop first
    records = await reads.read(hall, match)
    now = hall.view(match, seat, names)
    ended = now.outcome is not None
    eyes = as_seat if ended and as_seat is not None else seat
    seen = now if eyes == seat else hall.view(match, eyes, names)
    ruleset = hall.ruleset(match)
    players = (await hall.activate(match)).players
    return Scene(
        match, ruleset.game.id, now.seq, now.seq, eyes, seen.view, seen.awaiting,
        now.legal if eyes == seat else [], seen.outcome,
        _names(ruleset, seen.view, players), _holders(now.names, players), now.clock,
        _log(ruleset, records, eyes),
        fork_points(records), ended, True,
    )  # fmt: skip


async def replay(
    hall: Hall, match: str, seat: int | None, at: int, as_seat: int | None = None
) -> Scene:
    """Return the scene after the first ``at`` events, as the seat saw it then; the store is
    read off the event loop."""
    actor = await hall.activate(match)
    records = await reads.read(hall, match)
    holders = await reads.names(hall, match)
    last = records[-1].seq if records else 0
    at = max(1, min(at, last))
    ruleset = actor.ruleset
    ended = ruleset.rules.outcome(actor.state) is not None
    eyes = as_seat if ended and as_seat is not None else seat
    started = records[0].event
    assert isinstance(started, MatchStarted)
    state = engine.fold(
        ruleset, engine.initial_state(ruleset, started), (r.event for r in records[1:at])
    )
    rules = ruleset.rules
    view = rules.view(state, eyes)
    recorded = clocks.last_clock(records[:at])
    clock = clocks.view(recorded, recorded.at) if recorded is not None else None
    return Scene(
        match, ruleset.game.id, at, last, eyes, view, dict(rules.awaiting(state)), [],
        rules.outcome(state), _names(ruleset, view, started.players),
        _holders(holders, started.players), clock,
        _log(ruleset, records[:at], eyes), fork_points(records), ended, False,
        change_lines(event_changes(ruleset, records, at, eyes)),
    )  # fmt: skip


def _holders(names: list[str | None], players: int) -> list[str | None]:
    return [names[s] if s < len(names) else None for s in range(players)]


def _log(ruleset: Ruleset, records: list[Recorded], seat: int | None) -> list[tuple[int, str]]:
    return [(t.record.seq, t.text) for t in Narrator(ruleset, seat).tell_all(records)]
