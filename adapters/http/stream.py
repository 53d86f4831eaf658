"""A seat's live stream as Server-Sent Events: stored events after a seq, then live ones.

The hall's ``watch`` runs in a task of the hall's task group and feeds a small memory stream;
the response reads from it with a timeout, so an idle connection gets a keep-alive comment
and a closed connection cancels the feeding task at once. Each event's SSE id is its seq: a
client that reconnects with ``Last-Event-ID`` (or ``?after=``) resumes right after it.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import aclosing

import anyio
import msgspec
import structlog
from gamehall.core.errors import GamehallError
from gamehall.core.events import Recorded
from gamehall.core.hall import Hall
from litestar.response import ServerSentEventMessage

log = structlog.get_logger("gamehall.http")


class Feed:
    """One subscriber: the task that follows the hall and the stream it fills."""

    def __init__(self, hall: Hall, match: str, seat: int | None, after: int) -> None:
        self.hall, self.match, self.seat, self.after = hall, match, seat, after
        self.send, self.receive = anyio.create_memory_object_stream[Recorded](64)
        self.scope = anyio.CancelScope()

    async def pump(self) -> None:
        """Copy the seat's redacted events into the stream until cancelled or closed."""
        with self.send, self.scope:
            try:
                async with aclosing(self.hall.watch(self.match, self.seat, self.after)) as records:
                    async for record in records:
                        await self.send.send(record)
            except (anyio.BrokenResourceError, anyio.ClosedResourceError):
                pass
            except Exception as exc:
                log.error("live stream failed", match=self.match, error=repr(exc), exc_info=exc)


def _over_at(hall: Hall, match: str) -> tuple[int, msgspec.Struct | None]:
    view = hall.view(match, None)
    return view.seq, view.outcome


def _end(
    hall: Hall, match: str, seq: int, outcome: msgspec.Struct | None
) -> ServerSentEventMessage:
    data = hall.registry.codec.to_json({"match": match, "seq": seq, "outcome": outcome})
    return ServerSentEventMessage(data=data.decode(), event="end")


async def messages(
    hall: Hall, match: str, seat: int | None, after: int, heartbeat: float
) -> AsyncIterator[ServerSentEventMessage]:
    """Yield the SSE messages of a seat's stream; end once the match is over and told."""
    seq, outcome = _over_at(hall, match)
    if outcome is not None and after >= seq:
        yield _end(hall, match, seq, outcome)
        return
    feed = Feed(hall, match, seat, after)
    hall.spawn(feed.pump)
    encode = hall.registry.codec.record_to_json  # an event line of the log schema
    try:
        with feed.receive:
            while True:
                record = None
                with anyio.move_on_after(heartbeat):
                    try:
                        record = await feed.receive.receive()
                    except anyio.EndOfStream:
                        return
                if record is None:
                    yield ServerSentEventMessage(data=None, comment="keep-alive")
                    continue
                yield ServerSentEventMessage(
                    data=encode(record).decode(), event="event", id=record.seq
                )
                try:
                    seq, outcome = _over_at(hall, match)
                except GamehallError:
                    return  # the hall is closing
                if outcome is not None and record.seq >= seq:
                    yield _end(hall, match, seq, outcome)
                    return
    finally:
        feed.scope.cancel()
