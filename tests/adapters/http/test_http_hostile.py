"""Hostile requests get a 4xx that names the problem: never a 500, never a stalled stream."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

import anyio
import pytest
from gamehall.adapters.http.guard import RateLimits
from gamehall.core import Registry
from gamehall.core.limits import INT64_MAX
from gamehall.core.store import SQLiteStore
from http_helpers import Served, bearer, serve

pytestmark = pytest.mark.anyio
TOO_BIG = 2**63  # one past SQLite's largest integer
ADMIN = "the-admin-token-of-this-test-server"


@pytest.fixture
async def served(registry: Registry, tmp_path: Path) -> Any:
    store = SQLiteStore(tmp_path / "hostile.db", registry.codec)
    try:
        async with serve(registry, store, admin_token=ADMIN) as served:
            yield served
    finally:
        store.close()


async def new_match(served: Served, **body: Any) -> tuple[str, list[str]]:
    response = await served.client.post("/matches", json={"game": "tictactoe", **body})
    assert response.status_code == 201, response.text
    created = response.json()
    return created["match"], [s["token"] for s in created["seats"]]


def refused(response: Any, status: int = 400, *words: str) -> dict[str, Any]:
    assert response.status_code == status, response.text
    body: dict[str, Any] = response.json()
    assert set(body) <= {"status", "error", "message", "rule"} and body["status"] == status
    for word in words:
        assert word in body["message"], body
    return body


async def test_seqs_past_64_bits_are_refused_not_500(served: Served) -> None:
    match, _ = await new_match(served)
    client = served.client
    for after in (TOO_BIG, 10**30):
        refused(await client.get(f"/matches/{match}/history?after={after}"), 400, "after")
        with anyio.fail_after(10):  # a stream that stays open instead is a failure too
            refused(await client.get(f"/matches/{match}/events?after={after}"), 400, "after")
            headers = {"Last-Event-ID": str(after)}
            stream = await client.get(f"/matches/{match}/events", headers=headers)
            refused(stream, 400, "Last-Event-ID")
    ok = await client.get(f"/matches/{match}/history?after={INT64_MAX}")
    assert ok.status_code == 200 and ok.json()["events"] == []
    fork = await client.post(
        f"/matches/{match}/fork", json={"at_seq": TOO_BIG}, headers=bearer(ADMIN)
    )
    refused(fork, 400, "at_seq")


async def test_numbers_no_field_can_take_are_refused_naming_the_field(served: Served) -> None:
    client = served.client
    for body, field in [
        ({"game": "tictactoe", "seed": 99999999999999999999999}, "seed"),
        ({"game": "tictactoe", "seed": -1}, "seed"),
        ({"game": "tictactoe", "options": {"size": TOO_BIG}}, "size"),
        ({"game": "tictactoe", "players": 10**40}, "players"),
    ]:
        refused(await client.post("/matches", json=body), 400, field)
    match, tokens = await new_match(served)
    command = {"command": {"type": "tictactoe.PlaceMark", "cell": TOO_BIG}, "command_id": "c"}
    sent = await client.post(f"/matches/{match}/commands", json=command, headers=bearer(tokens[0]))
    refused(sent, 400, "cell")


async def test_deep_json_is_refused_clearly(served: Served) -> None:
    match, tokens = await new_match(served)
    deep = '{"command": ' + "[" * 1000 + "]" * 1000 + ', "command_id": "a"}'
    headers = {**bearer(tokens[0]), "content-type": "application/json"}
    response = await served.client.post(f"/matches/{match}/commands", content=deep, headers=headers)
    body = refused(response, 400, "deeper than 32")
    assert body["error"] == "invalid_json"
    assert (await served.client.get(f"/matches/{match}")).json()["seq"] == 1  # nothing stored


async def test_a_body_not_declared_json_is_415(served: Served) -> None:
    match, tokens = await new_match(served)
    body = '{"command": {"type": "tictactoe.PlaceMark", "cell": 4}, "command_id": "a"}'
    for media in ("text/plain", "application/x-www-form-urlencoded"):
        headers = {**bearer(tokens[0]), "content-type": media}
        sent = await served.client.post(f"/matches/{match}/commands", content=body, headers=headers)
        refused(sent, 415, media)
    assert (await served.client.get(f"/matches/{match}")).json()["seq"] == 1


async def test_duplicate_keys_and_duplicate_expansions_are_refused(served: Served) -> None:
    match, tokens = await new_match(served)
    headers = {**bearer(tokens[0]), "content-type": "application/json"}
    twice = '{"command": {"type": "tictactoe.PlaceMark", "cell": 4, "cell": 5}, "command_id": "a"}'
    sent = await served.client.post(f"/matches/{match}/commands", content=twice, headers=headers)
    refused(sent, 400, "'cell' appears twice")
    expansions = {"game": "tictactoe", "expansions": ["tictactoe-misere", "tictactoe-misere"]}
    refused(await served.client.post("/matches", json=expansions), 400, "listed twice")


async def test_405_names_the_allowed_methods(served: Served) -> None:
    match, _ = await new_match(served)
    response = await served.client.patch(f"/matches/{match}")
    refused(response, 405, "GET")
    assert set(response.headers["allow"].split(", ")) == {"GET", "DELETE", "OPTIONS"}
    response = await served.client.put("/matches", json={})
    assert response.status_code == 405 and "POST" in response.headers["allow"]


async def test_a_quarantined_match_is_409_and_the_others_serve(
    registry: Registry, tmp_path: Path
) -> None:
    path = tmp_path / "quarantine.db"
    store = SQLiteStore(path, registry.codec)
    try:
        async with serve(registry, store) as served:
            bad, _ = await new_match(served)
            good, tokens = await new_match(served)
            served.hall.passivate()
            db = sqlite3.connect(path)
            db.execute("UPDATE events SET data=CAST(data || x'00' AS BLOB) WHERE stream=?", (bad,))
            db.commit()
            db.close()
            for path_ in ("", "/view", "/history", "/board", "/log"):
                body = refused(await served.client.get(f"/matches/{bad}{path_}"), 409)
                assert body["error"] == "match_quarantined", path_
            place = {"command": {"type": "tictactoe.PlaceMark", "cell": 4}, "command_id": "a"}
            sent = await served.client.post(
                f"/matches/{good}/commands", json=place, headers=bearer(tokens[0])
            )
            assert sent.status_code == 200, sent.text
    finally:
        store.close()


async def test_anonymous_requests_are_rate_limited_per_address(registry: Registry) -> None:
    limits = RateLimits(anonymous_rate=1.0, anonymous_burst=5)
    async with serve(registry, rate_limits=limits) as served:
        client = served.client
        statuses = [(await client.get("/health")).status_code for _ in range(5)]
        assert statuses == [200] * 5
        limited = await client.get("/health")
        body = refused(limited, 429, "try again")
        assert body["error"] == "rate_limited" and int(limited.headers["retry-after"]) >= 1
        refused(await client.get("/no/such/route"), 429)  # misses count too
        # random tokens are not a way around it: they count against the address
        refused(await client.get("/health", headers=bearer("x" * 43)), 429)
        # a load balancer's probes still get through: a flood must not make a node look down
        assert (await client.get("/livez")).status_code == 200
        assert (await client.get("/readyz")).status_code == 200
        refused(await client.get("/metrics"), 429)  # it reads the store: limited


async def test_an_accepted_token_has_its_own_bucket(registry: Registry) -> None:
    limits = RateLimits(anonymous_rate=1.0, anonymous_burst=3, token_rate=1.0, token_burst=4)
    async with serve(registry, rate_limits=limits) as served:
        client = served.client
        created = (await client.post("/matches", json={"game": "tictactoe"})).json()
        match, token = created["match"], created["seats"][0]["token"]
        assert (await client.get(f"/matches/{match}/view", headers=bearer(token))).is_success
        while (await client.get("/health")).status_code != 429:
            pass  # the address is spent
        seen = [
            (await client.get(f"/matches/{match}/view", headers=bearer(token))).status_code
            for _ in range(5)
        ]
        assert seen[:3] == [200, 200, 200] and seen[-1] == 429  # its own burst, then limited


async def test_a_json_body_is_parsed_once(served: Served, monkeypatch: pytest.MonkeyPatch) -> None:
    # The guard parses the body once (depth, repeated keys, 64-bit integers, finite numbers)
    # and the route takes its data from that value: the framework's decoder never runs on it.
    import litestar.connection.request as framework
    from gamehall.core import limits

    parsed: list[int] = []
    framework_parses: list[int] = []
    parse_json, decode_json = limits.parse_json, framework.decode_json

    def counted(data: Any, *args: Any) -> Any:
        parsed.append(1)
        return parse_json(data, *args)

    def framework_counted(data: Any, *args: Any, **kwargs: Any) -> Any:
        framework_parses.append(1)
        return decode_json(data, *args, **kwargs)

    monkeypatch.setattr(limits, "parse_json", counted)
    monkeypatch.setattr(framework, "decode_json", framework_counted)
    match, tokens = await new_match(served, players=2)
    assert parsed == [1] and framework_parses == []
    moved = await served.client.post(
        f"/matches/{match}/commands",
        json={"command": {"type": "tictactoe.PlaceMark", "cell": 4}, "command_id": "c1"},
        headers=bearer(tokens[0]),
    )
    assert moved.status_code in (200, 201), moved.text
    assert parsed == [1, 1] and framework_parses == []
    # Refusals still name the problem, before anything is stored.
    repeated = b'{"game": "tictactoe", "game": "gunsen"}'
    headers = {"Content-Type": "application/json"}
    refused(await served.client.post("/matches", content=repeated, headers=headers), 400, "twice")
