"""Liveness, readiness and the Prometheus metrics of a node, on SQLite and on PostgreSQL."""

from __future__ import annotations

from pathlib import Path

import anyio
import pytest
from gamehall.core import Registry
from gamehall.core.store import SQLiteStore, Store
from http_helpers import bearer, serve

pytestmark = pytest.mark.anyio


def _metrics(text: str) -> dict[str, float]:
    out = {}
    for line in text.splitlines():
        if line and not line.startswith("#"):
            name, value = line.split()
            out[name] = float(value)
    return out


async def _check_node(registry: Registry, store: Store) -> None:
    async with serve(registry, store) as served:
        client = served.client
        assert (await client.get("/livez")).text == "ok\n"
        ready = await client.get("/readyz")
        assert ready.status_code == 200 and ready.text == "ready\n"
        created = (await client.post("/matches", json={"game": "tictactoe", "seed": 1})).json()
        token = created["seats"][0]["token"]
        body = {"command": {"type": "tictactoe.PlaceMark", "cell": 4}, "command_id": "a"}
        path = f"/matches/{created['match']}/commands"
        assert (await client.post(path, json=body, headers=bearer(token))).status_code == 200
        for _ in range(200):  # a shared store's follower hears of the commit within a moment
            got = await client.get("/metrics")
            if _metrics(got.text)["gamehall_stream_lag_events"] == 0:
                break
            await anyio.sleep(0.01)
        assert got.headers["content-type"].startswith("text/plain; version=0.0.4")
        assert "# TYPE gamehall_commands_total counter" in got.text
        counts = _metrics(got.text)
        assert counts["gamehall_commands_total"] == 1
        assert counts["gamehall_appends_total"] == 1
        assert counts["gamehall_actors_active"] == 1
        assert counts["gamehall_stream_lag_events"] == 0
        assert counts["gamehall_conflicts_total"] == counts["gamehall_retries_total"] == 0
        if hasattr(store, "held_back"):  # PostgreSQL: nothing held back for long
            assert counts["gamehall_follow_held_events"] == 0
            assert 0 <= counts["gamehall_follow_held_seconds"] < 5  # a commit may be under way
    # A stopped hall is not ready (the route itself still answers while the app lives).
    assert served.hall.closed


async def test_ops_endpoints_on_sqlite(registry: Registry, tmp_path: Path) -> None:
    store = SQLiteStore(tmp_path / "ops.db", registry.codec)
    try:
        await _check_node(registry, store)
    finally:
        store.close()


async def test_ops_endpoints_on_postgres(registry: Registry, pg_url: str) -> None:
    from gamehall.core.store.postgres import PostgresStore

    store = PostgresStore(pg_url, registry.codec)
    try:
        await _check_node(registry, store)
    finally:
        store.close()


async def test_a_node_whose_database_went_away_is_not_ready(
    registry: Registry, pg_url: str
) -> None:
    from gamehall.core.store.postgres import PostgresStore

    store = PostgresStore(pg_url, registry.codec)
    try:
        async with serve(registry, store) as served:
            store.url = store.url.__class__(  # the database now refuses: a wrong port
                "postgresql", conninfo="postgresql://postgres@127.0.0.1:1/test",
                schema=store.schema, pool_timeout=1.0,
            )  # fmt: skip
            store._pool.conninfo = store.url.conninfo
            for conn in list(store._conns):
                conn.close()
            got = await served.client.get("/readyz")
            assert got.status_code == 503
            assert got.text == "not ready: the store does not answer\n"  # no URL, no port
            assert "127.0.0.1" not in got.text and "postgresql" not in got.text
    finally:
        store.close()


async def test_the_store_reconnects_after_its_backends_are_killed(
    registry: Registry, pg_url: str
) -> None:
    import psycopg
    from gamehall.core.store.postgres import PostgresStore

    store = PostgresStore(pg_url, registry.codec)
    try:
        async with serve(registry, store) as served:
            client = served.client
            made = await client.post("/matches", json={"game": "tictactoe", "seating": "open"})
            assert made.status_code == 201, made.text
            match = made.json()["match"]
            # The connections the node holds: the journal's (events, seats and their tokens
            # in one transaction), the writer, the readers' pool (views, the listing, token
            # look-ups), the listener and the notifier.
            pids = {conn.info.backend_pid for conn in store._conns if not conn.closed}
            if store._journal_conn is not None:  # the journal's own, on the event loop
                pids.add(store._journal_conn.info.backend_pid)
            with psycopg.connect(store.url.conninfo, autocommit=True) as admin:
                for pid in pids:
                    admin.execute("SELECT pg_terminate_backend(%s)", (pid,))
            await anyio.sleep(0.2)
            seen = [
                (await client.post("/matches", json={"game": "tictactoe"})).status_code
                for _ in range(3)
            ]
            assert 500 not in seen and seen[-1] == 201, seen  # a 503 at most, then served
            claimed = await client.post(f"/matches/{match}/seats", json={"seat": 0})
            assert claimed.status_code in (200, 201), claimed.text
            assert (await client.get("/readyz")).status_code == 200
    finally:
        store.close()


async def test_a_node_held_back_by_a_long_transaction_is_not_ready(
    registry: Registry, pg_url: str
) -> None:
    import time

    from gamehall.core.store.postgres import PostgresStore

    from tests.core.test_postgres_follow import held_append

    store = PostgresStore(pg_url, registry.codec)
    other = PostgresStore(pg_url, registry.codec)  # another node's writer, same schema
    held = None
    try:
        async with serve(registry, store, ready_held_seconds=0.5) as served:
            client = served.client
            assert (await client.get("/readyz")).status_code == 200
            held = held_append(other, "long", 0, 2)  # written, not committed
            made = await client.post("/matches", json={"game": "tictactoe"})  # commits past it
            assert made.status_code == 201, made.text
            deadline = time.monotonic() + 20
            while True:
                got = await client.get("/readyz")
                if got.status_code == 503 or time.monotonic() > deadline:
                    break
                await anyio.sleep(0.1)
            assert got.status_code == 503, got.text
            assert got.text.startswith(
                "not ready: a transaction has held this node's followers back for "
            ), got.text
            assert "(limit 0.5 s)" in got.text
            held.commit()
            deadline = time.monotonic() + 20
            while (got := await client.get("/readyz")).status_code != 200:
                assert time.monotonic() < deadline, got.text
                await anyio.sleep(0.1)
            assert got.text == "ready\n"
    finally:
        if held is not None:
            held.close()
        other.close()
        store.close()


def test_the_held_back_limit_is_read_from_the_command_line() -> None:
    import argparse

    from gamehall.adapters.http import cli

    assert cli._held_limit("never") is None
    assert cli._held_limit("2.5") == 2.5
    with pytest.raises(argparse.ArgumentTypeError, match="between 0.1 and 86400"):
        cli._held_limit("0")
