"""The matches the lobby lists: open seats to join, matches to watch, ended ones to replay.

It reads the store's listing of streams and the seat table; the lobby shows the most recently
active matches first.
"""

from __future__ import annotations

from gamehall.core.errors import GamehallError
from gamehall.core.words import seat_names

from ..gateway import Gateway
from .pages import Listed

SHOWN = 40


def listed(gateway: Gateway, match: str) -> Listed:
    """Return one match as the lobby shows it."""
    hall = gateway.hall
    info = hall.info(match)
    public = hall.view(match, None)
    names = seat_names(hall.ruleset(match), public.view, info.players)
    seats = gateway.seats.seats(match)
    free = [s for s, d in enumerate(seats) if d is None]
    awaiting = [names[s] for s in sorted(public.awaiting) if 0 <= s < len(names)]
    ruleset = hall.ruleset(match)
    title = ruleset.game.name + "".join(f" + {e.name}" for e in ruleset.expansions)
    return Listed(
        match, title, info.players, public.seq, free, names, awaiting,
        public.outcome is not None,
    )  # fmt: skip


def recent(gateway: Gateway, limit: int = SHOWN) -> list[Listed]:
    """Return the most recently active matches, newest first."""
    streams = sorted(gateway.hall.matches(), key=lambda s: s.updated, reverse=True)
    out = []
    for stream in streams[:limit]:
        try:
            out.append(listed(gateway, stream.stream))
        except GamehallError:
            continue  # a quarantined or foreign match is left out of the lobby, not fatal
    return out
