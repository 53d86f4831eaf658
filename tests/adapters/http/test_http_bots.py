"""Bot seats over HTTP: a create request seats bots beside token and open seats."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import anyio
import pytest
from gamehall.core import Registry
from http_helpers import Served, bearer, serve

pytestmark = pytest.mark.anyio


@pytest.fixture
async def served(registry: Registry) -> AsyncIterator[Served]:
    async with serve(registry) as served:
        yield served


async def create(served: Served, **body: Any) -> Any:
    return await served.client.post("/matches", json={"game": "tictactoe", "seed": 3, **body})


async def test_a_bot_seat_answers_every_move_of_the_token_seat(served: Served) -> None:
    created = await create(served, seats=["token", "bot:mcts:400"])
    assert created.status_code == 201, created.text
    data = created.json()
    assert [s["seat"] for s in data["seats"]] == [0] and data["bots"] == {"1": "mcts:400"}
    match, token = data["match"], data["seats"][0]["token"]
    while True:
        view = (await served.client.get(f"/matches/{match}/view", headers=bearer(token))).json()
        if view["outcome"] is not None:
            break
        if "0" not in view["awaiting"]:
            await anyio.sleep(0.01)  # the engine's bot is thinking
            continue
        body = {"command": view["legal"][0], "command_id": f"c{view['seq']}"}
        sent = await served.client.post(
            f"/matches/{match}/commands", json=body, headers=bearer(token)
        )
        assert sent.status_code == 200, sent.text
    described = (await served.client.get(f"/matches/{match}")).json()
    assert described["seats"] == [
        {"seat": 0, "claimed": True, "bot": None, "name": None, "player": None},
        {"seat": 1, "claimed": True, "bot": "mcts:400", "name": "bot (mcts:400)", "player": None},
    ]
    assert 1 in view["outcome"]["winners"] or not view["outcome"]["winners"]  # never loses


async def test_a_bot_seat_cannot_be_claimed_and_no_token_acts_for_it(served: Served) -> None:
    created = (await create(served, seats=["open", "bot"])).json()
    match = created["match"]
    assert created["seats"] == [] and created["bots"] == {"1": "random"}
    claimed = await served.client.post(f"/matches/{match}/seats", json={"seat": 1})
    assert claimed.status_code == 409 and "taken" in claimed.json()["message"]
    mine = (await served.client.post(f"/matches/{match}/seats", json={})).json()
    assert mine["seat"] == 0


@pytest.mark.parametrize(
    ("seats", "message"),
    [
        (["token"], "seats lists 1 roles for 2 players"),
        (["token", "bot:wizard"], "unknown bot 'wizard'"),
        (["token", "robot"], "seats"),
        (["token", "bot:mcts:0"], "iterations go from 1"),
    ],
)
async def test_bad_seats_are_refused_and_create_nothing(
    served: Served, seats: list[str], message: str
) -> None:
    before = len(served.hall.matches())
    refused = await create(served, seats=seats)
    assert refused.status_code == 400 and message in refused.json()["message"], refused.text
    assert len(served.hall.matches()) == before


async def test_mcts_is_refused_for_a_game_with_hidden_information(served: Served) -> None:
    refused = await served.client.post(
        "/matches", json={"game": "toy-battle", "seats": ["token", "bot:mcts:100"]}
    )
    assert refused.status_code == 400 and "use ismcts" in refused.json()["message"]
    fine = await served.client.post(
        "/matches", json={"game": "toy-battle", "seats": ["token", "bot:ismcts:20"]}
    )
    assert fine.status_code == 201 and fine.json()["bots"] == {"1": "ismcts:20"}


async def test_a_rematch_chooses_its_bots_by_strength(served: Served) -> None:
    created = (await create(served, seats=["token", "bot"])).json()
    match, token = created["match"], created["seats"][0]["token"]
    while True:
        view = (await served.client.get(f"/matches/{match}/view", headers=bearer(token))).json()
        if view["outcome"] is not None:
            break
        if "0" not in view["awaiting"]:
            await anyio.sleep(0.01)
            continue
        body = {"command": view["legal"][0], "command_id": f"c{view['seq']}"}
        await served.client.post(f"/matches/{match}/commands", json=body, headers=bearer(token))
    url = f"/matches/{match}/rematch"
    refused = await served.client.post(url, json={"bots": "clever"}, headers=bearer(token))
    assert refused.status_code == 400 and "bots" in refused.json()["message"]
    again = await served.client.post(url, json={"bots": "strong"}, headers=bearer(token))
    assert again.status_code == 201, again.text
    assert again.json()["bots"] == {"0": "mcts:5000"}  # the strong bot of tic-tac-toe, rotated
    described = (await served.client.get(f"/matches/{again.json()['match']}")).json()
    assert described["seats"][0]["name"] == "bot (mcts:5000)"
