"""The Hall: the actor system and the API for embedding gamehall in a service.

``async with Hall(store) as hall`` starts the journal (group commit) and owns one task group
for every actor. Matches activate on first use (snapshot + tail) and passivate when idle; a
command is acknowledged only once its events are durable. Everything that leaves the hall —
views, histories, live streams, acknowledgements — is redacted for the asking seat.
"""

from __future__ import annotations

import secrets
from collections.abc import AsyncGenerator, Callable, Coroutine, Mapping, Sequence
from types import TracebackType
from typing import Any, Self

import anyio
import msgspec
import structlog
from anyio.abc import TaskGroup

from . import engine, limits
from .actor import Ack, Actor, Loaded, SendCommand, Supervisor
from .bots.driver import BotDriver, from_info, seat_bots, stored
from .bots.spec import BotSpec
from .errors import (
    CorruptRecord,
    InvalidCommand,
    InvalidOptions,
    MatchQuarantined,
    StoreClosed,
    UnknownMatch,
)
from .events import NO_META, Command, Event, MatchStarted, Meta, Recorded
from .hub import Hub
from .journal import Journal, new_pending
from .registry import Registry, Ruleset, default_registry
from .replay import check_fork_point, check_sequence, started_of
from .rules import Decision, Outcome
from .store.base import AppendRequest, Snapshot, Store
from .words import Narrated, Narrator

log = structlog.get_logger("gamehall.hall")


