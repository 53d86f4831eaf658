"""Group commit: one writer task that commits the appends of many actors together.

Actors hand their batches to the journal and wait; the writer takes everything queued, commits
it in one store transaction (in a worker thread when the store blocks on fsync), then answers
each actor. While one transaction is being synced the next one fills up, so throughput grows
with load instead of paying one fsync per command.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import anyio
import structlog

from .errors import GamehallError, StoreClosed
from .events import Recorded
from .store.base import AppendRequest, Snapshot, Store

log = structlog.get_logger("gamehall.journal")


class Pending:
    """A reply that one task waits for and another gives."""

    __slots__ = ("_done", "error", "value")

    def __init__(self) -> None:
        self._done = anyio.Event()
        self.value: Any = None
        self.error: BaseException | None = None

    def resolve(self, value: Any) -> None:
        """Give the answer."""
        self.value = value
        self._done.set()

    def fail(self, error: BaseException) -> None:
        """Give an error instead of an answer."""
        self.error = error
        self._done.set()

    async def wait(self) -> Any:
        """Wait for the answer; raise the error if one was given."""
        await self._done.wait()
        if self.error is not None:
            raise self.error
        return self.value


class Journal:
    """The single writer in front of a store."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self._queue: list[tuple[AppendRequest, Pending]] = []
        self._snapshots: list[Snapshot] = []
        self._wake = anyio.Event()
        self._limiter = anyio.CapacityLimiter(1)
        self._closing = False
        self._stopped = anyio.Event()
        self.commits = 0

    async def append(self, request: AppendRequest) -> list[Recorded]:
        """Queue a batch and return its records once they are durable."""
        if self._closing:
            raise StoreClosed("the hall is shutting down")
        pending = Pending()
        self._queue.append((request, pending))
        self._wake.set()
        records: list[Recorded] = await pending.wait()
        return records

    def snapshot(self, snapshot: Snapshot) -> None:
        """Queue a snapshot; it is written with the next commit (losing it is harmless)."""
        self._snapshots.append(snapshot)
        self._wake.set()

    async def run(self) -> None:
        """Commit queued batches until :meth:`close` is called and the queue is empty."""
        try:
            while True:
                await self._wake.wait()
                self._wake = anyio.Event()
                batch, self._queue = self._queue, []
                snapshots, self._snapshots = self._snapshots, []
                if batch or snapshots:
                    with anyio.CancelScope(shield=True):
                        await self._commit(batch, snapshots)
                elif self._closing:
                    return
        finally:
            self._stopped.set()

    async def _commit(self, batch: Sequence[tuple[AppendRequest, Pending]], snapshots: list[Snapshot]) -> None:
        requests = [request for request, _ in batch]
        try:
            results = await self._call(self._write, requests, snapshots)
        except Exception as exc:  # noqa: BLE001 - every waiter must hear of it
            log.error("commit failed", error=repr(exc), batches=len(batch))
            error = exc if isinstance(exc, GamehallError) else GamehallError(f"store error: {exc}")
            for _, pending in batch:
                pending.fail(error)
            return
        self.commits += 1
        for (_, pending), result in zip(batch, results, strict=True):
            if isinstance(result, GamehallError):
                pending.fail(result)
            else:
                pending.resolve(result)

    def _write(
        self, requests: list[AppendRequest], snapshots: list[Snapshot]
    ) -> list[list[Recorded] | GamehallError]:
        results = self.store.append_many(requests) if requests else []
        for snapshot in snapshots:
            try:
                self.store.save_snapshot(snapshot)
            except Exception as exc:  # noqa: BLE001 - a lost snapshot only costs replay time
                log.warning("snapshot not saved", match=snapshot.stream, seq=snapshot.seq, error=repr(exc))
        return results

    async def _call(self, fn: Any, *args: Any) -> Any:
        if self.store.threaded:
            return await anyio.to_thread.run_sync(fn, *args, limiter=self._limiter)
        return fn(*args)

    async def close(self) -> None:
        """Stop after committing what is queued."""
        self._closing = True
        self._wake.set()
        await self._stopped.wait()
