"""The lobby over HTTP: players, names, listing with filters and pages, spectators, rematch,
take-backs, clocks in views, deletion."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import pytest
from gamehall.core import Registry
from http_helpers import Served, bearer, serve

pytestmark = pytest.mark.anyio
ADMIN = "admin-secret-for-lobby-tests"


def place(cell: int) -> dict[str, Any]:
    return {"type": "tictactoe.PlaceMark", "cell": cell}


@pytest.fixture
async def served(registry: Registry) -> AsyncIterator[Served]:
    async with serve(registry, admin_token=ADMIN) as served:
        yield served


async def player(served: Served, name: str) -> tuple[str, str]:
    answer = await served.client.post("/players", json={"name": name})
    assert answer.status_code == 201, answer.text
    body = answer.json()
    assert body["name"] == " ".join(name.split()) and body["token"].startswith("gp_")
    return body["player"], body["token"]


async def lobby(served: Served, token: str | None = None, **query: Any) -> Any:
    answer = await served.client.get("/matches", params=query, headers=bearer(token))
    assert answer.status_code == 200, answer.text
    return answer.json()


async def test_players_create_join_and_list_their_matches(served: Served) -> None:
    client = served.client
    ada_id, ada = await player(served, "Ada")
    bob_id, bob = await player(served, "  Bob   Smith ")
    me = (await client.get("/players/me", headers=bearer(bob))).json()
    assert me == {"player": bob_id, "name": "Bob Smith"}
    made = await client.post(
        "/matches", json={"game": "tictactoe", "seating": "open", "clock": "move:60"},
        headers=bearer(ada),
    )  # fmt: skip
    assert made.status_code == 201, made.text
    match = made.json()["match"]
    assert made.json()["seats"] == []  # Ada acts with her player token
    listed = await lobby(served, open="true")
    assert [m["match"] for m in listed["matches"]] == [match]
    entry = listed["matches"][0]
    assert entry["seats"][0] == {
        "seat": 0,
        "name": "Ada",
        "player": ada_id,
        "bot": None,
        "open": False,
    }
    assert entry["seats"][1]["open"] and entry["open_seats"] == 1 and entry["clock"] == "move:60"
    claimed = await client.post(f"/matches/{match}/seats", json={}, headers=bearer(bob))
    assert claimed.status_code == 201 and claimed.json()["seat"] == 1
    assert (await lobby(served, open="true"))["matches"] == []
    assert [m["match"] for m in (await lobby(served, bob, mine="true"))["matches"]] == [match]
    # Both act with their player tokens; names are in every view, the board and the export.
    answer = await client.post(
        f"/matches/{match}/commands", json={"command": place(4), "command_id": "a"},
        headers=bearer(ada),
    )  # fmt: skip
    assert answer.status_code == 200, answer.text
    view = (await client.get(f"/matches/{match}/view", headers=bearer(bob))).json()
    assert view["seat"] == 1 and view["names"] == ["Ada", "Bob Smith"]
    assert view["clock"]["running"] == [1] and view["clock"]["mode"] == "move"
    board = (await client.get(f"/matches/{match}/board")).text
    assert board.startswith("Players: seat 1: Ada, seat 2: Bob Smith")
    described = (await client.get(f"/matches/{match}")).json()
    assert [s["name"] for s in described["seats"]] == ["Ada", "Bob Smith"]
    # Erasing a name takes it out of every view at once.
    erased = await client.delete("/players/me/name", headers=bearer(bob))
    assert erased.json() == {"player": bob_id, "name": None}
    view = (await client.get(f"/matches/{match}/view")).json()
    assert view["names"] == ["Ada", None]
    renamed = await client.put("/players/me/name", json={"name": "B."}, headers=bearer(bob))
    assert renamed.json()["name"] == "B."
    bad = await client.put("/players/me/name", json={"name": "x" * 41}, headers=bearer(bob))
    assert bad.status_code == 400
    unknown = await client.get("/players/me", headers=bearer("gp_" + "x" * 43))
    assert unknown.status_code == 401 and unknown.json()["error"] == "unauthorized"
    mine = await client.get("/matches", params={"mine": "true"})
    assert mine.status_code == 401


async def test_the_lobby_filters_and_pages(served: Served) -> None:
    client = served.client
    ada_id, ada = await player(served, "Ada")
    made = []
    for i in range(5):
        body = {"game": "tictactoe", "seating": "open" if i % 2 else "tokens"}
        answer = await client.post("/matches", json=body, headers=bearer(ada) if i < 2 else None)
        made.append(answer.json())
    river = await client.post("/matches", json={"game": "river-of-gold", "players": 2})
    assert river.status_code == 201
    # finish match 0 (Ada holds seat 0; seat 1 has a token)
    match0, token1 = made[0]["match"], made[0]["seats"][0]["token"]
    for i, cell in enumerate([4, 0, 2, 6, 3, 1, 5]):
        token = ada if i % 2 == 0 else token1
        body = {"command": place(cell), "command_id": f"c{i}"}
        sent = await client.post(f"/matches/{match0}/commands", json=body, headers=bearer(token))
        assert sent.status_code == 200, sent.text
    everything = await lobby(served)
    assert everything["total"] == 6 and len(everything["matches"]) == 6
    assert [m["match"] for m in (await lobby(served, state="finished"))["matches"]] == [match0]
    assert (await lobby(served, state="running"))["total"] == 5
    assert (await lobby(served, game="river-of-gold"))["total"] == 1
    assert (await lobby(served, game="tictactoe", open="true"))["total"] == 2  # 1 and 3
    assert {m["match"] for m in (await lobby(served, ada, mine="true"))["matches"]} == {
        made[0]["match"],
        made[1]["match"],
    }
    assert (await lobby(served, player=ada_id, state="running"))["total"] == 1
    seen: list[str] = []
    cursor = None
    while True:
        page = await lobby(served, limit=4, **({"cursor": cursor} if cursor else {}))
        seen += [m["match"] for m in page["matches"]]
        cursor = page["next"]
        if cursor is None:
            break
    assert len(seen) == 6 == len(set(seen))
    for query, code in [({"limit": 0}, 400), ({"limit": 501}, 400), ({"state": "paused"}, 400),
                        ({"cursor": "nonsense"}, 400)]:  # fmt: skip
        answer = await client.get("/matches", params=query)
        assert answer.status_code == code and "message" in answer.json()


async def test_spectators_rematch_undo_and_delete(served: Served) -> None:
    client = served.client
    _, ada = await player(served, "Ada")
    _, bob = await player(served, "Bob")
    match = (await client.post("/matches", json={"game": "tictactoe", "seating": "open"},
                               headers=bearer(ada))).json()["match"]  # fmt: skip
    await client.post(f"/matches/{match}/seats", json={}, headers=bearer(bob))

    async def send(token: str, cell: int, cid: str) -> Any:
        body = {"command": place(cell), "command_id": cid}
        return await client.post(f"/matches/{match}/commands", json=body, headers=bearer(token))

    await send(ada, 4, "a")
    await send(bob, 0, "b")
    asked = await client.post(f"/matches/{match}/undo", headers=bearer(bob))
    assert asked.status_code == 200 and asked.json()["state"] == "pending"
    assert asked.json()["needed"] == [0]
    waiting = (await client.get(f"/matches/{match}/undo")).json()
    assert waiting["seat"] == 1
    view = (await client.get(f"/matches/{match}/view", headers=bearer(ada))).json()
    assert view["undo"]["needed"] == [0]
    done = await client.put(f"/matches/{match}/undo", json={"agree": True}, headers=bearer(ada))
    assert done.json()["state"] == "done"
    assert (await client.get(f"/matches/{match}/undo")).status_code == 404
    for i, cell in enumerate([0, 2, 6, 3, 1, 5]):  # Bob plays again from seat 1's turn
        answer = await send(bob if i % 2 == 0 else ada, cell, f"x{i}")
        assert answer.status_code == 200, answer.text
    assert (await client.get(f"/matches/{match}")).json()["finished"]
    counted = (await client.get(f"/matches/{match}/spectators")).json()
    assert counted == {"match": match, "count": 0, "spectators": []}
    # A rematch: same players, seats rotated, linked both ways; asked again, the same one.
    again = await client.post(f"/matches/{match}/rematch", json={}, headers=bearer(bob))
    assert again.status_code == 201, again.text
    new = again.json()["match"]
    same = await client.post(f"/matches/{match}/rematch", json={}, headers=bearer(ada))
    assert same.json()["match"] == new
    described = (await client.get(f"/matches/{new}")).json()
    assert [s["name"] for s in described["seats"]] == ["Bob", "Ada"]
    assert described["rematch_of"] == match
    assert (await client.get(f"/matches/{match}")).json()["rematch"] == new
    spectator = await client.post(f"/matches/{new}/rematch", json={})
    assert spectator.status_code in (401, 403)
    # Deleting: the admin only, a finished match only.
    refused = await client.delete(f"/matches/{match}", headers=bearer(ada))
    assert refused.status_code == 403
    running = await client.delete(f"/matches/{new}", headers=bearer(ADMIN))
    assert running.status_code == 403 and "running" in running.json()["message"]
    gone = await client.delete(f"/matches/{match}", headers=bearer(ADMIN))
    assert gone.status_code == 200 and gone.json() == {"match": match, "deleted": True}
    assert (await client.get(f"/matches/{match}")).status_code == 404
    assert match not in [m["match"] for m in (await lobby(served))["matches"]]
    assert served.hall.store.seat_tokens(match) == {}  # no seat token is left behind


async def test_a_spectator_stream_is_counted_and_carries_clock_messages(registry: Registry) -> None:
    async with serve(registry, admin_token=ADMIN, live=True, heartbeat=0.2) as served:
        client = served.client
        _, ada = await player(served, "Ada")
        made = await client.post("/matches", json={"game": "tictactoe", "clock": "match:300+3"},
                                 headers=bearer(ada))  # fmt: skip
        match = made.json()["match"]
        token1 = made.json()["seats"][0]["token"]
        kinds: list[str] = []
        async with client.stream("GET", f"/matches/{match}/events", headers=bearer(None)) as stream:
            counted = False
            async for line in stream.aiter_lines():
                if line.startswith("event:"):
                    kinds.append(line.split(":", 1)[1].strip())
                    if kinds[-1] == "clock" and not counted:
                        seen = (await client.get(f"/matches/{match}/spectators")).json()
                        assert seen["count"] == 1
                        counted = True
                        body = {"command": place(4), "command_id": "a"}
                        await client.post(f"/matches/{match}/commands", json=body,
                                          headers=bearer(ada))  # fmt: skip
                    elif kinds.count("clock") == 2:
                        break
        assert kinds.count("clock") == 2 and "event" in kinds and "turn" in kinds
        assert token1


async def test_a_fork_with_open_seats_lists_them_and_a_player_takes_one(served: Served) -> None:
    client = served.client
    _, ada = await player(served, "Ada")
    cleo_id, cleo = await player(served, "Cleo")
    made = await client.post("/matches", json={"game": "tictactoe"}, headers=bearer(ada))
    match, tokens = made.json()["match"], [s["token"] for s in made.json()["seats"]]
    for turn, cell in enumerate((0, 3, 1, 4, 2)):  # X takes the top row
        headers = bearer(ada) if turn % 2 == 0 else bearer(tokens[0])
        sent = await client.post(
            f"/matches/{match}/commands", json={"command": place(cell), "command_id": f"m{turn}"},
            headers=headers,
        )  # fmt: skip
        assert sent.status_code == 200, sent.text
    forked = await client.post(f"/matches/{match}/fork", json={"at_seq": 3, "seating": "open"})
    assert forked.status_code == 201, forked.text
    new = forked.json()["match"]
    entry = next(m for m in (await lobby(served, open="true"))["matches"] if m["match"] == new)
    assert entry["open_seats"] == 2
    claimed = await client.post(f"/matches/{new}/seats", json={"seat": 1}, headers=bearer(cleo))
    assert claimed.status_code == 201, claimed.text
    mine = await lobby(served, cleo, mine="true")
    assert [m["match"] for m in mine["matches"]] == [new]
    seats = mine["matches"][0]["seats"]
    assert seats[1]["player"] == cleo_id and seats[1]["name"] == "Cleo" and seats[0]["open"]
