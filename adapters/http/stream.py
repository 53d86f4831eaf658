"""A seat's live stream as Server-Sent Events: stored events after a seq, then live ones.

The hall's ``watch`` runs in a task of the hall's task group and feeds a small memory stream;
the response reads from it with a timeout, so an idle connection gets a keep-alive comment
and a closed connection cancels the feeding task at once. Each event's SSE id is its seq: a
client that reconnects with ``Last-Event-ID`` (or ``?after=``) resumes right after it.
"""

from __future__ import annotations

import weakref
from collections import Counter
from collections.abc import AsyncIterator, Callable
from contextlib import aclosing

import anyio
import msgspec
import structlog
from gamehall.core import reads
from gamehall.core.clock import ClockView
from gamehall.core.errors import GamehallError
from gamehall.core.hall import Hall, Turn
from gamehall.core.lobby import Player
from gamehall.core.seating import ending
from gamehall.core.words import Narrated
from litestar.background_tasks import BackgroundTask
from litestar.response import ServerSentEvent, ServerSentEventMessage

from .errors import ApiError

log = structlog.get_logger("gamehall.http")
MAX_STREAMS = 5000
STREAMS_PER_ADDRESS = 32
NAMES_POLL = 1.0
"""The longest time a stream takes to tell a name change that came without an event."""


class StreamLimits(msgspec.Struct, frozen=True):
    """How many event streams a node keeps open at once, in all and per client address."""

    per_node: int = MAX_STREAMS
    per_address: int = STREAMS_PER_ADDRESS


class StreamSlots:
    """The open streams of one app, counted per client address; a stream over a cap is a 503
    (the node) or a 429 (the address), with ``Retry-After``, before it starts."""

    def __init__(self, limits: StreamLimits) -> None:
        self.limits = limits
        self.open = 0
        self.by_address: Counter[str] = Counter()

    def take(self, address: str) -> Callable[[], None]:
        """Count a new stream of ``address``; return the call that ends it (once)."""
        if self.open >= self.limits.per_node:
            raise ApiError(
                503, "too_many_streams", "this server holds as many event streams as it may: "
                "try again in a moment", headers={"Retry-After": "5"},
            )  # fmt: skip
        if self.by_address[address] >= self.limits.per_address:
            raise ApiError(
                429, "too_many_streams", f"this address already holds "
                f"{self.limits.per_address} event streams: close one first",
                headers={"Retry-After": "5"},
            )  # fmt: skip
        self.open += 1
        self.by_address[address] += 1
        done = False

        def release() -> None:
            nonlocal done
            if done:
                return
            done = True
            self.open -= 1
            self.by_address[address] -= 1
            if self.by_address[address] <= 0:
                del self.by_address[address]

        return release


def counted(
    messages: AsyncIterator[ServerSentEventMessage], release: Callable[[], None]
) -> AsyncIterator[ServerSentEventMessage]:
    """Return the messages of a stream that gives its slot back when it ends in any way."""

    async def relay() -> AsyncIterator[ServerSentEventMessage]:
        try:
            async with aclosing(messages):  # type: ignore[type-var]
                async for message in messages:
                    yield message
        finally:
            release()

    relayed = relay()
    weakref.finalize(relayed, release)  # a stream dropped before its first message
    return relayed


def counted_response(
    messages: AsyncIterator[ServerSentEventMessage],
    release: Callable[[], None],
    headers: dict[str, str],
) -> ServerSentEvent:
    """Return an event-stream response that gives its slot back however it ends.

    The response's framework stops sending when the client leaves but does not close the
    messages' generator, which then ends only when it is collected: the slot is also given
    back by a task that runs once the response is over, disconnect included."""

    async def over() -> None:
        release()

    return ServerSentEvent(
        counted(messages, release), headers=headers, background=BackgroundTask(over)
    )


class Feed:
    """One subscriber: the task that follows the hall and the stream it fills."""

    def __init__(self, hall: Hall, match: str, seat: int | None, after: int) -> None:
        self.hall, self.match, self.seat, self.after = hall, match, seat, after
        self.send, self.receive = anyio.create_memory_object_stream[Narrated](64)
        self.scope = anyio.CancelScope()

    async def pump(self) -> None:
        """Copy the seat's redacted events, in words too, into the stream until closed."""
        hall = self.hall
        with self.send, self.scope:
            try:
                watched = hall.watch_narrated(self.match, self.seat, self.after)
                async with aclosing(watched) as told:
                    async for narrated in told:
                        await self.send.send(narrated)
            except (anyio.BrokenResourceError, anyio.ClosedResourceError):
                pass
            except Exception as exc:  # noqa: BLE001 - a plugin's words fail one stream, not the server
                log.error("live stream failed", match=self.match, error=repr(exc), exc_info=exc)


async def _over_at(hall: Hall, match: str) -> tuple[int, msgspec.Struct | None, str | None]:
    """Return a match's seq, its outcome and how it ended outside its game (abandoned,
    expired: over without an outcome), from its actor (activated off the event loop)."""
    actor = await hall.activate(match)
    return actor.version, actor.ruleset.rules.outcome(actor.state), ending(actor.info)


def _end(
    hall: Hall, match: str, seq: int, outcome: msgspec.Struct | None, ended: str | None = None
) -> ServerSentEventMessage:
    told = {"match": match, "seq": seq, "outcome": outcome, **({"ended": ended} if ended else {})}
    data = hall.registry.codec.to_json(told)
    return ServerSentEventMessage(data=data.decode(), event="end")


