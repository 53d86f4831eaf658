"""The kernel's face: the actors of one hall's matches, found, activated, asked, quarantined.

:class:`Kernel` builds the journal, the hub, the loader and the supervisor around one
:class:`~gamehall.core.kernel.actor.ActorContext`, and is what the Hall and the features call
to reach a match:

* ``activate`` returns a match's actor, loading a resting match off the event loop once for
  any number of callers (single flight); ``actor`` does it on the spot, for code without a loop;
* ``ask`` has an actor decide a command and answers it once, even when the actor stopped since
  it was found (the command goes to the match's next actor);
* ``quarantine`` stops serving a match whose rows fail their checks; the others go on. Every
  read of a match's records here (``read``, ``read_off_loop``, ``follow``) quarantines it on a
  damaged row.

It runs its own life: :meth:`Kernel.open` starts its task group (the journal, the sweep that
rests idle actors, and every task the hall spawns run in it), :meth:`Kernel.close` and
:meth:`Kernel.exit` end it, :meth:`Kernel.check_open` refuses work meanwhile. It imports no feature: the projection and the
timing it commits with, and who is told of an actor that starts (``activated``) or stops
(``stopped``), are given to it.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncGenerator, Awaitable, Callable, Coroutine
from types import TracebackType
from typing import Any, TypeVar

import anyio
import structlog
from anyio.abc import TaskGroup

from .. import limits
from ..errors import CorruptRecord, InvalidCommand, MatchQuarantined, StoreClosed
from ..events import Recorded
from ..registry import Registry
from ..store.base import Store
from .activation import Loader, snapshot_key
from .actor import Ack, Actor, ActorContext, ActorStopped, Loaded, SendCommand
from .context import Metrics, Projection, Timing
from .hub import Hub
from .journal import Journal, running_loop
from .supervisor import Supervisor

log = structlog.get_logger("gamehall.hall")
T = TypeVar("T")


class Kernel:
    """The actors of one hall's matches, with the journal, hub and loader they share."""

    def __init__(
        self,
        store: Store,
        registry: Registry,
        *,
        now: Callable[[], float],
        projection: Projection,
        timing: Timing,
        snapshot_every: int,
        mailbox_size: int,
        watch_buffer: int,
        max_active: int,
    ) -> None:
        """``max_active`` caps the running actors: past it, the least recently used resting
        ones are passivated."""
        if isinstance(max_active, bool) or not isinstance(max_active, int) or max_active < 1:
            raise ValueError(f"max_active is a whole number of at least 1, not {max_active!r}")
        self.store = store
        self.max_active = max_active
        self._tg: TaskGroup | None = None
        self._closed = False
        self.journal = Journal(store)
        self.loader = Loader(store, registry, snapshot_every, timing)
        self.hub = Hub(watch_buffer)
        self.metrics = Metrics()
        self.context = ActorContext(
            store=store,
            journal=self.journal,
            publish=self.hub.publish,
            now=now,
            metrics=self.metrics,
            quarantine=self.quarantine,
            load=self.loader.load,
            spawn=self.spawn,
            projection=projection,
            timing=timing,
            snapshot_every=snapshot_every,
            snapshot_key=snapshot_key,
            mailbox_size=mailbox_size,
        )
        self.actors = Supervisor(self.context, on_stop=self._stopped)
        self.quarantined: dict[str, str] = {}  # match -> why it is not served
        self.activated: list[Callable[[str], None]] = []  # told of every match activated
        self.stopped: list[Callable[[str], None]] = []  # told of every actor stopped or dropped
        self._activating: dict[str, _Flight] = {}
        self._resting: anyio.CancelScope | None = None
        # The asyncio loop the kernel runs in (``None`` before it opens, or under trio): the
        # senders' reply slots are made on it without looking it up.
        self.loop: asyncio.AbstractEventLoop | None = None

    # -- the kernel's life ----------------------------------------------------------------------

    async def open(self, idle_seconds: float) -> TaskGroup:
        """Start the kernel's task group, the journal and the sweep that passivates actors idle
        for ``idle_seconds``; return the task group (the features' background work runs in it
        too)."""
        self._resting = anyio.CancelScope()
        self.loop = running_loop()
        self.journal.open()
        tg = self._tg = await anyio.create_task_group().__aenter__()
        tg.start_soon(self.journal.run)
        tg.start_soon(self._passivate_idle, self._resting, idle_seconds)
        return tg

    async def _passivate_idle(self, scope: anyio.CancelScope, idle_seconds: float) -> None:
        # One sweep for all actors instead of a timeout around every mailbox read.
        with scope:
            while not self._closed:
                await anyio.sleep(max(min(idle_seconds / 4, 5.0), 0.005))
                self.actors.passivate(idle_seconds)

    async def close(self) -> None:
        """Take no more work; let every actor finish what it holds, then stop the journal and
        the live streams."""
        if self._closed:
            return
        self._closed = True
        if self._resting is not None:
            self._resting.cancel()
        await self.actors.stop_all()
        await self.journal.close()
        self.hub.close()

    async def exit(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> bool | None:
        """Leave the task group: closed as :meth:`close` does, or, on the caller's own error,
        cancelled (that error then leaves unwrapped, not in an ExceptionGroup)."""
        assert self._tg is not None
        if exc is None or isinstance(exc, anyio.get_cancelled_exc_class()):
            await self.close()
            return await self._tg.__aexit__(exc_type, exc, tb)
        self._closed = True
        self._tg.cancel_scope.cancel()
        await self._tg.__aexit__(None, None, None)
        return None

    def spawn(self, fn: Callable[..., Coroutine[Any, Any, Any]], *args: Any) -> None:
        """Run a task in the kernel's task group."""
        if self._tg is None:
            raise StoreClosed("the hall is not running (use 'async with Hall(...)')")
        self._tg.start_soon(fn, *args)

    def closed(self) -> bool:
        """Tell whether the kernel has stopped taking work (it may not have started yet)."""
        return self._closed

    @property
    def running(self) -> bool:
        """Tell whether the kernel takes work: opened and not closed."""
        return self._tg is not None and not self._closed

    def check_open(self) -> None:
        """Refuse work, saying why, unless the kernel runs."""
        if self._closed:
            raise StoreClosed("the hall is closed")
        if self._tg is None:
            raise StoreClosed(
                "the hall is not open: run it with 'async with hall', or run the lifespan of "
                "the app that manages it (a host that mounts the app runs it with "
                "mounted_lifespan)"
            )

    def _stopped(self, match: str) -> None:
        for told in self.stopped:
            told(match)

    # -- actors -------------------------------------------------------------------------------

    async def activate(self, match: str) -> Actor:
        """Return a match's actor, loading the match off the event loop if it is not active.

        The store is read and the events folded off the loop (see
        :meth:`~gamehall.core.kernel.activation.Loader.load_off_loop`), so the other matches go
        on meanwhile; a match several requests activate at once is loaded once (single
        flight): the others wait for that load, and all get the same actor or the same error.
        """
        actor = self.actors.get(match)
        if actor is not None:
            actor.touch()
            return actor
        self.check_open()
        self.check_quarantine(match)
        limits.known_match_id(match)
        flight = self._activating.get(match)
        if flight is None:
            flight = self._activating[match] = _Flight()
            try:
                flight.loaded = await self.loader.load_off_loop(match)
            except CorruptRecord as exc:
                flight.error = self.quarantine(match, exc)
            # A store's or a plugin's failure while loading is every waiter's answer: each gets
            # the same error (a plugin's bug in evolve must not leave the waiters hanging).
            except Exception as exc:  # noqa: BLE001
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
            self.check_open()
            actor = self._activated(match, flight.loaded)
        actor.touch()
        return actor

    def active(self, match: str) -> Actor | None:
        """Return a match's running actor, marked as used now, or ``None`` if it rests."""
        actor = self.actors.get(match)
        if actor is not None:
            actor.touched = time.monotonic()  # what Actor.touch does, one call fewer a command
        return actor

    def actor(self, match: str) -> Actor:
        """Return a match's actor, loading the match on the spot if it is not active."""
        actor = self.actors.get(match)
        if actor is None:
            self.check_open()
            self.check_quarantine(match)
            try:
                loaded = self.loader.load(limits.known_match_id(match))
            except CorruptRecord as exc:
                raise self.quarantine(match, exc) from None
            actor = self._activated(match, loaded)
        actor.touched = time.monotonic()
        return actor

    def start(self, match: str, loaded: Loaded) -> Actor:
        """Start a match's actor from what was loaded (or just created); past ``max_active``
        running actors, the least recently used resting ones are passivated."""
        actor = self.actors.start(match, loaded)
        if len(self.actors) > self.max_active:
            self.actors.trim(self.max_active)
        return actor

    def _activated(self, match: str, loaded: Loaded) -> Actor:
        actor = self.start(match, loaded)
        for told in self.activated:
            told(match)
        return actor

    def ask(self, actor: Actor, message: SendCommand) -> Awaitable[Ack]:
        """Have a match's actor decide a message; return what to await for its answer.

        A free actor decides it at once and the reply itself is awaited (no coroutine is made
        for the command); a busy one takes it through its mailbox. An actor stopped since it
        was found (dropped after a store error, quarantined) took nothing: the command goes to
        the match's next actor, or is refused with why.
        """
        if actor.ids_after and message.command_id is not None:
            return self._ask(actor, message)  # its match's older ids are read first
        if actor.can_decide_now() and not actor.stopped:
            actor.decide_now(message)
            reply: Awaitable[Ack] = message.reply.wait()
            return reply
        return self._ask(actor, message)

    async def _ask(self, actor: Actor, message: SendCommand) -> Ack:
        while True:
            try:
                if message.command_id is not None:
                    await actor.read_older_ids()
                if actor.can_decide_now():
                    actor.decide_now(message)
                else:
                    await actor.post(message)
                ack: Ack = await message.reply.wait()
                return ack
            except ActorStopped:
                if self.closed():
                    raise
            actor = await self.activate(actor.match)

    def serves(self, match: str) -> bool:
        """Tell whether this node holds something of a match that another node's commit
        would change: its actor, or watchers of it (what :meth:`advanced` catches up)."""
        return match in self.actors or self.hub.watched(match)

    def advanced(self, match: str, seq: int) -> None:
        """Hear that another node stored a match up to ``seq``: catch up what runs here."""
        actor = self.actors.get(match)
        if actor is not None:
            actor.advanced(seq)
        else:
            self.hub.drop(match)  # its watchers read what they missed from the store

    # -- quarantine -----------------------------------------------------------------------------

    def check_quarantine(self, match: str) -> None:
        """Refuse a match that is quarantined, saying why."""
        reason = self.quarantined.get(match)
        if reason is not None:
            raise MatchQuarantined(match, reason)

    def quarantine(self, match: str, exc: CorruptRecord) -> MatchQuarantined:
        """Stop serving a match whose rows fail their checks (the others go on); return the
        error to raise."""
        reason = f"seq {exc.seq}: {exc.reason}" if exc.seq else exc.reason
        if match not in self.quarantined:
            log.error("match quarantined", match=match, reason=reason)
        self.quarantined[match] = reason
        self.actors.stop(match)
        return MatchQuarantined(match, reason)

    # -- the records of a match -------------------------------------------------------------

    def read(
        self, match: str, after: int = 0, upto: int | None = None, limit: int | None = None
    ) -> list[Recorded]:
        """Return a match's stored records, whole (a damaged row quarantines the match)."""
        self.check_quarantine(match)
        try:
            return self.store.read(limits.known_match_id(match), after, upto, limit)
        except CorruptRecord as exc:
            raise self.quarantine(match, exc) from None

    async def read_off_loop(
        self, match: str, after: int = 0, upto: int | None = None
    ) -> list[Recorded]:
        """:meth:`read` with the store read in a worker thread (a damaged row quarantines the
        match here, on the event loop)."""
        self.check_quarantine(match)
        known = limits.known_match_id(match)
        try:
            return await self.io(self.store.read, known, after, upto)
        except CorruptRecord as exc:
            raise self.quarantine(match, exc) from None

    async def io(self, fn: Callable[..., T], *args: Any) -> T:
        """Run a blocking store call in a worker thread (directly for a store in memory)."""
        if self.store.threaded:
            return await anyio.to_thread.run_sync(fn, *args)
        return fn(*args)

    async def follow(self, match: str, after: int) -> AsyncGenerator[Recorded, None]:
        """Yield every stored record of a match after ``after``, then live ones, in order and
        none twice, until the hall closes. A follower dropped for falling behind reads what it
        missed from the store."""
        last = after
        while not self.closed():
            send, receive = self.hub.subscribe(match)
            try:
                stored = await self.read_off_loop(match, last)  # off the event loop
                self._reached(match, stored)
                for record in stored:
                    last = record.seq
                    yield record
                async for records in receive:
                    if records and records[0].seq > last + 1:
                        # Events stored while this node did not hear of them: read them first.
                        missed = await self.read_off_loop(match, last, records[0].seq - 1)
                        records = [*missed, *records]
                    for record in records:
                        if record.seq <= last:
                            continue
                        last = record.seq
                        yield record
            finally:
                self.hub.unsubscribe(match, send)
                receive.close()

    def _reached(self, match: str, stored: list[Recorded]) -> None:
        # A watcher read events from the store that this node's actor has not heard of yet
        # (its follower is behind, e.g. held back by an older transaction): the actor catches
        # up now, so what is said next of the match (its turn, its end) matches what was read.
        actor = self.actors.get(match)
        if stored and actor is not None and stored[-1].seq > actor.version:
            actor.advanced(stored[-1].seq)


def check_seat(seat: object, players: int) -> None:
    """Refuse a seat that is no whole number from 0 to ``players - 1``."""
    if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < players:
        raise InvalidCommand(f"seat {seat!r} does not exist: seats are 0 to {players - 1}")


class _Flight:
    """One load of a match that every request activating it at once waits for."""

    def __init__(self) -> None:
        self.done = anyio.Event()
        self.loaded: Loaded | None = None
        self.error: Exception | None = None
