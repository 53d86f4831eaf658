"""One actor per active match: the only writer of the match's events.

An actor at rest is its state and no queue: it owns no task. The mailbox is drained without awaiting per message: every command waiting is decided in turn
against the state its predecessors left, then all their events go to the journal in one batch
with the expected version, and only when they are durable does the actor take the new state,
publish the events and answer. A refused command changes nothing; an unexpected error rebuilds
the match from the store, so no half-applied state survives.
"""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import anyio
import msgspec
import structlog

from .. import engine
from ..errors import (
    CommandIdConflict,
    ConcurrencyError,
    CorruptRecord,
    GamehallError,
    IllegalCommand,
    MatchFailed,
    StoreClosed,
)
from ..events import Clock, Command, Event, LobbyCommand, LobbyEvent, Meta, Recorded, TakenBack
from ..registry import Ruleset
from ..rules import Context
from ..store.base import AppendRequest, Snapshot, Store, batch_command_ids
from .context import Committed, Metrics, Projection, Subscriber, Timing
from .journal import FuturePending, Journal, Pending, new_pending

log = structlog.get_logger("gamehall.actor")
MAX_CONFLICTS = 50  # a command beaten this often by other nodes' commits is refused, not lost
_NOTHING: frozenset[str] = frozenset()


class Ack(msgspec.Struct, frozen=True, gc=False):
    """The answer to an accepted command: its events, as the sender may see them."""

    match: str
    first_seq: int
    last_seq: int
    events: list[Recorded]
    duplicate: bool = False


class SendCommand(msgspec.Struct):
    """A command in a mailbox."""

    seat: int
    command: Command
    command_id: str | None
    reply: Pending | FuturePending
    conflicts: int = 0  # appends of this command another node's commit beat (see Actor.decide)
    credential: bytes | None = None
    """A lobby command's seat token digest, stored with its events (never in the log)."""


class Loaded(msgspec.Struct):
    """What activation rebuilt: the state after ``version`` and the match's command ids."""

    ruleset: Ruleset
    seed: int
    players: int
    state: Any
    version: int
    commands: dict[str, tuple[int, int]]
    clock: Clock | None = None
    info: dict[str, Any] | None = None
    """The match's listing entry (who sits where) as of ``version``."""
    ids_after: int = 0
    """The seq up to which ``commands`` lacks command ids (read when a command asks for them);
    0 when it holds every one."""


_InFlight = tuple[
    Sequence[tuple[SendCommand, Sequence[Event]]],
    Any,
    int,
    Clock | None,
    bool,
    dict[str, Any] | None,
    bool,
]
"""A commit under way: its accepted commands, the state and version after them, the clock,
whether it ends the match, the listing changes, and whether the match is rebuilt after it."""


class ActorContext:
    """What every actor of a hall is given: one object, shared, never the Hall itself.

    ``store`` is read (catching up, duplicates); ``journal`` takes the appends; ``publish``
    hands committed records to the live streams; ``now`` is the clock turn clocks read;
    ``quarantine`` stops serving a match whose rows fail their checks; ``load`` rebuilds a
    match from the store; ``spawn`` schedules work on the hall's task group; ``forget`` and
    ``kept`` ask the supervisor about an actor. The features declare themselves here: the
    ``projection`` committed with the events (the lobby's seating), the ``timing`` of turn
    clocks, and the ``subscribers`` told of every durable batch.
    """

    __slots__ = (
        "forget",
        "journal",
        "kept",
        "load",
        "mailbox_size",
        "metrics",
        "now",
        "projection",
        "publish",
        "quarantine",
        "shared",
        "snapshot_every",
        "snapshot_key",
        "spawn",
        "store",
        "subscribers",
        "timing",
    )

    def __init__(
        self,
        *,
        store: Store,
        journal: Journal,
        publish: Callable[[str, list[Recorded]], None],
        now: Callable[[], float],
        metrics: Metrics,
        quarantine: Callable[[str, CorruptRecord], object],
        load: Callable[[str], Loaded],
        spawn: Callable[..., None],
        projection: Projection,
        timing: Timing,
        snapshot_every: int,
        snapshot_key: Callable[[Ruleset], str],
        mailbox_size: int,
    ) -> None:
        self.store = store
        self.shared = store.shared
        self.journal = journal
        self.publish = publish
        self.now = now
        self.metrics = metrics
        self.quarantine = quarantine
        self.load = load
        self.spawn = spawn
        self.projection = projection
        self.timing = timing
        self.snapshot_every = snapshot_every
        self.snapshot_key = snapshot_key
        self.mailbox_size = mailbox_size
        self.subscribers: list[Subscriber] = []
        self.forget: Callable[[Actor], None] = _unsupervised
        self.kept: Callable[[Actor], bool] = _never_kept

    def committed(self, event: Committed) -> None:
        """Tell every subscriber of a durable batch."""
        for subscriber in self.subscribers:
            subscriber(event)


