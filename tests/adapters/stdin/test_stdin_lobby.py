"""The lobby over stdio: players, filters and pages, take-backs, clocks, spectators, rematch."""

from __future__ import annotations

from typing import Any

from gamehall.core import Registry

from tests.adapters.stdin.test_stdin_protocol import Session, run_session

PLACE = "tictactoe.PlaceMark"


async def ok(s: Session, request: dict[str, Any]) -> Any:
    lines = await s.ask(request)
    answers = [line for line in lines if line.get("id") == request["id"] and "ok" in line]
    assert answers and answers[0]["ok"], lines
    return answers[0]["result"]


def test_the_lobby_lists_filters_and_pages_over_stdio(registry: Registry) -> None:
    async def body(s: Session) -> None:
        ada = await ok(s, {"id": 1, "op": "register", "name": "Ada"})
        bob = await ok(s, {"id": 2, "op": "register", "name": "Bob"})
        assert ada["name"] == "Ada" and ada["token"].startswith("gp_")
        first = await ok(s, {"id": 3, "op": "create", "game": "tictactoe", "seed": 1,
                             "players_by_seat": {"0": ada["player"]}, "open": [1],
                             "clock": "move:30"})  # fmt: skip
        other = await ok(s, {"id": 4, "op": "create", "game": "tictactoe", "seed": 2})
        await ok(s, {"id": 5, "op": "create", "game": "river-of-gold", "players": 2})
        page = await ok(s, {"id": 6, "op": "lobby", "open": True})
        assert [m["match"] for m in page["matches"]] == [first["match"]] and page["total"] == 1
        entry = page["matches"][0]
        assert entry["seats"][0]["name"] == "Ada" and entry["clock"] == "move:30"
        taken = await ok(s, {"id": 7, "op": "take_seat", "match": first["match"],
                             "token": bob["token"]})  # fmt: skip
        assert taken["seat"] == 1
        mine = await ok(s, {"id": 8, "op": "lobby", "token": bob["token"]})
        assert [m["match"] for m in mine["matches"]] == [first["match"]]
        assert (await ok(s, {"id": 9, "op": "lobby", "game": "river-of-gold"}))["total"] == 1
        pages, cursor, seen = 0, None, []
        while True:
            request: dict[str, Any] = {"id": 10 + pages, "op": "lobby", "limit": 2}
            if cursor:
                request["cursor"] = cursor
            page = await ok(s, request)
            seen += [m["match"] for m in page["matches"]]
            pages += 1
            cursor = page["next"]
            if cursor is None:
                break
        assert pages == 2 and len(set(seen)) == 3
        # Names and the clock in the view; a take-back by consent.
        match = first["match"]
        await ok(s, {"id": 20, "op": "command", "match": match, "seat": 0,
                     "command": {"type": PLACE, "cell": 4}, "command_id": "a"})  # fmt: skip
        view = await ok(s, {"id": 21, "op": "view", "match": match, "seat": 1})
        assert view["names"] == ["Ada", "Bob"] and view["clock"]["running"] == [1]
        assert view["board"].startswith("Players: seat 1: Ada, seat 2: Bob")
        asked = await ok(s, {"id": 22, "op": "undo", "match": match, "seat": 0})
        assert asked["state"] == "pending" and asked["needed"] == [1]
        done = await ok(s, {"id": 23, "op": "answer_undo", "match": match, "seat": 1,
                            "agree": True})  # fmt: skip
        assert done["state"] == "done"
        assert (await ok(s, {"id": 24, "op": "view", "match": match, "seat": 0}))["legal"]
        bad = await s.ask({"id": 25, "op": "lobby", "limit": 0})
        assert not bad[0]["ok"] and bad[0]["error"]["code"] == "invalid_request"
        bad = await s.ask({"id": 26, "op": "lobby", "cursor": "junk"})
        assert not bad[0]["ok"] and bad[0]["error"]["code"] == "invalid_query"
        # A spectator's watch is counted while it runs.
        await ok(s, {"id": 27, "op": "watch", "match": other["match"]})
        seen_by = await ok(s, {"id": 28, "op": "spectators", "match": other["match"]})
        assert seen_by["count"] == 1
        await ok(s, {"id": 29, "op": "unwatch", "watch": 27})
        assert (await ok(s, {"id": 30, "op": "spectators", "match": other["match"]}))["count"] == 0

    run_session(registry, body)
