"""The matches the lobby lists, read through the live-play lobby (:mod:`gamehall.core.lobby`).

The listing is the same one ``GET /matches`` answers: the store's index of matches by state,
open seats and player, newest first, with who holds each seat and what the game calls it
(recorded when the match started). Reading it activates no match; only a match without
recorded seat names (a fork, or one stored by an older version) asks the match itself for
them, on a player's own list and on its join page.
"""

from __future__ import annotations

import msgspec
from gamehall.core import reads
from gamehall.core.errors import GamehallError
from gamehall.core.lobby import LobbyEntry, Player
from gamehall.core.words import seat_names

from ..gateway import Gateway
from . import bots as strengths

SHOWN = 20


class Seat(msgspec.Struct, frozen=True):
    """One seat as the lobby shows it."""

    seat: int
    name: str
    """What the game calls the seat (a colour, a clan), or "seat N"."""
    holder: str | None
    """Who plays it: a player's name, a bot, or ``None`` while open (or unnamed)."""
    open: bool
    mine: bool


class Listed(msgspec.Struct, frozen=True):
    """A match as the lobby lists it."""

    match: str
    title: str
    players: int
    seats: list[Seat]
    version: int
    updated: float
    finished: bool
    spectators: int
    clock: str | None
    created: float = 0.0
    ended: str | None = None
    """``abandoned`` or ``expired`` (the match is over without an outcome), else ``None``."""
    abandonable: bool = False
    """Whether this browser's player created the match and may abandon it: nobody else
    joined (every seat is open, a bot's or theirs) and it is not over."""

    @property
    def free(self) -> list[int]:
        """Return the open seats."""
        return [s.seat for s in self.seats if s.open and not self.finished]

    @property
    def mine(self) -> list[int]:
        """Return the seats this browser's player holds."""
        return [s.seat for s in self.seats if s.mine]


class Section(msgspec.Struct, frozen=True):
    """One list of the lobby: its matches and how many there are in all."""

    key: str
    title: str
    matches: list[Listed]
    total: int


def _title(gateway: Gateway, entry: LobbyEntry) -> str:
    game = gateway.games().get(entry.game)
    if game is None:
        return entry.game
    names = {e.id: e.name for e in game.expansions}
    return game.name + "".join(f" + {names.get(x, x)}" for x in entry.expansions)


async def _seat_names(gateway: Gateway, entry: LobbyEntry) -> list[str] | None:
    """Return what the game calls each seat of a match recorded without them (loaded off the
    event loop), or ``None`` for one that cannot be loaded."""
    try:
        actor = await gateway.hall.activate(entry.match)
    except GamehallError:
        return None  # a match that cannot be loaded still lists, with plain seat numbers
    rules = actor.ruleset.rules
    return seat_names(actor.ruleset, rules.view(actor.state, None), entry.players)


async def shown(
    gateway: Gateway, entry: LobbyEntry, me: Player | None, *, with_names: bool = False
) -> Listed:
    """Return a lobby entry as the page shows it (the game's seat names when asked)."""
    names = entry.seat_names or [f"seat {s + 1}" for s in range(entry.players)]
    if with_names and entry.seat_names is None:
        names = await _seat_names(gateway, entry) or names
    spec = gateway.hall.registry.games.get(entry.game)
    hidden = spec.hidden_information if spec is not None else False
    seats = [
        Seat(
            s.seat,
            names[s.seat] if s.seat < len(names) else f"seat {s.seat + 1}",
            strengths.named(entry.game, s.bot, hidden) if s.bot and not s.player else s.name,
            s.open,
            me is not None and s.player == me.player,
        )  # fmt: skip
        for s in entry.seats
    ]
    alone = all(s.open or s.bot or (me is not None and s.player == me.player) for s in entry.seats)
    abandonable = (
        me is not None and entry.creator == me.player and alone and not entry.finished
    )  # fmt: skip
    return Listed(
        entry.match, _title(gateway, entry), entry.players, seats, entry.version, entry.updated,
        entry.finished, entry.spectators, entry.clock, entry.created, entry.ended, abandonable,
    )  # fmt: skip


async def entry(gateway: Gateway, match: str, me: Player | None) -> Listed:
    """Return one match as its join page shows it (the store read off the event loop)."""
    return await shown(gateway, await reads.entry(gateway.hall, match), me, with_names=True)


async def lobby(gateway: Gateway, me: Player | None, limit: int = SHOWN) -> list[Section]:
    """Return the lobby's lists: the player's own matches, open seats, live, finished (the
    store read off the event loop)."""
    find = gateway.hall.lobby.listing
    sections = []
    if me is not None:
        page = await find(player=me.player, finished=False, limit=limit)
        listed = [await shown(gateway, e, me, with_names=True) for e in page.matches]
        sections.append(Section("mine", "Your matches", listed, page.total))
    for key, title, page in (
        ("open", "Open seats", await find(finished=False, open_seats=True, limit=limit)),
        ("live", "Matches being played", await find(finished=False, limit=limit)),
        ("finished", "Finished matches", await find(finished=True, limit=limit)),
    ):
        listed = [await shown(gateway, e, me) for e in page.matches]
        sections.append(Section(key, title, listed, page.total))
    return sections
