"""Matches coming into a hall, and what a hall says of one: a feature on top of the kernel.

A match is created (:meth:`Matches.create`), started again with the seats rotated
(:meth:`Matches.rematch`), forked from the first events of another (:meth:`Matches.fork`) or
imported whole from a log (:meth:`Matches.import_records`). Each one's first events and its
listing entry go to the journal in one append, so a match and its entry exist together or not
at all. :meth:`Matches.info` describes a stored match (game, players, version, bots).
"""

from __future__ import annotations

import secrets
import time
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Protocol, TypedDict

import msgspec

from . import clock as clocks
from . import engine, limits
from .bots.driver import BotDriver, from_info, seat_bots, stored
from .bots.spec import BotSpec
from .clock import ClockSpec
from .errors import CorruptRecord, InvalidOptions, UnknownMatch
from .events import (
    NO_META,
    Event,
    LinkRematch,
    LobbyCommand,
    LobbyEvent,
    MatchStarted,
    Meta,
    Recorded,
)
from .kernel.actor import Ack, Loaded
from .kernel.system import Kernel
from .lobby import Lobby, LobbyEntry, seat_info
from .registry import Registry
from .replay import check_fork_point, check_sequence, started_of
from .seating import RematchExists, rebuilt_entry
from .store.base import AppendRequest
from .undo import check_policy
from .views import MatchInfo
from .words import seat_names


class CreateOptions(TypedDict, total=False):
    """The options of :meth:`Matches.create` after the game and the number of players."""

    expansions: Sequence[str]
    options: Mapping[str, Any] | None
    expansion_options: Mapping[str, Mapping[str, Any]] | None
    seed: int | None
    match_id: str | None
    info: Mapping[str, Any] | None
    bots: Mapping[int, str | BotSpec] | None
    bot_seed: int | None
    clock: ClockSpec | Mapping[str, Any] | str | None
    seat_players: Mapping[int, str] | None
    open_seats: Sequence[int]
    undo: str
    seat_tokens: Mapping[int, bytes] | None
    creator: str | None


class ForkOptions(TypedDict, total=False):
    """The options of :meth:`Matches.fork` after the match and the seq."""

    seed: int | None
    match_id: str | None
    open_seats: Sequence[int]
    seat_tokens: Mapping[int, bytes] | None


class RematchOptions(TypedDict, total=False):
    """The options of :meth:`Matches.rematch` after the match."""

    seed: int | None
    bots: Mapping[int, str | BotSpec] | None


class ImportOptions(TypedDict, total=False):
    """The options of :meth:`Matches.import_records` after the records."""

    match_id: str | None
    info: Mapping[str, Any] | None


class MatchesHost(Protocol):
    """What matches coming in ask of the hall (the Hall provides it)."""

    registry: Registry
    kernel: Kernel
    lobby: Lobby
    bots: BotDriver
    now: Callable[[], float]

    async def lobby_command(
        self, match: str, command: LobbyCommand, credential: bytes | None = None
    ) -> Ack:
        """Have a match's actor decide a lobby command; return its events once durable."""
        ...


