"""Stores written by an earlier release open with every match, seat, player and token working.

The fixtures under tests/fixtures/stores were written by ``make_fixtures.py`` with the release
before the lobby became events (schema 3): a SQLite file and a ``pg_dump`` of a PostgreSQL
schema, each with a JSON file of what they hold. Each test opens a copy, twice (opening again
changes nothing), and checks it through the HTTP API as people use it.
"""

from __future__ import annotations

import json
import secrets
import shutil
import subprocess
import time
from pathlib import Path
from typing import Any

import anyio
import httpx
import pytest
from gamehall.adapters.http import create_app
from gamehall.core import Registry
from gamehall.core.hall import Hall
from gamehall.core.store import Store
from gamehall.core.store.opening import open_store_url

from tests.postgres import BASE_URL, drop_schema, need_postgres, schema_url

FIXTURES = Path(__file__).parent.parent / "fixtures" / "stores"


def expected(name: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((FIXTURES / name).read_text())
    return data


async def check_store(store: Store, registry: Registry, want: dict[str, Any], play: bool) -> None:
    """Check everything the fixture holds through the HTTP API; with ``play``, act too."""
    async with Hall(store, registry, idle_seconds=60.0) as hall:
        app = create_app(hall, rate_limits=None)
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://t") as client:
            for player in want["players"].values():
                me = await client.get("/players/me", headers=_bearer(player["token"]))
                assert me.status_code == 200, me.text
                assert me.json() == {"player": player["id"], "name": player["name"]}
            for label, match in want["matches"].items():
                got = await client.get(f"/matches/{match['match']}")
                assert got.status_code == 200, (label, got.text)
                body = got.json()
                if match["clock"]:  # its time ran out since: the hall plays the fallbacks
                    assert body["seq"] >= match["seq"], label
                else:
                    assert body["seq"] == match["seq"], label
                    assert body["finished"] == match["finished"], label
                assert body.get("rematch") == match["rematch"], label
                assert body.get("rematch_of") == match["rematch_of"], label
                assert (body.get("clock") or {}).get("mode") == match["clock"], label
                seats = [{k: s.get(k) for k in match["seats"][0]} for s in body["seats"]]
                assert seats == match["seats"], label
            for held in want["seat_tokens"]:
                view = await client.get(
                    f"/matches/{held['match']}/view", headers=_bearer(held["token"])
                )
                assert view.status_code == 200, view.text
                assert view.json()["seat"] == held["seat"]
            mine = await client.get(
                "/matches?mine=true", headers=_bearer(want["players"]["Alice"]["token"])
            )
            assert mine.status_code == 200, mine.text
            alices = {
                m["match"]
                for m in want["matches"].values()
                if any(s["player"] == want["players"]["Alice"]["id"] for s in m["seats"])
            }
            assert {m["match"] for m in mine.json()["matches"]} == alices
            if play:
                await _play_on(client, want)
        app.state.gamehall.seats.close()


async def _play_on(client: httpx.AsyncClient, want: dict[str, Any]) -> None:
    """Take the open seat of the open match, move in a running one, claim an anonymous seat."""
    carol = want["players"]["Carol"]
    match = want["matches"]["open"]["match"]
    taken = await client.post(f"/matches/{match}/seats", json={}, headers=_bearer(carol["token"]))
    assert taken.status_code == 201, taken.text
    assert taken.json()["seat"] == 1
    again = await client.post(f"/matches/{match}/seats", json={"seat": 1})
    assert again.status_code == 409, again.text
    both = want["matches"]["players"]["match"]
    move = await client.post(
        f"/matches/{both}/commands",
        json={"command": {"type": "tictactoe.PlaceMark", "cell": 8}, "command_id": "later-8"},
        headers=_bearer(want["players"]["Alice"]["token"]),
    )
    assert move.status_code == 200, move.text
    anon = want["matches"]["anonymous"]["match"]
    claimed = await client.post(f"/matches/{anon}/seats", json={})
    assert claimed.status_code == 201, claimed.text
    assert claimed.json()["seat"] == 1


def check_due(store: Store, want: dict[str, Any]) -> None:
    """The store of an older release gives each running timed match its next expiry, from
    the clocks its last event records: the timed match's time ran out long ago."""
    timed = [m["match"] for m in want["matches"].values() if m["clock"] and not m["finished"]]
    assert timed
    assert [d.stream for d in store.due_matches(time.time())] == timed
    assert all(d.deadline < time.time() - 3600 for d in store.due_matches(time.time()))


def _bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def test_sqlite_store_of_schema_3_opens_with_everything(registry: Registry, tmp_path: Path) -> None:
    path = tmp_path / "old.sqlite"
    shutil.copy(FIXTURES / "v3.sqlite", path)
    want = expected("v3.json")
    for opened, play in enumerate((False, False, True)):  # opening again changes nothing
        store = open_store_url(str(path), registry.codec)
        try:
            if opened == 0:
                check_due(store, want)  # the fallback is played once a hall runs
            anyio.run(check_store, store, registry, want, play)
        finally:
            store.close()


def test_postgres_store_of_schema_3_opens_with_everything(registry: Registry) -> None:
    need_postgres()
    if shutil.which("psql") is None:
        pytest.skip("psql is not installed: the dump is restored with it")
    schema = f"test_{secrets.token_hex(6)}"
    dump = (FIXTURES / "v3.pg.sql").read_text().replace("__SCHEMA__", schema)
    try:
        subprocess.run(
            ["psql", "-q", "-v", "ON_ERROR_STOP=1", BASE_URL],
            input=dump, text=True, check=True, capture_output=True,
        )  # fmt: skip
        want = expected("v3.pg.json")
        for opened, play in enumerate((False, False, True)):
            store = open_store_url(schema_url(schema), registry.codec)
            try:
                if opened == 0:
                    check_due(store, want)
                anyio.run(check_store, store, registry, want, play)
            finally:
                store.close()
    finally:
        drop_schema(schema)


def test_a_newer_schema_is_refused_with_its_number(registry: Registry, tmp_path: Path) -> None:
    import sqlite3

    from gamehall.core.errors import DamagedStore

    path = tmp_path / "new.sqlite"
    shutil.copy(FIXTURES / "v3.sqlite", path)
    with sqlite3.connect(path) as db:
        db.execute("UPDATE gamehall SET value = '99' WHERE key = 'schema'")
    db.close()
    with pytest.raises(DamagedStore, match="schema 99"):
        open_store_url(str(path), registry.codec)
