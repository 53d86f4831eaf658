"""The Hall: the actor system and the API for embedding gamehall in a service.

``async with Hall(store) as hall`` starts the journal (group commit) and owns one task group
for every actor. Matches activate on first use (snapshot + tail) and passivate when idle; a
command is acknowledged only once its events are durable. Everything that leaves the hall —
views, histories, live streams, acknowledgements — is redacted for the asking seat.
"""

from __future__ import annotations

import secrets
import time
from collections.abc import AsyncGenerator, Callable, Coroutine, Mapping, Sequence
from types import TracebackType
from typing import Any, Self, TypeVar

import anyio
import msgspec
import structlog
from anyio.abc import TaskGroup

from . import clock as clocks
from . import engine, lifecycle, limits, seating
from .bots.driver import BotDriver, from_info, seat_bots, stored
from .bots.spec import BotSpec
from .clock import ClockSpec, ClockView
from .errors import (
    CorruptRecord,
    InvalidCommand,
    InvalidOptions,
    MatchQuarantined,
    StoreClosed,
    UnknownMatch,
)
from .events import (
    NO_META,
    Command,
    Event,
    LinkRematch,
    LobbyCommand,
    LobbyEvent,
    MatchStarted,
    Meta,
    Recorded,
)
from .kernel.activation import Loader, snapshot_key
from .kernel.actor import Ack, Actor, ActorContext, ActorStopped, Loaded, SendCommand
from .kernel.context import Committed, Metrics
from .kernel.hub import Hub
from .kernel.journal import Journal, new_pending
from .kernel.supervisor import Supervisor
from .lobby import Lobby, LobbyEntry, seat_info
from .narration import Narrator
from .nodes import Follower
from .registry import Registry, Ruleset, default_registry
from .replay import check_fork_point, check_sequence, started_of
from .rules import Decision
from .seating import RematchExists, rebuilt_entry
from .store.base import AppendRequest, Store
from .timers import TurnClocks
from .undo import Undos, UndoStatus, check_policy, state_after
from .views import MatchInfo as MatchInfo
from .views import SeatView as SeatView
from .views import Turn as Turn
from .words import Narrated, seat_label, seat_names

log = structlog.get_logger("gamehall.hall")
T = TypeVar("T")


MAX_ACTIVE = 10_000  # running actors (about 10 KB each) before the least recently used rest


