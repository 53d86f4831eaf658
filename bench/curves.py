"""Cost curves: how gamehall's cost grows with its work, written to results.json and drawn.

``python -m bench --curves`` (``make bench CURVES=1``) measures, with the collector policy
``gamehall serve`` applies:

* ``throughput``: durable commands/s and p99 latency of ``Hall.send`` with 1, 10, 100, 1,000
  and 10,000 tic-tac-toe matches at once on SQLite (FULL), each match sending its next
  command after the previous acknowledgement;
* ``replay``: the time ``Hall.load`` takes to activate one match whose log holds 10 to 100,000
  events, without a snapshot and with the snapshot the hall keeps every 200 events. The log is
  tic-tac-toe marks (the cheapest ``evolve``, so the curve shows the engine's own cost per
  event: read, check, decode, fold);
* ``memory``: resident memory of a process serving 10,000 active matches and one that has
  stored and passivated 100,000, each measured in a fresh process;
* ``http``: p99 latency of a command over HTTP with 1 to 200 keep-alive clients.

Each curve is drawn as a PNG beside this file (``curves-*.png``).
"""

from __future__ import annotations

import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import anyio
import msgspec
from gamehall.core import Meta, RandomBot, default_registry
from gamehall.core.hall import Hall
from gamehall.core.runtime import apply_gc_policy, parse_gc_policy
from gamehall.core.store import AppendRequest, Snapshot, SQLiteStore

HERE = Path(__file__).parent
MATCHES = (1, 10, 100, 1000, 10_000)
LOGS = (10, 100, 1000, 10_000, 100_000)
CLIENTS = (1, 10, 50, 100, 200)


# -- throughput and latency ------------------------------------------------------------------