class Matches:
    """Create, rematch, fork and import the matches of a hall; describe a stored one."""

    def __init__(self, hall: MatchesHost) -> None:
        self.hall = hall

    async def create(
        self,
        game: str,
        players: int | None = None,
        *,
        expansions: Sequence[str] = (),
        options: Mapping[str, Any] | None = None,
        expansion_options: Mapping[str, Mapping[str, Any]] | None = None,
        seed: int | None = None,
        match_id: str | None = None,
        info: Mapping[str, Any] | None = None,
        bots: Mapping[int, str | BotSpec] | None = None,
        bot_seed: int | None = None,
        clock: ClockSpec | Mapping[str, Any] | str | None = None,
        seat_players: Mapping[int, str] | None = None,
        open_seats: Sequence[int] = (),
        undo: str = "consent",
        seat_tokens: Mapping[int, bytes] | None = None,
        creator: str | None = None,
    ) -> str:
        """Start a match and return its id once its first events are durable.

        ``info`` is kept with the match in the store's listing (``matches()``), for adapters
        that remember things about a match outside its events (who plays which seat, …).
        ``bots`` names the seats the engine plays, each with its bot (``{1: "mcts:2000"}``,
        see :func:`gamehall.core.bots.parse_bot`); they are kept in ``info``, each with a seed
        drawn afresh or derived from ``bot_seed`` (never the match seed itself).
        ``clock`` makes the match timed (``move:30``, ``match:300+5``, see
        :mod:`gamehall.core.clock`); ``seat_players`` seats players by id, and ``open_seats``
        are the seats left for players to take from the lobby. ``undo`` is ``consent`` (a
        take-back needs the seats concerned to agree), ``free`` or ``off`` (see
        :mod:`gamehall.core.undo`). ``seat_tokens`` gives seats the digest of a token that
        acts for them (see :meth:`Lobby.seat_of_token`), stored in the same transaction as
        the match's first events: a match and its seats' tokens exist together or not at all.
        ``creator`` is the player id of who asked for the match: they may free its seats and
        abandon it while nobody else joined (:meth:`Lobby.abandon`).
        """
        hall, kernel = self.hall, self.hall.kernel
        kernel.check_open()
        if match_id is not None:
            limits.check_match_id(match_id)
        limits.check_seed(seed)
        _check_unique(expansions)
        spec = clocks.parse_clock(clock)
        check_policy(undo)
        ruleset = hall.registry.ruleset(game, expansions)
        started = ruleset.started(players, options, expansion_options, seed)
        seats = seat_bots(ruleset, started.players, bots or {}, bot_seed)
        for seat in seat_players or {}:
            if not 0 <= seat < started.players:
                raise InvalidOptions(
                    f"seat {seat} does not exist: seats are 0 to {started.players - 1}"
                )
        known = [*(seat_players or {}).values(), *([creator] if creator is not None else [])]
        if known:
            await kernel.io(lambda: [hall.lobby.player(p) for p in known])
        for seat, given in (seat_tokens or {}).items():
            if not 0 <= seat < started.players or not isinstance(given, bytes):
                raise InvalidOptions(f"seat {seat} does not exist or its token digest is no bytes")
        extra = {
            **(info or {}),
            **({"bots": stored(seats)} if seats else {}),
            **seat_info(started.players, seat_players, [s for s in open_seats if s not in seats]),
            "finished": False,
            **({"clock": str(spec)} if spec else {}),
            **({"undo": undo} if undo != "consent" else {}),
            **({"creator": creator} if creator is not None else {}),
        }
        state, events = engine.begin(ruleset, started)
        # What the game calls each seat, for listings that should not load the match to say it.
        extra["seat_names"] = seat_names(ruleset, ruleset.rules.view(state, None), started.players)
        match = match_id or new_match_id()
        listing = _info(started, extra)
        # The entry as created goes with the first event too: the log rebuilds the listing.
        metas = [Meta(versions=ruleset.versions, lobby=listing), *[NO_META] * (len(events) - 1)]
        started_clock = None
        if spec is not None:
            running = ruleset.rules.awaiting(state)
            started_clock = clocks.start(spec, started.players, hall.now(), running)
            metas[-1] = msgspec.structs.replace(metas[-1], clock=started_clock)
        tokens = tuple(sorted((seat_tokens or {}).items()))
        await kernel.journal.append(AppendRequest(match, 0, events, metas, listing, tokens))
        loaded = Loaded(
            ruleset, started.seed or 0, started.players, state, len(events), {}, started_clock,
            _info(started, extra),
        )  # fmt: skip
        kernel.start(match, loaded)
        hall.bots.attach(match, seats)
        return match

    async def rematch(
        self,
        match: str,
        *,
        seed: int | None = None,
        bots: Mapping[int, str | BotSpec] | None = None,
    ) -> str:
        """Start a new match of a finished one: same game, options, clock and players, the
        seats rotated by one; the two are linked in the lobby. Seats that no player and no
        bot held are open in the new match. ``bots`` chooses the bots again (by the new
        match's seats; by default the same bots play). Return the new id (the same one when
        asked again)."""
        hall, kernel = self.hall, self.hall.kernel
        actor = await kernel.activate(match)
        if actor.ruleset.rules.outcome(actor.state) is None:
            raise InvalidOptions(f"match {match!r} is not over: a rematch follows a finished match")

        def read() -> tuple[LobbyEntry, MatchStarted, Any, list[str | None]]:
            info = kernel.store.stream_info(match)
            assert info is not None
            return hall.lobby.entry(match), self.started(match), info, hall.lobby.holders(match)

        # The store is read in a worker thread; the bots this hall plays, on the loop.
        entry, started, info, holders = await kernel.io(read)
        if entry.rematch is not None:
            return entry.rematch
        n = started.players
        seat_players = {(s + 1) % n: p for s, p in enumerate(holders) if p is not None}
        told = self.describe(match, started, info)
        rotated: Mapping[int, str | BotSpec] = {(s + 1) % n: b for s, b in told.bots.items()}
        if bots is not None:
            if set(bots) != set(rotated):
                raise InvalidOptions("a rematch chooses again the bots of the seats bots held")
            rotated = bots
        # A seat no player and no bot held (a script's token) is open in the rematch.
        free = [s for s in range(n) if s not in seat_players and s not in rotated]
        new = await self.create(
            started.game,
            n,
            expansions=[e.id for e in started.expansions],
            options=started.options,
            expansion_options={e.id: e.options for e in started.expansions},
            seed=seed,
            bots=rotated,
            clock=info.info.get("clock"),
            seat_players=seat_players,
            open_seats=free,
            info={"rematch_of": match},
        )
        try:
            await hall.lobby_command(match, LinkRematch(rematch=new))
        except RematchExists as exc:  # another asker's rematch was linked first: theirs counts
            await hall.lobby.delete(new, unstarted=True)
            return exc.rematch
        return new

    async def fork(
        self,
        match: str,
        at_seq: int,
        *,
        seed: int | None = None,
        match_id: str | None = None,
        open_seats: Sequence[int] = (),
        seat_tokens: Mapping[int, bytes] | None = None,
    ) -> str:
        """Start a new match from the first ``at_seq`` events of another; return its id.

        ``open_seats`` are the new match's seats left for players to take from the lobby;
        ``seat_tokens`` gives seats a token's digest, as :meth:`create` does. Who sat where
        in the other match is not copied: the fork's seating is its own.
        """
        kernel = self.hall.kernel
        kernel.check_open()
        limits.check_seq("at_seq", at_seq)
        limits.check_seed(seed)
        if match_id is not None:
            limits.check_match_id(match_id)
        records = await kernel.read_off_loop(match, 0)  # off the event loop
        if not records:
            raise UnknownMatch(match)
        check_fork_point(match, records, at_seq)
        records = records[:at_seq]
        started = records[0].event
        assert isinstance(started, MatchStarted)
        forked = msgspec.structs.replace(
            started, forked_from=match, fork_seq=at_seq, seed=started.seed if seed is None else seed
        )
        ruleset = self.hall.registry.ruleset_of(forked)
        played = [r for r in records[1:] if not isinstance(r.event, LobbyEvent)]
        events: list[Event] = [forked, *(r.event for r in played)]
        new = match_id or new_match_id()
        seats = seat_info(forked.players, None, [s for s in open_seats if 0 <= s < forked.players])
        info = _info(forked, seats)
        metas = [Meta(versions=ruleset.versions, lobby=info), *(r.meta for r in played)]
        tokens = tuple(
            sorted((s, d) for s, d in (seat_tokens or {}).items() if 0 <= s < forked.players)
        )
        await kernel.journal.append(AppendRequest(new, 0, events, metas, info, tokens))
        return new

    async def import_records(
        self,
        records: Sequence[Recorded],
        *,
        match_id: str | None = None,
        info: Mapping[str, Any] | None = None,
    ) -> str:
        """Store a whole log (from a file, another store) as a new match; return its id.

        The log must be complete and in order, and its plugins installed; the store gives the
        events new positions and times. Verifying the commands is the caller's choice
        (:func:`gamehall.core.replay.verify`).
        """
        kernel, registry = self.hall.kernel, self.hall.registry
        kernel.check_open()
        check_sequence(records)
        started = started_of(records)
        registry.ruleset_of(started)
        match = limits.check_match_id(match_id or records[0].stream)
        events = [r.event for r in records]
        metas = [r.meta for r in records]
        # A log that records its listing keeps it (its seating, its links); others get one.
        entry = {**(rebuilt_entry(registry, records) or {}), **_info(started, info)}
        await kernel.journal.append(AppendRequest(match, 0, events, metas, entry))
        return match

    # -- what a hall says of a match ----------------------------------------------------------

    def started(self, match: str) -> MatchStarted:
        """Return a match's first event, read from the store."""
        head = self.hall.kernel.read(match, 0, 1)
        if not head or not isinstance(head[0].event, MatchStarted):
            raise UnknownMatch(match)
        return head[0].event

    def info(self, match: str) -> MatchInfo:
        """Return a match's game, players and version."""
        return self.describe(match, self.started(match), self.hall.kernel.store.stream_info(match))

    async def info_off_loop(self, match: str) -> MatchInfo:
        """:meth:`info` with the store read in a worker thread."""
        kernel = self.hall.kernel
        kernel.check_quarantine(match)
        known = limits.known_match_id(match)
        store = kernel.store
        try:
            head, entry = await kernel.io(
                lambda: (store.read(known, 0, 1), store.stream_info(known))
            )
        except CorruptRecord as exc:
            raise kernel.quarantine(match, exc) from None
        if not head or not isinstance(head[0].event, MatchStarted) or entry is None:
            raise UnknownMatch(match)
        return self.describe(match, head[0].event, entry)

    def describe(self, match: str, started: MatchStarted, entry: Any) -> MatchInfo:
        """Return :meth:`info` from what the store holds: the first event and the entry."""
        assert entry is not None
        bots = self.hall.bots
        return MatchInfo(
            match,
            started.game,
            [e.id for e in started.expansions],
            started.players,
            entry.version,
            entry.created,
            entry.updated,
            started.forked_from,
            started.fork_seq,
            bots.bots_of(match) if match in bots.seats else _bots(entry.info),
        )


def new_match_id() -> str:
    """Return a fresh, unguessable match id that sorts after the ids made before it.

    Twelve hex digits of the creation time in milliseconds, then sixteen random ones (64
    bits, as unguessable as before). The stores key events and listings by match id, so the
    matches made about the same time, which are mostly played at the same time, keep their
    rows on the same few pages: a commit of many matches' moves writes a few pages instead
    of one a match (about a third more durable commands a second, ``make bench``).
    """
    return f"{time.time_ns() // 1_000_000:012x}{secrets.token_hex(8)}"


def _bots(info: Mapping[str, Any]) -> dict[int, str]:
    return {seat: bot.bot for seat, bot in sorted(from_info(info).items())}


def _check_unique(expansions: Sequence[str]) -> None:
    seen: set[str] = set()
    for expansion in expansions:
        if expansion in seen:
            raise InvalidOptions(f"expansion {expansion!r} is listed twice")
        seen.add(expansion)


def _info(started: MatchStarted, extra: Mapping[str, Any] | None = None) -> dict[str, Any]:
    return {
        **(extra or {}),
        "game": started.game,
        "expansions": [e.id for e in started.expansions],
        "players": started.players,
        "forked_from": started.forked_from,
    }
