"""Group commit: one writer task that commits the appends of many actors together.

Actors hand their batches to the journal and wait; the writer takes everything queued, commits
it in one store transaction (in a worker thread when the store blocks on fsync), then answers
each actor. While one transaction is being synced the next one fills up, so throughput grows
with load instead of paying one fsync per command.
"""

from __future__ import annotations

import asyncio
import queue
import threading
from collections.abc import Awaitable, Callable, Sequence
from typing import Any

import anyio
import anyio.lowlevel
import structlog

from ..errors import GamehallError, StoreClosed
from ..events import Recorded
from ..store.base import AppendRequest, Encoded, Overlapped, Snapshot, Store, Written

log = structlog.get_logger("gamehall.journal")
Done = Callable[[list[Recorded] | GamehallError], None]
OVERLAP = True  # overlap a store's commits with the loop's work (Journal.overlap: for one)
SPLIT = 16  # a commit of this many batches or more, with nothing queued behind it, is split
# How much of a long queue a commit takes: a quarter (QUEUE_SHARE), so that a few groups of
# matches take turns, each committed while the loop works on the others; at least MIN_BATCH,
# at most MAX_BATCH. With 1,000 matches at once, two commits of 512 and 488 overlap where one
# of 1,000 cannot (51k against 55k commands/s, and 256-512 gave 5-9% more than 10,000 on
# another machine: bench/README.md, "An eighth machine"); with 10,000, commits of 2,048 made
# 6% more commands/s than of 512 ("A thirteenth machine"). Past that a commit's lists (rows,
# places, answers) outgrow the CPU's caches. Fewer matches commit fewer batches anyway.
MIN_BATCH = 512
MAX_BATCH = 2048
QUEUE_SHARE = 4


class Held:
    """A commit whose senders have not heard yet: who hears of each batch, and either the
    records to give them or what they are made from (the batches and what the store wrote
    for each, or the error every batch met), made when they are answered."""

    __slots__ = ("dones", "requests", "results", "written")

    def __init__(
        self,
        dones: list[Done],
        results: list[list[Recorded] | GamehallError] | None = None,
        requests: list[AppendRequest] | None = None,
        written: Sequence[Written | GamehallError] | GamehallError | None = None,
    ) -> None:
        self.dones, self.results, self.requests, self.written = dones, results, requests, written


class Pending:
    """A reply that one task waits for and another gives (any anyio backend)."""

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


class FuturePending:
    """A :class:`Pending` on an asyncio future: the same contract at a fraction of the cost."""

    __slots__ = ("_future",)

    def __init__(self, loop: asyncio.AbstractEventLoop | None = None) -> None:
        loop = loop or asyncio.get_running_loop()
        self._future: asyncio.Future[Any] = loop.create_future()

    def resolve(self, value: Any) -> None:
        """Give the answer (ignored if the waiter has gone)."""
        if not self._future.done():
            self._future.set_result(value)

    def fail(self, error: BaseException) -> None:
        """Give an error (ignored if the waiter has gone)."""
        if not self._future.done():
            self._future.set_exception(error)
            # A refusal nobody waits for any more must not warn when it is collected.
            self._future.add_done_callback(_consume)

    def wait(self) -> Awaitable[Any]:
        """Wait for the answer; raise the error if one was given.

        The future itself is awaited: no coroutine is made for each reply."""
        return self._future


def _stream(result: list[Recorded] | GamehallError) -> str:
    return result[0].stream if type(result) is list and result else ""


def _in_key_order(
    dones: list[Done], results: list[list[Recorded] | GamehallError]
) -> tuple[list[Done], list[list[Recorded] | GamehallError]]:
    """A commit's answers in the order of their matches' ids (a refusal first), for a split.

    A store keeps a match's events together under its id (SQLite's and PostgreSQL's key is
    the stream, then the seq). Once split, a group's matches commit together round after
    round: cut at random, each group's commit touches nearly every page that holds a row of
    any of the matches, and the WAL rewrites each of those pages twice a round; cut in key
    order, each page mostly belongs to one group. With 100 matches at once that wrote 26%
    fewer bytes a command (bench/README.md, "A thirteenth machine"). The sort is stable: a
    match's answers keep their order.
    """
    order = sorted(range(len(results)), key=lambda i: _stream(results[i]))
    return [dones[i] for i in order], [results[i] for i in order]


def _consume(future: asyncio.Future[Any]) -> None:
    if not future.cancelled():
        future.exception()


