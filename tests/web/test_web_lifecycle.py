"""The lobby page without a browser: each match says how long ago it started and last moved,
and its creator gets one "Abandon" button while nobody else joined it."""

from __future__ import annotations

import re
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import httpx
import pytest
from gamehall.adapters.http.app import create_app, mounted_lifespan
from gamehall.adapters.http.web import pages
from gamehall.adapters.http.web.listing import Listed
from gamehall.core.hall import Hall
from gamehall.core.registry import builtin_registry
from gamehall.core.store import MemoryStore

pytestmark = pytest.mark.anyio
HOUR = 3600.0


@asynccontextmanager
async def browsers() -> AsyncIterator[tuple[Hall, Any, Any]]:
    """Serve one hall's app to two browsers (their own cookies)."""
    registry = builtin_registry()
    hall = Hall(MemoryStore(registry.codec), registry)
    app = create_app(hall, manage_hall=True, rate_limits=None)
    async with mounted_lifespan(app):
        transport = httpx.ASGITransport(app=app)
        async with (
            httpx.AsyncClient(transport=transport, base_url="http://web") as ada,
            httpx.AsyncClient(transport=transport, base_url="http://web") as bob,
        ):
            for web in (ada, bob):
                assert (await web.get("/")).status_code == 200
                web.csrf = web.cookies["gh_csrf"]
            yield hall, ada, bob


async def start(web: Any, name: str) -> str:
    sent = {"csrf": web.csrf, "game": "tictactoe", "name": name, "players": "2",
            "seat0": "me", "seat1": "open"}  # fmt: skip
    made = await web.post("/lobby/matches", data=sent)
    assert made.status_code == 303, made.text
    found = re.search(r"/play/([0-9a-f]+)/0", made.headers["location"])
    assert found
    return found.group(1)


def rows(page: str, match: str) -> list[str]:
    return re.findall(rf'<li data-match="{match}">.*?</li>', page, re.S)


async def test_the_creator_abandons_from_the_lobby_and_ages_are_words() -> None:
    async with browsers() as (hall, ada, bob):
        match = await start(ada, "Ada")
        page = (await ada.get("/")).text
        listed = rows(page, match)
        assert listed and all("started just now" in r for r in listed)
        assert page.count(f'action="/lobby/abandon/{match}"') == 1  # once, though listed twice
        assert f"/lobby/abandon/{match}" not in (await bob.get("/")).text  # not Bob's match
        # Three hours on: the age in words.
        real = hall.now
        hall.now = lambda: real() + 3 * HOUR
        assert "started 3 hours ago" in rows((await bob.get("/")).text, match)[0]
        hall.now = real
        # Only its creator abandons it.
        refused = await bob.post(f"/lobby/abandon/{match}", data={"csrf": bob.csrf})
        assert refused.status_code == 403 and "only the player who created" in refused.text
        done = await ada.post(f"/lobby/abandon/{match}", data={"csrf": ada.csrf})
        assert done.status_code == 303, done.text
        page = (await ada.get("/")).text
        finished = page[page.index('id="list-finished"') :]
        assert "abandoned by its creator" in rows(finished, match)[0]
        assert f"/lobby/abandon/{match}" not in page
        joined = await bob.post(f"/join/{match}", data={"csrf": bob.csrf, "name": "Bob"})
        assert joined.status_code == 409 and "abandoned by its creator" in joined.text
        assert "Traceback" not in joined.text


async def test_no_abandon_button_once_someone_joined_and_last_activity_shows() -> None:
    async with browsers() as (hall, ada, bob):
        match = await start(ada, "Ada")
        real = hall.now
        hall.now = lambda: real() + 2 * HOUR
        joined = await bob.post(f"/join/{match}", data={"csrf": bob.csrf, "name": "Bob"})
        assert joined.status_code == 303, joined.text
        hall.now = lambda: real() + 2 * HOUR + 5 * 60
        entry = hall.lobby.entry(match)
        assert entry.updated > entry.created
        page = (await ada.get("/")).text
        assert f"/lobby/abandon/{match}" not in page
        refused = await ada.post(f"/lobby/abandon/{match}", data={"csrf": ada.csrf})
        assert refused.status_code == 409 and "someone else holds a seat" in refused.text
        assert time.time() - entry.created < HOUR  # the store's times are real ones


def test_age_and_last_activity_read_as_words() -> None:
    now = time.time()
    seen = Listed("m", "Tic-tac-toe", 2, [], 3, now - 300, False, 0, None, now - 3 * HOUR)
    assert pages._when(seen, now) == "started 3 hours ago, last activity 5 minutes ago"
    fresh = Listed("m", "Tic-tac-toe", 2, [], 1, now - 30, False, 0, None, now - 30)
    assert pages._when(fresh, now) == "started just now"
