"""A create sent again with its request id gets the first answer and never a second match."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

import pytest
from gamehall.core import Registry
from gamehall.core.store import SQLiteStore
from http_helpers import Served, serve

pytestmark = pytest.mark.anyio
CSRF = "a-csrf-token-of-this-browser-0123"


@pytest.fixture
async def served(registry: Registry, tmp_path: Path) -> Any:
    store = SQLiteStore(tmp_path / "retry.db", registry.codec)
    try:
        async with serve(registry, store) as served:
            yield served
    finally:
        store.close()


async def listed(served: Served) -> int:
    return len((await served.client.get("/matches")).json()["matches"])


async def test_a_retried_create_gets_the_first_answer(served: Served) -> None:
    client = served.client
    body = {"game": "tictactoe", "request_id": "create-7f3a"}
    first = await client.post("/matches", json=body)
    again = await client.post("/matches", json=body)
    assert first.status_code == again.status_code == 201
    assert again.json() == first.json()  # the same match, the same seat tokens
    assert await listed(served) == 1
    other = await client.post("/matches", json={**body, "request_id": "create-8b1c"})
    assert other.json()["match"] != first.json()["match"] and await listed(served) == 2
    bad = await client.post("/matches", json={**body, "request_id": "with space"})
    assert bad.status_code == 400 and "request_id" in bad.text


class _FullAtSeatTokens:
    """A SQLite connection whose disk is full when seat tokens are written."""

    def __init__(self, db: sqlite3.Connection) -> None:
        self._db = db

    def executemany(self, sql: str, rows: Any) -> Any:
        if "seat_tokens" in sql:
            raise sqlite3.OperationalError("database or disk is full")
        return self._db.executemany(sql, rows)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._db, name)


async def test_a_create_that_failed_stored_nothing_and_its_retry_makes_the_match(
    served: Served,
) -> None:
    client = served.client
    # The disk fills while the match's seat tokens are written: the match's first events are
    # in the same transaction, so nothing of it is stored.
    store = served.hall.store
    real = store._writer
    store._writer = _FullAtSeatTokens(real)
    plan = store.plan_commit  # a commit in C that fails falls back to write(): go there at once
    store.plan_commit = lambda encoded: None
    body = {"game": "tictactoe", "request_id": "half-made"}
    failed = await client.post("/matches", json=body)
    assert failed.status_code == 503 and failed.json()["error"] == "store_failed", failed.text
    assert "Retry-After" in failed.headers
    assert await listed(served) == 0  # no match without its seats
    store._writer = real
    store.plan_commit = plan
    retried = await client.post("/matches", json=body)
    assert retried.status_code == 201, retried.text
    assert len(retried.json()["seats"]) == 2 and await listed(served) == 1
    # the node forgot its answers (a restart): the retry names the match, makes none
    served.app.state.replies._answers.clear()
    forgotten = await client.post("/matches", json=body)
    assert forgotten.status_code == 409 and retried.json()["match"] in forgotten.text
    assert forgotten.json()["error"] == "already_created"
    assert await listed(served) == 1


async def test_the_lobby_form_sent_twice_makes_one_match(served: Served) -> None:
    client = served.client
    page = await client.get("/")
    assert 'name="request_id"' in page.text
    client.cookies.set("gh_csrf", CSRF)
    form = {"csrf": CSRF, "name": "Ann", "game": "tictactoe", "players": "2",
            "seat0": "me", "seat1": "open", "request_id": "form-1"}  # fmt: skip
    first = await client.post("/lobby/matches", data=form)
    again = await client.post("/lobby/matches", data=form)
    assert first.status_code == again.status_code == 303
    assert first.headers["location"] == again.headers["location"]
    assert await listed(served) == 1
