"""One actor per active match: the only task that decides and stores the match's events.

The mailbox is drained without awaiting per message: every command waiting is decided in turn
against the state its predecessors left, then all their events go to the journal in one batch
with the expected version, and only when they are durable does the actor take the new state,
publish the events and answer. A refused command changes nothing; an unexpected error rebuilds
the match from the store, so no half-applied state survives.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import anyio
import anyio.abc
import msgspec
import structlog

from . import engine
from .errors import CommandIdConflict, GamehallError, MatchFailed, StoreClosed
from .events import Command, Event, Meta, Recorded
from .journal import FuturePending, Pending, new_pending
from .registry import Ruleset
from .rules import Context
from .store.base import AppendRequest, Snapshot

if TYPE_CHECKING:
    from .hall import Hall

log = structlog.get_logger("gamehall.actor")


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


class Loaded(msgspec.Struct):
    """What activation rebuilt: the state after ``version`` and the match's command ids."""

    ruleset: Ruleset
    seed: int
    players: int
    state: Any
    version: int
    commands: dict[str, tuple[int, int]]


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
        self._versions_recorded = False
        self.busy = False
        self.committing = False
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
        if self.committing:
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

    def decide(self, batch: Sequence[SendCommand]) -> None:
        """Decide every command of a batch, store their events together, answer each."""
        state, version = self.state, self.version
        accepted: list[tuple[SendCommand, Sequence[Event]]] = []
        in_batch: dict[str, SendCommand] = {}
        for message in batch:
            cid = message.command_id
            if cid is not None and (cid in self.commands or cid in in_batch):
                self._answer_duplicate(message, in_batch.get(cid))
                continue
            ctx = Context(message.seat, version + 1, self.seed, cid)
            try:
                events, state = engine.decide(
                    self.ruleset, state, message.seat, message.command, ctx
                )
            except GamehallError as exc:
                message.reply.fail(exc)
                continue
            except Exception as exc:
                self.log.exception("rules error", seq=version, command=repr(message.command))
                message.reply.fail(MatchFailed(f"the rules failed on this command: {exc!r}"))
                self._submit(accepted, state, version, rebuild=True)
                return
            accepted.append((message, events))
            version += len(events)
            if cid is not None:
                in_batch[cid] = message
        self._submit(accepted, state, version)

    def _submit(
        self,
        accepted: Sequence[tuple[SendCommand, Sequence[Event]]],
        state: Any,
        version: int,
        rebuild: bool = False,
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
        for message, batch in accepted:
            events.extend(batch)
            metas.append(Meta(message.command_id, message.seat, message.command, versions))
            metas.extend([Meta(message.command_id, message.seat)] * (len(batch) - 1))
            versions = None
        self.committing = True

        def done(result: list[Recorded] | GamehallError) -> None:
            try:
                self._committed(accepted, state, version, result)
                if rebuild:
                    self.rebuild()
            finally:
                self.committing = False
                waiter, self._waiter = self._waiter, None
                if waiter is not None:
                    waiter.resolve(None)

        self.hall.journal.submit(AppendRequest(self.match, self.version, events, metas), done)

    def _committed(
        self,
        accepted: Sequence[tuple[SendCommand, Sequence[Event]]],
        state: Any,
        version: int,
        result: list[Recorded] | GamehallError,
    ) -> None:
        if isinstance(result, GamehallError):
            self.log.warning("append refused", seq=self.version, error=str(result))
            for message, _ in accepted:
                message.reply.fail(result)
            self.rebuild()
            return
        previous = self.version
        self.state, self.version = state, version
        self._versions_recorded = True
        self._answer(accepted, result)
        self.hall.hub.publish(self.match, result)
        self._maybe_snapshot(previous)
        self.hall.bots.wake(self.match)

    def _answer(
        self, accepted: Sequence[tuple[SendCommand, Sequence[Event]]], records: list[Recorded]
    ) -> None:
        start = 0
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
        self.state, self.version, self.commands = loaded.state, loaded.version, loaded.commands
        self._versions_recorded = False
        self.log.info("rebuilt from the store", seq=self.version)


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

    def __init__(self) -> None:
        self._actors: dict[str, Actor] = {}

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
                del self._actors[actor.match]

    def forget(self, actor: Actor) -> None:
        """Drop an actor whose state cannot be trusted; its match reloads on the next use."""
        if self._actors.get(actor.match) is actor:
            del self._actors[actor.match]
            actor.stop()

    def stop(self, match: str) -> None:
        """Stop a match's actor, if it runs (a quarantined match)."""
        actor = self._actors.pop(match, None)
        if actor is not None:
            actor.stop()

    def passivate(self, idle_for: float) -> int:
        """Stop every actor that has rested for ``idle_for`` seconds; return how many."""
        now = time.monotonic()
        stopped = 0
        for actor in list(self._actors.values()):
            if not actor.working and actor.idle_since(now) >= idle_for:
                del self._actors[actor.match]
                actor.stop()
                stopped += 1
        return stopped

    async def stop_all(self) -> None:
        """Close every mailbox and wait until every actor has finished."""
        for actor in list(self._actors.values()):
            actor.stop()
        while self._actors:
            await anyio.sleep(0.001)
