"""HTTP adapter: commands per second over HTTP against a bare endpoint of the same app.

``gamehall serve --bare-endpoint`` runs in a subprocess on the SQLite store (loopback, free
port). From this process 50 keep-alive clients (one httpx connection each) play tic-tac-toe
matches: each creates a match, then posts its moves, seat by seat, until it ends, and starts
another. The bare endpoint decodes the same command body and answers 200. ``http.vs_bare`` is
commands/s ÷ bare requests/s measured in the same run (target >= 0.5); ``http.p99_ms`` is the
99th percentile latency of a command at that load. Medians of 3 repeats.

``http.abuse_p99_ratio`` runs ``gamehall serve`` with its default limits: one well-behaved
client plays with its seat tokens while, from the same address, another sends malformed
requests (bad JSON, JSON nested 1,000 deep, integers past 64 bits, text bodies, unknown
routes, wrong tokens) at 200 a second; the figure is the well-behaved client's p99 latency
with the abuse ÷ without it (target <= 2).
"""

from __future__ import annotations

import os
import random
import re
import signal
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

import anyio
import httpx

from bench import Figure

CLIENTS = 50
ABUSE_RATE = 200  # malformed requests a second
TARGETS = {"http.vs_bare": (">=", 0.5), "http.abuse_p99_ratio": ("<=", 2.0)}
ENDS = {"tictactoe.LineCompleted", "tictactoe.BoardFilled"}


def run(quick: bool) -> dict[str, float]:
    """Return ``http.*`` figures; ``quick`` uses 4 clients and a few requests each."""
    clients, per_client, repeats = (4, 12, 3) if quick else (CLIENTS, 80, 3)
    with tempfile.TemporaryDirectory() as tmp, _server(str(Path(tmp) / "bench.db")) as url:
        rounds = [anyio.run(_round, url, clients, per_client) for _ in range(repeats)]
    abuse = _abuse_figures(quick)
    return {
        "http.vs_bare": Figure(r["commands"] / r["bare"] for r in rounds),
        "http.p99_ms": Figure(r["p99_ms"] for r in rounds),
        "http.commands_per_s": Figure(r["commands"] for r in rounds),
        "http.bare_per_s": Figure(r["bare"] for r in rounds),
        **abuse,
    }


# -- abuse -----------------------------------------------------------------------------------


def _abuse_figures(quick: bool) -> dict[str, float]:
    """Return the well-behaved client's p99 with and without the abuse, and their ratio."""
    commands, repeats = (60, 1) if quick else (600, 3)
    with tempfile.TemporaryDirectory() as tmp, _server(str(Path(tmp) / "abuse.db"), "--") as url:
        ratios, calm, abused, refused = [], [], [], []
        for _ in range(repeats):
            games = anyio.run(_make_matches, url, 2 * (commands // 5 + 2))
            alone = anyio.run(_behaved, url, commands, games[: len(games) // 2])
            stop = threading.Event()
            counts = [0, 0]
            abuser = threading.Thread(target=_abuse, args=(url, stop, counts), daemon=True)
            abuser.start()
            try:
                time.sleep(0.5)  # the abuse is steady before the clock starts
                under = anyio.run(_behaved, url, commands, games[len(games) // 2 :])
            finally:
                stop.set()
                abuser.join(10)
            calm.append(alone)
            abused.append(under)
            ratios.append(under / alone)
            refused.append(counts[1] / max(1, counts[0]))
    return {
        "http.abuse_p99_ratio": Figure(ratios),
        "http.abuse_calm_p99_ms": Figure(v * 1000 for v in calm),
        "http.abuse_p99_ms": Figure(v * 1000 for v in abused),
        "http.abuse_rate_limited_share": Figure(refused),
    }


async def _make_matches(url: str, count: int) -> list[dict[str, Any]]:
    """Create matches anonymously, at the pace the server's limit allows."""
    games: list[dict[str, Any]] = []
    async with httpx.AsyncClient(base_url=url, timeout=30) as client:
        while len(games) < count:
            response = await client.post("/matches", json={"game": "tictactoe"})
            if response.status_code == 429:
                await anyio.sleep(float(response.headers["retry-after"]))
                continue
            response.raise_for_status()
            games.append(response.json())
    return games


async def _behaved(url: str, commands: int, games: list[dict[str, Any]]) -> float:
    """Play tic-tac-toe with seat tokens; return the p99 latency of a command."""
    latencies: list[float] = []
    async with httpx.AsyncClient(base_url=url, timeout=30) as client:
        rng = random.Random(1)
        sent = 0
        for created in games:
            match = created["match"]
            headers = [{"authorization": f"Bearer {s['token']}"} for s in created["seats"]]
            empty, seat, over = list(range(9)), 0, False
            while not over and sent < commands:
                cell = empty.pop(rng.randrange(len(empty)))
                started = time.perf_counter()
                response = await client.post(
                    f"/matches/{match}/commands", json=_body(cell, f"c{sent}"),
                    headers=headers[seat],
                )  # fmt: skip
                latencies.append(time.perf_counter() - started)
                response.raise_for_status()
                over = response.json()["events"][-1]["event"]["type"] in ENDS
                seat, sent = 1 - seat, sent + 1
            await anyio.sleep(0.002)  # a person's pace, not a flood
    return _percentile(latencies, 0.99)


MALFORMED: list[tuple[str, str, dict[str, str], bytes]] = [
    ("POST", "/matches", {"content-type": "application/json"}, b'{"game": '),
    ("POST", "/matches", {"content-type": "application/json"}, b"[" * 1000 + b"]" * 1000),
    ("POST", "/matches", {"content-type": "application/json"},
     b'{"game": "tictactoe", "seed": 99999999999999999999999}'),
    ("POST", "/matches", {"content-type": "text/plain"}, b'{"game": "tictactoe"}'),
    ("GET", "/matches/0123456789abcdef/history?after=9223372036854775808", {}, b""),
    ("GET", "/no/such/route", {}, b""),
    ("GET", "/matches/0123456789abcdef/view", {"authorization": "Bearer " + "x" * 43}, b""),
]  # fmt: skip


def _abuse(url: str, stop: threading.Event, counts: list[int]) -> None:
    """Send malformed requests at ABUSE_RATE a second until told to stop."""
    with httpx.Client(base_url=url, timeout=10) as client:
        due = time.perf_counter()
        n = 0
        while not stop.is_set():
            method, path, headers, body = MALFORMED[n % len(MALFORMED)]
            response = client.request(method, path, headers=headers, content=body or None)
            counts[0] += 1
            counts[1] += response.status_code == 429
            n += 1
            due += 1 / ABUSE_RATE
            pause = due - time.perf_counter()
            if pause > 0:
                time.sleep(pause)


class _server:
    """``gamehall serve`` in a subprocess, stopped with SIGINT."""

    def __init__(self, db: str, *options: str) -> None:
        self.db = db
        # The clients (up to 200 for the cost curves) share one address: the per-address
        # limits would measure themselves. ``"--"`` alone: the defaults, limits on.
        self.options = () if options == ("--",) else options or (
            "--anonymous-rate", "0", "--max-connections-per-address", "1000"
        )  # fmt: skip

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
