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


async def test_a_create_whose_seats_failed_is_finished_by_its_retry(
    served: Served, monkeypatch: pytest.MonkeyPatch
) -> None:
    client = served.client
    seats = served.app.state.gamehall.seats
    real = seats.seat_match

    def full(*args: Any, **kwargs: Any) -> Any:
        raise sqlite3.OperationalError("database or disk is full")

    monkeypatch.setattr(seats, "seat_match", full)
    body = {"game": "tictactoe", "request_id": "half-made"}
    failed = await client.post("/matches", json=body)
    assert failed.status_code == 503 and failed.json()["error"] == "store_failed"
    monkeypatch.setattr(seats, "seat_match", real)
    retried = await client.post("/matches", json=body)
    assert retried.status_code == 201, retried.text
    assert len(retried.json()["seats"]) == 2 and await listed(served) == 1
    # the node forgot its answers (a restart): the retry names the match, makes none
    served.app.state.replies._answers.clear()
    forgotten = await client.post("/matches", json=body)
    assert forgotten.status_code == 409 and retried.json()["match"] in forgotten.text
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
