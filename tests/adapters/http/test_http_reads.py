"""The HTTP app reads the store off the event loop: a match created, joined, played to its
end, rematched and looked at through the API and the web pages, over an SQLite store that
notes every read made on the loop's thread (see ``tests/core/test_reads.py`` for the hall's
own async API).

On the loop by design, and not asked here: the ``/bare`` debugging route, the stdio
adapter's watch and the synchronous hall methods scripts use."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import httpx
import pytest
from gamehall.core import Registry
from http_helpers import bearer, serve
from watched_store import WatchedStore

pytestmark = pytest.mark.anyio


def place(cell: int, cid: str) -> dict[str, Any]:
    return {"command": {"type": "tictactoe.PlaceMark", "cell": cell}, "command_id": cid}


async def test_the_api_and_the_pages_read_nothing_on_the_loop(
    tmp_path: Path, registry: Registry
) -> None:
    store = WatchedStore(tmp_path / "h.db", registry.codec)
    try:
        async with serve(registry, store) as served:
            store.watch_this_thread()
            api = served.client
            tokens = []
            for name in ("Ann", "Bob"):
                made = await api.post("/players", json={"name": name})
                assert made.status_code == 201, made.text
                tokens.append(made.json()["token"])
            ann, bob = bearer(tokens[0]), bearer(tokens[1])
            body = {"game": "tictactoe", "seating": "open"}
            match = (await api.post("/matches", json=body, headers=ann)).json()["match"]
            taken = await api.post(f"/matches/{match}/seats", json={}, headers=bob)
            assert taken.status_code == 201 and taken.json()["seat"] == 1, taken.text
            renamed = await api.put("/players/me/name", json={"name": "Bea"}, headers=bob)
            assert renamed.status_code == 200, renamed.text
            path = f"/matches/{match}/commands"
            for n, (cell, who) in enumerate([(0, ann), (3, bob), (1, ann), (4, bob), (2, ann)]):
                sent = await api.post(path, json=place(cell, f"c{n}"), headers=who)
                assert sent.status_code == 200, sent.text
            view = (await api.get(f"/matches/{match}/view", headers=bob)).json()
            assert view["outcome"] is not None and view["names"] == ["Ann", "Bea"]
            board = (await api.get(f"/matches/{match}/board")).text
            assert "Ann" in board and "Bea" in board
            told = (await api.get(f"/matches/{match}/history", headers=ann)).json()
            assert told["events"]
            assert (await api.get(f"/matches/{match}")).json()["finished"]
            assert (await api.get("/matches", params={"mine": "true"}, headers=ann)).json()
            assert (await api.get(f"/matches/{match}/log")).status_code == 200
            forked = await api.post(f"/matches/{match}/fork", json={"at_seq": 3}, headers=ann)
            assert forked.status_code == 201, forked.text
            again = await api.post(f"/matches/{match}/rematch", json={}, headers=bob)
            assert again.status_code == 201, again.text
            new = again.json()["match"]
            streamed = await api.get(f"/matches/{match}/events", headers=ann)
            assert streamed.status_code == 200 and "event: end" in streamed.text
            assert store.on_loop == [], "the API"

            transport = httpx.ASGITransport(app=served.app)
            cookies = {"gh_player": tokens[0]}
            async with httpx.AsyncClient(
                transport=transport, base_url=served.base_url, cookies=cookies
            ) as web:
                assert (await web.get("/")).status_code == 200
                csrf = web.cookies["gh_csrf"]
                for page in (
                    f"/play/{match}/0", f"/play/{match}/0/frame", f"/play/{match}/0/frame?at=2",
                    f"/watch/{match}", f"/watch/{match}/frame?at=3&eyes=1",
                    f"/watch/{match}/whatif?at=2", f"/join/{new}",
                ):  # fmt: skip
                    shown = await web.get(page)
                    assert shown.status_code == 200, (page, shown.text)
                assert "Bea" in (await web.get(f"/play/{match}/0")).text
                streamed = await web.get(f"/watch/{match}/events")
                assert streamed.status_code == 200 and "event: end" in streamed.text
                late = await web.post(
                    f"/play/{match}/0/command", json=place(5, "late"),
                    headers={"X-CSRF-Token": csrf},
                )  # fmt: skip
                assert late.json()["ok"] is False and "over" in late.json()["refusal"]
                rematch = await web.post(f"/play/{match}/0/rematch", data={"csrf": csrf})
                assert rematch.status_code == 303, rematch.text
                assert re.search(rf"/play/{new}/\d", rematch.headers["location"])
                made = await web.post(
                    "/lobby/matches",
                    data={"csrf": csrf, "game": "tictactoe", "name": "Ann", "players": "2",
                          "seat0": "me", "seat1": "open"},
                )  # fmt: skip
                assert made.status_code == 303, made.text
            store.loop_thread = None
            assert store.on_loop == [], "the pages"
    finally:
        store.close()
