"""Live subscribers of matches: what ``Hall.watch`` reads from.

Publishing never waits: a subscriber whose buffer is full is dropped, and its ``watch`` loop
reads what it missed from the store and subscribes again, so a slow reader costs no unbounded
memory and loses nothing.
"""

from __future__ import annotations

from typing import Any

import anyio
from anyio.streams.memory import MemoryObjectSendStream

from ..events import Recorded


class Hub:
    """Live subscribers per match; a subscriber that falls behind is dropped and catches up."""

    def __init__(self, buffer: int) -> None:
        self.buffer = buffer
        self._subs: dict[str, set[MemoryObjectSendStream[list[Recorded]]]] = {}

    def subscribe(self, match: str) -> tuple[Any, Any]:
        """Return a (send, receive) pair registered for a match."""
        send, receive = anyio.create_memory_object_stream[list[Recorded]](self.buffer)
        self._subs.setdefault(match, set()).add(send)
        return send, receive

    def unsubscribe(self, match: str, send: Any) -> None:
        """Forget a subscriber."""
        subs = self._subs.get(match)
        if subs is not None:
            subs.discard(send)
            if not subs:
                del self._subs[match]
        send.close()

    def watched(self, match: str) -> bool:
        """Tell whether anyone here watches a match."""
        return match in self._subs

    def publish(self, match: str, records: list[Recorded]) -> None:
        """Hand new records to every subscriber of a match without waiting."""
        subs = self._subs.get(match)
        if not subs:
            return
        for send in list(subs):
            try:
                send.send_nowait(records)
            except (anyio.WouldBlock, anyio.BrokenResourceError, anyio.ClosedResourceError):
                self.unsubscribe(match, send)  # it re-reads from the store and resubscribes

    def drop(self, match: str) -> None:
        """Drop every subscriber of a match: each reads what it missed from the store."""
        for send in list(self._subs.get(match, ())):
            self.unsubscribe(match, send)

    def close(self) -> None:
        """End every subscription."""
        for match, subs in list(self._subs.items()):
            for send in list(subs):
                self.unsubscribe(match, send)