def _turn(hall: Hall, match: str, seat: int | None, last: Turn | None) -> Turn | None:
    """Return whose move it is when that changed since ``last`` (``None`` when it did not)."""
    turn = hall.turn(match, seat)
    if last is not None and (turn.awaiting, turn.decision, turn.free) == (
        last.awaiting,
        last.decision,
        last.free,
    ):
        return None
    return turn


def _turn_message(hall: Hall, turn: Turn) -> ServerSentEventMessage:
    return ServerSentEventMessage(data=hall.registry.codec.to_json(turn).decode(), event="turn")


def _clock(hall: Hall, match: str, last: ClockView | None) -> ClockView | None:
    """Return the clocks when their recorded state changed since ``last`` (not as time runs)."""
    clock = hall.clock(match)
    if clock is None:
        return None
    if last is not None and (clock.at, clock.running) == (last.at, last.running):
        return None
    return clock


def _names_message(match: str, names: list[str | None]) -> ServerSentEventMessage:
    return ServerSentEventMessage(
        data=msgspec.json.encode({"match": match, "names": names}).decode(), event="names"
    )


def _clock_message(hall: Hall, match: str, clock: ClockView) -> ServerSentEventMessage:
    data = hall.registry.codec.to_json({"match": match, "clock": clock}).decode()
    return ServerSentEventMessage(data=data, event="clock")


async def messages(
    hall: Hall,
    match: str,
    seat: int | None,
    after: int,
    heartbeat: float,
    player: Player | None = None,
) -> AsyncIterator[ServerSentEventMessage]:
    """Yield the SSE messages of a seat's stream; end once the match is over and told.

    ``event`` messages carry each event (with its words for the seat); ``turn`` messages tell
    whose move it is, whenever that changes once the stream has caught up; ``clock`` messages
    carry a timed match's clocks whenever a batch changed them; ``end`` closes. A stream
    without a seat counts as a spectator of the match while it is open.
    """
    seq, outcome, ended = await _over_at(hall, match)
    if (outcome is not None or ended) and after >= seq:
        yield _end(hall, match, seq, outcome, ended)
        return
    watcher = hall.lobby.follow(match, player) if seat is None else None
    try:
        async for message in _live(hall, match, seat, after, heartbeat, seq):
            yield message
    finally:
        if watcher is not None:
            hall.lobby.leave(match, watcher)


async def _live(
    hall: Hall, match: str, seat: int | None, after: int, heartbeat: float, seq: int
) -> AsyncIterator[ServerSentEventMessage]:
    last: Turn | None = None
    clock: ClockView | None = None
    names: list[str | None] | None = None
    if after >= seq:
        last = hall.turn(match, seat)
        yield _turn_message(hall, last)
        clock = _clock(hall, match, None)
        if clock is not None:
            yield _clock_message(hall, match, clock)
        names = await reads.names(hall, match)
        if any(names):
            yield _names_message(match, names)
    feed = Feed(hall, match, seat, after)
    hall.spawn(feed.pump)
    line = hall.registry.codec.record_to_json  # an event line of the log schema
    poll = min(heartbeat, NAMES_POLL)
    quiet = 0.0
    told_seq = after  # the last event this stream sent
    ahead = after > seq  # it told more than this node's actor held when last asked
    try:
        with feed.receive:
            while True:
                told = None
                with anyio.move_on_after(poll):
                    try:
                        told = await feed.receive.receive()
                    except anyio.EndOfStream:
                        return
                if told is None:
                    # No event: a seat may still have been taken or a player renamed, or this
                    # node may only now have heard that the last event sent ended the match.
                    try:
                        now_named = await reads.names(hall, match)
                        if ahead:
                            seq, outcome, ended = await _over_at(hall, match)
                    except GamehallError:
                        return  # the match was deleted
                    if ahead and told_seq <= seq:  # this node caught up with the stream
                        ahead = False
                        if outcome is not None or ended:
                            yield _end(hall, match, seq, outcome, ended)
                            return
                        turn = _turn(hall, match, seat, last)
                        if turn is not None:
                            last = turn
                            yield _turn_message(hall, turn)
                    if now_named != names and (any(now_named) or names is not None):
                        names = now_named
                        yield _names_message(match, now_named)
                    quiet += poll
                    if quiet >= heartbeat:
                        quiet = 0.0
                        yield ServerSentEventMessage(data=None, comment="keep-alive")
                    continue
                quiet = 0.0
                record = told.record
                told_seq = record.seq
                data = line(record, told.text).decode()
                yield ServerSentEventMessage(data=data, event="event", id=record.seq)
                try:
                    seq, outcome, ended = await _over_at(hall, match)
                except GamehallError:
                    return  # the hall is closing
                ahead = record.seq > seq
                if (outcome is not None or ended) and record.seq >= seq:
                    yield _end(hall, match, seq, outcome, ended)
                    return
                if record.seq >= seq:  # caught up: tell whose move it is, if that changed
                    turn = _turn(hall, match, seat, last)
                    if turn is not None:
                        last = turn
                        yield _turn_message(hall, turn)
                    changed = _clock(hall, match, clock)
                    if changed is not None:
                        clock = changed
                        yield _clock_message(hall, match, changed)
                    now_named = await reads.names(hall, match)
                    if now_named != names and (any(now_named) or names is not None):
                        names = now_named
                        yield _names_message(match, now_named)
    finally:
        feed.scope.cancel()
