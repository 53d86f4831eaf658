"""Helpers for the HTTP adapter tests: an app over a hall, a live server, leak checks."""

from __future__ import annotations

import json
import os
import re
import signal
import socket
import subprocess
import sys
from collections.abc import AsyncIterator, Iterable, Iterator
from contextlib import asynccontextmanager, contextmanager
from dataclasses import dataclass, field
from typing import Any

import anyio
import httpx
import uvicorn
from gamehall.adapters.http import create_app
from gamehall.core import Registry
from gamehall.core.conformance import strings_in
from gamehall.core.hall import Hall
from gamehall.core.store import MemoryStore, Store


@dataclass
class Served:
    """A running hall, its app and a client that talks to the app in the same event loop."""

    hall: Hall
    app: Any
    client: httpx.AsyncClient
    base_url: str = "http://gamehall.test"


@asynccontextmanager
async def serve(
    registry: Registry, store: Store | None = None, *, live: bool = False, **options: Any
) -> AsyncIterator[Served]:
    """Run a hall and its app; ``live`` serves it with uvicorn on a free loopback port.

    Rate limits are off unless the test gives them: a test's client asks faster than people.
    """
    store = store or MemoryStore(registry.codec)
    options.setdefault("rate_limits", None)
    async with Hall(store, registry, idle_seconds=1.0) as hall:
        app = create_app(hall, **options)
        if not live:
            transport = httpx.ASGITransport(app=app)
            async with httpx.AsyncClient(transport=transport, base_url=Served.base_url) as client:
                yield Served(hall, app, client)
            app.state.gamehall.seats.close()
            return
        async with live_server(app) as base_url, httpx.AsyncClient(base_url=base_url) as client:
            yield Served(hall, app, client, base_url)


@asynccontextmanager
async def live_server(app: Any) -> AsyncIterator[str]:
    """Serve an app with uvicorn in this event loop; yield its base URL once it listens."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM, socket.IPPROTO_TCP) as sock:
        sock.bind(("127.0.0.1", 0))
        async with _uvicorn(app, sock) as url:
            yield url


@asynccontextmanager
async def _uvicorn(app: Any, sock: socket.socket) -> AsyncIterator[str]:
    config = uvicorn.Config(app, log_level="warning", lifespan="on", timeout_graceful_shutdown=1)
    server = uvicorn.Server(config)
    server.capture_signals = _no_signals  # type: ignore[method-assign]
    async with anyio.create_task_group() as tg:
        tg.start_soon(server.serve, [sock])
        with anyio.fail_after(10):
            while not server.started:
                await anyio.sleep(0.005)
        try:
            yield f"http://127.0.0.1:{sock.getsockname()[1]}"
        finally:
            server.should_exit = True


@contextmanager
def _no_signals() -> Iterator[None]:
    yield


def bearer(token: str | None) -> dict[str, str]:
    """Return the header that carries a token (none for a spectator)."""
    return {"authorization": f"Bearer {token}"} if token else {}


strings = strings_in  # the conformance suite's own walk: one definition of "shown"


def leaked(body: bytes | str, hidden: Iterable[str]) -> set[str]:
    """Return the hidden tokens a body shows: as JSON strings, or inside any text."""
    text = body.decode() if isinstance(body, bytes) else body
    hidden = set(hidden)
    try:
        found = hidden & strings(json.loads(text))
    except ValueError:
        found = set()
    # Messages and boards are prose: a token anywhere in them is shown.
    return found | {token for token in hidden if token in text and _word(text, token)}


def _word(text: str, token: str) -> bool:
    start = 0
    while (at := text.find(token, start)) >= 0:
        before = text[at - 1] if at else " "
        after = text[at + len(token)] if at + len(token) < len(text) else " "
        if not (before.isalnum() or before in "_-") and not (after.isalnum() or after in "_-"):
            return True
        start = at + 1
    return False


@dataclass
class SseEvent:
    """One Server-Sent Event."""

    event: str | None = None
    id: str | None = None
    data: str = ""
    comments: list[str] = field(default_factory=list)


async def read_sse(response: httpx.Response) -> AsyncIterator[SseEvent]:
    """Yield the events of an SSE response as they arrive."""
    current = SseEvent()
    lines: list[str] = []
    async for line in response.aiter_lines():
        if line == "":
            if lines or current.event or current.id:
                current.data = "\n".join(lines)
                yield current
            elif current.comments:
                yield current
            current, lines = SseEvent(), []
        elif line.startswith(":"):
            current.comments.append(line[1:].strip())
        else:
            name, _, value = line.partition(":")
            value = value.removeprefix(" ")
            if name == "data":
                lines.append(value)
            elif name == "event":
                current.event = value
            elif name == "id":
                current.id = value


@contextmanager
def gamehall_serve(
    db: str, env: dict[str, str] | None = None, args: Iterable[str] = ()
) -> Iterator[str]:
    """Run ``gamehall serve`` on a free port in a subprocess; yield its URL; stop it with SIGINT."""
    command = [sys.executable, "-m", "gamehall.adapters.cli", "serve", "--port", "0", "--db", db]
    command += list(args)
    proc = subprocess.Popen(
        command,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, **(env or {})},
    )
    try:
        assert proc.stdout is not None
        line = proc.stdout.readline()  # printed once the server listens
        match = re.search(r"http://\S+", line)
        assert match, (
            f"gamehall serve did not start: {line!r} {proc.stderr.read() if proc.stderr else ''}"
        )
        yield match.group(0)
    finally:
        proc.send_signal(signal.SIGINT)
        try:
            code = proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
            raise
        finally:
            for pipe in (proc.stdout, proc.stderr):
                if pipe is not None:
                    pipe.close()
    assert code == 0, f"gamehall serve exited with {code}"