def new_pending(loop: asyncio.AbstractEventLoop | None = None) -> Pending | FuturePending:
    """Return a reply slot suited to the running event loop.

    ``loop`` is that loop where the caller holds it (the kernel keeps its own): looking it up
    costs a system call on Python 3.11 (``get_running_loop`` compares the process id), once a
    command on the send path.
    """
    if loop is None:
        loop = running_loop()
        if loop is None:  # another backend (trio): no asyncio loop runs here
            return Pending()
    return FuturePending(loop)


def running_loop() -> asyncio.AbstractEventLoop | None:
    """Return the running asyncio loop, or ``None`` under another backend (trio)."""
    try:
        return asyncio.get_running_loop()
    except RuntimeError:
        return None


class WriterThread:
    """One thread that runs a journal's blocking store calls in turn, for an asyncio loop.

    What anyio's worker threads do for any backend, with less work per call: a commit is
    handed over through a queue and answered through a future, with no checkpoint, limiter or
    cancel scope around it (the journal commits one batch at a time, shielded, anyway).
    """

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self._loop = loop
        self._calls: queue.SimpleQueue[tuple[Callable[..., Any], tuple[Any, ...], Any] | None]
        self._calls = queue.SimpleQueue()
        self._thread = threading.Thread(target=self._serve, name="gamehall-journal", daemon=True)
        self._thread.start()

    def call(self, fn: Callable[..., Any], *args: Any) -> asyncio.Future[Any]:
        """Run ``fn(*args)`` in the thread; return the future of its result."""
        future = self._loop.create_future()
        self._calls.put((fn, args, future))
        return future

    def stop(self) -> None:
        """End the thread once the calls handed to it are done."""
        self._calls.put(None)

    def _serve(self) -> None:
        while (call := self._calls.get()) is not None:
            fn, args, future = call
            try:
                answer: tuple[Callable[..., None], Any] = (_give, fn(*args))
            except BaseException as exc:  # noqa: BLE001 - the caller raises it, in its task
                answer = (_give_error, exc)
            try:
                self._loop.call_soon_threadsafe(answer[0], future, answer[1])
            except RuntimeError:  # the loop is closed: nobody waits any more
                return


def _give(future: asyncio.Future[Any], result: Any) -> None:
    if not future.done():  # not cancelled meanwhile (the loop shutting down)
        future.set_result(result)


def _give_error(future: asyncio.Future[Any], error: BaseException) -> None:
    if not future.done():
        future.set_exception(error)


