"""Creates that a client may retry: a request id names one create, whose retries get its answer.

A client that lost the answer to ``POST /matches`` (or the lobby form) sends the same
``request_id`` again. The match's id is derived from the request id (and the player who asks),
so a retry can never make a second match, on any node. The first answer, which holds the seat
tokens shown only once, is kept in memory for an hour (at most 10,000 of them); a retry on
this node gets it again. A retry the node no longer remembers (after a restart, or on another
node) finds the match made: it finishes a create that stored the match but not its seats, and
otherwise says that the match exists, naming it.
"""

from __future__ import annotations

import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

import anyio
from gamehall.core.limits import request_match_id

T = TypeVar("T")
KEEP_SECONDS = 3600.0
KEEP_AT_MOST = 10_000


def match_id_for(scope: str, request_id: str) -> str:
    """Return the match id a create request id stands for (the same on every node)."""
    return request_match_id(scope, request_id)


class Replies:
    """The first answers of request ids, kept a while for retries (in memory, bounded)."""

    def __init__(self, keep: float = KEEP_SECONDS, size: int = KEEP_AT_MOST) -> None:
        self.keep, self.size = keep, size
        self._answers: OrderedDict[tuple[str, str], tuple[float, Any]] = OrderedDict()
        self._locks: dict[tuple[str, str], anyio.Lock] = {}

    async def once(self, key: tuple[str, str], make: Callable[[], Awaitable[T]]) -> T:
        """Return the answer of ``key``: the kept one, or ``make()``'s (kept on success)."""
        lock = self._locks.setdefault(key, anyio.Lock())
        try:
            async with lock:  # two copies of one request at once: the second waits and reads
                kept = self._get(key)
                if kept is not None:
                    answer: T = kept
                    return answer
                answer = await make()
                self._answers[key] = (time.monotonic(), answer)
                while len(self._answers) > self.size:
                    self._answers.popitem(last=False)
                return answer
        finally:
            if not lock.statistics().tasks_waiting:
                self._locks.pop(key, None)

    def _get(self, key: tuple[str, str]) -> Any:
        found = self._answers.get(key)
        if found is None:
            return None
        made, answer = found
        if time.monotonic() - made > self.keep:
            del self._answers[key]
            return None
        return answer
