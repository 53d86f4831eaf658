"""HTTP adapter: commands per second over HTTP against a bare endpoint of the same app.

``gamehall serve --bare-endpoint`` runs in a subprocess on the SQLite store (loopback, free
port). From this process 50 keep-alive clients (one httpx connection each) play tic-tac-toe
matches: each creates a match, then posts its moves, seat by seat, until it ends, and starts
another. The bare endpoint decodes the same command body and answers 200. ``http.vs_bare`` is
commands/s ÷ bare requests/s measured in the same run (target >= 0.5); ``http.p99_ms`` is the
99th percentile latency of a command at that load. Medians of 3 repeats.
"""

from __future__ import annotations

import os
import random
import re
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import anyio
import httpx

CLIENTS = 50
ENDS = {"tictactoe.LineCompleted", "tictactoe.BoardFilled"}


def run(quick: bool) -> dict[str, float]:
    """Return ``http.*`` figures; ``quick`` uses 4 clients and a few requests each."""
    clients, per_client, repeats = (4, 12, 3) if quick else (CLIENTS, 80, 3)
    with tempfile.TemporaryDirectory() as tmp, _server(str(Path(tmp) / "bench.db")) as url:
        rounds = [anyio.run(_round, url, clients, per_client) for _ in range(repeats)]
    commands = statistics.median(r["commands"] for r in rounds)
    bare = statistics.median(r["bare"] for r in rounds)
    return {
        "http.vs_bare": statistics.median(r["commands"] / r["bare"] for r in rounds),
        "http.p99_ms": statistics.median(r["p99_ms"] for r in rounds),
        "http.commands_per_s": commands,
        "http.bare_per_s": bare,
    }


class _server:
    """``gamehall serve`` in a subprocess, stopped with SIGINT."""

    def __init__(self, db: str, *options: str) -> None:
        self.db = db
        # The 50 clients share one address: the per-address limit would measure itself.
        self.options = options or ("--anonymous-rate", "0")

    def __enter__(self) -> str:
        command = [sys.executable, "-m", "gamehall.adapters.cli", "serve", "--port", "0",
                   "--db", self.db, "--bare-endpoint", *self.options]  # fmt: skip
        self.proc = subprocess.Popen(
            command,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
            env=os.environ.copy(),
        )
        assert self.proc.stdout is not None
        found = re.search(r"http://\S+", self.proc.stdout.readline())
        if not found:
            self.__exit__()
            raise RuntimeError("gamehall serve did not start")
        return found.group(0)

    def __exit__(self, *exc: object) -> None:
        self.proc.send_signal(signal.SIGINT)
        try:
            self.proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        if self.proc.stdout is not None:
            self.proc.stdout.close()


async def _round(url: str, clients: int, per_client: int) -> dict[str, float]:
    bare = await _load(url, clients, per_client, _bare_client)
    play = await _load(url, clients, per_client, _player)
    return {
        "bare": bare["count"] / bare["seconds"],
        "commands": play["count"] / play["seconds"],
        "p99_ms": _percentile(play["latencies"], 0.99) * 1000,
    }


async def _load(url: str, clients: int, per_client: int, worker: Any) -> dict[str, Any]:
    latencies: list[float] = []
    limits = httpx.Limits(max_connections=1, max_keepalive_connections=1)
    pool = [httpx.AsyncClient(base_url=url, limits=limits, timeout=30) for _ in range(clients)]
    try:
        for client in pool:  # open every connection before the clock starts
            (await client.get("/health")).raise_for_status()
        started = time.perf_counter()
        with anyio.fail_after(300):
            async with anyio.create_task_group() as tg:
                for n, client in enumerate(pool):
                    tg.start_soon(worker, client, per_client, latencies, n)
        seconds = time.perf_counter() - started
    finally:
        for client in pool:
            await client.aclose()
    return {"count": len(latencies), "seconds": seconds, "latencies": latencies}


def _body(cell: int, cid: str) -> dict[str, Any]:
    return {"command": {"type": "tictactoe.PlaceMark", "cell": cell}, "command_id": cid}


async def _bare_client(
    client: httpx.AsyncClient, count: int, latencies: list[float], n: int
) -> None:
    for i in range(count):
        started = time.perf_counter()
        response = await client.post("/bare", json=_body(i % 9, f"b{n}-{i}"))
        latencies.append(time.perf_counter() - started)
        response.raise_for_status()


async def _player(client: httpx.AsyncClient, count: int, latencies: list[float], n: int) -> None:
    rng = random.Random(n)
    sent = 0
    while sent < count:
        created = (await client.post("/matches", json={"game": "tictactoe"})).json()
        match, seats = created["match"], created["seats"]
        headers = [{"authorization": f"Bearer {s['token']}"} for s in seats]
        empty, seat, over = list(range(9)), 0, False
        while not over and sent < count:
            cell = empty.pop(rng.randrange(len(empty)))
            started = time.perf_counter()
            response = await client.post(
                f"/matches/{match}/commands", json=_body(cell, f"c{sent}"), headers=headers[seat]
            )
            latencies.append(time.perf_counter() - started)
            response.raise_for_status()
            over = response.json()["events"][-1]["event"]["type"] in ENDS
            seat, sent = 1 - seat, sent + 1


def _percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]
