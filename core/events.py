"""Events, commands and the envelope they are stored in.

An event is a frozen, tagged ``msgspec.Struct`` named in the past tense (``MarkPlaced``); a
command is a tagged Struct named as an imperative (``PlaceMark``). Each plugin namespaces its
tags (``tictactoe.MarkPlaced``) through :func:`namespaced`, so two plugins never collide.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, ClassVar

import msgspec


def namespaced(prefix: str) -> Callable[[str], str]:
    """Return a tag function that prefixes class names with a plugin's namespace."""

    def tag(name: str) -> str:
        return f"{prefix}.{name}"

    return tag


class Event(msgspec.Struct, frozen=True, kw_only=True, tag_field="type", tag=True):
    """Base of every event: a fact that happened, never changed once stored.

    ``version`` is the schema version of the class; raise it when a field changes meaning and
    register an upcaster for the old shape (see ``docs/events.md``).
    """

    version: ClassVar[int] = 1


class Command(
    msgspec.Struct,
    frozen=True,
    kw_only=True,
    tag_field="type",
    tag=True,
    forbid_unknown_fields=True,
):
    """Base of every command: what a seat asks for. Unknown fields are refused by name."""


def tag_of(cls: type[msgspec.Struct]) -> str:
    """Return the tag a Struct class is encoded with."""
    tag = cls.__struct_config__.tag
    if not isinstance(tag, str):
        raise TypeError(f"{cls.__qualname__} has no string tag")
    return tag


class ExpansionRef(msgspec.Struct, frozen=True):
    """An expansion as recorded in a match's first event."""

    id: str
    version: str
    options: dict[str, Any] = {}


class MatchStarted(Event, frozen=True, tag="gamehall.MatchStarted"):
    """First event of every match: exactly what the match runs with.

    ``seed`` is known only to the engine; :func:`redact_started` removes it from everything that
    leaves an actor, so no seat can predict a draw. ``data`` holds, per plugin id, a hash of
    each of its component data files (``data/*.toml``, by path in the plugin's package), so a
    replay runs against the data the match was played with (``Ruleset.check_data``).
    """

    game: str
    game_version: str
    players: int
    options: dict[str, Any] = {}
    expansions: tuple[ExpansionRef, ...] = ()
    seed: int | None = None
    forked_from: str | None = None
    fork_seq: int | None = None
    data: dict[str, dict[str, str]] = {}


class TakeBack(Command, frozen=True, tag="gamehall.TakeBack"):
    """A seat's last command, and every batch after it, taken back by consent.

    Never sent by a seat: the hall records it once the seats concerned agreed
    (``Hall.request_undo``), with ``first`` the seq where the taken-back batches begin.
    """

    first: int
    agreed: tuple[int, ...] = ()


class TakenBack(Event, frozen=True, tag="gamehall.TakenBack"):
    """The events ``first`` to ``last`` are void: the match goes on from the state before them.

    The log keeps them (it is append-only); every fold skips them (``engine.live``), so replay,
    verify and a restarted actor agree with the match that went on.
    """

    first: int
    last: int
    seat: int
    agreed: tuple[int, ...] = ()


class LobbyEvent(Event, frozen=True, tag="gamehall.LobbyEvent"):
    """Base of the events that change who sits where and how a match stands in the lobby.

    They are appended to the match's own stream by its actor, like a command's events, but no
    game folds them (``engine.fold`` skips them), no take-back voids them and no game's
    ``reveals`` or ``redact`` is asked about them: they are public. They carry player ids,
    never names (names live in the player records, where an erasure is one row).
    """


class SeatTaken(LobbyEvent, frozen=True, tag="gamehall.SeatTaken"):
    """An open seat was taken: by a player (``player``, an id) or by a seat token's holder."""

    seat: int
    player: str | None = None


class SeatGivenToBot(LobbyEvent, frozen=True, tag="gamehall.SeatGivenToBot"):
    """An open seat was given to a bot the engine plays: ``bot`` in words, with its own seed."""

    seat: int
    bot: str
    seed: int


class RematchLinked(LobbyEvent, frozen=True, tag="gamehall.RematchLinked"):
    """A finished match's rematch was started: ``rematch`` is its id."""

    rematch: str


class SeatReleased(LobbyEvent, frozen=True, tag="gamehall.SeatReleased"):
    """A seat of a match still waiting for players was left (or freed by the match's creator):
    it is open again. ``player`` held it; ``by`` asked (the same id when they left)."""

    seat: int
    player: str
    by: str


