"""Process settings for a long-running server: the garbage collector's policy, the event loop.

A busy hall keeps thousands of matches and their in-flight commands alive, so every object a
command allocates outlives several young collections, and Python's default thresholds
(700, 10, 10) then scan a heap that grows with the number of live matches: at 10,000
concurrent matches the collector took more time than the commands themselves (see the
figures in ``docs/architecture.md``). A command makes almost no cyclic garbage (its objects
are freed by reference counting), so the server collects rarely and freezes what it loaded
at start-up (plugins, codecs, the web app) out of every scan.

The young generation's threshold is above what the commands in flight hold. Python counts
allocations less deallocations since the last collection, and a deallocation while that count
is at zero is not counted; a commit answers its whole batch at once and the senders then make
their next commands, so the count swings by the objects of every command in flight (about 17
tracked objects each: the sender's coroutine and future, the message, its envelopes). With
10,000 matches at once that swing (about 170,000, and more when every match starts a task at
once) went past a threshold of 50,000 in every commit, and each collection scanned the
in-flight objects again: 10-17 µs a command, where 1,000 matches (a swing of 17,000) paid
none. 500,000 is above the swing of a hall's default ``max_active`` (10,000) with room to
spare: a collection then comes only when the live heap really grows, and the young generation
holds at most that many objects of cyclic garbage between two (commands make almost none).

The policy is chosen by ``gamehall serve --gc`` or the ``GAMEHALL_GC`` variable:

* ``server`` (the default of ``gamehall serve``): ``gc.freeze()`` after start-up, then
  thresholds ``SERVER_THRESHOLDS``;
* ``python``: Python's own defaults, nothing frozen;
* ``N[,N[,N]]``: these thresholds (the others stay as they are), with the freeze.

The library itself never changes the collector: an application embedding a ``Hall`` keeps
its own policy unless it calls :func:`apply_gc_policy`.

The event loop is asyncio's unless ``--loop uvloop`` (or ``GAMEHALL_LOOP=uvloop``) asks for
uvloop, which the ``uvloop`` extra installs; measured, it saves about 5% of a durable
command's CPU time, within the noise of a shared machine, so it is not the default.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import gc
import os
from collections.abc import Callable, Coroutine
from functools import partial
from typing import TYPE_CHECKING, Any, Protocol

import anyio
import structlog

if TYPE_CHECKING:
    from .store.base import Store

log = structlog.get_logger("gamehall.runtime")
GC_ENV = "GAMEHALL_GC"
LOOP_ENV = "GAMEHALL_LOOP"
LOOPS = ("asyncio", "uvloop")
SERVER_THRESHOLDS = (500_000, 20, 10)
PYTHON_THRESHOLDS = (700, 10, 10)


class GcPolicy:
    """Thresholds of the three generations, and whether start-up objects are frozen."""

    __slots__ = ("freeze", "name", "thresholds")

    def __init__(self, name: str, thresholds: tuple[int, ...], freeze: bool) -> None:
        self.name = name
        self.thresholds = thresholds
        self.freeze = freeze

    def __repr__(self) -> str:
        return f"GcPolicy({self.name!r}, {self.thresholds}, freeze={self.freeze})"


def parse_gc_policy(text: str | None) -> GcPolicy:
    """Return the policy a ``--gc`` value or ``GAMEHALL_GC`` names (``server`` when empty)."""
    spec = (text or "server").strip().lower()
    if spec == "server":
        return GcPolicy("server", SERVER_THRESHOLDS, True)
    if spec == "python":
        return GcPolicy("python", PYTHON_THRESHOLDS, False)
    parts = spec.split(",")
    if not 1 <= len(parts) <= 3 or not all(p.strip().isdigit() for p in parts):
        raise ValueError(
            f"garbage collector policy {text!r} is not 'server', 'python' or up to three "
            "whole numbers separated by commas (the thresholds of generations 0, 1 and 2)"
        )
    numbers = [int(p) for p in parts]
    if numbers[0] < 1:
        raise ValueError("the first garbage collector threshold must be at least 1")
    current = gc.get_threshold()
    thresholds = tuple(numbers) + current[len(numbers) :]
    return GcPolicy(spec, thresholds, True)


def gc_policy_from_env(option: str | None = None) -> GcPolicy:
    """Return the policy of a command-line option, else of ``GAMEHALL_GC``, else ``server``."""
    return parse_gc_policy(option if option is not None else os.environ.get(GC_ENV))


def apply_gc_policy(policy: GcPolicy) -> None:
    """Set the thresholds and, if the policy says so, freeze every object alive now.

    Call it once start-up has loaded what lives as long as the process: frozen objects are
    never scanned again (nor collected, should they become cyclic garbage).
    """
    if policy.freeze:
        gc.collect()
        gc.freeze()
    gc.set_threshold(*policy.thresholds)


TRIM_AFTER = 1_000  # matches gone to rest since the allocator last gave memory back
TRIM_EVERY = 30.0  # seconds between two looks


def malloc_trim() -> Callable[[int], Any] | None:
    """Return the C library's ``malloc_trim`` (glibc), or ``None`` where there is none."""
    name = ctypes.util.find_library("c")
    try:
        return ctypes.CDLL(name).malloc_trim if name else None
    except (OSError, AttributeError):
        return None


