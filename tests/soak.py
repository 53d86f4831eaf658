"""The soak: many matches created and left, the process's resident memory measured.

Run in a fresh process of its own (``python -m tests.soak MATCHES CLOCK DB``), so that
nothing else the test process loaded shares its memory: it prints one JSON line with the
resident memory (``/proc/self/statm``) at start, at the peak and once every match rested,
as a server runs (the ``server`` collector policy, ``--max-active`` at its default, and what
``gamehall serve`` does once matches rest: :meth:`Hall.compact`, the store's
:meth:`~gamehall.core.store.Store.release_memory`, then ``malloc_trim``).
"""

from __future__ import annotations

import gc
import json
import os
import resource
import subprocess
import sys
from pathlib import Path
from typing import Any

import anyio

ROOT = Path(__file__).resolve().parent.parent


def rss() -> int:
    """Return this process's resident memory in bytes."""
    with open("/proc/self/statm") as statm:
        return int(statm.read().split()[1]) * resource.getpagesize()


def diagnose() -> dict[str, Any]:
    """Return where memory sits: SQLite's allocations, Python's blocks and arenas."""
    import ctypes
    import re

    out: dict[str, Any] = {"blocks": sys.getallocatedblocks()}
    try:
        lib = ctypes.CDLL("libsqlite3.so.0")
        lib.sqlite3_memory_used.restype = ctypes.c_int64
        out["sqlite"] = lib.sqlite3_memory_used()
    except OSError:
        pass
    import tempfile

    with tempfile.TemporaryFile("w+") as err:  # written by C to file descriptor 2
        sys.stderr.flush()
        saved = os.dup(2)
        os.dup2(err.fileno(), 2)
        try:
            sys._debugmallocstats()
        finally:
            os.dup2(saved, 2)
            os.close(saved)
        err.seek(0)
        text = err.read()
    for key in ("arenas allocated current", "bytes in allocated blocks", "unused pools"):
        found = re.search(rf"{key}[^=]*=\s*([\d,]+)", text)
        if found:
            out[key.replace(" ", "_")] = int(found.group(1).replace(",", ""))
    return out


def child(matches: int, clock: str | None, db: str) -> dict[str, Any]:
    """Create ``matches`` matches (timed with ``clock``) in a hall over ``db``, let them rest."""
    from gamehall.core import default_registry
    from gamehall.core.hall import Hall
    from gamehall.core.runtime import apply_gc_policy, malloc_trim, parse_gc_policy
    from gamehall.core.store import SQLiteStore

    registry = default_registry()
    store = SQLiteStore(db, registry.codec)
    trim = malloc_trim()
    out: dict[str, Any] = {"matches": matches, "clock": clock}

    def give_back(hall: Hall) -> None:
        gc.collect()
        hall.compact()
        store.release_memory()
        if trim is not None:
            trim(0)

    async def main() -> None:
        async with Hall(store, registry, idle_seconds=3600, clock_poll=3600) as hall:
            await hall.turn_clocks.resumed.wait()
            for seed in range(100):  # warm every cache a match touches
                await hall.create("tictactoe", seed=seed, clock=clock)
            hall.passivate(0.0)
            apply_gc_policy(parse_gc_policy("server"))  # as gamehall serve does after start-up
            give_back(hall)
            await anyio.sleep(0.05)
            start = peak = rss()
            out["at_start"] = diagnose()
            for seed in range(matches):
                await hall.create("tictactoe", seed=seed, clock=clock)
                if seed % 500 == 0:
                    peak = max(peak, rss())
            peak = max(peak, rss())
            hall.passivate(0.0)
            assert hall.active == 0
            give_back(hall)
            await anyio.sleep(0.05)
            rested = rss()
            out["at_rest"] = diagnose()
            out["readers"] = len(store._threads)  # threads holding SQLite reader connections
            out.update(
                start=start, peak=peak, rested=rested,
                grown=(rested - start) / start,
            )  # fmt: skip

    try:
        anyio.run(main)
    finally:
        store.close()
    return out


def soak(
    matches: int, clock: str | None, folder: Path, env: dict[str, str] | None = None
) -> dict[str, Any]:
    """Run :func:`child` in a fresh process (with ``env`` added to its environment, such as
    ``PYTHONMALLOC``); return its figures."""
    db = folder / f"soak-{clock or 'untimed'}.db".replace(":", "-")
    for old in folder.glob(db.name + "*"):  # a run of its own
        old.unlink()
    done = subprocess.run(
        [sys.executable, "-m", "tests.soak", str(matches), clock or "-", str(db)],
        capture_output=True, text=True, timeout=1800, cwd=ROOT,
        env={**os.environ, **(env or {})},
    )  # fmt: skip
    if done.returncode != 0:
        raise RuntimeError(f"the soak failed: {done.stderr[-2000:]}")
    figures: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return figures


if __name__ == "__main__":
    count, given, path = sys.argv[1:4]
    print(json.dumps(child(int(count), None if given == "-" else given, path)))