class MatchAbandoned(LobbyEvent, frozen=True, tag="gamehall.MatchAbandoned"):
    """The match's creator (``player``) gave it up before anyone else joined: it is over,
    without an outcome."""

    player: str


class MatchExpired(LobbyEvent, frozen=True, tag="gamehall.MatchExpired"):
    """A match still waiting for players saw no event for ``idle`` seconds (the hall's
    expiry time when it was decided): it is over, without an outcome."""

    idle: float


class LobbyCommand(Command, frozen=True, tag="gamehall.LobbyCommand"):
    """Base of what the lobby asks a match's actor; never sent by a seat."""


class TakeSeat(LobbyCommand, frozen=True, tag="gamehall.TakeSeat"):
    """Take an open seat (``seat``, or the lowest open one) for a player or a seat token."""

    seat: int | None = None
    player: str | None = None


class GiveSeatToBot(LobbyCommand, frozen=True, tag="gamehall.GiveSeatToBot"):
    """Give an open seat to a bot (its seed decided by the asker, recorded with it)."""

    seat: int
    bot: str
    seed: int


class LinkRematch(LobbyCommand, frozen=True, tag="gamehall.LinkRematch"):
    """Record the rematch of a finished match."""

    rematch: str


class ReleaseSeat(LobbyCommand, frozen=True, tag="gamehall.ReleaseSeat"):
    """Open a held seat again: asked by its player (leaving) or by the match's creator."""

    seat: int
    by: str


class AbandonMatch(LobbyCommand, frozen=True, tag="gamehall.AbandonMatch"):
    """End a match nobody else joined: asked by its creator."""

    by: str


class ExpireMatch(LobbyCommand, frozen=True, tag="gamehall.ExpireMatch"):
    """End a match found waiting for players with no event for ``idle`` seconds, at
    ``version``: refused if it moved since (a seat taken meanwhile keeps it)."""

    idle: float
    version: int


LOBBY_EVENTS: tuple[type[LobbyEvent], ...] = (
    SeatTaken, SeatGivenToBot, RematchLinked, SeatReleased, MatchAbandoned, MatchExpired,
)  # fmt: skip
CORE_EVENTS: tuple[type[Event], ...] = (MatchStarted, TakenBack, *LOBBY_EVENTS)
CORE_COMMANDS: tuple[type[Command], ...] = (
    TakeBack, TakeSeat, GiveSeatToBot, LinkRematch, ReleaseSeat, AbandonMatch, ExpireMatch,
)  # fmt: skip


class Clock(msgspec.Struct, frozen=True, gc=False):
    """A timed match's clocks after a batch, recorded on the batch's last event.

    ``mode`` is ``move`` (``seconds`` for each move) or ``match`` (``seconds`` for the whole
    match, plus ``increment`` after each of the seat's moves: Fischer). ``at`` is when the
    batch was decided, by the clock of the hall that holds the match; ``remaining`` is each
    seat's time left then, and ``running`` the seats whose time runs from ``at`` on (the
    awaited ones). Each record follows from the one before, the batch's ``at`` and the seats
    the match awaited, so a replay computes the same clocks (``gamehall.core.clock``).
    """

    mode: str
    seconds: float
    increment: float
    at: float
    remaining: tuple[float, ...]
    running: tuple[int, ...]

    def next_deadline(self) -> float | None:
        """Return when the first running seat runs out of time, if any seat is running."""
        return min((self.at + self.remaining[s] for s in self.running), default=None)


# Envelopes hold data only and never take part in a reference cycle, so the garbage collector
# need not track them (``gc=False``): a busy hall allocates several per command.
class Meta(msgspec.Struct, frozen=True, omit_defaults=True, gc=False):
    """Why an event was stored: the command, who sent it, and the plugin versions that decided.

    ``command`` and ``versions`` are carried by the first event of each command's batch only;
    the other events of the batch share its ``command_id``.
    """

    command_id: str | None = None
    seat: int | None = None
    command: Command | None = None
    versions: dict[str, str] | None = None
    clock: Clock | None = None
    lobby: dict[str, Any] | None = None
    """On a match's first event: its listing entry as created (seats, bots, clock, links),
    from which the lobby's events rebuild the listing (player ids only, never names)."""


NO_META = Meta()


class Recorded(msgspec.Struct, frozen=True, gc=False):
    """An event in its envelope: where it sits in its match and in the whole store."""

    stream: str
    seq: int
    position: int
    time: float
    event: Event
    meta: Meta = NO_META


def redact_started(event: MatchStarted) -> MatchStarted:
    """Return the first event without the seed."""
    return msgspec.structs.replace(event, seed=None) if event.seed is not None else event