async def give_back_rested_memory(
    active: Callable[[], int],
    every: float = TRIM_EVERY,
    after: int = TRIM_AFTER,
    trim: Callable[[int], Any] | None = None,
    compact: Callable[[], None] | None = None,
    release: Callable[[], None] | None = None,
    collect: Callable[[], object] = gc.collect,
) -> None:
    """Hand the memory of passivated matches back to the system while a server runs.

    Python frees what a match at rest no longer needs, but the C allocator keeps the freed
    pages for reuse, so a node's resident memory stays at its peak. Every ``every`` seconds,
    once ``active()`` (the active matches) is at least ``after`` below its peak since the last
    time, ask the allocator to return its free pages (glibc's ``malloc_trim``, in a worker
    thread; without glibc this does nothing). First ``collect`` gathers the cyclic garbage the
    rested matches left (with the server's thresholds and no new objects at rest, no collection
    would come by itself), then ``compact`` runs (``Hall.compact``: what resting matches keep,
    copied so that it pins no freed block), then ``release`` in the same thread as the trim
    (``Store.release_memory``: the store's caches).
    """
    trim = trim or malloc_trim()
    if trim is None:
        return
    peak = active()
    while True:
        await anyio.sleep(every)
        now = active()
        if peak - now >= after:
            collect()
            if compact is not None:
                compact()
            await anyio.to_thread.run_sync(_give_back, release, trim)
            peak = now
        peak = max(peak, now)


class Resting(Protocol):
    """What :func:`rested_memory_task` asks of a hall (the Hall provides it)."""

    store: Store

    @property
    def active(self) -> int:
        """The number of active matches."""
        ...

    def compact(self) -> None:
        """Make afresh the tables that keep the size of a peak of active matches."""
        ...


def rested_memory_task(hall: Resting) -> Callable[[], Coroutine[Any, Any, None]]:
    """Return the background task with which a server gives back the memory of the matches
    of ``hall`` gone to rest (:func:`give_back_rested_memory` with the hall's own parts)."""
    return partial(
        give_back_rested_memory,
        lambda: hall.active,
        compact=hall.compact,
        release=hall.store.release_memory,
    )


def loop_options(option: str | None = None) -> dict[str, Any]:
    """Return ``anyio.run`` keyword arguments for the loop an option or ``GAMEHALL_LOOP`` names."""
    name = (option if option is not None else os.environ.get(LOOP_ENV) or "asyncio").lower()
    if name not in LOOPS:
        raise ValueError(f"event loop {name!r} is not one of {', '.join(LOOPS)}")
    if name == "asyncio":
        return {"backend": "asyncio"}
    try:
        import uvloop  # type: ignore[import-not-found, unused-ignore]  # noqa: F401
    except ImportError:
        raise ValueError(
            "event loop 'uvloop' is not installed: install gamehall with the uvloop extra"
        ) from None
    return {"backend": "asyncio", "backend_options": {"use_uvloop": True}}


def _give_back(release: Callable[[], None] | None, trim: Callable[[int], Any]) -> None:
    if release is not None:
        try:
            release()
        except Exception as exc:  # noqa: BLE001 - a store's failure to shrink must not end the loop: trimmed anyway
            log.warning("the store kept its caches", error=str(exc))
    trim(0)
