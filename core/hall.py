"""The Hall: the actor system and the API for embedding gamehall in a service.

``async with Hall(store) as hall`` starts the journal (group commit) and owns one task group
for every actor. Matches activate on first use (snapshot + tail) and passivate when idle; a
command is acknowledged only once its events are durable. Everything that leaves the hall —
views, histories, live streams, acknowledgements — is redacted for the asking seat.

The Hall is a facade: it builds the kernel (:class:`gamehall.core.kernel.system.Kernel`) and
the features on top of it — matches coming in (:mod:`gamehall.core.matches`), the lobby,
take-backs, bots, turn clocks, expiry, other nodes — and hands each call to the one that does
it.
"""

from __future__ import annotations

import time
from collections.abc import AsyncGenerator, Callable, Coroutine, Mapping, Sequence
from types import TracebackType
from typing import Any, Self, Unpack

import anyio
from anyio.abc import TaskGroup

from . import clock as clocks
from . import engine, history, lifecycle, seating, views
from .bots.driver import BotDriver, seat_bots
from .bots.spec import BotSpec
from .clock import ClockView
from .errors import CorruptRecord, MatchQuarantined, StoreClosed
from .events import Command, LobbyCommand, MatchStarted, Recorded
from .kernel.activation import snapshot_key
from .kernel.actor import Ack, Actor, Loaded, SendCommand
from .kernel.journal import new_pending
from .kernel.system import Kernel, check_seat
from .lobby import Lobby
from .matches import CreateOptions, ForkOptions, Matches
from .matches import new_match_id as new_match_id
from .nodes import Follower
from .registry import Registry, Ruleset, default_registry
from .rules import Decision
from .store.base import Store
from .timers import TurnClocks
from .undo import Undos, UndoStatus
from .views import MatchInfo as MatchInfo
from .views import SeatView as SeatView
from .views import Turn as Turn
from .words import Narrated

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
        self.store = store
        self.now = clock
        if clock_guard is None and store.shared:
            clock_guard = store.try_lease  # one node fires a match's clock, as for its bots
        self.clock_guard = clock_guard
        self.registry = registry or default_registry()
        self.snapshot_every = snapshot_every
        self.idle_seconds = idle_seconds
        self.mailbox_size = mailbox_size
        self._tg: TaskGroup | None = None
        self._closed = False
        self._reaper: anyio.CancelScope | None = None
        self.kernel = Kernel(
            store,
            self.registry,
            now=clock,
            projection=seating,
            timing=clocks,
            spawn=self.spawn,
            check_open=self._check_open,
            closed=lambda: self._closed,
            snapshot_every=snapshot_every,
            mailbox_size=mailbox_size,
            watch_buffer=watch_buffer,
            max_active=max_active,
            on_stop=self._stopped,
        )
        self.max_active = max_active
        k = self.kernel
        self.journal, self.loader, self.hub, self.metrics = k.journal, k.loader, k.hub, k.metrics
        self.actors, self.quarantined = k.actors, k.quarantined
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
        self.bots = BotDriver(self)
        k.context.subscribers.append(self.bots.committed)
        k.activated.append(self.bots.activated)
        self.follower = Follower(self) if store.shared else None
        self.lobby = Lobby(self)
        self.undos = Undos(self)
        self.incoming = Matches(self)
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

    # -- matches coming in (gamehall.core.matches) ----------------------------------------------

    async def create(
        self, game: str, players: int | None = None, **options: Unpack[CreateOptions]
    ) -> str:
        """Start a match and return its id once its first events are durable (every option
        is told at :meth:`gamehall.core.matches.Matches.create`)."""
        return await self.incoming.create(game, players, **options)

    async def rematch(
        self,
        match: str,
        *,
        seed: int | None = None,
        bots: Mapping[int, str | BotSpec] | None = None,
    ) -> str:
        """Start a new match of a finished one, the seats rotated by one; return its id (the
        same one when asked again; see :meth:`gamehall.core.matches.Matches.rematch`)."""
        return await self.incoming.rematch(match, seed=seed, bots=bots)

    async def fork(self, match: str, at_seq: int, **options: Unpack[ForkOptions]) -> str:
        """Start a new match from the first ``at_seq`` events of another; return its id
        (see :meth:`gamehall.core.matches.Matches.fork`)."""
        return await self.incoming.fork(match, at_seq, **options)

    async def import_records(
        self,
        records: Sequence[Recorded],
        *,
        match_id: str | None = None,
        info: Mapping[str, Any] | None = None,
    ) -> str:
        """Store a whole log (from a file, another store) as a new match; return its id
        (see :meth:`gamehall.core.matches.Matches.import_records`)."""
        return await self.incoming.import_records(records, match_id=match_id, info=info)

    # -- commands -------------------------------------------------------------------------------

    def set_bots(
        self, match: str, bots: Mapping[int, str | BotSpec], bot_seed: int | None = None
    ) -> None:
        """Change which seats of a match the engine plays, for as long as this hall runs.

        The bots chosen at :meth:`create` stay in the store; this is for a session that
        takes a bot's seat itself, or lets a bot play a seat that had none.
        """
        actor = self.kernel.actor(match)
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
        actor = self.kernel.active(match) or await self.activate(match)
        command = self.registry.codec.command_from_builtins(command)
        check_seat(seat, actor.players)
        return await self.kernel.ask(actor, SendCommand(seat, command, command_id, new_pending()))

    async def lobby_command(
        self, match: str, command: LobbyCommand, credential: bytes | None = None
    ) -> Ack:
        """Have a match's actor decide a lobby command (who sits where) and append its events
        at the match's version; return them once durable, or raise why it was refused.

        ``credential`` is the digest of the token that will act for the seat a ``TakeSeat``
        gives: stored in the same transaction as its event, or not at all."""
        self._check_open()
        actor = await self.activate(match)
        message = SendCommand(-1, command, None, new_pending(), credential=credential)
        return await self.kernel.ask(actor, message)

    # -- what a seat may see now (gamehall.core.views) ------------------------------------------

    def seating(self, match: str) -> dict[str, Any]:
        """Return a match's listing entry as its actor holds it (who sits where, now)."""
        return dict(self.kernel.actor(match).info)

    def view(self, match: str, seat: int | None, names: list[str | None] | None = None) -> SeatView:
        """Return a seat's view of a match (``None`` is a spectator); ``names`` are the seats'
        names when the caller read them already (:func:`gamehall.core.reads.view` does, off
        the event loop)."""
        actor = self.kernel.actor(match)
        names = self.lobby.names(match) if names is None else names
        return views.seat_view(actor, seat, names, self.now())

    def clock(self, match: str) -> ClockView | None:
        """Return a match's clocks now (``None`` for a match without a time control)."""
        return clocks.view(self.kernel.actor(match).clock, self.now())

    def turn(self, match: str, seat: int | None) -> Turn:
        """Return whose move it is, as ``seat`` may know it."""
        return views.turn(self.kernel.actor(match), seat)

    def awaiting(self, match: str) -> dict[int, Decision]:
        """Return the seats a match waits for (empty once it is over)."""
        return views.awaiting(self.kernel.actor(match))

    def legal(self, match: str, seat: int) -> list[Command]:
        """Return the commands a seat may send now."""
        return views.legal(self.kernel.actor(match), seat)

    def render(self, match: str, seat: int | None, names: list[str | None] | None = None) -> str:
        """Return a seat's board as text; ``names`` are the seats' names when the caller read
        them already (:func:`gamehall.core.reads.render` does, off the event loop)."""
        actor = self.kernel.actor(match)
        return views.render(actor, seat, self.lobby.names(match) if names is None else names)

    def state(self, match: str) -> Any:
        """Return the whole state of a match: for operators and replay tools, never for seats."""
        return self.kernel.actor(match).state

    def ruleset(self, match: str) -> Ruleset:
        """Return the ruleset a match runs with."""
        return self.kernel.actor(match).ruleset

    def version(self, match: str) -> int:
        """Return the seq of a match's last event, as its actor holds it."""
        return self.kernel.actor(match).version

    # -- stored matches and their records -------------------------------------------------------

    def info(self, match: str) -> MatchInfo:
        """Return a match's game, players and version."""
        return self.incoming.info(match)

    async def info_off_loop(self, match: str) -> MatchInfo:
        """:meth:`info` with the store read in a worker thread."""
        return await self.incoming.info_off_loop(match)

    def match_info(self, match: str, started: MatchStarted, entry: Any) -> MatchInfo:
        """Return :meth:`info` from what the store holds: the first event and the entry."""
        return self.incoming.describe(match, started, entry)

    def matches(self, after: str = "", limit: int | None = None) -> list[Any]:
        """Return stored matches in id order."""
        return self.store.streams(after, limit)

    def read(
        self, match: str, after: int = 0, upto: int | None = None, limit: int | None = None
    ) -> list[Recorded]:
        """Return a match's stored records, whole: for the operator and for redaction."""
        return self.kernel.read(match, after, upto, limit)

    async def read_off_loop(self, match: str) -> list[Recorded]:
        """:meth:`read` of a whole match with the store read in a worker thread (a damaged row
        quarantines the match here, on the event loop)."""
        return await self.kernel.read_off_loop(match)

    def history(
        self, match: str, seat: int | None, after: int = 0, limit: int | None = None
    ) -> list[Recorded]:
        """Return a match's events after ``after`` as ``seat`` may see them."""
        return history.history(self.kernel, match, seat, after, limit)

    def narrated_history(
        self, match: str, seat: int | None, after: int = 0, limit: int | None = None
    ) -> list[Narrated]:
        """Return a seat's events after ``after`` with what each tells it, in words.

        ``limit`` bounds the stored events read after ``after`` (as for :meth:`history`).
        """
        return history.narrated(self.kernel, match, seat, after, limit)

    def watch(self, match: str, seat: int | None, after: int = 0) -> AsyncGenerator[Recorded, None]:
        """Yield a seat's redacted events from ``after`` on, then live ones, until the hall
        closes."""
        return history.watch(self.kernel, match, seat, after)

    def watch_narrated(
        self, match: str, seat: int | None, after: int = 0
    ) -> AsyncGenerator[Narrated, None]:
        """Like :meth:`watch`, with what each event tells the seat, in words."""
        return history.watch_narrated(self.kernel, match, seat, after)

    # Return a record (or records) as ``seat`` may see it (see :func:`engine.redact_record`).
    redact_record = staticmethod(engine.redact_record)
    redact_records = staticmethod(engine.redact_records)

    # -- actors (gamehall.core.kernel) ----------------------------------------------------------

    async def activate(self, match: str) -> Actor:
        """Return a match's actor, loading the match off the event loop (once for any number
        of callers) if it is not active (see :meth:`.kernel.system.Kernel.activate`)."""
        return await self.kernel.activate(match)

    def load(self, match: str) -> Loaded:
        """Rebuild a match from its events, starting from a snapshot where one helps."""
        return self.loader.load(match)

    snapshot_key = staticmethod(snapshot_key)  # the plugin versions that wrote a snapshot

    def advanced(self, match: str, seq: int) -> None:
        """Hear that another node stored a match up to ``seq``: catch up what runs here."""
        self.kernel.advanced(match, seq)

    def quarantine(self, match: str, exc: CorruptRecord) -> MatchQuarantined:
        """Stop serving a match whose rows fail their checks; return the error to raise."""
        return self.kernel.quarantine(match, exc)

    @property
    def active(self) -> int:
        """Return the number of active actors."""
        return len(self.actors)

    def _stopped(self, match: str) -> None:
        # Whatever belongs to the match and no person now runs on a node that has it active.
        if self.store.shared and self.actors.get(match) is None:
            self.store.release_lease(match)
        if self.actors.get(match) is None:
            self.undos.pending.pop(match, None)  # a pending take-back goes with the actor
            self.store.forget(match)  # and what the store caches for it

    def forget_match(self, match: str) -> None:
        """Stop a match's actor and bots (before it is deleted)."""
        self.actors.stop(match)
        self.bots.seats.pop(match, None)

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

    def compact(self) -> None:
        """Shrink the tables the hall keeps for its active matches after many went to rest.

        A resting match keeps nothing in memory (a timed one's next expiry is in the store),
        but a table keeps the size of its peak; made afresh, it frees that memory for the
        system (see :func:`gamehall.core.runtime.give_back_rested_memory`)."""
        self.actors.compact()

    # -- turn clocks (gamehall.core.timers) -----------------------------------------------------

    async def fire_expired(self, now: float | None = None) -> int:
        """Send the fallback command of every seat of an active match whose time ran out
        (see :meth:`gamehall.core.timers.TurnClocks.fire_expired`); return how many."""
        return await self.turn_clocks.fire_expired(now)

    async def resume_clocks(self) -> int:
        """Wake every resting timed match whose time ran out while no hall watched it (a
        restarted hall does this at start); return how many were woken. The others wait in
        the store, which keeps their next expiry."""
        return await self.turn_clocks.resume()

    # -- take-backs (gamehall.core.undo) --------------------------------------------------------

    async def request_undo(self, match: str, seat: int) -> UndoStatus:
        """Ask to take back a seat's last command (see :mod:`gamehall.core.undo`)."""
        self._check_open()
        check_seat(seat, (await self.activate(match)).players)
        return await self.undos.request(match, seat)

    async def answer_undo(self, match: str, seat: int, agree: bool) -> UndoStatus:
        """Agree to, or decline, the take-back waiting in a match."""
        self._check_open()
        check_seat(seat, (await self.activate(match)).players)
        return await self.undos.answer(match, seat, agree)

    def undo_status(self, match: str) -> UndoStatus | None:
        """Return the take-back waiting for answers in a match, if any."""
        return self.undos.status(match)
