"""Several nodes on one shared store: each follows the commits of the others.

A node's actors decide on the state they hold; the store's (stream, seq) key refuses an append
another node beat, and the actor then catches up and decides again (see ``Actor._beaten``).
The :class:`Follower` keeps actors and live streams current between commands: it follows the
store's global position, which has no gaps and grows in commit order, so reading "every event
after the position I have seen" never misses one. It is woken by the store's notifications
(LISTEN/NOTIFY on PostgreSQL) and polls when none come, so a lost notification or listening
connection costs at most one poll interval. A notification that names its commits' matches
is passed over when none of them is served here (no actor, no watcher: nothing here would
change), until the poll.

Read your own writes across nodes: an acknowledgement carries the match version it produced
(its last seq); a read or command that names it is answered by :func:`caught_up` only from state
at least that new. The node catches up first (the store holds every acknowledged version, so
one read of it is enough), within a bounded wait, else refuses (:class:`NotCaughtUp`).

Work that belongs to a match and no person (bot seats; turn clocks plug in the same way) runs
only on the node holding the match's lease (``Store.try_lease``); the follower wakes the bot
driver now and then, so a lease given up by a node that died is taken over by another.
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Any, Protocol

import anyio
import structlog

from .errors import NotCaughtUp, UnknownVersion

if TYPE_CHECKING:
    from .bots.driver import BotDriver
    from .kernel.actor import Actor
    from .kernel.hub import Hub
    from .store.base import Store

log = structlog.get_logger("gamehall.nodes")

POLL_SECONDS = 0.5
# A follower woken again this soon after a read waits out the rest before the next one, so
# that the commits of busy nodes are read a few at a time, not one read each.
GATHER_SECONDS = 0.005
LEASE_SECONDS = 2.0
CATCH_UP_SECONDS = 2.0  # how long a read naming a version waits for this node to hold it


class NodeHost(Protocol):
    """What a follower asks of the hall it keeps current (the Hall provides it)."""

    store: Store
    bots: BotDriver

    def advanced(self, match: str, seq: int) -> None:
        """Hear that another node stored a match up to ``seq``."""
        ...

    def serves(self, match: str) -> bool:
        """Tell whether another node's commit to a match would change anything here."""
        ...


class MatchHost(Protocol):
    """What :func:`caught_up` asks of the hall (the Hall provides it)."""

    store: Store
    hub: Hub

    async def activate(self, match: str) -> Actor:
        """Return the match's actor, loading the match if it is not active."""
        ...

    def advanced(self, match: str, seq: int) -> None:
        """Hear that the store holds a match up to ``seq``."""
        ...


async def caught_up(
    hall: MatchHost, match: str, version: int | None, wait: float | None = None
) -> None:
    """Return once this node holds ``match`` at ``version`` or newer (``None``: at once).

    An acknowledged version is in the store, on any node's reading, the moment it is
    acknowledged: a node behind reads it and catches its actor up (an actor deciding or
    committing catches up right after, and publishes what it applies: that is what this
    waits for). A version the store does not hold is refused at once
    (:class:`UnknownVersion`); one the actor does not reach within ``wait`` seconds raises
    :class:`NotCaughtUp`: no answer from older state either way.
    """
    if not version:
        return
    wait = CATCH_UP_SECONDS if wait is None else wait
    actor = await hall.activate(match)
    if actor.version >= version:
        return
    deadline = anyio.current_time() + wait
    hub = hall.hub
    send, receive = hub.subscribe(match)
    try:
        while True:
            stored = await _stored_version(hall.store, match)
            if stored < version:
                raise UnknownVersion(match, version, stored)
            actor = await hall.activate(match)  # a new actor if the last one was dropped
            if actor.version < stored:
                hall.advanced(match, stored)
            if actor.version >= version:
                return
            left = deadline - anyio.current_time()
            if left <= 0:
                raise NotCaughtUp(match, version, actor.version, wait)
            # The actor applies the rest once its commit in flight ends and publishes it. A
            # dropped actor publishes nothing: the back-off then looks again.
            with anyio.move_on_after(min(left, CATCH_UP_BACKOFF)):
                try:
                    await receive.receive()
                except anyio.EndOfStream:  # dropped by the hub: subscribe again, look again
                    hub.unsubscribe(match, send)
                    receive.close()
                    send, receive = hub.subscribe(match)
    finally:
        hub.unsubscribe(match, send)
        receive.close()


CATCH_UP_BACKOFF = 0.05  # the longest wait between two looks when no publication comes


async def _stored_version(store: Store, match: str) -> int:
    if store.threaded:
        return await anyio.to_thread.run_sync(store.version, match)
    return store.version(match)


class Follower:
    """Follow a shared store's commits and bring this node's matches up to date."""

    def __init__(
        self, hall: NodeHost, poll: float = POLL_SECONDS, gather: float = GATHER_SECONDS
    ) -> None:
        self.hall = hall
        self.poll = poll
        self.gather = gather
        self._read_at = 0.0  # when the last catch-up began (monotonic)
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
                heard = await anyio.to_thread.run_sync(
                    store.wait_for_commits, self.poll, abandon_on_cancel=True
                )
                if heard and self._passes_over(store.heard_streams()):
                    self._wake_bots()
                    continue
                wait = self._read_at + self.gather - time.monotonic()
                if wait > 0:
                    await anyio.sleep(wait)
                try:
                    await self.catch_up()
                except Exception as exc:  # noqa: BLE001 - a store's failure must not end the following: retried
                    log.warning("following the store failed", error=str(exc))
                    await anyio.sleep(self.poll)
                self._wake_bots()

    def _passes_over(self, streams: set[str] | None) -> bool:
        """Tell whether the commits just heard of can wait for the next read: they name their
        streams (``None``: they do not), none of which this node serves (no actor, no
        watcher: nothing here would change), and the last read is under a poll old. The
        follower's position then stays where it was until a commit concerns this node or
        the poll comes; activation and watchers read the store themselves."""
        if streams is None or time.monotonic() - self.checked >= self.poll:
            return False
        serves = self.hall.serves
        return not any(map(serves, streams))

    async def catch_up(self) -> None:
        """Apply every commit after this node's position to its actors and watchers."""
        store = self.hall.store
        self._read_at = time.monotonic()
        more = True
        while more:
            last, heads, more = await anyio.to_thread.run_sync(store.follow, self.position)
            if self._scope.cancel_called:  # stopped while the thread read: apply nothing
                return
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