def _unsupervised(actor: Actor) -> None:
    raise RuntimeError("an actor runs under a supervisor")


def _never_kept(actor: Actor) -> bool:
    return False


class Actor:
    """The state of one active match and its mailbox; it owns no task while it rests.

    A command that finds the actor free is decided at once in the sender's task; one that
    finds it busy waits in the mailbox, and the first such command schedules one drain on the
    hall's task group, which decides every waiting command in arrival order and ends when the
    mailbox is empty. At most one batch is decided or committed at a time: a drain waits for
    the commit before it (``committing``) to be durable before deciding on its state.
    """

    __slots__ = (
        "_draining",
        "_in_flight",
        "_mailbox",
        "_versions_recorded",
        "_waiters",
        "behind",
        "busy",
        "clock",
        "commands",
        "committing",
        "ctx",
        "finished",
        "ids_after",
        "info",
        "match",
        "players",
        "queued",
        "ruleset",
        "seed",
        "state",
        "stopped",
        "touched",
        "version",
    )

    def __init__(self, ctx: ActorContext, match: str, loaded: Loaded) -> None:
        self.ctx = ctx
        self.match = match
        self.ruleset = loaded.ruleset
        self.seed = loaded.seed
        self.players = loaded.players
        self.state = loaded.state
        self.version = loaded.version
        self.commands = loaded.commands
        self.ids_after = loaded.ids_after
        self.clock = loaded.clock
        self.info: dict[str, Any] = dict(loaded.info or {})
        self.finished = self.ruleset.rules.outcome(self.state) is not None
        self._versions_recorded = False
        self.busy = False
        self.committing = False
        self.stopped = False
        self.behind = 0  # the last seq another node is known to have stored (shared stores)
        self.queued = 0
        self.touched = time.monotonic()
        self._mailbox: deque[SendCommand] | None = None  # made when a command has to wait
        self._draining = False  # a drain of the mailbox is scheduled or running
        self._waiters: list[Pending | FuturePending] | None = None
        self._in_flight: _InFlight | None = None  # what the commit under way answers

    @property
    def log(self) -> Any:
        """Return the actor's logger, bound to its match (made on first use: logs are rare)."""
        return log.bind(match=self.match, ruleset=self.ruleset.name)

    # -- scheduling --------------------------------------------------------------------------

    async def _wait(self) -> None:
        """Wait until the actor's flags change (a commit is durable, a batch was taken)."""
        waiter = new_pending()
        if self._waiters is None:
            self._waiters = []
        self._waiters.append(waiter)
        await waiter.wait()

    def _changed(self) -> None:
        """Wake every task waiting on the actor: each looks at the flags again."""
        waiters, self._waiters = self._waiters, None
        for waiter in waiters or ():
            waiter.resolve(None)

    async def _committed_yet(self) -> None:
        while self.committing:  # a commit beaten by another node is decided and sent again
            await self._wait()

    async def quiet(self) -> None:
        """Wait until nothing is queued, decided or committed (a stopping actor's last work)."""
        while self.working or self._draining:
            await self._wait()

    async def _drain(self) -> None:
        """Decide what waits in the mailbox, batch by batch, in order; end when it is empty."""
        try:
            while self._mailbox:
                await self._committed_yet()  # decide only on a state whose events are durable
                batch = list(self._mailbox)
                self._mailbox.clear()
                self.queued -= len(batch)
                self._changed()  # senders waiting for room may put theirs in now
                self.busy = True
                try:
                    self.decide(batch)
                finally:
                    self.busy = False
                    self.touched = time.monotonic()
        finally:
            self._draining = False
            self._mailbox = None  # a resting actor keeps no queue
            self._changed()

    def idle_since(self, now: float) -> float:
        """Return for how long the actor has had nothing to do (0 while it works)."""
        if self.working:
            return 0.0
        return now - self.touched

    @property
    def working(self) -> bool:
        """Tell whether the actor has a command queued, being decided or being committed."""
        return self.busy or self.committing or self.queued > 0

    @property
    def timed(self) -> bool:
        """Tell whether a seat's clock runs (a resting one leaves a timer for its expiry)."""
        return self.clock is not None and bool(self.clock.running)

    def touch(self) -> None:
        """Mark the actor as used now (idle actors are stopped after a while)."""
        self.touched = time.monotonic()

    async def post(self, message: SendCommand) -> None:
        """Put a command in the mailbox; a full mailbox makes the sender wait."""
        while True:
            if self.stopped:
                raise ActorStopped("the hall is shutting down")
            if self._mailbox is None:
                self._mailbox = deque()
            if len(self._mailbox) < self.ctx.mailbox_size:
                break
            await self._wait()
        self._mailbox.append(message)
        self.queued += 1
        if not self._draining:
            self._draining = True
            try:
                self.ctx.spawn(self._drain)
            except (StoreClosed, RuntimeError):  # not scheduled (closing): the command is not kept
                self._draining = False
                self._mailbox.pop()
                self.queued -= 1
                raise

    def stop(self) -> None:
        """Take no new command: what the mailbox holds is still decided and committed."""
        self.stopped = True
        self._changed()

    async def read_older_ids(self) -> None:
        """Read the command ids activation left out (``ids_after``), off the loop where the
        store allows: a command with an id is decided only against every id of its match."""
        store = self.ctx.store
        while self.ids_after:
            lacking = self.ids_after
            if store.threaded:
                found = await anyio.to_thread.run_sync(store.command_ids, self.match)
            else:
                found = store.command_ids(self.match)
            if self.ids_after == lacking:  # else rebuilt from another snapshot meanwhile: again
                self.add_older_ids(found)

    def add_older_ids(self, found: dict[str, tuple[int, int]]) -> None:
        """Take every command id of the match as the store gave them; the ones this actor
        learnt since (committed here or caught up) stand."""
        if self.ids_after:
            found.update(self.commands)
            self.commands = found
            self.ids_after = 0

    def can_decide_now(self) -> bool:
        """Tell whether a command may be decided at once, in the sender's task.

        True when nothing is queued, decided or being committed: the command would be the next
        one the actor takes anyway, so deciding it right away keeps commands one at a time and
        in order, and saves a task switch per command.
        """
        return not (self.busy or self.committing or self.queued)

    def decide_now(self, message: SendCommand) -> None:
        """Decide one command in the caller's task (only when :meth:`can_decide_now`)."""
        if self.stopped:
            raise ActorStopped("the hall is shutting down")
        self.busy = True
        try:
            self.decide([message])
        finally:
            self.busy = False
            self.touched = time.monotonic()
            if self._waiters and not (self.committing or self.queued):
                self._changed()

    def decide(self, batch: Sequence[SendCommand], current: bool = False) -> None:
        """Decide every command of a batch, store their events together, answer each.

        On a shared store a refusal may come from a state another node has moved on from:
        before the first refusal is given, the actor checks the store (unless ``current``)
        and, if it is behind, catches up and decides the whole batch again.
        """
        state, version, clock = self.state, self.version, self.clock
        info = self.info
        # Made when first needed (a lobby command's changes and token, a command id): most
        # commands need none of them.
        changes: dict[str, Any] | None = None
        tokens: list[tuple[int, bytes]] | None = None
        in_batch: dict[str, SendCommand] | None = None
        accepted: list[tuple[SendCommand, Sequence[Event]]] = []
        clocked: list[Clock | None] = []
        for message in batch:
            cid = message.command_id
            if cid is not None:
                if self.ids_after and cid not in self.commands:
                    # Reached without the kernel's read ahead (see Kernel.ask): read them here.
                    self.add_older_ids(self.ctx.store.command_ids(self.match))
                if cid in self.commands or (in_batch is not None and cid in in_batch):
                    self._answer_duplicate(message, None if in_batch is None else in_batch.get(cid))
                    continue
            ctx = Context(message.seat, version + 1, self.seed, cid)
            try:
                events: Sequence[Event]
                if isinstance(message.command, LobbyCommand):
                    # Who sits where: decided against the seating the earlier ones left.
                    if self.finished or self.ruleset.rules.outcome(state) is not None:
                        info = {**info, "finished": True}
                    decided, made = self.ctx.projection.decide(
                        self.match, self.players, info, message.command, version
                    )
                    events = decided
                    info = {**info, **made}
                    changes = {**(changes or {}), **made}
                    if message.credential is not None:
                        seat = getattr(decided[0], "seat", None)
                        if isinstance(seat, int):
                            tokens = [*(tokens or ()), (seat, message.credential)]
                else:
                    projection = self.ctx.projection
                    if projection.ending(info):  # abandoned or expired: over, its game not
                        projection.check_live(self.match, info, "it takes no more commands")
                    events, state = engine.decide(
                        self.ruleset, state, message.seat, message.command, ctx
                    )
            except GamehallError as exc:
                if not current and self._behind_the_store():
                    if self.catch_up():
                        self.decide(batch, current=True)
                    else:
                        for waiting in batch:
                            waiting.reply.fail(MatchFailed("the match could not be read again"))
                    return
                current = True
                message.reply.fail(exc)
                continue
            except Exception as exc:  # noqa: BLE001 - a plugin's bug fails this command only
                self.log.exception("rules error", seq=version, command=repr(message.command))
                message.reply.fail(MatchFailed(f"the rules failed on this command: {exc!r}"))
                self._submit(accepted, state, version, clocked, rebuild=True)
                return
            accepted.append((message, events))
            if clock is not None and not isinstance(message.command, LobbyCommand):
                running = self.ruleset.rules.awaiting(state)
                clock = self.ctx.timing.advance(clock, self.ctx.now(), message.seat, running)
            clocked.append(clock)  # a lobby batch carries the clock as it stands
            version += len(events)
            if cid is not None:
                if in_batch is None:
                    in_batch = {}
                in_batch[cid] = message
        self._submit(accepted, state, version, clocked, changes=changes, tokens=tokens or ())

    def _submit(
        self,
        accepted: Sequence[tuple[SendCommand, Sequence[Event]]],
        state: Any,
        version: int,
        clocked: Sequence[Clock | None],
        rebuild: bool = False,
        changes: dict[str, Any] | None = None,
        tokens: Sequence[tuple[int, bytes]] = (),
    ) -> None:
        # The journal calls ``done`` right after the commit, in its own task: the answer reaches
        # the sender without waking this actor, and the actor decides nothing new until then.
        if not accepted:
            if rebuild:
                self.rebuild()
            return
        metas: list[Meta] = []
        versions = None if self._versions_recorded else self.ruleset.versions
        for (message, batch), clock in zip(accepted, clocked, strict=True):
            cid = message.command_id
            seat = None if isinstance(message.command, LobbyCommand) else message.seat
            metas.append(Meta(cid, seat, message.command, versions))
            if len(batch) > 1:
                metas.extend([Meta(cid, seat)] * (len(batch) - 1))
            if clock is not None:
                metas[-1] = msgspec.structs.replace(metas[-1], clock=clock)
            versions = None
        info = dict(changes) if changes else None
        ends = not self.finished and self.ruleset.rules.outcome(state) is not None
        if ends:
            info = {**(info or {}), "finished": True}  # the lobby learns it in the same commit
        last_clock = clocked[-1] if clocked else self.clock
        self.committing = True
        # What the commit's answer needs, kept here rather than in a closure made per commit.
        self._in_flight = (accepted, state, version, last_clock, ends, info, rebuild)
        # One command (as most commits of a match hold) hands its decided events on as they are.
        events = accepted[0][1] if len(accepted) == 1 else [e for _, b in accepted for e in b]
        request = AppendRequest(self.match, self.version, events, metas, info, tuple(tokens))
        self.ctx.journal.submit(request, self._done)

    def _done(self, result: list[Recorded] | GamehallError) -> None:
        """Take the outcome of the commit :meth:`_submit` handed to the journal."""
        assert self._in_flight is not None
        accepted, state, version, clock, ends, info, rebuild = self._in_flight
        self._in_flight = None
        again: list[SendCommand] = []
        try:
            if not isinstance(result, GamehallError):
                self.clock = clock
                self.finished = self.finished or ends
                if info:
                    self.info = {**self.info, **info}
            again = self._committed(accepted, state, version, result, info)
            if rebuild:
                self.rebuild()
        finally:
            self.committing = False
            if again:
                self.decide(again)  # before any waiter runs: the commands keep their order
            if self._waiters and not self.committing:
                self._changed()

    def _committed(
        self,
        accepted: Sequence[tuple[SendCommand, Sequence[Event]]],
        state: Any,
        version: int,
        result: list[Recorded] | GamehallError,
        info: Mapping[str, Any] | None = None,
    ) -> list[SendCommand]:
        """Take a commit's outcome; return the commands to decide again (another node won)."""
        if isinstance(result, ConcurrencyError) and self.ctx.shared:
            return self._beaten(accepted, result)
        if isinstance(result, GamehallError):
            self.log.warning("append refused", seq=self.version, error=str(result))
            for message, _ in accepted:
                message.reply.fail(result)
            self.rebuild()
            return []
        previous = self.version
        self.ctx.metrics.appends += 1
        self.state, self.version = state, version
        self._versions_recorded = True
        self._answer(accepted, result)
        self.ctx.publish(self.match, result)
        self._maybe_snapshot(previous)
        changed = frozenset(info) if info else _NOTHING
        self.ctx.committed(Committed(self.match, result, self.info, changed))
        if self.behind > self.version:
            self.catch_up()
        return []

    def _beaten(
        self, accepted: Sequence[tuple[SendCommand, Sequence[Event]]], error: ConcurrencyError
    ) -> list[SendCommand]:
        # Another node stored the next seq first: nothing of this batch was stored. Catch up
        # on what it stored, then decide the commands again (a retry it already stored is
        # then a duplicate), so every acknowledged command is stored exactly once.
        self.ctx.metrics.conflicts += 1
        again = []
        for message, _ in accepted:
            message.conflicts += 1
            if message.conflicts > MAX_CONFLICTS:
                message.reply.fail(error)
            else:
                again.append(message)
        self.ctx.metrics.retries += len(again)
        if not self.catch_up():
            for message in again:
                message.reply.fail(error)
            return []
        return again

    def _behind_the_store(self) -> bool:
        store = self.ctx.store
        if not store.shared:
            return False
        try:
            return store.version(self.match) > self.version
        except GamehallError:
            return False

    def advanced(self, seq: int) -> None:
        """Hear that the store holds this match up to ``seq`` (another node's commit)."""
        if seq <= self.version:
            return
        self.behind = max(self.behind, seq)
        if not (self.committing or self.busy):
            self.catch_up()

    def catch_up(self) -> bool:
        """Apply the events other nodes stored after this actor's version; publish them.

        Return whether the actor holds the stored state now (else it was dropped: the match
        reloads on its next use).
        """
        try:
            records = self.ctx.store.read(self.match, self.version)
        except CorruptRecord as exc:
            self.ctx.quarantine(self.match, exc)
            return False
        except Exception as exc:  # noqa: BLE001 - a store's failure must not stop the kernel: reload
            self.log.error("catching up failed: the match reloads on its next use", error=repr(exc))
            self.ctx.forget(self)
            return False
        if not records:
            return True
        if any(type(r.event) is TakenBack for r in records):  # it voids what came before
            self.rebuild()
            return self.ctx.kept(self)
        try:
            self.state = engine.fold(self.ruleset, self.state, (r.event for r in records))
        except Exception:  # noqa: BLE001 - a plugin's bug in evolve must not stop the kernel: rebuild
            self.log.exception("catching up failed: rebuilding", seq=self.version)
            self.rebuild()
            return self.ctx.kept(self)
        self.version = records[-1].seq
        self.clock = self.ctx.timing.last_clock(records) or self.clock
        self.finished = self.ruleset.rules.outcome(self.state) is not None
        bots = self.info.get("bots")
        for record in records:
            if isinstance(record.event, LobbyEvent):
                self.info = self.ctx.projection.apply(self.info, self.players, record.event)
        changed = frozenset({"bots"}) if self.info.get("bots") != bots else frozenset()
        if self.finished:
            self.info = {**self.info, "finished": True}
        self.ctx.metrics.caught_up += len(records)
        self.commands.update(batch_command_ids(records))
        self.ctx.publish(self.match, records)
        self.ctx.committed(Committed(self.match, records, self.info, changed))
        return True

    def _answer(
        self, accepted: Sequence[tuple[SendCommand, Sequence[Event]]], records: list[Recorded]
    ) -> None:
        start = 0
        self.ctx.metrics.commands += len(accepted)
        public = self.ruleset.public
        for message, batch in accepted:
            mine = records[start : start + len(batch)]
            start += len(batch)
            if message.command_id is not None:
                self.commands[message.command_id] = (mine[0].seq, mine[-1].seq)
            if public and not isinstance(message.command, LobbyCommand):
                shown = mine  # a seat's own command, every event whole: what redact would give
            else:
                shown = engine.redact_records(self.ruleset, mine, message.seat)
            message.reply.resolve(Ack(self.match, mine[0].seq, mine[-1].seq, shown))

    def _answer_duplicate(self, message: SendCommand, first: SendCommand | None) -> None:
        # A repeated id is a retry only when the same seat sends the same command again.
        if first is not None:
            # The same id twice in one batch: answer when the first is answered.
            refusal = _conflict(message, first.seat, first.command, None)
            if refusal is not None:
                message.reply.fail(refusal)
                return
            self.ctx.spawn(_forward, first.reply, message.reply)
            return
        assert message.command_id is not None
        low, high = self.commands[message.command_id]
        records = self.ctx.store.read(self.match, low - 1, high)
        head = records[0].meta if records else Meta(seat=message.seat, command=message.command)
        refusal = _conflict(message, head.seat, head.command, low)
        if refusal is not None:
            # Another seat's answer would show that seat's view of the events: refuse instead.
            message.reply.fail(refusal)
            return
        shown = engine.redact_records(self.ruleset, records, message.seat)
        message.reply.resolve(Ack(self.match, low, high, shown, duplicate=True))

    async def record(
        self, expected: int, events: Sequence[Event], metas: Sequence[Meta], state: Any
    ) -> list[Recorded]:
        """Store a batch the hall decided (a take-back) once nothing else is under way.

        Refuse it if the match has moved past ``expected``; the actor decides nothing while
        it is being committed, then takes ``state`` as the match's state.
        """
        while self.working:
            await self._wait()
        if self.version != expected:
            raise MatchMoved("the match moved on: ask again")
        pending = new_pending()
        clock = next((m.clock for m in reversed(metas) if m.clock is not None), self.clock)
        self.committing = True

        def done(result: list[Recorded] | GamehallError) -> None:
            try:
                if isinstance(result, GamehallError):
                    pending.fail(result)
                    self.rebuild()
                    return
                previous = self.version
                self.state, self.version, self.clock = state, result[-1].seq, clock
                self.finished = self.ruleset.rules.outcome(state) is not None
                for record in result:
                    if record.meta.command_id is not None:
                        self.commands[record.meta.command_id] = (result[0].seq, result[-1].seq)
                pending.resolve(result)
                self.ctx.publish(self.match, result)
                self._maybe_snapshot(previous)
                self.ctx.committed(Committed(self.match, result, self.info))
            finally:
                self.committing = False
                self._changed()

        self.ctx.journal.submit(AppendRequest(self.match, expected, events, metas), done)
        records: list[Recorded] = await pending.wait()
        return records

    def _maybe_snapshot(self, previous: int) -> None:
        every = self.ctx.snapshot_every
        if every and self.version // every > previous // every:
            data = msgspec.msgpack.encode(self.state)
            key = self.ctx.snapshot_key(self.ruleset)
            self.ctx.journal.snapshot(Snapshot(self.match, self.version, key, data))

    def rebuild(self) -> None:
        """Reload the match from the store after an error (no in-memory state is trusted)."""
        try:
            loaded = self.ctx.load(self.match)
        except Exception as exc:  # noqa: BLE001 - a store's or plugin's failure: reload on next use
            self.log.error("rebuild failed: the match reloads on its next use", error=repr(exc))
            self.ctx.forget(self)
            return
        before = self.version
        self.state, self.version, self.commands = loaded.state, loaded.version, loaded.commands
        self.ids_after = loaded.ids_after
        self.clock = loaded.clock
        self.info = dict(loaded.info or {})
        self.finished = self.ruleset.rules.outcome(self.state) is not None
        self._versions_recorded = False
        self.log.info("rebuilt from the store", seq=self.version)
        if self.version > before:  # stored meanwhile (another node, a commit that was lost)
            try:
                self.ctx.publish(self.match, self.ctx.store.read(self.match, before))
            except Exception:  # noqa: BLE001, S110 - a store's failure keeps the rebuild: watchers re-read
                pass


