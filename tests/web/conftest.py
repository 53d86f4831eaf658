"""Browser fixtures: Debian's Chromium driven by Playwright, and a real server in a thread.

Without Chromium (or Playwright) the browser tests skip with a line that says how to install
it; with ``GAMEHALL_REQUIRE_BROWSER=1`` (set by ``.ci/run``) that is a failure instead.
"""

from __future__ import annotations

import os
import shutil
import socket
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
import uvicorn
from gamehall.adapters.http.app import create_app
from gamehall.core import Registry
from gamehall.core.hall import Hall
from gamehall.core.store import MemoryStore, SQLiteStore
from gamehall.core.store.base import Store

CHROMIUM = os.environ.get("GAMEHALL_CHROMIUM", "/usr/bin/chromium")
INSTALL = "install Debian's Chromium to run the browser tests: sudo apt-get install -y chromium"
SCREENSHOTS = Path(__file__).resolve().parents[2] / "build" / "screenshots"


def _missing() -> str | None:
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return "Playwright is not installed (pip install -e '.[test]'); " + INSTALL
    if not (Path(CHROMIUM).exists() or shutil.which(CHROMIUM)):
        return f"no Chromium at {CHROMIUM}: {INSTALL}"
    return None


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """Return a headless Chromium, or skip (fail under GAMEHALL_REQUIRE_BROWSER=1).

    One per module, not per session: Playwright's sync API keeps an event loop running in the
    thread while it is open, and the suite's other tests start event loops of their own in
    the same worker, so the browser closes before the worker moves on to another module.
    """
    missing = _missing()
    if missing is not None:
        if os.environ.get("GAMEHALL_REQUIRE_BROWSER") == "1":
            pytest.fail(missing)
        pytest.skip(missing)
    from playwright.sync_api import sync_playwright

    with sync_playwright() as driver:
        chromium = driver.chromium.launch(executable_path=CHROMIUM, headless=True)
        try:
            yield chromium
        finally:
            chromium.close()


class Server:
    """gamehall's HTTP app served by uvicorn in a thread, on a free port of 127.0.0.1."""

    def __init__(
        self, registry: Registry, db: Path | None = None, port: int = 0, prefix: str = ""
    ) -> None:
        self.db = db
        self.stopped = False
        self.store: Store = (
            SQLiteStore(str(db), registry.codec) if db else MemoryStore(registry.codec)
        )
        self.hall = Hall(self.store, registry)
        app: Any = create_app(self.hall, manage_hall=True, rate_limits=None)
        if prefix:
            app = _mounted(app, prefix)
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # a restart's port
        self.sock.bind(("127.0.0.1", port))
        self.root = f"http://127.0.0.1:{self.sock.getsockname()[1]}"
        self.url = self.root + prefix
        config = uvicorn.Config(app, log_config=None, lifespan="on", timeout_graceful_shutdown=1)
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, kwargs={"sockets": [self.sock]})

    def start(self) -> None:
        self.thread.start()
        deadline = time.monotonic() + 20
        while not self.server.started:
            if time.monotonic() > deadline or not self.thread.is_alive():
                raise RuntimeError("the server did not start")
            time.sleep(0.02)

    def stop(self) -> None:
        if self.stopped:
            return
        self.stopped = True
        self.server.should_exit = True
        self.thread.join(10)
        self.sock.close()
        self.store.close()


def _mounted(app: Any, prefix: str) -> Any:
    """Return a Starlette host that mounts the app under a prefix and runs its lifespan."""
    from gamehall.adapters.http.app import mounted_lifespan
    from starlette.applications import Starlette
    from starlette.routing import Mount

    return Starlette(routes=[Mount(prefix, app=app)], lifespan=lambda _: mounted_lifespan(app))


@pytest.fixture
def serve(tmp_path: Path) -> Iterator[Callable[..., Server]]:
    """Start servers of given registries (on a memory store, or SQLite; at the top, or
    mounted under a prefix by a Starlette host); stop them after."""
    started: list[Server] = []

    def start(registry: Registry, sqlite: bool = False, prefix: str = "") -> Server:
        db = tmp_path / f"web{len(started)}.db" if sqlite else None
        server = Server(registry, db, prefix=prefix)
        server.start()
        started.append(server)
        return server

    yield start
    for server in started:
        server.stop()


@pytest.fixture(scope="session")
def screenshots() -> Path:
    """Return the folder the tests save screenshots in for review (ignored by git)."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    return SCREENSHOTS