def throughput(folder: Path, matches: int, at_least: int) -> dict[str, float]:
    """Play rounds of ``matches`` matches at once until ``at_least`` commands were sent."""
    registry = default_registry()
    store = SQLiteStore(folder / f"t-{matches}-{time.monotonic_ns()}.db", registry.codec)
    latencies: list[float] = []
    spent = [0.0]

    async def play(hall: Hall, match: str, seed: int) -> None:
        bot = RandomBot(seed)
        while asked := hall.awaiting(match):
            seat = next(iter(asked))
            command = bot.choose(seat, hall.legal(match, seat), lambda: None)
            started = time.perf_counter()
            await hall.send(match, seat, command)
            latencies.append(time.perf_counter() - started)

    async def create(hall: Hall, seed: int, into: list[str]) -> None:
        into.append(await hall.create("tictactoe", seed=seed))

    async def main() -> None:
        async with Hall(store, registry) as hall:
            seed = 0
            while len(latencies) < at_least:
                ids: list[str] = []
                async with anyio.create_task_group() as tg:
                    for _ in range(matches):
                        seed += 1
                        tg.start_soon(create, hall, seed, ids)
                started = time.perf_counter()
                async with anyio.create_task_group() as tg:
                    for i, match in enumerate(ids):
                        tg.start_soon(play, hall, match, i)
                spent[0] += time.perf_counter() - started
                hall.passivate()  # finished matches leave, as idle ones do in a server

    try:
        anyio.run(main)
    finally:
        store.close()
    latencies.sort()
    return {
        "matches": matches,
        "commands_per_s": len(latencies) / spent[0],
        "p50_ms": latencies[len(latencies) // 2] * 1000,
        "p99_ms": latencies[min(len(latencies) - 1, int(len(latencies) * 0.99))] * 1000,
        "commands": len(latencies),
    }


# -- replay ----------------------------------------------------------------------------------


def replay(folder: Path, events: int, repeats: int) -> dict[str, float]:
    """Return the seconds ``Hall.load`` takes for a log of ``events``, without and with a snapshot."""
    from gamehall.plugins.tictactoe.commands import PlaceMark
    from gamehall.plugins.tictactoe.events import MarkPlaced

    registry = default_registry()
    ruleset = registry.ruleset("tictactoe")
    store = SQLiteStore(folder / f"r-{events}.db", registry.codec, synchronous="OFF")
    started = ruleset.started(None, None, None, 1)
    first = [started]
    log = [MarkPlaced(seat=i % 2, cell=i % 9) for i in range(events - 1)]
    metas = [Meta(versions=ruleset.versions)] + [
        Meta(f"c{i}", i % 2, PlaceMark(cell=i % 9)) for i in range(events - 1)
    ]
    store.append_many([AppendRequest("long", 0, first + log, metas)])  # type: ignore[operator]
    hall = Hall(store, registry)
    plain = _best(lambda: hall.load("long"), repeats)
    figures = {"events": float(events), "plain_s": plain}
    every = hall.snapshot_every
    if events >= every:
        at = events - events % every
        state = hall.load("long").state if at == events else _fold(hall, "long", at)
        key = hall.snapshot_key(ruleset)
        store.save_snapshot(Snapshot("long", at, key, msgspec.msgpack.encode(state)))
        figures["snapshot_s"] = _best(lambda: hall.load("long"), repeats)
    store.close()
    return figures


def _fold(hall: Hall, match: str, upto: int) -> Any:
    from gamehall.core import engine

    records = hall.store.read(match, 0, upto)
    ruleset = hall.registry.ruleset("tictactoe")
    state = engine.initial_state(ruleset, records[0].event)  # type: ignore[arg-type]
    return engine.fold(ruleset, state, [r.event for r in records])


def _best(fn: Any, repeats: int) -> float:
    times = []
    for _ in range(repeats):
        started = time.perf_counter()
        fn()
        times.append(time.perf_counter() - started)
    return min(times)


# -- memory ----------------------------------------------------------------------------------


def rss_bytes() -> int:
    """Return this process's resident memory now."""
    with open("/proc/self/statm") as statm:
        return int(statm.read().split()[1]) * resource.getpagesize()


def memory_child(kind: str, count: int, db: str) -> dict[str, float]:
    """In this process: start a hall, hold ``count`` active or passivated matches, measure."""
    apply_gc_policy(parse_gc_policy("server"))
    registry = default_registry()
    store = SQLiteStore(db, registry.codec)
    out: dict[str, float] = {}

    async def main() -> None:
        # active: every match stays active however many there are (past --max-active's default)
        async with Hall(store, registry, idle_seconds=3600, max_active=count + 1) as hall:
            base = rss_bytes()

            async def one(seed: int) -> None:
                match = await hall.create("tictactoe", seed=seed)
                await hall.send(match, 0, {"type": "tictactoe.PlaceMark", "cell": 4})

            for start in range(0, count, 1000):
                async with anyio.create_task_group() as tg:
                    for seed in range(start, min(count, start + 1000)):
                        tg.start_soon(one, seed)
                if kind == "passivated":
                    hall.passivate()
            while kind == "passivated" and hall.active:
                hall.passivate()
                await anyio.sleep(0.01)
            await anyio.sleep(0.05)
            now = rss_bytes()
            out.update(
                matches=count, active=hall.active, rss_mib=now / 2**20,
                grown_mib=(now - base) / 2**20, bytes_per_match=(now - base) / count,
            )  # fmt: skip

    try:
        anyio.run(main)
    finally:
        store.close()
    return out


def memory(folder: Path, kind: str, count: int) -> dict[str, float]:
    """Run :func:`memory_child` in a fresh process, so nothing else shares its memory."""
    db = str(folder / f"m-{kind}.db")
    code = (
        "import json, sys; from bench.curves import memory_child; "
        f"print(json.dumps(memory_child({kind!r}, {count}, {db!r})))"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=1800,
        cwd=HERE.parent,
    )  # fmt: skip
    if done.returncode != 0:
        raise RuntimeError(f"the memory run failed: {done.stderr[-2000:]}")
    figures: dict[str, float] = json.loads(done.stdout.strip().splitlines()[-1])
    return figures


# -- HTTP ------------------------------------------------------------------------------------


def http_p99(clients: tuple[int, ...], per_client: int) -> list[dict[str, float]]:
    """Return commands/s and p99 latency over HTTP for each number of keep-alive clients."""
    from bench import bench_http

    out = []
    with tempfile.TemporaryDirectory() as tmp, bench_http._server(str(Path(tmp) / "h.db")) as url:
        for count in clients:
            played = anyio.run(bench_http._load, url, count, per_client, bench_http._player)
            latencies = sorted(played["latencies"])
            out.append(
                {
                    "clients": count,
                    "commands_per_s": played["count"] / played["seconds"],
                    "p50_ms": latencies[len(latencies) // 2] * 1000,
                    "p99_ms": latencies[min(len(latencies) - 1, int(len(latencies) * 0.99))] * 1000,
                }
            )
    return out


# -- the run ---------------------------------------------------------------------------------


def run(quick: bool) -> dict[str, Any]:
    """Measure every curve; ``quick`` uses small sizes (for the test suite)."""
    matches = (1, 10, 100) if quick else MATCHES
    logs = (10, 100, 1000) if quick else LOGS
    clients = (1, 4) if quick else CLIENTS
    curves: dict[str, Any] = {}
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        before = parse_gc_policy("python")
        apply_gc_policy(parse_gc_policy("server"))
        try:
            curves["throughput"] = []
            for n in matches:
                point = throughput(folder, n, 100 if quick else max(1000, n))
                print(f"  {n:>6,} matches: {point['commands_per_s']:>8,.0f} commands/s, "
                      f"p99 {point['p99_ms']:.1f} ms", file=sys.stderr)  # fmt: skip
                curves["throughput"].append(point)
            curves["replay"] = []
            for events in logs:
                point = replay(folder, events, 3)
                print(f"  replay {events:>7,} events: {point['plain_s'] * 1000:.1f} ms"
                      + (f", {point['snapshot_s'] * 1000:.1f} ms from a snapshot"
                         if "snapshot_s" in point else ""), file=sys.stderr)  # fmt: skip
                curves["replay"].append(point)
        finally:
            import gc

            gc.unfreeze()
            gc.set_threshold(*before.thresholds)
        curves["memory"] = [
            {"kind": "active", **memory(folder, "active", 200 if quick else 10_000)},
            {"kind": "passivated", **memory(folder, "passivated", 500 if quick else 100_000)},
        ]
        for point in curves["memory"]:
            print(f"  memory, {point['matches']:,.0f} {point['kind']}: {point['rss_mib']:.0f} MiB "
                  f"resident, {point['bytes_per_match']:,.0f} bytes a match", file=sys.stderr)  # fmt: skip
    curves["http"] = http_p99(clients, 5 if quick else 40)
    for point in curves["http"]:
        print(f"  http, {point['clients']} clients: p99 {point['p99_ms']:.1f} ms, "
              f"{point['commands_per_s']:,.0f} commands/s", file=sys.stderr)  # fmt: skip
    return curves


def draw(curves: dict[str, Any], folder: Path, load: float) -> list[Path]:
    """Draw each curve in ``curves`` as a PNG in ``folder``; return the files written."""
    import matplotlib

    matplotlib.use("Agg")
    from matplotlib import pyplot as plt
    from matplotlib.ticker import FuncFormatter

    note = f"{os.cpu_count()}-core machine, load {load:.1f} while measured"
    written = []
    plain = FuncFormatter(lambda value, _: f"{value:,.6g}")

    def readable(axis: Any) -> None:  # log axes in plain numbers, not powers of ten
        for which in (axis.xaxis, axis.yaxis):
            which.set_major_formatter(plain)

    def save(fig: Any, name: str) -> None:
        fig.tight_layout()
        path = folder / f"curves-{name}.png"
        fig.savefig(path, dpi=110)
        plt.close(fig)
        written.append(path)

    if "throughput" in curves:
        points = curves["throughput"]
        fig, left = plt.subplots(figsize=(7, 4.2))
        xs = [p["matches"] for p in points]
        left.plot(xs, [p["commands_per_s"] for p in points], "o-", color="tab:blue")
        left.set_xscale("log")
        left.set_xlabel("matches at once (each waits for its acknowledgement)")
        left.set_ylabel("durable commands/s", color="tab:blue")
        left.set_ylim(bottom=0)
        right = left.twinx()
        right.plot(xs, [p["p99_ms"] for p in points], "s--", color="tab:red")
        right.set_yscale("log")
        right.set_ylabel("p99 latency of a command (ms)", color="tab:red")
        readable(left)
        readable(right)
        left.set_title(f"Durable commands on SQLite (FULL)\n{note}", fontsize=10)
        save(fig, "throughput")

    if "replay" in curves:
        points = curves["replay"]
        fig, axis = plt.subplots(figsize=(7, 4.2))
        axis.plot([p["events"] for p in points], [p["plain_s"] * 1000 for p in points], "o-",
                  label="from the first event")  # fmt: skip
        snap = [p for p in points if "snapshot_s" in p]
        if snap:
            axis.plot([p["events"] for p in snap], [p["snapshot_s"] * 1000 for p in snap], "s--",
                      label="from the latest snapshot (every 200 events)")  # fmt: skip
        axis.set_xscale("log")
        axis.set_yscale("log")
        axis.set_xlabel("events in the match's log")
        axis.set_ylabel("time to activate the match (ms)")
        readable(axis)
        axis.legend()
        axis.set_title(f"Replay: activating one match\n{note}", fontsize=10)
        save(fig, "replay")

    if "memory" in curves:
        points = curves["memory"]
        fig, axis = plt.subplots(figsize=(7, 4.2))
        labels = [f"{p['matches']:,.0f} {p['kind']}" for p in points]
        bars = axis.bar(labels, [p["grown_mib"] for p in points], color=["tab:blue", "tab:gray"])
        for bar, p in zip(bars, points, strict=True):
            axis.annotate(f"{p['bytes_per_match']:,.0f} B a match\n{p['rss_mib']:.0f} MiB resident",
                          (bar.get_x() + bar.get_width() / 2, bar.get_height()),
                          ha="center", va="bottom", fontsize=9)  # fmt: skip
        axis.set_ylabel("resident memory grown since start (MiB)")
        axis.set_ylim(top=max(p["grown_mib"] for p in points) * 1.3)
        axis.set_title(f"Memory of a serving process\n{note}", fontsize=10)
        save(fig, "memory")

    if "http" in curves:
        points = curves["http"]
        fig, left = plt.subplots(figsize=(7, 4.2))
        xs = [p["clients"] for p in points]
        left.plot(xs, [p["p99_ms"] for p in points], "o-", color="tab:red", label="p99")
        left.plot(xs, [p["p50_ms"] for p in points], "o:", color="tab:orange", label="median")
        left.set_xlabel("keep-alive HTTP clients, each waiting for its answer")
        left.set_ylabel("latency of a command (ms)")
        left.set_ylim(bottom=0)
        left.legend(loc="upper left")
        right = left.twinx()
        right.plot(xs, [p["commands_per_s"] for p in points], "s--", color="tab:blue")
        right.set_ylabel("commands/s", color="tab:blue")
        right.set_ylim(bottom=0)
        left.set_title(f"HTTP commands (gamehall serve, SQLite)\n{note}", fontsize=10)
        save(fig, "http")
    return written