class ActorStopped(StoreClosed):
    """A command reached an actor that takes no more (stopped since it was found): nothing of
    it was kept, so the hall gives it to the match's next actor."""


class MatchMoved(IllegalCommand):
    """A batch the hall decided on a version the match has left."""

    code = "match_moved"


def _conflict(
    message: SendCommand, seat: int | None, command: Command | None, seq: int | None
) -> CommandIdConflict | None:
    """Return why a repeated command id is not a retry, or ``None`` when it is one."""
    cid = message.command_id
    if seat != message.seat:
        return CommandIdConflict(
            f"command id {cid!r} already names a command of another seat in this match; "
            "a new command needs a fresh id"
        )
    if command is not None and command != message.command:
        tag = type(command).__struct_config__.tag
        where = f" at seq {seq}" if seq is not None else ""
        return CommandIdConflict(
            f"command id {cid!r} already names another command of this match ({tag}{where}); "
            "a retry sends the same command again, a new command needs a fresh id"
        )
    return None


async def _forward(source: Pending | FuturePending, target: Pending | FuturePending) -> None:
    try:
        ack = await source.wait()
    except (GamehallError, anyio.get_cancelled_exc_class()) as exc:
        # A reply fails only with a GamehallError (a refusal, a store error), or is cancelled
        # when its sender left: the retry gets the same answer, error or not.
        target.fail(exc)
        return
    target.resolve(msgspec.structs.replace(ack, duplicate=True))
