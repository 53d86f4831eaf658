"""Read your own writes across nodes: a read or command naming the version of an
acknowledgement (``X-Gamehall-Version``) is answered by any node only from state at least that
new. Two halls on one PostgreSQL schema, each with its app, in one event loop."""

from __future__ import annotations

import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import anyio
import pytest
from gamehall.core import Registry, nodes
from http_helpers import Served, bearer, serve

pytestmark = pytest.mark.anyio
PLACE = "tictactoe.PlaceMark"


@asynccontextmanager
async def two_nodes(registry: Registry, pg_url: str) -> AsyncIterator[tuple[Served, Served]]:
    from gamehall.core.store.postgres import PostgresStore

    stores = [PostgresStore(pg_url, registry.codec) for _ in range(2)]
    try:
        async with serve(registry, stores[0]) as a, serve(registry, stores[1]) as b:
            yield a, b
    finally:
        for store in stores:
            store.close()


def move(cell: int, cid: str) -> dict[str, Any]:
    return {"command": {"type": PLACE, "cell": cell}, "command_id": cid}


def deaf(served: Served) -> None:
    """Stop a node's follower: it hears of no other node's commit any more."""
    assert served.hall.follower is not None
    served.hall.follower.stop()


async def test_a_view_naming_the_version_of_a_command_on_another_node_is_never_stale(
    registry: Registry, pg_url: str
) -> None:
    async with two_nodes(registry, pg_url) as (a, b):
        made = await a.client.post("/matches", json={"game": "tictactoe", "seed": 3})
        match, seats = made.json()["match"], made.json()["seats"]
        x, o = seats[0]["token"], seats[1]["token"]
        view = f"/matches/{match}/view"
        assert (await b.client.get(view)).json()["seq"] == 1  # active on B at version 1
        deaf(b)
        ack = await a.client.post(f"/matches/{match}/commands", json=move(4, "x1"),
                                  headers=bearer(x))  # fmt: skip
        assert ack.status_code == 200, ack.text
        version = ack.json()["last_seq"]
        assert version == 2
        # Without the version, node B answers from what it holds: the move is not there.
        assert (await b.client.get(view)).json()["seq"] == 1
        # Naming it, B catches up first: every read shows the move.
        named = {"X-Gamehall-Version": str(version)}
        seen = await b.client.get(view, headers={**named, **bearer(o)})
        assert seen.status_code == 200, seen.text
        assert seen.json()["seq"] == 2 and seen.json()["view"]["board"][4] != 0
        assert 1 in seen.json()["awaiting"] or "1" in seen.json()["awaiting"]
        described = (await b.client.get(f"/matches/{match}", headers=named)).json()
        assert described["seq"] == 2 and list(described["awaiting"]) == ["1"]
        board = await b.client.get(f"/matches/{match}/board", headers=named)
        assert "X" in board.text
        # A command named with the version is decided on that state, on either node.
        deaf(a)
        answer = await b.client.post(f"/matches/{match}/commands", json=move(0, "o1"),
                                     headers={**bearer(o), **named})  # fmt: skip
        assert answer.status_code == 200, answer.text
        after = {"X-Gamehall-Version": str(answer.json()["last_seq"])}
        mine = await a.client.get(view, headers={**after, **bearer(x)})
        assert mine.json()["seq"] == 3 and mine.json()["view"]["board"][0] != 0


async def test_commands_and_views_spread_round_robin_over_two_nodes_are_never_stale(
    registry: Registry, pg_url: str
) -> None:
    async with two_nodes(registry, pg_url) as (a, b):
        nodes_ = [a.client, b.client]
        stale = 0
        for game in range(4):
            made = await nodes_[game % 2].post("/matches", json={"game": "tictactoe", "seed": game})
            match, seats = made.json()["match"], made.json()["seats"]
            tokens = [s["token"] for s in seats]
            version, turn = 1, 0  # a match starts at version 1
            step = 0
            while True:
                here = nodes_[step % 2]
                step += 1
                seen = await here.get(f"/matches/{match}/view",
                                      headers={**bearer(tokens[turn]),
                                               "X-Gamehall-Version": str(version)})  # fmt: skip
                assert seen.status_code == 200, seen.text
                body = seen.json()
                stale += body["seq"] < version
                if body["outcome"] is not None or not body["legal"]:
                    break
                command = {"command": body["legal"][0], "command_id": f"c{step}"}
                there = nodes_[step % 2]
                step += 1
                ack = await there.post(f"/matches/{match}/commands", json=command,
                                       headers={**bearer(tokens[turn]),
                                                "X-Gamehall-Version": str(version)})  # fmt: skip
                assert ack.status_code == 200, ack.text  # never refused for a stale state
                version = ack.json()["last_seq"]
                turn = 1 - turn
        assert stale == 0


