"""The HTTP API: games, matches, seats, commands, history, fork, export, and bad input."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from typing import Any

import pytest
from gamehall.core import Registry
from http_helpers import Served, bearer, serve

pytestmark = pytest.mark.anyio
ADMIN = "admin-secret-for-tests"


def place(cell: int) -> dict[str, Any]:
    return {"type": "tictactoe.PlaceMark", "cell": cell}


@pytest.fixture
async def served(registry: Registry) -> AsyncIterator[Served]:
    async with serve(registry, admin_token=ADMIN, max_body=4096) as served:
        yield served


async def new_match(served: Served, **body: Any) -> tuple[str, dict[int, str]]:
    response = await served.client.post("/matches", json={"game": "tictactoe", "seed": 5, **body})
    assert response.status_code == 201, response.text
    data = response.json()
    return data["match"], {s["seat"]: s["token"] for s in data["seats"]}


async def send(served: Served, match: str, token: str | None, command: Any, cid: str) -> Any:
    body = {"command": command, "command_id": cid}
    return await served.client.post(f"/matches/{match}/commands", json=body, headers=bearer(token))


async def test_games_list_options_expansions_and_command_schemas(served: Served) -> None:
    games = (await served.client.get("/games")).json()
    ttt = next(g for g in games if g["id"] == "tictactoe")
    assert ttt["min_players"] == ttt["max_players"] == 2
    assert "tictactoe.PlaceMark" in ttt["commands"]
    assert {e["id"] for e in ttt["expansions"]} >= {"tictactoe-misere"}
    one = await served.client.get("/games/tictactoe")
    assert one.json() == ttt
    missing = await served.client.get("/games/chess")
    assert missing.status_code == 404 and "chess" in missing.json()["message"]


async def test_create_gives_one_distinct_token_per_seat_and_play_works(served: Served) -> None:
    match, tokens = await new_match(served)
    assert sorted(tokens) == [0, 1] and len(set(tokens.values())) == 2
    assert all(len(t) >= 40 for t in tokens.values())
    view = (await served.client.get(f"/matches/{match}/view", headers=bearer(tokens[0]))).json()
    assert view["seat"] == 0 and view["awaiting"] == {
        "0": {"kind": "place", "prompt": view["awaiting"]["0"]["prompt"]}
    }
    assert place(4) in view["legal"]
    ack = await send(served, match, tokens[0], place(4), "m1")
    assert ack.status_code == 200 and ack.json()["events"][0]["event"]["cell"] == 4
    info = (await served.client.get(f"/matches/{match}")).json()
    assert info["seq"] == ack.json()["last_seq"] and list(info["awaiting"]) == ["1"]
    assert [s["claimed"] for s in info["seats"]] == [True, True]
    spectator = (await served.client.get(f"/matches/{match}/view")).json()
    assert spectator["seat"] is None and spectator["legal"] == []
    board = await served.client.get(f"/matches/{match}/board")
    assert board.headers["content-type"].startswith("text/plain") and "X" in board.text


async def test_a_retry_with_the_same_id_gets_the_same_answer(served: Served) -> None:
    match, tokens = await new_match(served)
    first = (await send(served, match, tokens[0], place(0), "same")).json()
    again = (await send(served, match, tokens[0], place(0), "same")).json()
    assert again["duplicate"] is True and first["duplicate"] is False
    assert again["events"] == first["events"] and again["last_seq"] == first["last_seq"]
    assert served.hall.info(match).version == first["last_seq"]
    # The id names that command: another command with it is a conflict, not a retry.
    changed = await send(served, match, tokens[0], place(8), "same")
    assert changed.status_code == 409 and changed.json()["error"] == "command_id_conflict"
    assert "names another command" in changed.json()["message"]
    # Ids are per match: seat 1 reusing it is refused and never gets seat 0's events.
    other = await send(served, match, tokens[1], place(1), "same")
    assert other.status_code == 409 and other.json()["error"] == "command_id_conflict"
    assert "events" not in other.json()
    assert served.hall.info(match).version == first["last_seq"]


async def test_a_token_acts_only_for_its_own_seat(served: Served) -> None:
    match, tokens = await new_match(served)
    refused = await send(served, match, tokens[1], place(0), "x")
    assert refused.status_code == 409 and refused.json()["error"] == "not_awaited"
    _, other_tokens = await new_match(served)
    foreign = await send(served, match, other_tokens[0], place(0), "y")
    assert foreign.status_code == 401 and foreign.json()["error"] == "unauthorized"
    admin = await send(served, match, ADMIN, place(0), "z")
    assert admin.status_code == 403
    assert served.hall.info(match).version == 1


async def test_open_seating_claims_seats_one_by_one(served: Served) -> None:
    created = await served.client.post("/matches", json={"game": "tictactoe", "seating": "open"})
    assert created.status_code == 201 and created.json()["seats"] == []
    match = created.json()["match"]
    second = await served.client.post(f"/matches/{match}/seats", json={"seat": 1})
    assert second.status_code == 201 and second.json()["seat"] == 1
    taken = await served.client.post(f"/matches/{match}/seats", json={"seat": 1})
    assert taken.status_code == 409 and taken.json()["error"] == "seat_taken"
    assert "seat 1 " in taken.json()["message"]
    first = await served.client.post(f"/matches/{match}/seats", json={})
    assert first.json()["seat"] == 0
    full = await served.client.post(f"/matches/{match}/seats", json={})
    assert full.status_code == 409 and "taken" in full.json()["message"]
    info = (await served.client.get(f"/matches/{match}")).json()
    assert [s["claimed"] for s in info["seats"]] == [True, True]
    ok = await send(served, match, first.json()["token"], place(4), "a")
    assert ok.status_code == 200
    closed, _ = await new_match(served)
    none = await served.client.post(f"/matches/{closed}/seats", json={})
    assert none.status_code == 409


async def test_history_pages_from_a_seq(served: Served) -> None:
    match, tokens = await new_match(served)
    for n, (seat, cell) in enumerate([(0, 0), (1, 3), (0, 1), (1, 4)]):
        assert (await send(served, match, tokens[seat], place(cell), f"h{n}")).status_code == 200
    whole = (await served.client.get(f"/matches/{match}/history")).json()
    assert [e["seq"] for e in whole["events"]] == [1, 2, 3, 4, 5]
    assert whole["events"][0]["event"]["seed"] is None  # the seed never leaves
    page = (await served.client.get(f"/matches/{match}/history?after=2&limit=2")).json()
    assert [e["seq"] for e in page["events"]] == [3, 4] and page["upto"] == 4
    rest = (await served.client.get(f"/matches/{match}/history?after={page['upto']}")).json()
    assert [e["seq"] for e in rest["events"]] == [5]
    mine = (await served.client.get(f"/matches/{match}/history", headers=bearer(tokens[0]))).json()
    assert mine["seat"] == 0 and mine["events"][1]["meta"]["command_id"] == "h0"
    theirs = (
        await served.client.get(f"/matches/{match}/history", headers=bearer(tokens[1]))
    ).json()
    assert "command_id" not in theirs["events"][1]["meta"]


async def finish(served: Served, match: str, tokens: dict[int, str]) -> None:
    for n, (seat, cell) in enumerate([(0, 0), (1, 3), (0, 1), (1, 4), (0, 2)]):
        assert (await send(served, match, tokens[seat], place(cell), f"f{n}")).status_code == 200


async def test_full_log_and_fork_only_for_admin_or_after_the_end(served: Served) -> None:
    match, tokens = await new_match(served)
    await send(served, match, tokens[0], place(0), "a")
    for token in (None, tokens[0], tokens[1]):
        log = await served.client.get(f"/matches/{match}/log", headers=bearer(token))
        assert log.status_code == 403 and "admin" in log.json()["message"]
        fork = await served.client.post(
            f"/matches/{match}/fork", json={"at_seq": 1}, headers=bearer(token)
        )
        assert fork.status_code == 403
    log = await served.client.get(f"/matches/{match}/log", headers=bearer(ADMIN))
    header, *lines = [json.loads(line) for line in log.text.splitlines()]
    assert log.headers["content-type"].startswith("application/x-ndjson")
    assert header["format"] == "gamehall-log" and header["match"] == match
    assert header["events"] == 2 and header["seat"] is None
    assert [r["seq"] for r in lines] == [1, 2] and lines[0]["event"]["seed"] == 5
    fork = await served.client.post(
        f"/matches/{match}/fork", json={"at_seq": 2}, headers=bearer(ADMIN)
    )
    assert fork.status_code == 201
    forked = fork.json()
    info = (await served.client.get(f"/matches/{forked['match']}")).json()
    assert info["forked_from"] == match and info["fork_seq"] == 2 and info["seq"] == 2
    assert len(forked["seats"]) == 2 and tokens[1] not in {s["token"] for s in forked["seats"]}
    await finish(served, *(await new_match(served)))


async def test_after_the_end_anyone_may_export_and_fork(served: Served) -> None:
    match, tokens = await new_match(served)
    await finish(served, match, tokens)
    assert (await served.client.get(f"/matches/{match}")).json()["outcome"]["winners"] == [0]
    log = await served.client.get(f"/matches/{match}/log")
    assert log.status_code == 200 and len(log.text.splitlines()) == 1 + 7
    fork = await served.client.post(f"/matches/{match}/fork", json={"at_seq": 4})
    assert fork.status_code == 201
    inside = await served.client.post(f"/matches/{match}/fork", json={"at_seq": 9})
    assert inside.status_code == 400 and inside.json()["error"] == "invalid_fork"
    seeded = await served.client.post(f"/matches/{match}/fork", json={"at_seq": 4, "seed": 3})
    assert seeded.status_code == 403 and "seed" in seeded.json()["message"]


BAD_CREATES = [
    (b'{"game": "tictactoe",', 400, "invalid_request", "malformed"),
    (b'{"game": "tictactoe", "players": "two"}', 400, "invalid_request", "players"),
    (b'{"game": "tictactoe", "colour": "red"}', 400, "invalid_request", "colour"),
    (b'{"game": "tictactoe", "seating": "lobby"}', 400, "invalid_request", "seating"),
    (b"[1, 2]", 400, "invalid_request", "object"),
    (b"", 400, "invalid_request", "body"),
    (b'{"game": "chess"}', 400, "unknown_game", "chess"),
    (b'{"game": "tictactoe", "players": 3}', 400, "invalid_options", "3"),
    (b'{"game": "tictactoe", "expansions": ["nope"]}', 400, "unknown_game", "nope"),
    (b'{"game": "tictactoe", "options": {"size": 4}}', 400, "invalid_options", "size"),
    (b'{"game": "tictactoe", "seed": -1}', 400, "invalid_request", "seed"),
    (b'{"game": "' + b"x" * 5000 + b'"}', 413, "body_too_large", "limit"),
]


@pytest.mark.parametrize(("body", "status", "code", "named"), BAD_CREATES)
async def test_bad_creates_are_4xx_that_name_the_problem_and_store_nothing(
    served: Served, body: bytes, status: int, code: str, named: str
) -> None:
    response = await served.client.post(
        "/matches", content=body, headers={"content-type": "application/json"}
    )
    assert response.status_code == status, response.text
    error = response.json()
    assert error["error"] == code and error["status"] == status
    assert named in error["message"], error
    assert served.hall.matches() == []


async def test_bad_commands_are_4xx_that_name_the_problem_and_store_nothing(served: Served) -> None:
    match, tokens = await new_match(served)
    t0 = tokens[0]
    url = f"/matches/{match}/commands"
    cases: list[tuple[Any, dict[str, str], int, str, str]] = [
        (b'{"command": ', bearer(t0), 400, "invalid_request", "malformed"),
        ({"command": place(1)}, bearer(t0), 400, "invalid_request", "command_id"),
        (
            {"command": place(1), "command_id": "a", "extra": 1},
            bearer(t0),
            400,
            "invalid_request",
            "extra",
        ),
        (
            {"command": place(1), "command_id": "bad id!"},
            bearer(t0),
            400,
            "invalid_request",
            "command_id",
        ),
        (
            {"command": "PlaceMark", "command_id": "a"},
            bearer(t0),
            400,
            "invalid_request",
            "command",
        ),
        (
            {"command": {"type": "tictactoe.PlaceMark", "cell": "x"}, "command_id": "a"},
            bearer(t0),
            400,
            "invalid_command",
            "cell",
        ),
        (
            {"command": {"type": "tictactoe.PlaceMark", "cell": 9}, "command_id": "a"},
            bearer(t0),
            400,
            "invalid_command",
            "8",
        ),
        (
            {"command": {"type": "tictactoe.Resign"}, "command_id": "a"},
            bearer(t0),
            400,
            "invalid_command",
            "Resign",
        ),
        (
            {"command": {"type": "tictactoe.PlaceMark", "cell": 1, "z": 0}, "command_id": "a"},
            bearer(t0),
            400,
            "invalid_command",
            "z",
        ),
        ({"command": place(1), "command_id": "a"}, {}, 401, "unauthorized", "token"),
        ({"command": place(1), "command_id": "a"}, bearer("forged"), 401, "unauthorized", "token"),
        (
            {"command": place(1), "command_id": "a"},
            {"authorization": "Basic abc"},
            401,
            "unauthorized",
            "Bearer",
        ),
        (
            {"command": place(1), "command_id": "a"},
            bearer(tokens[1]),
            409,
            "not_awaited",
            "waiting for seat 1",
        ),
        (
            {"command": place(1), "command_id": "x" * 5000},
            bearer(t0),
            413,
            "body_too_large",
            "limit",
        ),
    ]
    for body, headers, status, code, named in cases:
        content = body if isinstance(body, bytes) else json.dumps(body).encode()
        headers = {**headers, "content-type": "application/json"}
        response = await served.client.post(url, content=content, headers=headers)
        assert response.status_code == status, (body, response.text)
        assert response.json()["error"] == code and named in response.json()["message"], (
            response.text
        )
        assert served.hall.info(match).version == 1
    await send(served, match, t0, place(4), "ok")
    illegal = await send(served, match, tokens[1], place(4), "taken")
    assert illegal.status_code == 409 and illegal.json()["rule"] == "TTT-2"
    assert "taken" in illegal.json()["message"] and served.hall.info(match).version == 2


@pytest.mark.parametrize("path", ["/view", "/board", "/history", "", "/log"])
async def test_unknown_matches_are_404(served: Served, path: str) -> None:
    for match in ("0123456789abcdef", "not a match!", "x" * 200):
        response = await served.client.get(f"/matches/{match}{path}", headers=bearer("whatever"))
        assert response.status_code == 404, response.text
        assert response.json()["error"] in ("unknown_match", "not_found")
    command = await send(served, "0123456789abcdef", "tok", place(0), "a")
    assert command.status_code == 404 and "0123456789abcdef" in command.json()["message"]
    assert (await served.client.get("/nowhere")).json()["error"] == "not_found"


async def test_a_server_error_carries_neither_traceback_nor_state(
    served: Served, monkeypatch: pytest.MonkeyPatch
) -> None:
    match, tokens = await new_match(served)

    def broken(*args: Any) -> Any:
        raise RuntimeError("the secret hand is gem-07")

    monkeypatch.setattr(served.hall, "view", broken)
    response = await served.client.get(f"/matches/{match}/view", headers=bearer(tokens[0]))
    assert response.status_code == 500
    body = response.text
    assert response.json()["error"] == "internal_error" and "incident" in body
    assert "gem-07" not in body and "Traceback" not in body and "RuntimeError" not in body


async def test_health_and_body_limit_option(registry: Registry) -> None:
    async with serve(registry, max_body=100) as served:
        health = (await served.client.get("/health")).json()
        assert health["status"] == "ok" and health["games"] == len(registry.games)
        small = await served.client.post("/matches", json={"game": "tictactoe", "seating": "open"})
        assert small.status_code == 201
        big = await served.client.post(
            "/matches", json={"game": "tictactoe", "options": {"x": "y" * 100}}
        )
        assert big.status_code == 413


async def test_a_clan_trades_on_another_clans_turn_over_http(served: Served) -> None:
    match, tokens = await new_match(served, game="river-of-gold", players=2, seed=1)
    view = (await served.client.get(f"/matches/{match}/view", headers=bearer(tokens[1]))).json()
    assert list(view["awaiting"]) == ["0"]
    assert view["legal"] == [{"type": "river_of_gold.BuyFavour"}], "its free actions only"
    response = await send(served, match, tokens[1], {"type": "river_of_gold.BuyFavour"}, "t1")
    assert response.status_code == 200, response.text
    after = (await served.client.get(f"/matches/{match}/view", headers=bearer(tokens[1]))).json()
    assert list(after["awaiting"]) == ["0"], "a trade takes no turn"
    assert after["view"]["players"][1]["favour"] == view["view"]["players"][1]["favour"] + 1
    refused = await send(served, match, tokens[1], {"type": "river_of_gold.EndTurn"}, "t2")
    assert refused.status_code == 409 and refused.json()["error"] == "not_awaited"