class Journal:
    """The single writer in front of a store."""

    def __init__(self, store: Store) -> None:
        self.store = store
        # Queued batches and who hears of each, side by side (no pair made per command).
        self._queue: list[AppendRequest] = []
        self._dones: list[Done] = []
        # The first batches of the queue, encoded while the store committed the last group.
        self._ahead: list[Encoded | GamehallError] = []
        self._snapshots: list[Snapshot] = []
        # Events and the limiter belong to an event loop: made when the journal starts.
        self._wake: Any = None
        self._limiter: Any = None
        self._closing = False
        self._stopped: Any = None
        self._thread: WriterThread | None = None  # made on the first commit under asyncio
        self.commits = 0
        self.max_batch = MAX_BATCH
        self.overlap = OVERLAP  # commits through Store.overlapped, where the store has them

    def submit(self, request: AppendRequest, done: Done) -> None:
        """Queue a batch; ``done`` gets its records (or the error) right after the commit."""
        if self._closing:
            done(StoreClosed("the hall is shutting down"))
            return
        self._queue.append(request)
        self._dones.append(done)
        wake = self._wake
        if wake is not None and len(self._queue) == 1:
            wake.set()  # the first of a batch wakes the writer; the rest join it

    async def append(self, request: AppendRequest) -> list[Recorded]:
        """Queue a batch and return its records once they are durable."""
        pending = new_pending()

        def done(result: list[Recorded] | GamehallError) -> None:
            if isinstance(result, GamehallError):
                pending.fail(result)
            else:
                pending.resolve(result)

        self.submit(request, done)
        records: list[Recorded] = await pending.wait()
        return records

    def open(self) -> None:
        """Make the loop-bound parts; call it inside the event loop before :meth:`run`."""
        self._wake = anyio.Event()
        self._stopped = anyio.Event()
        self._limiter = anyio.CapacityLimiter(1)
        if self._queue or self._snapshots:
            self._wake.set()

    def snapshot(self, snapshot: Snapshot) -> None:
        """Queue a snapshot; it is written with the next commit (losing it is harmless)."""
        self._snapshots.append(snapshot)
        if self._wake is not None:
            self._wake.set()

    async def run(self) -> None:
        """Commit queued batches until :meth:`close` is called and the queue is empty."""
        if self._wake is None:
            self.open()
        committer = self._overlapped()
        if committer is not None:
            await self._run_overlapped(committer)
            return
        try:
            while True:
                if not (self._queue or self._snapshots):
                    if self._closing:
                        return
                    await self._wake.wait()  # nothing queued: the next submit wakes it
                requests, dones, snapshots, _ = self._take()
                if requests or snapshots:
                    with anyio.CancelScope(shield=True):
                        await self._commit(requests, dones, snapshots)
        finally:
            self._ended()

    def _take(
        self,
    ) -> tuple[list[AppendRequest], list[Done], list[Snapshot], list[Encoded | GamehallError]]:
        """Take what is queued (up to :meth:`_cut` batches) for the next commit, with the
        encoding of its first batches where :meth:`_encode_ahead` made it."""
        self._wake = anyio.Event()
        cut = self._cut()
        requests, dones, ahead = self._queue[:cut], self._dones[:cut], self._ahead[:cut]
        # What stays is moved down in place: a copy of it would touch every request and callback
        # still queued (their reference counts), thousands of objects long out of the CPU's
        # caches when many matches wait, at every commit.
        del self._queue[:cut], self._dones[:cut], self._ahead[:cut]
        snapshots, self._snapshots = self._snapshots, []
        return requests, dones, snapshots, ahead

    def _cut(self) -> int:
        """How many queued batches the next commit takes (see ``QUEUE_SHARE``)."""
        return min(self.max_batch, max(MIN_BATCH, len(self._queue) // QUEUE_SHARE))

    def _encode_ahead(self) -> None:
        """Encode the batches queued for the next commit while the store commits this one:
        the store then waits for the loop only to plan it (see :meth:`_run_overlapped`)."""
        done, cut = len(self._ahead), self._cut()
        if done < len(self._queue) and done < cut:
            try:
                self._ahead += self.store.encode(self._queue[done:cut])
            except Exception as exc:  # noqa: BLE001 - encoded again at its commit, which fails it then
                log.warning("encoding ahead failed", error=repr(exc))

    def _ended(self) -> None:
        if self._thread is not None:
            self._thread.stop()
            self._thread = None
        self._stopped.set()

    @staticmethod
    def _failed(exc: Exception, batches: int) -> GamehallError:
        """The error every batch of a failed commit hears."""
        log.error("commit failed", error=repr(exc), batches=batches)
        return exc if isinstance(exc, GamehallError) else GamehallError(f"store error: {exc}")

    # -- commits that overlap the loop's work ----------------------------------------------

    def _overlapped(self) -> Overlapped | None:
        """The store's commits that leave the loop free, where it has them (asyncio)."""
        if not self.overlap:
            return None
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:  # another backend (trio): the writer thread, as ever
            return None
        return self.store.overlapped(loop)

    async def _run_overlapped(self, committer: Overlapped) -> None:
        """Commit in two groups out of phase: while the store commits one group, the loop
        answers the other and takes its next commands.

        A commit's answers wait until the next commit has started: what was queued while it
        ran goes to the store first, then its senders hear, and their next commands fill the
        queue while the store commits. When nothing was queued (every match waited for the
        one commit), half of the answers go out first and the commit of what they send starts
        before the other half hear: that splits one group into two. The halves are cut in the
        matches' key order (:func:`_in_key_order`), so each group's commits write the pages of
        neighbouring matches.

        The store waits for the loop between two commits: from hearing one end to starting the
        next. The next one's batches are encoded while the store commits (the answered group's
        senders have queued them by then), and the records of the one that ended are made
        after the next has started, when its senders are answered.
        """
        held: Held | None = None
        try:
            with anyio.CancelScope(shield=True):
                await committer.open()
            while True:
                if not (self._queue or self._snapshots):
                    if held is not None:
                        dones, results = held.dones, self._results(held)
                        held = None
                        if len(dones) >= SPLIT:
                            dones, results = _in_key_order(dones, results)
                            half = len(dones) // 2
                            self._answer(dones[:half], results[:half])
                            held = Held(dones[half:], results[half:])
                            await anyio.lowlevel.checkpoint()  # the half answered sends
                        else:
                            self._answer(dones, results)
                        continue
                    if self._closing:
                        return
                    await self._wake.wait()
                requests, dones, snapshots, ahead = self._take()
                with anyio.CancelScope(shield=True):
                    written = await self._commit_overlapped(
                        committer, requests, snapshots, ahead, held
                    )
                held = Held(dones, None, requests, written) if requests else None
        finally:
            if held is not None:  # durable already: answered whatever ends the writer
                self._answer(held.dones, self._results(held))
            committer.close()
            self._ended()

    async def _commit_overlapped(
        self,
        committer: Overlapped,
        requests: list[AppendRequest],
        snapshots: list[Snapshot],
        ahead: list[Encoded | GamehallError],
        held: Held | None,
    ) -> Sequence[Written | GamehallError] | GamehallError:
        """Commit one group (``ahead``: its first batches, encoded already); answer ``held``
        (the last commit's) once this one has started; return what the store wrote."""
        store = self.store
        try:
            started = None
            try:
                if ahead:
                    encoded = ahead + store.encode(requests[len(ahead) :])
                else:
                    encoded = store.encode(requests)
                if requests and not snapshots:
                    started = committer.start(encoded)
            finally:
                if held is not None:  # durable: they hear whatever this commit meets
                    self._answer(held.dones, self._results(held))
            if started is not None:
                await anyio.lowlevel.checkpoint()  # the senders just answered queue their next
                self._encode_ahead()
                written = await started
            else:
                written = None
            if written is None:  # the ordinary way: a read needed, a snapshot, a rollback
                written = await self._call(self._write_sync, encoded, snapshots)
        except Exception as exc:  # noqa: BLE001 - a store's failure must not end the writer: all hear it
            return self._failed(exc, len(requests))
        self.commits += 1
        return written

    def _results(self, held: Held) -> list[list[Recorded] | GamehallError]:
        """The records each batch of a held commit is answered with (or its error)."""
        if held.results is not None:
            return held.results
        requests, written = held.requests or [], held.written
        if isinstance(written, GamehallError):
            return [written] * len(requests)
        assert written is not None
        try:
            return self.store.finish(requests, written)
        except Exception as exc:  # noqa: BLE001 - as a failed commit: every batch hears it
            return [self._failed(exc, len(requests))] * len(requests)

    def _answer(self, dones: list[Done], results: list[list[Recorded] | GamehallError]) -> None:
        for done, result in zip(dones, results, strict=True):
            try:
                done(result)
            except Exception as exc:  # noqa: BLE001 - a subscriber's (a plugin's) bug: the others go on
                log.exception("commit callback failed", error=repr(exc))

    async def _commit(
        self, requests: list[AppendRequest], dones: list[Done], snapshots: list[Snapshot]
    ) -> None:
        try:
            results = await self._write(requests, snapshots)
        except Exception as exc:  # noqa: BLE001 - a store's failure must not end the writer: all hear it
            error = self._failed(exc, len(requests))
            results = [error] * len(requests)
        else:
            self.commits += 1
        self._answer(dones, results)

    async def _write(
        self, requests: list[AppendRequest], snapshots: list[Snapshot]
    ) -> list[list[Recorded] | GamehallError]:
        encoded = self.store.encode(requests)
        written = await self._call(self._write_sync, encoded, snapshots)
        return self.store.finish(requests, written)

    def _write_sync(
        self, encoded: Sequence[Encoded | GamehallError], snapshots: list[Snapshot]
    ) -> list[Written | GamehallError]:
        results = self.store.write(encoded) if encoded else []
        for snapshot in snapshots:
            try:
                self.store.save_snapshot(snapshot)
            except Exception as exc:  # noqa: BLE001 - the events are durable: a lost snapshot must not fail them
                log.warning(
                    "snapshot not saved", match=snapshot.stream, seq=snapshot.seq, error=repr(exc)
                )
        return results

    async def _call(self, fn: Any, *args: Any) -> Any:
        if not self.store.threaded:
            return fn(*args)
        if self._thread is None:
            try:
                loop = asyncio.get_running_loop()
            except RuntimeError:  # another backend (trio): anyio's worker threads
                return await anyio.to_thread.run_sync(fn, *args, limiter=self._limiter)
            self._thread = WriterThread(loop)
        return await self._thread.call(fn, *args)

    async def close(self) -> None:
        """Stop after committing what is queued."""
        self._closing = True
        if self._wake is None:
            return
        self._wake.set()
        await self._stopped.wait()