class Hall:
    """Run matches as actors over a store."""

    def __init__(
        self,
        store: Store,
        registry: Registry | None = None,
        *,
        snapshot_every: int = 200,
        idle_seconds: float = 300.0,
        mailbox_size: int = 1024,
        watch_buffer: int = 256,
        clock: Callable[[], float] = time.time,
        clock_guard: Callable[[str], bool] | None = None,
        clock_poll: float = 1.0,
        expire_after: float | None = lifecycle.EXPIRE_AFTER,
        retain_for: float | None = lifecycle.RETAIN_FOR,
        sweep_every: float = lifecycle.SWEEP_EVERY,
        max_active: int = MAX_ACTIVE,
    ) -> None:
        """``clock`` is what turn clocks read (tests give a fake one); ``clock_guard`` says
        whether this hall may fire a match's expired clock (on several nodes: whether it holds
        the match's lease); without one, the hall holding the actor fires it, or on a shared
        store the node holding the match's lease. ``clock_poll`` is the longest real time
        between two looks at the clocks. A match waiting for players with no event for
        ``expire_after`` seconds expires (looked for every ``sweep_every`` real seconds); a
        match that is over leaves the listings ``retain_for`` seconds after its last event
        (``None``: never). ``max_active`` caps the running actors: past it, the least
        recently used resting ones are passivated (a timed one's next expiry is in the store)."""
        if isinstance(max_active, bool) or not isinstance(max_active, int) or max_active < 1:
            raise ValueError(f"max_active is a whole number of at least 1, not {max_active!r}")
        self.max_active = max_active
        self.store = store
        self.now = clock
        if clock_guard is None and store.shared:
            clock_guard = store.try_lease  # one node fires a match's clock, as for its bots
        self.clock_guard = clock_guard
        self.registry = registry or default_registry()
        self.snapshot_every = snapshot_every
        self.idle_seconds = idle_seconds
        self.mailbox_size = mailbox_size
        self.journal = Journal(store)
        self.loader = Loader(store, self.registry, snapshot_every, clocks)
        self.hub = Hub(watch_buffer)
        self.metrics = Metrics()
        self.kernel = ActorContext(
            store=store,
            journal=self.journal,
            publish=self.hub.publish,
            now=clock,
            metrics=self.metrics,
            quarantine=self._quarantine,
            load=self.load,
            spawn=self.spawn,
            projection=seating,
            timing=clocks,
            snapshot_every=snapshot_every,
            snapshot_key=self.snapshot_key,
            mailbox_size=mailbox_size,
        )
        self.actors = Supervisor(self.kernel, on_stop=self._stopped)
        self.turn_clocks = TurnClocks(
            actors=self.actors,
            store=store,
            now=clock,
            clock_guard=clock_guard,
            poll=clock_poll,
            activate=self.activate,
            send=self.send,
            closed=lambda: self._closed,
        )
        self.quarantined: dict[str, str] = {}
        self._tg: TaskGroup | None = None
        self._closed = False
        self._reaper: anyio.CancelScope | None = None
        self.bots = BotDriver(self)
        self.kernel.subscribers.append(self._committed)
        self.follower = Follower(self) if store.shared else None
        self.lobby = Lobby(self)
        self.undos = Undos(self)
        self._activating: dict[str, _Flight] = {}
        self.clock_poll = clock_poll
        self.lifecycle = lifecycle.Lifecycle(self, expire_after, sweep_every)
        self.retain_for = lifecycle.check_period("retain_for", retain_for)

    # -- lifecycle --------------------------------------------------------------------------

    async def __aenter__(self) -> Self:
        self._reaper = anyio.CancelScope()
        self.journal.open()
        self._tg = await anyio.create_task_group().__aenter__()
        self._tg.start_soon(self.journal.run)
        self._tg.start_soon(self._passivate_idle)
        if self.follower is not None:
            await self._tg.start(self.follower.run)
        self._tg.start_soon(self.turn_clocks.watch)
        self._tg.start_soon(self.resume_clocks)
        self._tg.start_soon(self.lifecycle.run)
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> bool | None:
        assert self._tg is not None
        if exc is None or isinstance(exc, anyio.get_cancelled_exc_class()):
            await self.aclose()
            return await self._tg.__aexit__(exc_type, exc, tb)
        # The caller's own error leaves unwrapped (not in an ExceptionGroup); actors stop.
        self._closed = True
        if self.follower is not None:
            self.follower.stop()
        self.bots.close()
        self._tg.cancel_scope.cancel()
        await self._tg.__aexit__(None, None, None)
        return None

    async def aclose(self) -> None:
        """Let every actor finish its mailbox, then stop the journal and the live streams."""
        if self._closed:
            return
        self._closed = True
        self.bots.close()
        if self._reaper is not None:
            self._reaper.cancel()
        if self.follower is not None:
            self.follower.stop()
        self.turn_clocks.stop()
        self.lifecycle.stop()
        await self.actors.stop_all()
        await self.journal.close()
        self.hub.close()

    def spawn(self, fn: Callable[..., Coroutine[Any, Any, Any]], *args: Any) -> None:
        """Run a task in the hall's task group."""
        if self._tg is None:
            raise StoreClosed("the hall is not running (use 'async with Hall(...)')")
        self._tg.start_soon(fn, *args)

    @property
    def closed(self) -> bool:
        """Tell whether the hall has stopped taking work (or never started)."""
        return self._closed or self._tg is None

    def _check_open(self) -> None:
        if self._closed:
            raise StoreClosed("the hall is closed")
        if self._tg is None:
            raise StoreClosed(
                "the hall is not open: run it with 'async with hall', or run the lifespan of "
                "the app that manages it (a host that mounts the app runs it with "
                "mounted_lifespan)"
            )

    # -- matches ----------------------------------------------------------------------------

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
        self._check_open()
        if match_id is not None:
            limits.check_match_id(match_id)
        limits.check_seed(seed)
        _check_unique(expansions)
        spec = clocks.parse_clock(clock)
        check_policy(undo)
        ruleset = self.registry.ruleset(game, expansions)
        started = ruleset.started(players, options, expansion_options, seed)
        seats = seat_bots(ruleset, started.players, bots or {}, bot_seed)
        for seat in seat_players or {}:
            if not 0 <= seat < started.players:
                raise InvalidOptions(
                    f"seat {seat} does not exist: seats are 0 to {started.players - 1}"
                )
        known = [*(seat_players or {}).values(), *([creator] if creator is not None else [])]
        if known:
            await self._io(lambda: [self.lobby.player(p) for p in known])
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
            started_clock = clocks.start(spec, started.players, self.now(), running)
            metas[-1] = msgspec.structs.replace(metas[-1], clock=started_clock)
        tokens = tuple(sorted((seat_tokens or {}).items()))
        await self.journal.append(AppendRequest(match, 0, events, metas, listing, tokens))
        loaded = Loaded(
            ruleset, started.seed or 0, started.players, state, len(events), {}, started_clock,
            _info(started, extra),
        )  # fmt: skip
        self._start_actor(match, loaded)
        self.bots.attach(match, seats)
        return match

    def set_bots(
        self, match: str, bots: Mapping[int, str | BotSpec], bot_seed: int | None = None
    ) -> None:
        """Change which seats of a match the engine plays, for as long as this hall runs.

        The bots chosen at :meth:`create` stay in the store; this is for a session that
        takes a bot's seat itself, or lets a bot play a seat that had none.
        """
        actor = self._actor(match)
        self.bots.attach(match, seat_bots(actor.ruleset, actor.players, bots, bot_seed))

    async def send(
        self,
        match: str,
        seat: int,
        command: Command | Mapping[str, Any],
        command_id: str | None = None,
    ) -> Ack:
        """Send a seat's command; return its events once durable, or raise why it was refused."""
        self._check_open()
        actor = await self.activate(match)
        command = self.registry.codec.command_from_builtins(command)
        if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < actor.players:
            raise InvalidCommand(
                f"seat {seat!r} does not exist: seats are 0 to {actor.players - 1}"
            )
        return await self._ask(actor, SendCommand(seat, command, command_id, new_pending()))

    async def lobby_command(
        self, match: str, command: LobbyCommand, credential: bytes | None = None
    ) -> Ack:
        """Have a match's actor decide a lobby command (who sits where) and append its events
        at the match's version; return them once durable, or raise why it was refused.

        ``credential`` is the digest of the token that will act for the seat a ``TakeSeat``
        gives: stored in the same transaction as its event, or not at all."""
        self._check_open()
        actor = await self.activate(match)
        return await self._ask(
            actor, SendCommand(-1, command, None, new_pending(), credential=credential)
        )

    def seating(self, match: str) -> dict[str, Any]:
        """Return a match's listing entry as its actor holds it (who sits where, now)."""
        return dict(self._actor(match).info)

    def view(self, match: str, seat: int | None, names: list[str | None] | None = None) -> SeatView:
        """Return a seat's view of a match (``None`` is a spectator); ``names`` are the seats'
        names when the caller read them already (:func:`gamehall.core.reads.view` does, off
        the event loop)."""
        actor = self._actor(match)
        rules, state = actor.ruleset.rules, actor.state
        live = not seating.ending(actor.info)  # an abandoned or expired match awaits nobody
        legal = list(rules.legal(state, seat)) if seat is not None and live else []
        return SeatView(
            match,
            actor.version,
            seat,
            rules.view(state, seat),
            dict(rules.awaiting(state)) if live else {},
            legal,
            rules.outcome(state),
            self.lobby.names(match) if names is None else names,
            clocks.view(actor.clock, self.now()),
        )

    def clock(self, match: str) -> ClockView | None:
        """Return a match's clocks now (``None`` for a match without a time control)."""
        return clocks.view(self._actor(match).clock, self.now())

    def turn(self, match: str, seat: int | None) -> Turn:
        """Return whose move it is, as ``seat`` may know it."""
        actor = self._actor(match)
        rules, state = actor.ruleset.rules, actor.state
        live = not seating.ending(actor.info)
        asked = rules.awaiting(state) if live else {}
        # A seat that is not awaited has no legal command but its free actions.
        free = live and seat is not None and seat not in asked and bool(rules.legal(state, seat))
        decision = asked.get(seat) if seat is not None else None
        return Turn(match, actor.version, seat, sorted(asked), decision, free)

    def awaiting(self, match: str) -> dict[int, Decision]:
        """Return the seats a match waits for (empty once it is over)."""
        actor = self._actor(match)
        if seating.ending(actor.info):  # abandoned or expired
            return {}
        return dict(actor.ruleset.rules.awaiting(actor.state))

    def legal(self, match: str, seat: int) -> list[Command]:
        """Return the commands a seat may send now."""
        actor = self._actor(match)
        if seating.ending(actor.info):
            return []
        return list(actor.ruleset.rules.legal(actor.state, seat))

    def render(self, match: str, seat: int | None, names: list[str | None] | None = None) -> str:
        """Return a seat's board as text; ``names`` are the seats' names when the caller read
        them already (:func:`gamehall.core.reads.render` does, off the event loop)."""
        actor = self._actor(match)
        board = actor.ruleset.render(actor.ruleset.rules.view(actor.state, seat), seat)
        if names is None:
            names = self.lobby.names(match)
        if not any(names):
            return board
        told = ", ".join(f"{seat_label(s)}: {n}" for s, n in enumerate(names) if n)
        return f"Players: {told}\n{board}"

    def state(self, match: str) -> Any:
        """Return the whole state of a match: for operators and replay tools, never for seats."""
        return self._actor(match).state

    def ruleset(self, match: str) -> Ruleset:
        """Return the ruleset a match runs with."""
        return self._actor(match).ruleset

    def info(self, match: str) -> MatchInfo:
        """Return a match's game, players and version."""
        return self.match_info(match, self._started(match), self.store.stream_info(match))

    def match_info(self, match: str, started: MatchStarted, entry: Any) -> MatchInfo:
        """Return :meth:`info` from what the store holds: the first event and the entry."""
        assert entry is not None
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
            self.bots.bots_of(match) if match in self.bots.seats else _bots(entry.info),
        )

    def matches(self, after: str = "", limit: int | None = None) -> list[Any]:
        """Return stored matches in id order."""
        return self.store.streams(after, limit)

    def history(
        self, match: str, seat: int | None, after: int = 0, limit: int | None = None
    ) -> list[Recorded]:
        """Return a match's events after ``after`` as ``seat`` may see them."""
        limits.check_seq("after", after)
        limits.check_limit("limit", limit)
        ruleset = self.ruleset(match)
        return self.redact_records(ruleset, self.read(match, after, limit=limit), seat)

    def read(
        self, match: str, after: int = 0, upto: int | None = None, limit: int | None = None
    ) -> list[Recorded]:
        """Return a match's stored records, whole: for the operator and for redaction."""
        self._check_quarantine(match)
        try:
            return self.store.read(limits.known_match_id(match), after, upto, limit)
        except CorruptRecord as exc:
            raise self._quarantine(match, exc) from None

    async def read_off_loop(self, match: str) -> list[Recorded]:
        """:meth:`read` of a whole match with the store read in a worker thread (a damaged row
        quarantines the match here, on the event loop)."""
        self._check_quarantine(match)
        try:
            return await self._io(self.store.read, limits.known_match_id(match))
        except CorruptRecord as exc:
            raise self._quarantine(match, exc) from None

    async def info_off_loop(self, match: str) -> MatchInfo:
        """:meth:`info` with the store read in a worker thread."""
        self._check_quarantine(match)
        known = limits.known_match_id(match)
        try:
            head, entry = await self._io(
                lambda: (self.store.read(known, 0, 1), self.store.stream_info(known))
            )
        except CorruptRecord as exc:
            raise self._quarantine(match, exc) from None
        if not head or not isinstance(head[0].event, MatchStarted) or entry is None:
            raise UnknownMatch(match)
        return self.match_info(match, head[0].event, entry)

    def version(self, match: str) -> int:
        """Return the seq of a match's last event, as its actor holds it."""
        return self._actor(match).version

    async def _io(self, fn: Callable[..., T], *args: Any) -> T:
        """Run a blocking store call in a worker thread (directly for a store in memory)."""
        if self.store.threaded:
            return await anyio.to_thread.run_sync(fn, *args)
        return fn(*args)

    async def _read_off_loop(
        self, match: str, after: int = 0, upto: int | None = None
    ) -> list[Recorded]:
        """:meth:`read`, with the store read in a worker thread."""
        self._check_quarantine(match)
        known = limits.known_match_id(match)
        try:
            return await self._io(self.store.read, known, after, upto)
        except CorruptRecord as exc:
            raise self._quarantine(match, exc) from None

    def narrated_history(
        self, match: str, seat: int | None, after: int = 0, limit: int | None = None
    ) -> list[Narrated]:
        """Return a seat's events after ``after`` with what each tells it, in words.

        ``limit`` bounds the stored events read after ``after`` (as for :meth:`history`).
        """
        limits.check_seq("after", after)
        limits.check_limit("limit", limit)
        ruleset = self.ruleset(match)
        upto = None if limit is None else min(after + limit, limits.INT64_MAX)
        return Narrator(ruleset, seat).tell_all(self.read(match, 0, upto), after)

    async def watch(
        self, match: str, seat: int | None, after: int = 0
    ) -> AsyncGenerator[Recorded, None]:
        """Yield a seat's redacted events from ``after`` on, then live ones, until the hall closes."""
        limits.check_seq("after", after)
        ruleset = (await self.activate(match)).ruleset
        async for record in self._follow(match, after):
            shown = self.redact_record(ruleset, record, seat)
            if shown is not None:
                yield shown

    async def watch_narrated(
        self, match: str, seat: int | None, after: int = 0
    ) -> AsyncGenerator[Narrated, None]:
        """Like :meth:`watch`, with what each event tells the seat, in words."""
        narrator = Narrator((await self.activate(match)).ruleset, seat)
        async for record in self._follow(match, 0):
            told = narrator.tell(record)
            if told is not None and record.seq > after:
                yield told

    async def _follow(self, match: str, after: int) -> AsyncGenerator[Recorded, None]:
        # Every stored event after ``after``, then live ones, in order, none twice: a watcher
        # that was dropped for falling behind reads what it missed from the store.
        last = after
        while not self._closed:
            send, receive = self.hub.subscribe(match)
            try:
                for record in await self._read_off_loop(match, last):  # off the event loop
                    last = record.seq
                    yield record
                async for records in receive:
                    if records and records[0].seq > last + 1:
                        # Events stored while this node did not hear of them: read them first.
                        missed = await self._read_off_loop(match, last, records[0].seq - 1)
                        records = [*missed, *records]
                    for record in records:
                        if record.seq <= last:
                            continue
                        last = record.seq
                        yield record
            finally:
                self.hub.unsubscribe(match, send)
                receive.close()

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
        self._check_open()
        limits.check_seq("at_seq", at_seq)
        limits.check_seed(seed)
        if match_id is not None:
            limits.check_match_id(match_id)
        records = await self._read_off_loop(match, 0)  # off the event loop
        if not records:
            raise UnknownMatch(match)
        check_fork_point(match, records, at_seq)
        records = records[:at_seq]
        started = records[0].event
        assert isinstance(started, MatchStarted)
        forked = msgspec.structs.replace(
            started, forked_from=match, fork_seq=at_seq, seed=started.seed if seed is None else seed
        )
        ruleset = self.registry.ruleset_of(forked)
        played = [r for r in records[1:] if not isinstance(r.event, LobbyEvent)]
        events: list[Event] = [forked, *(r.event for r in played)]
        new = match_id or new_match_id()
        seats = seat_info(forked.players, None, [s for s in open_seats if 0 <= s < forked.players])
        info = _info(forked, seats)
        metas = [Meta(versions=ruleset.versions, lobby=info), *(r.meta for r in played)]
        tokens = tuple(
            sorted((s, d) for s, d in (seat_tokens or {}).items() if 0 <= s < forked.players)
        )
        await self.journal.append(AppendRequest(new, 0, events, metas, info, tokens))
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
        self._check_open()
        check_sequence(records)
        started = started_of(records)
        self.registry.ruleset_of(started)
        match = limits.check_match_id(match_id or records[0].stream)
        events = [r.event for r in records]
        metas = [r.meta for r in records]
        # A log that records its listing keeps it (its seating, its links); others get one.
        entry = {**(rebuilt_entry(self.registry, records) or {}), **_info(started, info)}
        await self.journal.append(AppendRequest(match, 0, events, metas, entry))
        return match

    # -- redaction --------------------------------------------------------------------------

    def redact_record(
        self, ruleset: Ruleset, record: Recorded, seat: int | None
    ) -> Recorded | None:
        """Return a record as ``seat`` may see it, or ``None`` (see :func:`engine.redact_record`)."""
        return engine.redact_record(ruleset, record, seat)

    def redact_records(
        self, ruleset: Ruleset, records: Sequence[Recorded], seat: int | None
    ) -> list[Recorded]:
        """Return records as ``seat`` may see them."""
        return engine.redact_records(ruleset, records, seat)

    # -- actors -----------------------------------------------------------------------------

    async def activate(self, match: str) -> Actor:
        """Return a match's actor, loading the match off the event loop if it is not active.

        The store is read and the events folded in a worker thread, so the other matches and
        streams of the hall go on meanwhile; a match several requests activate at once is
        loaded once (single flight): the others wait for that load.
        """
        actor = self.actors.get(match)
        if actor is not None:
            actor.touch()
            return actor
        self._check_open()
        self._check_quarantine(match)
        limits.known_match_id(match)
        flight = self._activating.get(match)
        if flight is None:
            flight = self._activating[match] = _Flight()
            try:
                flight.loaded = await self.loader.load_off_loop(match)
            except CorruptRecord as exc:
                flight.error = self._quarantine(match, exc)
            except Exception as exc:  # noqa: BLE001 - every waiter gets the same answer
                flight.error = exc
            finally:
                del self._activating[match]
                flight.done.set()
        else:
            await flight.done.wait()
        if flight.error is not None:
            raise flight.error
        assert flight.loaded is not None
        actor = self.actors.get(match)
        if actor is None:  # no synchronous use started it meanwhile
            self._check_open()
            actor = self._start_actor(match, flight.loaded)
            self.bots.activated(match)
        actor.touch()
        return actor

    def _actor(self, match: str) -> Actor:
        actor = self.actors.get(match)
        if actor is None:
            self._check_open()
            self._check_quarantine(match)
            try:
                loaded = self.load(limits.known_match_id(match))
            except CorruptRecord as exc:
                raise self._quarantine(match, exc) from None
            actor = self._start_actor(match, loaded)
            self.bots.activated(match)
        actor.touch()
        return actor

    def kept(self, actor: Actor) -> bool:
        """Tell whether an actor still owns its match here (it was not dropped)."""
        return self.actors.kept(actor)

    def _committed(self, batch: Committed) -> None:
        # The bots hear of every durable batch: a seat given to a bot starts being played.
        if "bots" in batch.changed:
            self.bots.attach(batch.match, from_info(batch.info))
        else:
            self.bots.wake(batch.match)

    async def _ask(self, actor: Actor, message: SendCommand) -> Ack:
        """Have a match's actor decide a message and wait for its answer.

        An actor stopped since it was found (dropped after a store error, quarantined)
        took nothing: the command goes to the match's next actor, or is refused with why.
        """
        while True:
            try:
                return await _ask(actor, message)
            except ActorStopped:
                if self._closed:
                    raise
            actor = await self.activate(actor.match)

    def advanced(self, match: str, seq: int) -> None:
        """Hear that another node stored a match up to ``seq``: catch up what runs here."""
        actor = self.actors.get(match)
        if actor is not None:
            actor.advanced(seq)
        else:
            self.hub.drop(match)  # its watchers read what they missed from the store

    def quarantine(self, match: str, exc: CorruptRecord) -> MatchQuarantined:
        """Stop serving a match whose rows fail their checks; return the error to raise."""
        return self._quarantine(match, exc)

    def _stopped(self, match: str) -> None:
        # Whatever belongs to the match and no person now runs on a node that has it active.
        if self.store.shared and self.actors.get(match) is None:
            self.store.release_lease(match)
        if self.actors.get(match) is None:
            self.undos.pending.pop(match, None)  # a pending take-back goes with the actor
            self.store.forget(match)  # and what the store caches for it

    def _check_quarantine(self, match: str) -> None:
        reason = self.quarantined.get(match)
        if reason is not None:
            raise MatchQuarantined(match, reason)

    def _quarantine(self, match: str, exc: CorruptRecord) -> MatchQuarantined:
        """Stop serving a match whose rows fail their checks; the others go on."""
        reason = f"seq {exc.seq}: {exc.reason}" if exc.seq else exc.reason
        if match not in self.quarantined:
            log.error("match quarantined", match=match, reason=reason)
        self.quarantined[match] = reason
        self.actors.stop(match)
        return MatchQuarantined(match, reason)

    def _start_actor(self, match: str, loaded: Loaded) -> Actor:
        actor = self.actors.start(match, loaded)
        if len(self.actors) > self.max_active:
            self.actors.trim(self.max_active)
        return actor

    async def _passivate_idle(self) -> None:
        # One sweep for all actors instead of a timeout around every mailbox read.
        assert self._reaper is not None
        with self._reaper:
            while not self._closed:
                await anyio.sleep(max(min(self.idle_seconds / 4, 5.0), 0.005))
                self.passivate(self.idle_seconds)

    def compact(self) -> None:
        """Shrink the tables the hall keeps for its active matches after many went to rest.

        A resting match keeps nothing in memory (a timed one's next expiry is in the store),
        but a table keeps the size of its peak; made afresh, it frees that memory for the
        system (see :func:`gamehall.core.runtime.give_back_rested_memory`)."""
        self.actors.compact()

    def passivate(self, idle_for: float = 0.0) -> int:
        """Stop every actor idle for at least ``idle_for`` seconds; return how many stopped.

        Their matches stay in the store and activate again on the next use.
        """
        return self.actors.passivate(idle_for)

    # -- turn clocks ------------------------------------------------------------------------

    async def fire_expired(self, now: float | None = None) -> int:
        """Send the fallback command of every seat of an active match whose time ran out
        (see :meth:`gamehall.core.timers.TurnClocks.fire_expired`); return how many."""
        return await self.turn_clocks.fire_expired(now)

    async def resume_clocks(self) -> int:
        """Wake every resting timed match whose time ran out while no hall watched it (a
        restarted hall does this at start); return how many were woken. The others wait in
        the store, which keeps their next expiry."""
        return await self.turn_clocks.resume()

    # -- take-backs --------------------------------------------------------------------------

    async def request_undo(self, match: str, seat: int) -> UndoStatus:
        """Ask to take back a seat's last command (see :mod:`gamehall.core.undo`)."""
        self._check_open()
        await self.activate(match)
        self._check_seat(match, seat)
        return await self.undos.request(match, seat)

    async def answer_undo(self, match: str, seat: int, agree: bool) -> UndoStatus:
        """Agree to, or decline, the take-back waiting in a match."""
        self._check_open()
        await self.activate(match)
        self._check_seat(match, seat)
        return await self.undos.answer(match, seat, agree)

    def undo_status(self, match: str) -> UndoStatus | None:
        """Return the take-back waiting for answers in a match, if any."""
        return self.undos.status(match)

    async def record_take_back(self, match: str, last: int, event: Any, meta: Meta) -> None:
        """Record a take-back the seats agreed to, voiding the events up to ``last``."""
        actor = await self.activate(match)
        records = await self.read_off_loop(match)
        if records[-1].seq != last:
            from .undo import UndoRefused

            raise UndoRefused("the match moved on since the take-back was asked")
        state = state_after(actor.ruleset, records, event)
        if actor.clock is not None:
            before = clocks.last_clock([r for r in records if r.seq < event.first])
            if before is not None:
                running = actor.ruleset.rules.awaiting(state)
                restored = msgspec.structs.replace(
                    before, at=self.now(), running=tuple(sorted(running))
                )
                meta = msgspec.structs.replace(meta, clock=restored)
        await actor.record(last, [event], [meta], state)

    def _check_seat(self, match: str, seat: int) -> None:
        players = self._actor(match).players
        if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < players:
            raise InvalidCommand(f"seat {seat!r} does not exist: seats are 0 to {players - 1}")

    # -- the lobby ---------------------------------------------------------------------------

    def forget_match(self, match: str) -> None:
        """Stop a match's actor and bots (before it is deleted)."""
        self.actors.stop(match)
        self.bots.seats.pop(match, None)

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
        actor = await self.activate(match)
        if actor.ruleset.rules.outcome(actor.state) is None:
            raise InvalidOptions(f"match {match!r} is not over: a rematch follows a finished match")

        def stored() -> tuple[LobbyEntry, MatchStarted, Any, list[str | None]]:
            info = self.store.stream_info(match)
            assert info is not None
            return self.lobby.entry(match), self._started(match), info, self.lobby.holders(match)

        # The store is read in a worker thread; the bots this hall plays, on the loop.
        entry, started, info, holders = await self._io(stored)
        if entry.rematch is not None:
            return entry.rematch
        n = started.players
        seat_players = {(s + 1) % n: p for s, p in enumerate(holders) if p is not None}
        told = self.match_info(match, started, info)
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
            await self.lobby_command(match, LinkRematch(rematch=new))
        except RematchExists as exc:  # another asker's rematch was linked first: theirs counts
            await self.lobby.delete(new, unstarted=True)
            return exc.rematch
        return new

    def _started(self, match: str) -> MatchStarted:
        head = self.read(match, 0, 1)
        if not head or not isinstance(head[0].event, MatchStarted):
            raise UnknownMatch(match)
        return head[0].event

    def load(self, match: str) -> Loaded:
        """Rebuild a match from its events, starting from a snapshot where one helps."""
        return self.loader.load(match)

    @staticmethod
    def snapshot_key(ruleset: Ruleset) -> str:
        """Return the key that ties a snapshot to the plugin versions that wrote it."""
        return snapshot_key(ruleset)

    @property
    def active(self) -> int:
        """Return the number of active actors."""
        return len(self.actors)


class _Flight:
    """One load of a match that every request activating it at once waits for."""

    def __init__(self) -> None:
        self.done = anyio.Event()
        self.loaded: Loaded | None = None
        self.error: Exception | None = None


def new_match_id() -> str:
    """Return a fresh, unguessable match id."""
    return secrets.token_hex(8)


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


async def _ask(actor: Actor, message: SendCommand) -> Ack:
    """Have an actor decide a message (at once when it is free) and wait for its answer."""
    if actor.can_decide_now():
        actor.decide_now(message)
    else:
        await actor.post(message)
    ack: Ack = await message.reply.wait()
    return ack
