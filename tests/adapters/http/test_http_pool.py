"""A node whose store's reader connections are all in use answers 503 with Retry-After within
the pool's timeout: never a hang."""

from __future__ import annotations

import threading
import time

import anyio
import pytest
from gamehall.core import Registry
from http_helpers import serve

pytestmark = pytest.mark.anyio


async def test_a_read_finding_the_pool_exhausted_is_answered_503_with_retry_after(
    registry: Registry, pg_url: str
) -> None:
    from gamehall.core.store.postgres import PostgresStore

    store = PostgresStore(f"{pg_url}&pool_max=1&pool_timeout=0.5", registry.codec)
    release = threading.Event()
    inside = threading.Event()

    def hold() -> None:  # one long statement on the pool's only reader connection
        with store.reading() as conn:
            inside.set()
            conn.execute("SELECT pg_sleep(3)")
        release.set()

    try:
        async with serve(registry, store) as served:
            client = served.client
            made = await client.post("/matches", json={"game": "tictactoe", "seed": 1})
            assert made.status_code == 201, made.text
            match = made.json()["match"]
            assert (await client.get(f"/matches/{match}")).status_code == 200
            thread = threading.Thread(target=hold)
            thread.start()
            await anyio.to_thread.run_sync(inside.wait, 10)
            await anyio.sleep(0.1)
            began = time.monotonic()
            with anyio.fail_after(2.5):  # the statement runs 3 s: the answer does not wait
                got = await client.get(f"/matches/{match}")
            assert time.monotonic() - began >= 0.4
            assert got.status_code == 503, got.text
            assert got.headers["Retry-After"] == "1"
            body = got.json()
            assert body["error"] == "store_busy"
            assert body["message"].startswith("the server is busy")
            assert "postgresql" not in got.text and "127.0.0.1" not in got.text
            await anyio.to_thread.run_sync(thread.join, 10)
            assert release.is_set()
            again = await client.get(f"/matches/{match}")
            assert again.status_code == 200, again.text
    finally:
        store.close()
