"""Activation: a match rebuilt from the store, from a snapshot and the events after it.

The store is read in one go (``Store.load_stream``); the events are folded on the state of a
usable snapshot, or from the first event. Off the loop, the read runs in a worker thread and
the fold on the loop in chunks of ``FOLD_CHUNK`` events with a turn of the loop between them
(the fold holds the GIL: in a thread it would stall the loop as much).
"""

from __future__ import annotations

import gc
import itertools
import sys
import threading
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from typing import Any

import anyio
import msgspec
import structlog

from .. import engine
from ..errors import UnknownMatch
from ..events import MatchStarted
from ..registry import Registry, Ruleset
from ..store.base import Loaded as StoredStream
from ..store.base import Snapshot, Store, in_background
from .actor import Loaded
from .context import Timing

log = structlog.get_logger("gamehall.hall")
FOLD_CHUNK = 500  # events folded between two turns of the loop while a match activates
# Matches Loader.load_many reads from one state of the store: a share of them takes a few ms,
# which is how long it holds back SQLite's checkpoint.
HELD_MATCHES = 500


def snapshot_key(ruleset: Ruleset) -> str:
    """Return the key that ties a snapshot to the plugin versions that wrote it."""
    return ",".join(f"{k}={v}" for k, v in sorted(ruleset.versions.items()))


SWITCH_INTERVAL = 0.0005  # seconds a thread holds the GIL while the loop waits for it
_favoured = threading.Lock()
_loads = 0  # loads running now
_restore = 0.005  # the interval before the first of them
_collecting = True  # whether the garbage collector ran before the first of them


@contextmanager
def loop_first() -> Iterator[None]:
    """Hand the GIL back to a waiting event loop sooner while a worker thread reads for it.

    Turning rows into Python objects holds the GIL; a thread keeps it for Python's switch
    interval (5 ms) each time the loop asks, and a command's answer asks several times. For
    the length of a cold load the interval is 0.5 ms, and the cyclic garbage collector waits
    (the rows read are 100 000s of new tuples: collections while they are made took most of a
    load); loads at once share the setting, and the last one to end restores what was there.
    """
    global _loads, _restore, _collecting
    with _favoured:
        if _loads == 0:
            _restore = sys.getswitchinterval()
            sys.setswitchinterval(min(_restore, SWITCH_INTERVAL))
            _collecting = gc.isenabled()
            gc.disable()
        _loads += 1
    try:
        yield
    finally:
        with _favoured:
            _loads -= 1
            if _loads == 0:
                sys.setswitchinterval(_restore)
                if _collecting:
                    gc.enable()


class Loader:
    """Rebuild matches of one store for their actors."""

    def __init__(
        self, store: Store, registry: Registry, snapshot_every: int, timing: Timing
    ) -> None:
        self.store = store
        self.registry = registry
        self.snapshot_every = snapshot_every
        self.timing = timing

    def load(self, match: str) -> Loaded:
        """Rebuild a match from its events, starting from a snapshot where one helps."""
        stored, ruleset, state = self._read_stored(match)
        # Without a take-back nor a lobby event (plain), every event evolves the state.
        events = stored.events if stored.plain else engine.live(stored.events, stored.after + 1)
        state = engine.fold_live(ruleset, state, events)
        return self._loaded(match, stored, ruleset, state)

    def load_many(self, matches: Iterable[str]) -> Iterator[tuple[str, Loaded | Exception]]:
        """Rebuild stored matches one after the other, each as :meth:`load` does, with the
        error of one that does not rebuild in place of its state: the plugin's own included
        (the caller reports them: ``gamehall check-store --replay``).

        The store may read a share of ``HELD_MATCHES`` of them from one state of itself
        (:meth:`Store.reading_many`): a match written meanwhile may come as it was when its
        share began. For matches at rest, never to activate a live one.
        """
        pending = iter(matches)
        while share := list(itertools.islice(pending, HELD_MATCHES)):
            with self.store.reading_many():
                for match in share:
                    try:
                        loaded: Loaded | Exception = self.load(match)
                    except Exception as exc:  # a boundary: each match's failure is reported
                        loaded = exc
                    yield match, loaded

    async def load_off_loop(self, match: str) -> Loaded:
        """:meth:`load` with the store read in a worker thread and the fold on the loop in
        chunks that let the other matches run between them (the fold holds the GIL: in a
        thread it would stall the loop as much)."""
        with loop_first():  # the reading thread gives the GIL back to the loop sooner
            stored, ruleset, state = await anyio.to_thread.run_sync(self._read_behind, match)
        events = stored.events if stored.plain else engine.live(stored.events, stored.after + 1)
        for start in range(0, len(events), FOLD_CHUNK):
            state = engine.fold_live(ruleset, state, events[start : start + FOLD_CHUNK])
            if len(events) > FOLD_CHUNK:
                await anyio.sleep(0)
        return await anyio.to_thread.run_sync(self._loaded, match, stored, ruleset, state)

    def _read_behind(self, match: str) -> tuple[StoredStream, Ruleset, Any]:
        """:meth:`_read_stored` as background work: the store may pause between the parts
        of a long read (the matches being played come first)."""
        with in_background():
            return self._read_stored(match)

    def _read_stored(self, match: str) -> tuple[StoredStream, Ruleset, Any]:
        """Read what activation needs and the state to fold it onto (a snapshot's or the
        initial one)."""
        stored = self.store.load_stream(match, snapshot=self.snapshot_every > 0)
        started = stored.first
        if not isinstance(started, MatchStarted):
            raise UnknownMatch(match)
        ruleset = self.registry.ruleset_of(started, match)
        state = None
        if stored.snapshot is not None:
            # The store read only the rows after the snapshot (and the others' seqs and
            # command ids). Without a usable snapshot, or when a take-back reaches into it,
            # the match is read again from its first event.
            state = self._from_snapshot(stored.snapshot, ruleset)
            if state is None or engine.voids_before(stored.events, stored.after):
                state, stored = None, self.store.load_stream(match)
        if state is None:
            state = engine.initial_state(ruleset, started)
        return stored, ruleset, state

    def _loaded(self, match: str, stored: StoredStream, ruleset: Ruleset, state: Any) -> Loaded:
        """Return the loaded match once its events are folded (reads the clock and entry)."""
        started = stored.first
        assert isinstance(started, MatchStarted)
        version = stored.after + len(stored.events)
        if stored.last is not None:  # a timed match's clock is in its last event's metadata
            clock = stored.last.clock
        else:  # the snapshot stands for the end of the match: its last event was not read
            clock = self.timing.last_clock(self.store.read(match, max(0, version - 1)))
        seed = started.seed or 0
        # Read after the events: the entry is written in the same transaction as them, so it
        # is at least as new (an entry ahead of them makes the next append conflict and retry).
        if stored.info is not None:  # read with the events, in the same state
            info = dict(stored.info)
        else:
            entry = self.store.stream_info(match)
            info = dict(entry.info) if entry is not None else {}
        return Loaded(
            ruleset,
            seed,
            started.players,
            state,
            version,
            stored.commands,
            clock,
            info,
            stored.ids_after,
        )

    def _from_snapshot(self, snapshot: Snapshot, ruleset: Ruleset) -> Any:
        if snapshot.key != snapshot_key(ruleset):
            return None
        try:
            return msgspec.msgpack.decode(snapshot.data, type=ruleset.game.state)
        except msgspec.DecodeError:
            log.warning(
                "snapshot ignored: it does not decode", match=snapshot.stream, seq=snapshot.seq
            )
            return None
