"""People and seats: a player holding two seats acts for either; names that render blank,
stack marks or look like another seat holder's name are refused."""

from __future__ import annotations

from typing import Any

import pytest
from gamehall.core import Registry
from gamehall.core.names import look_alike, skeleton
from http_helpers import Served, bearer, serve

pytestmark = pytest.mark.anyio


@pytest.fixture
async def served(registry: Registry) -> Any:
    async with serve(registry) as served:
        yield served


async def player(served: Served, name: str) -> str:
    made = await served.client.post("/players", json={"name": name})
    assert made.status_code == 201, made.text
    token: str = made.json()["token"]
    return token


def place(cell: int, cid: str, seat: int | None = None) -> dict[str, Any]:
    body: dict[str, Any] = {"command": {"type": "tictactoe.PlaceMark", "cell": cell}}
    return {**body, "command_id": cid, **({"seat": seat} if seat is not None else {})}


async def test_a_player_holding_two_seats_acts_for_the_awaited_one(served: Served) -> None:
    client = served.client
    ann = bearer(await player(served, "Ann"))
    made = await client.post("/matches", json={"game": "tictactoe", "seating": "open"}, headers=ann)
    match = made.json()["match"]
    taken = await client.post(f"/matches/{match}/seats", json={"seat": 1}, headers=ann)
    assert taken.status_code == 201, taken.text
    path = f"/matches/{match}/commands"
    assert (await client.post(path, json=place(4, "a"), headers=ann)).status_code == 200
    second = await client.post(path, json=place(0, "b"), headers=ann)  # seat 1 is awaited now
    assert second.status_code == 200, second.text
    named = await client.post(path, json=place(2, "c", seat=1), headers=ann)
    assert named.status_code == 409 and named.json()["error"] == "not_awaited"
    foreign = await client.post(path, json=place(2, "d", seat=5), headers=ann)
    assert foreign.status_code == 403
    assert (await client.post(path, json=place(2, "e", seat=0), headers=ann)).status_code == 200


@pytest.mark.parametrize(
    "name", ["\u3164", "\u2800\u2800", "\u3164 \u115f", "a\u0301\u0302\u0303", "\u200b\u200b"]
)
async def test_names_that_render_blank_or_stack_marks_are_refused(
    served: Served, name: str
) -> None:
    answer = await served.client.post("/players", json={"name": name})
    assert answer.status_code == 400, answer.text


async def test_a_look_alike_of_another_seat_holders_name_is_refused(served: Served) -> None:
    client = served.client
    anna = bearer(await player(served, "Anna"))
    made = await client.post(
        "/matches", json={"game": "tictactoe", "seating": "open"}, headers=anna
    )
    match = made.json()["match"]
    fake = bearer(await player(served, "\u0410nna"))  # a Cyrillic A
    refused = await client.post(f"/matches/{match}/seats", json={}, headers=fake)
    assert refused.status_code == 409 and "looks like" in refused.json()["message"]
    seats = (await client.get(f"/matches/{match}")).json()["seats"]
    assert [s["claimed"] for s in seats] == [True, False]  # nothing was taken
    bob = bearer(await player(served, "Bob"))
    assert (await client.post(f"/matches/{match}/seats", json={}, headers=bob)).status_code == 201


async def test_a_rename_into_a_look_alike_of_another_seat_holder_is_refused(
    served: Served,
) -> None:
    client = served.client
    anna = bearer(await player(served, "Anna"))
    made = await client.post(
        "/matches", json={"game": "tictactoe", "seating": "open"}, headers=anna
    )
    match = made.json()["match"]
    bob = bearer(await player(served, "Bob"))
    assert (await client.post(f"/matches/{match}/seats", json={}, headers=bob)).status_code == 201
    refused = await client.put("/players/me/name", json={"name": "\u0410nna"}, headers=bob)
    assert refused.status_code == 409, refused.text
    assert refused.json()["error"] == "look_alike_name"
    assert "looks like 'Anna'" in refused.json()["message"] and match in refused.json()["message"]
    assert (await client.get("/players/me", headers=bob)).json()["name"] == "Bob"
    # Anna herself may write her name otherwise; a name nobody else shows is fine
    assert (await client.put("/players/me/name", json={"name": "ANNA"}, headers=anna)).is_success
    assert (await client.put("/players/me/name", json={"name": "Bobby"}, headers=bob)).is_success


def test_skeletons_fold_the_common_look_alikes() -> None:
    assert skeleton("Ｐａｕｌ") == skeleton("paul") == skeleton("раul")  # full-width, Cyrillic
    assert skeleton("Zoë") == skeleton("Zoe") and skeleton("rn") == skeleton("m")
    assert look_alike("B0B", ["bob", "Ann"]) == "bob"
    assert look_alike("Bob", ["Bob"]) is None  # the same text is the same person's
