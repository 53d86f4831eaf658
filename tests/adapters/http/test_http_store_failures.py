"""A store that fails is a 503 that names the problem, never where the store lives.

Every store failure (the store's own, or a driver's error that reached the adapter) answers
``503 store_failed`` with ``Retry-After``; the message names no file path and no database
URL, which go to the operator's log. ``/readyz`` is false while any store part it needs is
unreachable. ``/metrics`` can require a token.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

import pytest
from gamehall.core import Registry
from gamehall.core.errors import StoreFailed
from gamehall.core.store import SQLiteStore
from http_helpers import Served, bearer, serve

pytestmark = pytest.mark.anyio
SECRET_PLACE = "/srv/secret-volume/gamehall.db"
URL = "postgresql://gamehall:pw@db.internal:5432/prod"


@pytest.fixture
async def served(registry: Registry, tmp_path: Path) -> Any:
    store = SQLiteStore(tmp_path / "store.db", registry.codec)
    try:
        async with serve(registry, store, metrics_token="the-metrics-token-0123") as served:
            yield served
    finally:
        store.close()


def hidden(text: str) -> None:
    for place in (SECRET_PLACE, "secret-volume", URL, "db.internal", "store.db", "/tmp"):
        assert place not in text, text


def store_failed(answer: Any) -> None:
    assert answer.status_code == 503, answer.text
    assert answer.headers["retry-after"].isdigit()
    hidden(answer.text)


async def test_a_failed_append_is_a_503_naming_no_path(
    served: Served, monkeypatch: pytest.MonkeyPatch
) -> None:
    client = served.client
    created = (await client.post("/matches", json={"game": "tictactoe"})).json()
    token = created["seats"][0]["token"]

    def full(encoded: list[Any]) -> list[Any]:
        return [StoreFailed(f"database or disk is full: {SECRET_PLACE} ({URL})") for _ in encoded]

    monkeypatch.setattr(served.hall.store, "write", full)
    # A commit in C that fails falls back to write(): this store never takes that way.
    monkeypatch.setattr(served.hall.store, "plan_commit", lambda encoded: None)
    body = {"command": {"type": "tictactoe.PlaceMark", "cell": 4}, "command_id": "c1"}
    answer = await client.post(
        f"/matches/{created['match']}/commands", json=body, headers=bearer(token)
    )
    store_failed(answer)
    assert answer.json()["error"] == "store_failed"
    page = await client.post("/matches", json={"game": "tictactoe"})
    store_failed(page)


async def test_a_driver_error_of_the_store_is_a_503_naming_no_path(
    served: Served, monkeypatch: pytest.MonkeyPatch
) -> None:
    class Broken:
        """The store's writer connection, whose disk fails on every statement."""

        def __init__(self, db: sqlite3.Connection) -> None:
            self._db = db

        def execute(self, *args: Any) -> Any:
            raise sqlite3.OperationalError(f"disk I/O error at {SECRET_PLACE}")

        executemany = execute

        def __getattr__(self, name: str) -> Any:
            return getattr(self._db, name)

    store = served.hall.store
    monkeypatch.setattr(store, "_writer", Broken(store._writer))
    monkeypatch.setattr(store, "plan_commit", lambda encoded: None)  # the disk fails C too
    answer = await served.client.post("/matches", json={"game": "tictactoe"})
    store_failed(answer)
    assert answer.json()["error"] == "store_failed"
    assert "try again" in answer.json()["message"]


async def test_readyz_is_false_while_the_seat_table_does_not_answer(
    served: Served, monkeypatch: pytest.MonkeyPatch
) -> None:
    client = served.client
    assert (await client.get("/readyz")).status_code == 200
    seats = served.app.state.gamehall.seats

    def down() -> None:
        raise sqlite3.OperationalError(f"unable to open database file {SECRET_PLACE}")

    monkeypatch.setattr(seats, "ping", down)
    answer = await client.get("/readyz")
    assert answer.status_code == 503 and answer.text == "not ready: the store does not answer\n"
    monkeypatch.undo()
    assert (await client.get("/readyz")).status_code == 200


async def test_metrics_can_require_a_token(served: Served) -> None:
    client = served.client
    for headers in ({}, bearer("wrong"), {"Authorization": "the-metrics-token-0123"}):
        answer = await client.get("/metrics", headers=headers)
        assert answer.status_code == 401, answer.text
        assert "gamehall_commands_total" not in answer.text
    good = await client.get("/metrics", headers=bearer("the-metrics-token-0123"))
    assert good.status_code == 200 and "gamehall_commands_total" in good.text


async def test_metrics_are_open_without_a_token(registry: Registry) -> None:
    async with serve(registry) as served:
        assert (await served.client.get("/metrics")).status_code == 200
