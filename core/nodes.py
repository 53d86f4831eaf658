"""Several nodes on one shared store: each follows the commits of the others.

A node's actors decide on the state they hold; the store's (stream, seq) key refuses an append
another node beat, and the actor then catches up and decides again (see ``Actor._beaten``).
The :class:`Follower` keeps actors and live streams current between commands: it follows the
store's global position, which has no gaps and grows in commit order, so reading "every event
after the position I have seen" never misses one. It is woken by the store's notifications
(LISTEN/NOTIFY on PostgreSQL) and polls when none come, so a lost notification or listening
connection costs at most one poll interval.

Work that belongs to a match and no person (bot seats; turn clocks plug in the same way) runs
only on the node holding the match's lease (``Store.try_lease``); the follower wakes the bot
driver now and then, so a lease given up by a node that died is taken over by another.
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Any, Protocol

import anyio
import structlog

if TYPE_CHECKING:
    from .bots.driver import BotDriver
    from .store.base import Store

log = structlog.get_logger("gamehall.nodes")

POLL_SECONDS = 0.5
LEASE_SECONDS = 2.0


class NodeHost(Protocol):
    """What a follower asks of the hall it keeps current (the Hall provides it)."""

    store: Store
    bots: BotDriver

    def advanced(self, match: str, seq: int) -> None:
        """Hear that another node stored a match up to ``seq``."""
        ...


class Follower:
    """Follow a shared store's commits and bring this node's matches up to date."""

    def __init__(self, hall: NodeHost, poll: float = POLL_SECONDS) -> None:
        self.hall = hall
        self.poll = poll
        self.position = 0  # the last global position this node has applied
        self.head = 0  # the last global position the store was seen at
        self.checked = time.monotonic()
        self._scope = anyio.CancelScope()
        self._leases_tried = 0.0

    @property
    def lag(self) -> int:
        """Return how many events were committed that this node has not looked at yet."""
        return max(self.head - self.position, 0)

    async def run(self, *, task_status: Any = anyio.TASK_STATUS_IGNORED) -> None:
        """Follow until :meth:`stop`; report started once the store's head is known."""
        store = self.hall.store
        with self._scope:
            self.position = self.head = await anyio.to_thread.run_sync(store.position)
            task_status.started()
            while True:
                await anyio.to_thread.run_sync(
                    store.wait_for_commits, self.poll, abandon_on_cancel=True
                )
                try:
                    await self.catch_up()
                except Exception as exc:  # noqa: BLE001 - a store's failure must not end the following: retried
                    log.warning("following the store failed", error=str(exc))
                    await anyio.sleep(self.poll)
                self._wake_bots()

    async def catch_up(self) -> None:
        """Apply every commit after this node's position to its actors and watchers."""
        store = self.hall.store
        while True:
            last, heads = await anyio.to_thread.run_sync(store.changes, self.position)
            self.head = max(self.head, last)
            if last == self.position:
                break
            self.position = last
            for match, seq in heads.items():
                self.hall.advanced(match, seq)
        self.checked = time.monotonic()

    def _wake_bots(self) -> None:
        now = time.monotonic()
        if now - self._leases_tried < LEASE_SECONDS:
            return
        self._leases_tried = now
        for match in list(self.hall.bots.seats):
            self.hall.bots.wake(match)  # a lease another node gave up is taken here

    def stop(self) -> None:
        """Stop following."""
        self._scope.cancel()