async def test_a_version_the_match_never_had_or_a_bad_one_is_refused_at_once(
    registry: Registry, pg_url: str
) -> None:
    async with two_nodes(registry, pg_url) as (a, b):
        made = await a.client.post("/matches", json={"game": "tictactoe", "seed": 1})
        match = made.json()["match"]
        began = time.monotonic()
        got = await b.client.get(f"/matches/{match}/view", headers={"X-Gamehall-Version": "9"})
        assert got.status_code == 400 and got.json()["error"] == "unknown_version"
        assert got.json()["message"] == (
            f"match {match!r} has no version 9: its last stored version is 1 (name the "
            "version an acknowledgement gave: its last seq)"
        )
        assert time.monotonic() - began < 1.5
        for bad in ("-1", "two", "1.5", "99999999999999999999"):
            got = await b.client.get(f"/matches/{match}/view",
                                     headers={"X-Gamehall-Version": bad})  # fmt: skip
            assert got.status_code == 400, (bad, got.text)
            assert got.json()["error"] == "invalid_request"
            assert "X-Gamehall-Version" in got.json()["message"], got.text
        # The web page's frames take it too, with the same words for a bad one.
        got = await b.client.get(f"/watch/{match}/frame", headers={"X-Gamehall-Version": "x"})
        assert got.status_code == 400
        assert "X-Gamehall-Version must be a match version" in got.text


async def test_a_node_that_cannot_catch_up_in_time_answers_503_with_retry_after(
    registry: Registry, pg_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(nodes, "CATCH_UP_SECONDS", 0.3)
    async with two_nodes(registry, pg_url) as (a, b):
        made = await a.client.post("/matches", json={"game": "tictactoe", "seed": 1})
        match, x = made.json()["match"], made.json()["seats"][0]["token"]
        assert (await b.client.get(f"/matches/{match}/view")).status_code == 200
        deaf(b)
        monkeypatch.setattr(b.hall, "advanced", lambda match, seq: None)  # it never catches up
        ack = await a.client.post(f"/matches/{match}/commands", json=move(4, "x1"),
                                  headers=bearer(x))  # fmt: skip
        began = time.monotonic()
        with anyio.fail_after(5):
            got = await b.client.get(f"/matches/{match}/view",
                                     headers={"X-Gamehall-Version": str(ack.json()["last_seq"])})  # fmt: skip
        assert 0.25 <= time.monotonic() - began < 3
        assert got.status_code == 503, got.text
        assert got.headers["Retry-After"] == "1"
        assert got.json()["error"] == "not_caught_up"
        assert got.json()["message"] == (
            f"this node holds match {match!r} at version 1 and did not catch up with version 2 "
            "within 0.3 s: try again in a moment"
        )


async def test_the_web_page_names_the_version_of_its_last_move_and_any_node_shows_it(
    registry: Registry, pg_url: str
) -> None:
    import re

    import httpx

    async with two_nodes(registry, pg_url) as (a, b):
        tokens = []
        for name in ("Ann", "Bob"):
            made = await a.client.post("/players", json={"name": name})
            tokens.append(made.json()["token"])
        body = {"game": "tictactoe", "seating": "open"}
        match = (await a.client.post("/matches", json=body, headers=bearer(tokens[0]))).json()[
            "match"
        ]
        taken = await a.client.post(f"/matches/{match}/seats", json={}, headers=bearer(tokens[1]))
        assert taken.status_code == 201, taken.text
        frame = f"/play/{match}/0/frame"
        pages = []
        for served in (a, b):
            pages.append(httpx.AsyncClient(
                transport=httpx.ASGITransport(app=served.app), base_url=served.base_url,
                cookies={"gh_player": tokens[0]},
            ))  # fmt: skip
        web_a, web_b = pages
        try:
            for web in pages:
                assert (await web.get("/")).status_code == 200
            shown = await web_b.get(frame)
            before = int(re.search(r'data-seq="(\d+)"', shown.text).group(1))  # type: ignore[union-attr]
            deaf(b)
            csrf = web_a.cookies["gh_csrf"]
            sent = await web_a.post(f"/play/{match}/0/command", json=move(4, "w1"),
                                    headers={"X-CSRF-Token": csrf})  # fmt: skip
            answer = sent.json()
            assert answer["ok"] is True and answer["version"] == before + 1, answer
            stale = await web_b.get(frame)
            assert f'data-seq="{before}"' in stale.text  # B alone has not heard of the move
            fresh = await web_b.get(frame, headers={"X-Gamehall-Version": str(answer["version"])})
            assert fresh.status_code == 200, fresh.text
            assert f'data-seq="{answer["version"]}"' in fresh.text
        finally:
            for web in pages:
                await web.aclose()