class SeatView(msgspec.Struct, frozen=True):
    """What one seat may know of a match now, with what it is asked and may send."""

    match: str
    seq: int
    seat: int | None
    view: Any
    awaiting: dict[int, Decision]
    legal: list[Command]
    outcome: Outcome | None


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
    ) -> None:
        self.store = store
        self.registry = registry or default_registry()
        self.snapshot_every = snapshot_every
        self.idle_seconds = idle_seconds
        self.mailbox_size = mailbox_size
        self.journal = Journal(store)
        self.hub = Hub(watch_buffer)
        self.actors = Supervisor()
        self.quarantined: dict[str, str] = {}
        self._tg: TaskGroup | None = None
        self._closed = False
        self._reaper: anyio.CancelScope | None = None
        self.bots = BotDriver(self)

    # -- lifecycle --------------------------------------------------------------------------

    async def __aenter__(self) -> Self:
        self._reaper = anyio.CancelScope()
        self.journal.open()
        self._tg = await anyio.create_task_group().__aenter__()
        self._tg.start_soon(self.journal.run)
        self._tg.start_soon(self._passivate_idle)
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
        if self._closed or self._tg is None:
            raise StoreClosed("the hall is closed")

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
    ) -> str:
        """Start a match and return its id once its first events are durable.

        ``info`` is kept with the match in the store's listing (``matches()``), for adapters
        that remember things about a match outside its events (who plays which seat, …).
        ``bots`` names the seats the engine plays, each with its bot (``{1: "mcts:2000"}``,
        see :func:`gamehall.core.bots.parse_bot`); they are kept in ``info``, each with a seed
        drawn afresh or derived from ``bot_seed`` (never the match seed itself).
        """
        self._check_open()
        if match_id is not None:
            limits.check_match_id(match_id)
        limits.check_seed(seed)
        _check_unique(expansions)
        ruleset = self.registry.ruleset(game, expansions)
        started = ruleset.started(players, options, expansion_options, seed)
        seats = seat_bots(ruleset, started.players, bots or {}, bot_seed)
        extra = {**(info or {}), "bots": stored(seats)} if seats else info
        state, events = engine.begin(ruleset, started)
        match = match_id or new_match_id()
        metas = [Meta(versions=ruleset.versions), *[NO_META] * (len(events) - 1)]
        await self.journal.append(AppendRequest(match, 0, events, metas, _info(started, extra)))
        loaded = Loaded(ruleset, started.seed or 0, started.players, state, len(events), {})
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
        actor = self._actor(match)
        command = self.registry.codec.command_from_builtins(command)
        if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < actor.players:
            raise InvalidCommand(
                f"seat {seat!r} does not exist: seats are 0 to {actor.players - 1}"
            )
        pending = new_pending()
        message = SendCommand(seat, command, command_id, pending)
        if actor.can_decide_now():
            actor.decide_now(message)
        else:
            await actor.post(message)
        ack: Ack = await pending.wait()
        return ack

    def view(self, match: str, seat: int | None) -> SeatView:
        """Return a seat's view of a match (``None`` is a spectator)."""
        actor = self._actor(match)
        rules, state = actor.ruleset.rules, actor.state
        legal = list(rules.legal(state, seat)) if seat is not None else []
        return SeatView(
            match,
            actor.version,
            seat,
            rules.view(state, seat),
            dict(rules.awaiting(state)),
            legal,
            rules.outcome(state),
        )

    def turn(self, match: str, seat: int | None) -> Turn:
        """Return whose move it is, as ``seat`` may know it."""
        actor = self._actor(match)
        rules, state = actor.ruleset.rules, actor.state
        asked = rules.awaiting(state)
        # A seat that is not awaited has no legal command but its free actions.
        free = seat is not None and seat not in asked and bool(rules.legal(state, seat))
        decision = asked.get(seat) if seat is not None else None
        return Turn(match, actor.version, seat, sorted(asked), decision, free)

    def awaiting(self, match: str) -> dict[int, Decision]:
        """Return the seats a match waits for (empty once it is over)."""
        actor = self._actor(match)
        return dict(actor.ruleset.rules.awaiting(actor.state))

    def legal(self, match: str, seat: int) -> list[Command]:
        """Return the commands a seat may send now."""
        actor = self._actor(match)
        return list(actor.ruleset.rules.legal(actor.state, seat))

    def render(self, match: str, seat: int | None) -> str:
        """Return a seat's board as text."""
        actor = self._actor(match)
        return actor.ruleset.render(actor.ruleset.rules.view(actor.state, seat), seat)

    def state(self, match: str) -> Any:
        """Return the whole state of a match: for operators and replay tools, never for seats."""
        return self._actor(match).state

    def ruleset(self, match: str) -> Ruleset:
        """Return the ruleset a match runs with."""
        return self._actor(match).ruleset

    def info(self, match: str) -> MatchInfo:
        """Return a match's game, players and version."""
        started = self._started(match)
        entry = self.store.stream_info(match)
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
        ruleset = self.ruleset(match)
        async for record in self._follow(match, after):
            shown = self.redact_record(ruleset, record, seat)
            if shown is not None:
                yield shown

    async def watch_narrated(
        self, match: str, seat: int | None, after: int = 0
    ) -> AsyncGenerator[Narrated, None]:
        """Like :meth:`watch`, with what each event tells the seat, in words."""
        narrator = Narrator(self.ruleset(match), seat)
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
                for record in self.read(match, last):
                    last = record.seq
                    yield record
                async for records in receive:
                    for record in records:
                        if record.seq <= last:
                            continue
                        last = record.seq
                        yield record
            finally:
                self.hub.unsubscribe(match, send)
                receive.close()

    async def fork(
        self, match: str, at_seq: int, *, seed: int | None = None, match_id: str | None = None
    ) -> str:
        """Start a new match from the first ``at_seq`` events of another; return its id."""
        self._check_open()
        limits.check_seq("at_seq", at_seq)
        limits.check_seed(seed)
        if match_id is not None:
            limits.check_match_id(match_id)
        records = self.read(match, 0)
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
        events: list[Event] = [forked, *(r.event for r in records[1:])]
        metas = [Meta(versions=ruleset.versions), *(r.meta for r in records[1:])]
        new = match_id or new_match_id()
        await self.journal.append(AppendRequest(new, 0, events, metas, _info(forked)))
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
        await self.journal.append(AppendRequest(match, 0, events, metas, _info(started, info)))
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
        assert self._tg is not None
        return self.actors.start(self, match, loaded, self._tg)

    async def _passivate_idle(self) -> None:
        # One sweep for all actors instead of a timeout around every mailbox read.
        assert self._reaper is not None
        with self._reaper:
            while not self._closed:
                await anyio.sleep(max(min(self.idle_seconds / 4, 5.0), 0.005))
                self.passivate(self.idle_seconds)

    def passivate(self, idle_for: float = 0.0) -> int:
        """Stop every actor idle for at least ``idle_for`` seconds; return how many stopped.

        Their matches stay in the store and activate again on the next use.
        """
        return self.actors.passivate(idle_for)

    def _started(self, match: str) -> MatchStarted:
        head = self.read(match, 0, 1)
        if not head or not isinstance(head[0].event, MatchStarted):
            raise UnknownMatch(match)
        return head[0].event

    def load(self, match: str) -> Loaded:
        """Rebuild a match from its events, starting from a snapshot where one helps."""
        stored = self.store.load_stream(match)
        started = stored.first
        if not isinstance(started, MatchStarted):
            raise UnknownMatch(match)
        ruleset = self.registry.ruleset_of(started)
        events, after, state = stored.events, 1, None
        # Only a match longer than the snapshot interval can have a snapshot worth reading.
        if self.snapshot_every and len(events) >= self.snapshot_every:
            snapshot = self.store.load_snapshot(match)
            state = self._from_snapshot(snapshot, ruleset) if snapshot else None
            if state is not None:
                after = snapshot.seq  # type: ignore[union-attr]
                events = events[after - 1 :]
        if state is None:
            state = engine.initial_state(ruleset, started)
        state = engine.fold(ruleset, state, events)
        version = after + len(events)
        return Loaded(ruleset, started.seed or 0, started.players, state, version, stored.commands)

    def _from_snapshot(self, snapshot: Snapshot, ruleset: Ruleset) -> Any:
        if snapshot.key != self.snapshot_key(ruleset):
            return None
        try:
            return msgspec.msgpack.decode(snapshot.data, type=ruleset.game.state)
        except msgspec.DecodeError:
            log.warning(
                "snapshot ignored: it does not decode", match=snapshot.stream, seq=snapshot.seq
            )
            return None

    @staticmethod
    def snapshot_key(ruleset: Ruleset) -> str:
        """Return the key that ties a snapshot to the plugin versions that wrote it."""
        return ",".join(f"{k}={v}" for k, v in sorted(ruleset.versions.items()))

    @property
    def active(self) -> int:
        """Return the number of active actors."""
        return len(self.actors)


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
