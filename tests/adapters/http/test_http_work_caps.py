"""Calculators and bots cannot take the server: a work cap, a limiter of their own,
cancellation when the asker leaves, and a server maximum of bot budgets."""

from __future__ import annotations

import json
import re
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import anyio
import httpx
import pytest
from gamehall.adapters.http.guard import BotLimits
from gamehall.core import Registry
from http_helpers import serve

pytestmark = pytest.mark.anyio
ODDS = "/games/kaladan/calculators/odds"


async def test_exact_counting_past_the_cap_is_sampled_and_says_so(registry: Registry) -> None:
    async with serve(registry) as served:
        big = {"attacker": ["sword"] * 11, "defender": ["sword"] * 10, "method": "exact"}
        began = time.monotonic()
        answer = (await served.client.post(ODDS, json=big)).json()
        assert time.monotonic() - began < 5
        assert answer["answer"]["method"] == "monte-carlo"
        assert "exactly" in answer["answer"]["note"] and "note:" in answer["text"]
        small = {"attacker": ["sword"] * 2, "defender": ["sword"], "method": "exact"}
        exact = (await served.client.post(ODDS, json=small)).json()["answer"]
        assert exact["method"] == "exact" and exact["note"] == ""


async def test_bot_budgets_have_a_server_maximum(registry: Registry) -> None:
    async with serve(registry, bots=BotLimits(iterations=5000, seconds=2.0)) as served:
        client = served.client
        for role, words in [("bot:mcts:10000000", "5,000 iterations"),
                            ("bot:ismcts:600s", "2 s")]:  # fmt: skip
            body = {"game": "tictactoe", "seats": ["token", role]}
            answer = await client.post("/matches", json=body)
            assert answer.status_code == 400 and words in answer.json()["message"], answer.text
        fine = {"game": "tictactoe", "seats": ["token", "bot:mcts:2000"]}
        assert (await client.post("/matches", json=fine)).status_code == 201


async def _abandon(url: str, body: dict[str, Any]) -> None:
    async with httpx.AsyncClient(base_url=url, timeout=0.3) as client:
        with pytest.raises(httpx.TimeoutException):
            await client.post(ODDS, json=body)


async def test_calculations_stop_when_their_askers_leave(registry: Registry) -> None:
    async with serve(registry, live=True) as served:
        long = {"attacker": ["sword"] * 6, "defender": ["sword"] * 6,
                "method": "monte-carlo", "samples": 2_000_000}  # fmt: skip
        async with anyio.create_task_group() as tg:
            for _ in range(4):
                tg.start_soon(_abandon, served.base_url, long)
        # the calculators have their own threads: creates answer at once meanwhile
        began = time.monotonic()
        created = await served.client.post("/matches", json={"game": "tictactoe"})
        assert created.status_code == 201 and time.monotonic() - began < 1.0
        limiter = served.app.state.calculators
        assert limiter is not None and limiter.total_tokens == 2
        for _ in range(500):  # each thread stops at its next look, well before its end
            if limiter.borrowed_tokens == 0 and not limiter.statistics().tasks_waiting:
                break
            await anyio.sleep(0.01)
        assert limiter.borrowed_tokens == 0


def test_a_stop_signal_ends_the_server_within_its_deadline(tmp_path: Path) -> None:
    command = [sys.executable, "-m", "gamehall.adapters.cli", "serve", "--port", "0",
               "--db", str(tmp_path / "stop.db"), "--shutdown-deadline", "3"]  # fmt: skip
    proc = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert proc.stdout is not None
        url = re.search(r"http://\S+", proc.stdout.readline())
        assert url, proc.stderr.read() if proc.stderr else ""
        base = url.group(0)
        with httpx.Client(base_url=base) as client:
            match = client.post("/matches", json={"game": "tictactoe"}).json()["match"]
        busy = []
        for _ in range(3):  # a stream that stays open, and calculations that run long
            sock = socket.create_connection((urlsplit(base).hostname, urlsplit(base).port))
            busy.append(sock)
        busy[0].sendall(f"GET /matches/{match}/events HTTP/1.1\r\nHost: x\r\n\r\n".encode())
        body = json.dumps({"attacker": ["sword"] * 6, "defender": ["sword"] * 6,
                           "method": "monte-carlo", "samples": 2_000_000}).encode()  # fmt: skip
        for sock in busy[1:]:
            sock.sendall(
                b"POST /games/kaladan/calculators/odds HTTP/1.1\r\nHost: x\r\n"
                b"Content-Type: application/json\r\nContent-Length: "
                + str(len(body)).encode()
                + b"\r\n\r\n"
                + body
            )
        time.sleep(0.5)
        began = time.monotonic()
        proc.send_signal(signal.SIGTERM)
        proc.wait(timeout=15)
        assert time.monotonic() - began < 5.0
        for sock in busy:
            sock.close()
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        for pipe in (proc.stdout, proc.stderr):
            if pipe is not None:
                pipe.close()
