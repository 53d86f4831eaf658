"""One actor per active match: the only task that decides and stores the match's events.

The mailbox is drained without awaiting per message: every command waiting is decided in turn
against the state its predecessors left, then all their events go to the journal in one batch
with the expected version, and only when they are durable does the actor take the new state,
publish the events and answer. A refused command changes nothing; an unexpected error rebuilds
the match from the store, so no half-applied state survives.
"""

from __future__ import annotations

import heapq
import time
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

import anyio
import anyio.abc
import msgspec
import structlog

from . import clock as clocks
from . import engine, seating
from .bots.driver import from_info
from .errors import (
    CommandIdConflict,
    ConcurrencyError,
    CorruptRecord,
    GamehallError,
    IllegalCommand,
    MatchFailed,
    StoreClosed,
)
from .events import Clock, Command, Event, LobbyCommand, LobbyEvent, Meta, Recorded, TakenBack
from .journal import FuturePending, Pending, new_pending
from .registry import Ruleset
from .rules import Context
from .store.base import AppendRequest, Snapshot, batch_command_ids

if TYPE_CHECKING:
    from .hall import Hall

log = structlog.get_logger("gamehall.actor")
MAX_CONFLICTS = 50  # a command beaten this often by other nodes' commits is refused, not lost


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


class Actor:
    """The task that owns one match."""

    def __init__(self, hall: Hall, match: str, loaded: Loaded) -> None:
        self.hall = hall
        self.match = match
        self.ruleset = loaded.ruleset
        self.seed = loaded.seed
        self.players = loaded.players
        self.state = loaded.state
        self.version = loaded.version
        self.commands = loaded.commands
        self.clock = loaded.clock
        self.info: dict[str, Any] = dict(loaded.info or {})
        self.finished = self.ruleset.rules.outcome(self.state) is not None
        self._versions_recorded = False
        self.busy = False
        self.committing = False
        self.behind = 0  # the last seq another node is known to have stored (shared stores)
        self.queued = 0
        self._waiter: Pending | FuturePending | None = None
        self.touched = time.monotonic()
        self.send, self._receive = anyio.create_memory_object_stream[SendCommand](hall.mailbox_size)

    @property
    def log(self) -> Any:
        """Return the actor's logger, bound to its match (made on first use: logs are rare)."""
        return log.bind(match=self.match, ruleset=self.ruleset.name)

    async def run(self) -> None:
        """Handle commands until the hall closes the mailbox (at shutdown or when idle)."""
        receive = self._receive
        with receive, self.send:
            while True:
                try:
                    message = receive.receive_nowait()
                except anyio.WouldBlock:
                    try:
                        message = await receive.receive()
                    except anyio.EndOfStream:
                        return
                except anyio.EndOfStream:
                    return
                batch = [message]
                while True:
                    try:
                        batch.append(receive.receive_nowait())
                    except (anyio.WouldBlock, anyio.EndOfStream):
                        break
                self.queued -= len(batch)
                self.busy = True
                try:
                    await self.handle(batch)
                finally:
                    self.busy = False
                    self.touched = time.monotonic()
        await self._committed_yet()

    async def _committed_yet(self) -> None:
        while self.committing:  # a commit beaten by another node is decided and sent again
            waiter = self._waiter = new_pending()
            await waiter.wait()

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
        try:
            try:
                self.send.send_nowait(message)
            except anyio.WouldBlock:
                await self.send.send(message)
        except (anyio.ClosedResourceError, anyio.BrokenResourceError):
            raise StoreClosed("the hall is shutting down") from None
        self.queued += 1

    def stop(self) -> None:
        """Close the mailbox: the actor finishes what it holds, then its task ends."""
        self.send.close()

    def can_decide_now(self) -> bool:
        """Tell whether a command may be decided at once, in the sender's task.

        True when nothing is queued, decided or being committed: the command would be the next
        one the actor takes anyway, so deciding it right away keeps commands one at a time and
        in order, and saves a task switch per command.
        """
        return not (self.busy or self.committing or self.queued)

    def decide_now(self, message: SendCommand) -> None:
        """Decide one command in the caller's task (only when :meth:`can_decide_now`)."""
        self.busy = True
        try:
            self.decide([message])
        finally:
            self.busy = False
            self.touched = time.monotonic()

    async def handle(self, batch: Sequence[SendCommand]) -> None:
        """Wait until earlier events are durable, then decide a drained batch."""
        await self._committed_yet()  # decide only on a state whose events are durable
        self.decide(batch)

    def decide(self, batch: Sequence[SendCommand], current: bool = False) -> None:
        """Decide every command of a batch, store their events together, answer each.

        On a shared store a refusal may come from a state another node has moved on from:
        before the first refusal is given, the actor checks the store (unless ``current``)
        and, if it is behind, catches up and decides the whole batch again.
        """
        state, version, clock = self.state, self.version, self.clock
        info, changes = self.info, {}
        tokens: list[tuple[int, bytes]] = []
        accepted: list[tuple[SendCommand, Sequence[Event]]] = []
        clocked: list[Clock | None] = []
        in_batch: dict[str, SendCommand] = {}
        for message in batch:
            cid = message.command_id
            if cid is not None and (cid in self.commands or cid in in_batch):
                self._answer_duplicate(message, in_batch.get(cid))
                continue
            ctx = Context(message.seat, version + 1, self.seed, cid)
            try:
                events: Sequence[Event]
                if isinstance(message.command, LobbyCommand):
                    # Who sits where: decided against the seating the earlier ones left.
                    if self.finished or self.ruleset.rules.outcome(state) is not None:
                        info = {**info, "finished": True}
                    decided, made = seating.decide(self.match, self.players, info, message.command)
                    events = decided
                    info = {**info, **made}
                    changes.update(made)
                    if message.credential is not None:
                        seat = getattr(decided[0], "seat", None)
                        if isinstance(seat, int):
                            tokens.append((seat, message.credential))
                else:
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
            except Exception as exc:
                self.log.exception("rules error", seq=version, command=repr(message.command))
                message.reply.fail(MatchFailed(f"the rules failed on this command: {exc!r}"))
                self._submit(accepted, state, version, clocked, rebuild=True)
                return
            accepted.append((message, events))
            if clock is not None and not isinstance(message.command, LobbyCommand):
                running = self.ruleset.rules.awaiting(state)
                clock = clocks.advance(clock, self.hall.now(), message.seat, running)
            clocked.append(clock)  # a lobby batch carries the clock as it stands
            version += len(events)
            if cid is not None:
                in_batch[cid] = message
        self._submit(accepted, state, version, clocked, changes=changes, tokens=tokens)

    def _submit(
        self,
        accepted: Sequence[tuple[SendCommand, Sequence[Event]]],
        state: Any,
        version: int,
        clocked: Sequence[Clock | None] = (),
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
        events: list[Event] = []
        metas: list[Meta] = []
        versions = None if self._versions_recorded else self.ruleset.versions
        for (message, batch), clock in zip(
            accepted, clocked or [None] * len(accepted), strict=True
        ):
            events.extend(batch)
            seat = None if isinstance(message.command, LobbyCommand) else message.seat
            metas.append(Meta(message.command_id, seat, message.command, versions))
            metas.extend([Meta(message.command_id, seat)] * (len(batch) - 1))
            if clock is not None:
                metas[-1] = msgspec.structs.replace(metas[-1], clock=clock)
            versions = None
        info = dict(changes) if changes else None
        ends = not self.finished and self.ruleset.rules.outcome(state) is not None
        if ends:
            info = {**(info or {}), "finished": True}  # the lobby learns it in the same commit
        last_clock = clocked[-1] if clocked else self.clock
        self.committing = True

        def done(result: list[Recorded] | GamehallError) -> None:
            again: list[SendCommand] = []
            try:
                if not isinstance(result, GamehallError):
                    self.clock = last_clock
                    self.finished = self.finished or ends
                    if info:
                        self.info = {**self.info, **info}
                        if "bots" in info:  # a seat given to a bot: the driver plays it
                            self.hall.bots.attach(self.match, from_info(self.info))
                again = self._committed(accepted, state, version, result)
                if rebuild:
                    self.rebuild()
            finally:
                self.committing = False
                if again:
                    self.decide(again)  # before any waiter runs: the commands keep their order
                if not self.committing:
                    waiter, self._waiter = self._waiter, None
                    if waiter is not None:
                        waiter.resolve(None)

        request = AppendRequest(self.match, self.version, events, metas, info, tuple(tokens))
        self.hall.journal.submit(request, done)

    def _committed(
        self,
        accepted: Sequence[tuple[SendCommand, Sequence[Event]]],
        state: Any,
        version: int,
        result: list[Recorded] | GamehallError,
    ) -> list[SendCommand]:
        """Take a commit's outcome; return the commands to decide again (another node won)."""
        if isinstance(result, ConcurrencyError) and self.hall.store.shared:
            return self._beaten(accepted, result)
        if isinstance(result, GamehallError):
            self.log.warning("append refused", seq=self.version, error=str(result))
            for message, _ in accepted:
                message.reply.fail(result)
            self.rebuild()
            return []
        previous = self.version
        self.hall.metrics.appends += 1
        self.state, self.version = state, version
        self._versions_recorded = True
        self._answer(accepted, result)
        self.hall.hub.publish(self.match, result)
        self._maybe_snapshot(previous)
        self.hall.bots.wake(self.match)
        if self.behind > self.version:
            self.catch_up()
        return []

    def _beaten(
        self, accepted: Sequence[tuple[SendCommand, Sequence[Event]]], error: ConcurrencyError
    ) -> list[SendCommand]:
        # Another node stored the next seq first: nothing of this batch was stored. Catch up
        # on what it stored, then decide the commands again (a retry it already stored is
        # then a duplicate), so every acknowledged command is stored exactly once.
        self.hall.metrics.conflicts += 1
        again = []
        for message, _ in accepted:
            message.conflicts += 1
            if message.conflicts > MAX_CONFLICTS:
                message.reply.fail(error)
            else:
                again.append(message)
        self.hall.metrics.retries += len(again)
        if not self.catch_up():
            for message in again:
                message.reply.fail(error)
            return []
        return again

    def _behind_the_store(self) -> bool:
        store = self.hall.store
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
            records = self.hall.store.read(self.match, self.version)
        except CorruptRecord as exc:
            self.hall.quarantine(self.match, exc)
            return False
        except Exception as exc:  # noqa: BLE001 - the store failed: reload on the next use
            self.log.error("catching up failed: the match reloads on its next use", error=repr(exc))
            self.hall.actors.forget(self)
            return False
        if not records:
            return True
        if any(type(r.event) is TakenBack for r in records):  # it voids what came before
            self.rebuild()
            return self.hall.kept(self)
        try:
            self.state = engine.fold(self.ruleset, self.state, (r.event for r in records))
        except Exception:  # noqa: BLE001 - rules that fail on stored events: rebuild whole
            self.log.exception("catching up failed: rebuilding", seq=self.version)
            self.rebuild()
            return self.hall.kept(self)
        self.version = records[-1].seq
        self.clock = clocks.last_clock(records) or self.clock
        self.finished = self.ruleset.rules.outcome(self.state) is not None
        bots = self.info.get("bots")
        for record in records:
            if isinstance(record.event, LobbyEvent):
                self.info = seating.apply(self.info, self.players, record.event)
        if self.info.get("bots") != bots:  # another node gave a seat to a bot
            self.hall.bots.attach(self.match, from_info(self.info))
        if self.finished:
            self.info = {**self.info, "finished": True}
        self.hall.metrics.caught_up += len(records)
        self.commands.update(batch_command_ids(records))
        self.hall.hub.publish(self.match, records)
        self.hall.bots.wake(self.match)
        return True

    def _answer(
        self, accepted: Sequence[tuple[SendCommand, Sequence[Event]]], records: list[Recorded]
    ) -> None:
        start = 0
        self.hall.metrics.commands += len(accepted)
        for message, batch in accepted:
            mine = records[start : start + len(batch)]
            start += len(batch)
            if message.command_id is not None:
                self.commands[message.command_id] = (mine[0].seq, mine[-1].seq)
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
            self.hall.spawn(_forward, first.reply, message.reply)
            return
        assert message.command_id is not None
        low, high = self.commands[message.command_id]
        records = self.hall.store.read(self.match, low - 1, high)
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
        while self.busy or self.committing or self.queued:
            await anyio.sleep(0.001)
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
                self.hall.hub.publish(self.match, result)
                self._maybe_snapshot(previous)
                self.hall.bots.wake(self.match)
            finally:
                self.committing = False
                waiter, self._waiter = self._waiter, None
                if waiter is not None:
                    waiter.resolve(None)

        self.hall.journal.submit(AppendRequest(self.match, expected, events, metas), done)
        records: list[Recorded] = await pending.wait()
        return records

    def _maybe_snapshot(self, previous: int) -> None:
        every = self.hall.snapshot_every
        if every and self.version // every > previous // every:
            data = msgspec.msgpack.encode(self.state)
            key = self.hall.snapshot_key(self.ruleset)
            self.hall.journal.snapshot(Snapshot(self.match, self.version, key, data))

    def rebuild(self) -> None:
        """Reload the match from the store after an error (no in-memory state is trusted)."""
        try:
            loaded = self.hall.load(self.match)
        except Exception as exc:  # noqa: BLE001 - the store failed too: start afresh next time
            self.log.error("rebuild failed: the match reloads on its next use", error=repr(exc))
            self.hall.actors.forget(self)
            return
        before = self.version
        self.state, self.version, self.commands = loaded.state, loaded.version, loaded.commands
        self.clock = loaded.clock
        self.info = dict(loaded.info or {})
        self.finished = self.ruleset.rules.outcome(self.state) is not None
        self._versions_recorded = False
        self.log.info("rebuilt from the store", seq=self.version)
        if self.version > before:  # stored meanwhile (another node, a commit that was lost)
            try:
                self.hall.hub.publish(self.match, self.hall.store.read(self.match, before))
            except Exception:  # noqa: BLE001, S110 - watchers then read the gap themselves
                pass


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
    except BaseException as exc:  # noqa: BLE001 - the retry gets the same answer, error or not
        target.fail(exc)
        return
    target.resolve(msgspec.structs.replace(ack, duplicate=True))


class Supervisor:
    """The running actors of a hall, one per active match: starts, stops and drops them.

    The hall asks it for a match's actor; it stops actors that rest (nothing queued, decided
    or committed) for a while, and drops one whose state cannot be trusted, so that its match
    reloads from the store on the next use.
    """

    def __init__(
        self,
        on_stop: Callable[[str], None] | None = None,
        on_rest: Callable[[Actor], None] | None = None,
    ) -> None:
        self._actors: dict[str, Actor] = {}
        self._on_stop = on_stop  # told the match of every actor that stops or is dropped
        self._on_rest = on_rest  # told every actor stopped for resting, before it stops

    def __len__(self) -> int:
        return len(self._actors)

    def get(self, match: str) -> Actor | None:
        """Return the running actor of a match, if any."""
        return self._actors.get(match)

    def start(self, hall: Hall, match: str, loaded: Loaded, tg: anyio.abc.TaskGroup) -> Actor:
        """Start the actor of a match in the hall's task group."""
        actor = Actor(hall, match, loaded)
        self._actors[match] = actor
        tg.start_soon(self._run, actor)
        return actor

    async def _run(self, actor: Actor) -> None:
        try:
            await actor.run()
        finally:
            if self._actors.get(actor.match) is actor:
                self._remove(actor)

    def _remove(self, actor: Actor) -> None:
        del self._actors[actor.match]
        if self._on_stop is not None:
            self._on_stop(actor.match)

    def forget(self, actor: Actor) -> None:
        """Drop an actor whose state cannot be trusted; its match reloads on the next use."""
        if self._actors.get(actor.match) is actor:
            self._remove(actor)
            actor.stop()

    def stop(self, match: str) -> None:
        """Stop a match's actor, if it runs (a quarantined match)."""
        actor = self._actors.get(match)
        if actor is not None:
            self._remove(actor)
            actor.stop()

    def passivate(self, idle_for: float) -> int:
        """Stop every actor that has rested for ``idle_for`` seconds; return how many.

        A timed match rests too: ``on_rest`` keeps its next expiry, which wakes it.
        """
        now = time.monotonic()
        stopped = 0
        for actor in list(self._actors.values()):
            if not actor.working and actor.idle_since(now) >= idle_for:
                if self._on_rest is not None:
                    self._on_rest(actor)
                self._remove(actor)
                actor.stop()
                stopped += 1
        return stopped

    def trim(self, limit: int) -> int:
        """Passivate the least recently used resting actors while more than ``limit`` run, down
        to nine tenths of it (so that it is not done again at the next start); return how many
        stopped. Actors at work stay, even past the limit."""
        if len(self._actors) <= limit:
            return 0
        excess = len(self._actors) - max(limit * 9 // 10, 1)
        resting = [a for a in self._actors.values() if not a.working]
        stopped = 0
        for actor in heapq.nsmallest(excess, resting, key=lambda a: a.touched):
            if self._on_rest is not None:
                self._on_rest(actor)
            self._remove(actor)
            actor.stop()
            stopped += 1
        return stopped

    def all(self) -> list[Actor]:
        """Return the running actors."""
        return list(self._actors.values())

    def __contains__(self, match: object) -> bool:
        return match in self._actors

    async def stop_all(self) -> None:
        """Close every mailbox and wait until every actor has finished."""
        for actor in list(self._actors.values()):
            actor.stop()
        while self._actors:
            await anyio.sleep(0.001)
