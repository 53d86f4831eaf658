"""Counts from outside are checked against the game's range before anything is sized by them;
input the docs refuse (wrong JSON types, non-ASCII CSRF values) is a 4xx, never a 500."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Annotated, Any

import anyio
import httpx
import pytest
from gamehall.core import Registry
from gamehall.core.store import MemoryStore
from http_helpers import Served, bearer, serve
from litestar.params import QueryParameter

pytestmark = pytest.mark.anyio
CSRF = "a-csrf-token-of-this-browser-0123"


@pytest.fixture
async def served(registry: Registry, tmp_path: Path) -> Any:
    async with serve(registry, MemoryStore(registry.codec)) as served:
        yield served


async def quickly(request: Any) -> httpx.Response:
    """Send a request that must be answered within a second (the loop never blocks on it)."""
    began = time.monotonic()
    with anyio.fail_after(10):
        response: httpx.Response = await request
    assert time.monotonic() - began < 1.0, response.text
    return response


def refused(response: httpx.Response, status: int, *words: str) -> None:
    assert response.status_code == status, response.text
    for word in words:
        assert word in response.text, response.text


async def test_players_past_the_game_range_are_refused_before_seats_are_made(
    served: Served,
) -> None:
    client = served.client
    for players in (2**62, 10**8, 30_000_000, 0, 3):
        body = {"game": "tictactoe", "players": players}
        refused(await quickly(client.post("/matches", json=body)), 400, "players")
    roles = {"game": "tictactoe", "players": 10**8, "seats": ["token", "bot"]}
    refused(await quickly(client.post("/matches", json=roles)), 400, "players")
    assert (await client.get("/matches")).json()["matches"] == []


async def test_the_web_form_refuses_a_player_count_before_looping_over_it(served: Served) -> None:
    client = served.client
    client.cookies.set("gh_csrf", CSRF)
    for players in ("99999999999999999999999", "30000000", "3", "1", "٢", "2.0", "1e3", "-2"):
        form = {"csrf": CSRF, "name": "Ann", "game": "tictactoe", "players": players}
        answer = await quickly(client.post("/lobby/matches", data=form))
        refused(answer, 400, "number of players")
    listed = (await client.get("/matches")).json()
    assert listed["matches"] == []


async def test_json_values_of_the_wrong_type_are_refused(served: Served) -> None:
    client = served.client
    for value in ("2", 2.0, True):
        answer = await client.post("/matches", json={"game": "tictactoe", "players": value})
        refused(answer, 400, "players")
    created = await client.post("/matches", json={"game": "tictactoe"})
    match, token = created.json()["match"], created.json()["seats"][0]["token"]
    refused(await client.get(f"/matches/{match}/history?after=1e3"), 400, "after")
    refused(await client.get(f"/matches/{match}/history?limit=2.0"), 400, "limit")
    with anyio.fail_after(10):  # refused, not a stream that stays open
        answer = await client.get(f"/matches/{match}/events", headers={"Last-Event-ID": "1e3"})
        refused(answer, 400, "Last-Event-ID")
        refused(await client.get(f"/watch/{match}/events?after=1e3"), 400, "after")
    command = {"command": {"type": "tictactoe.PlaceMark", "cell": "4"}, "command_id": "c1"}
    answer = await client.post(f"/matches/{match}/commands", json=command, headers=bearer(token))
    assert answer.status_code == 400, answer.text
    ok = await client.get(f"/matches/{match}/history?after=0&limit=5")
    assert ok.status_code == 200


async def test_options_lists_every_method_of_the_path(served: Served) -> None:
    client = served.client
    answer = await client.options("/matches")
    assert answer.status_code == 204
    assert set(answer.headers["allow"].split(", ")) == {"GET", "POST", "OPTIONS"}
    undo = await client.options("/matches/m/undo")
    assert set(undo.headers["allow"].split(", ")) == {"GET", "POST", "PUT", "OPTIONS"}


async def test_a_csrf_value_beyond_ascii_is_a_403(served: Served) -> None:
    client = served.client
    name_form = {"name": "Ann", "csrf": "é" * 24}
    # in the form field
    client.cookies.set("gh_csrf", CSRF)
    refused(await client.post("/lobby/name", data=name_form), 403)
    client.cookies.clear()
    # in the cookie (sent as raw bytes: a browser may)
    raw = {"cookie": ("gh_csrf=" + "é" * 24).encode()}
    refused(await client.post("/lobby/name", data={"name": "Ann", "csrf": CSRF}, headers=raw), 403)
    # in the header of a seat page's command
    created = await client.post("/matches", json={"game": "tictactoe"})
    match, token = created.json()["match"], created.json()["seats"][0]["token"]
    command = {"command": {"type": "tictactoe.PlaceMark", "cell": 4}, "command_id": "c1"}
    headers = {
        "cookie": f"gh_seat={token}; gh_csrf={CSRF}".encode(),
        "x-csrf-token": ("é" * 24).encode(),
    }
    sent = await client.post(f"/play/{match}/0/command", json=command, headers=headers)
    refused(sent, 403)


def test_a_handler_made_after_another_was_collected_has_its_own_integer_parameters() -> None:
    """Handlers are made for each app, and a later one may take the id of one collected
    before: the check of whole-number parameters must not take the earlier one's list (a
    stream route then let ``Last-Event-ID: 1e3`` through, read leniently as 1000)."""
    import gc

    from gamehall.adapters.http.guard import _integer_params
    from litestar import get

    reused = 0
    for _ in range(20):

        @get("/a")
        async def with_one(after: Annotated[int, QueryParameter(name="after")] = 0) -> None: ...

        assert _integer_params(with_one) == (("query", "after"),)
        first = id(with_one)
        del with_one
        gc.collect()

        @get("/b")
        async def without() -> None: ...

        reused += id(without) == first
        assert _integer_params(without) == ()
    assert reused  # the case this guards against happened at least once
