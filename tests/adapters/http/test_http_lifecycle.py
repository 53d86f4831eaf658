"""A match's life in the lobby over HTTP: the creator abandons it while nobody else joined,
a player leaves a seat (or the creator frees it) while it waits for players, an idle waiting
match expires; the listing says how old each match is and when it last moved."""

from __future__ import annotations

import json
import time
from collections.abc import AsyncIterator
from typing import Any

import anyio
import pytest
from gamehall.core import Registry
from http_helpers import Served, bearer, read_sse, serve

pytestmark = pytest.mark.anyio


@pytest.fixture
async def served(registry: Registry) -> AsyncIterator[Served]:
    async with serve(registry) as served:
        yield served


async def player(served: Served, name: str) -> tuple[str, str]:
    answer = await served.client.post("/players", json={"name": name})
    assert answer.status_code == 201, answer.text
    return answer.json()["player"], answer.json()["token"]


async def create(served: Served, token: str, **body: Any) -> str:
    made = await served.client.post(
        "/matches", json={"game": "tictactoe", "seating": "open", **body}, headers=bearer(token)
    )
    assert made.status_code == 201, made.text
    return str(made.json()["match"])


def refused(answer: Any, status: int, code: str, words: str) -> None:
    assert answer.status_code == status, answer.text
    assert answer.json()["error"] == code and words in answer.json()["message"], answer.text


async def test_the_creator_abandons_a_match_nobody_joined(served: Served) -> None:
    client = served.client
    ada_id, ada = await player(served, "Ada")
    _, bob = await player(served, "Bob")
    match = await create(served, ada)
    entry = (await client.get("/matches")).json()["matches"][0]
    assert entry["creator"] == ada_id and entry["ended"] is None
    assert entry["age"] == "just now" and entry["last_activity"] == "just now"
    refused(await client.post(f"/matches/{match}/abandon"), 401, "unauthorized", "player token")
    refused(
        await client.post(f"/matches/{match}/abandon", headers=bearer(bob)),
        403, "forbidden", "only the creator",
    )  # fmt: skip
    version = served.hall.store.version(match)
    answer = await client.post(f"/matches/{match}/abandon", headers=bearer(ada))
    assert answer.status_code == 200, answer.text
    body = answer.json()
    assert body["ended"] == "abandoned" and body["finished"] and body["open_seats"] == 0
    assert served.hall.store.version(match) == version + 1
    # Over: a seat, a command and a second abandon are refused with words; nothing stored.
    refused(
        await client.post(f"/matches/{match}/seats", json={}, headers=bearer(bob)),
        409, "match_over", "was abandoned by its creator",
    )  # fmt: skip
    refused(
        await client.post(
            f"/matches/{match}/commands",
            json={"command": {"type": "tictactoe.PlaceMark", "cell": 4}, "command_id": "a"},
            headers=bearer(ada),
        ),
        409, "match_over", "was abandoned by its creator: it takes no more commands",
    )  # fmt: skip
    refused(
        await client.post(f"/matches/{match}/abandon", headers=bearer(ada)),
        409, "match_over", "abandoned",
    )  # fmt: skip
    assert served.hall.store.version(match) == version + 1
    described = (await client.get(f"/matches/{match}")).json()
    assert described["ended"] == "abandoned" and described["finished"]
    assert described["outcome"] is None and described["awaiting"] == {}
    assert (await client.get("/matches", params={"state": "running"})).json()["matches"] == []
    listed = (await client.get("/matches", params={"state": "finished"})).json()["matches"]
    assert [m["ended"] for m in listed] == ["abandoned"]
    refused(
        await client.post("/matches/0123456789abcdef/abandon", headers=bearer(ada)),
        404, "unknown_match", "0123456789abcdef",
    )  # fmt: skip


async def test_a_match_someone_joined_is_not_abandoned(served: Served) -> None:
    client = served.client
    _, ada = await player(served, "Ada")
    _, bob = await player(served, "Bob")
    match = await create(served, ada)
    claimed = await client.post(f"/matches/{match}/seats", json={}, headers=bearer(bob))
    assert claimed.status_code == 201, claimed.text
    refused(
        await client.post(f"/matches/{match}/abandon", headers=bearer(ada)),
        409, "someone_joined", "someone else holds a seat",
    )  # fmt: skip
    anonymous = await client.post("/matches", json={"game": "tictactoe", "seating": "open"})
    refused(
        await client.post(f"/matches/{anonymous.json()['match']}/abandon", headers=bearer(ada)),
        403, "forbidden", "was not created by a player",
    )  # fmt: skip


async def test_a_player_leaves_a_seat_and_the_creator_frees_one(served: Served) -> None:
    client = served.client
    ada_id, ada = await player(served, "Ada")
    bob_id, bob = await player(served, "Bob")
    _, cat = await player(served, "Cat")
    match = await create(served, ada, game="gunsen", players=3)
    claimed = await client.post(f"/matches/{match}/seats", json={"seat": 1}, headers=bearer(bob))
    assert claimed.status_code == 201, claimed.text
    seat_token = claimed.json()["token"]
    assert (await client.get(f"/matches/{match}/view", headers=bearer(seat_token))).json()[
        "seat"
    ] == 1
    refused(
        await client.delete(f"/matches/{match}/seats/1", headers=bearer(cat)),
        403, "forbidden", "nobody else",
    )  # fmt: skip
    left = await client.delete(f"/matches/{match}/seats/1", headers=bearer(bob))
    assert left.status_code == 200, left.text
    assert left.json()["seats"][1] == {
        "seat": 1, "name": None, "player": None, "bot": None, "open": True,
    }  # fmt: skip
    # The seat token given with the seat acts for it no more.
    gone = await client.get(f"/matches/{match}/view", headers=bearer(seat_token))
    assert gone.status_code in (401, 403), gone.text
    again = await client.post(f"/matches/{match}/seats", json={"seat": 1}, headers=bearer(bob))
    assert again.status_code == 201, again.text
    freed = await client.delete(f"/matches/{match}/seats/1", headers=bearer(ada))  # creator
    assert freed.status_code == 200 and freed.json()["seats"][1]["open"], freed.text
    assert freed.json()["creator"] == ada_id and bob_id not in str(freed.json()["seats"])
    refused(
        await client.delete(f"/matches/{match}/seats/2", headers=bearer(ada)),
        409, "seat_kept", "is open already",
    )  # fmt: skip
    refused(
        await client.delete(f"/matches/{match}/seats/7", headers=bearer(ada)),
        400, "invalid_command", "seat 7 does not exist",
    )  # fmt: skip
    bad = await client.delete(f"/matches/{match}/seats/x", headers=bearer(ada))
    assert bad.status_code in (400, 404), bad.text
    refused(await client.delete(f"/matches/{match}/seats/0"), 401, "unauthorized", "player")


async def test_an_idle_waiting_match_expires(served: Served) -> None:
    client = served.client
    _, ada = await player(served, "Ada")
    _, bob = await player(served, "Bob")
    match = await create(served, ada)
    assert await served.hall.lifecycle.sweep(time.time() + 23 * 3600) == 0
    assert await served.hall.lifecycle.sweep(time.time() + 25 * 3600) == 1
    entry = (await client.get("/matches", params={"state": "finished"})).json()["matches"][0]
    assert entry["match"] == match and entry["ended"] == "expired"
    refused(
        await client.post(f"/matches/{match}/seats", json={}, headers=bearer(bob)),
        409, "match_over", "expired while waiting for players",
    )  # fmt: skip
    history = (await client.get(f"/matches/{match}/history")).json()
    assert history["events"][-1]["text"].startswith("The match expired: it waited for players")


async def test_a_stream_tells_the_seat_change_in_words_and_ends_when_abandoned(
    registry: Registry,
) -> None:
    async with serve(registry, live=True) as served:
        client = served.client
        _, ada = await player(served, "Ada")
        _, bob = await player(served, "Bob")
        match = await create(served, ada, game="gunsen", players=3)
        claimed = await client.post(
            f"/matches/{match}/seats", json={"seat": 1}, headers=bearer(bob)
        )
        assert claimed.status_code == 201, claimed.text
        after = served.hall.store.version(match)
        url = f"/matches/{match}/events?after={after}"
        told: list[str] = []
        with anyio.fail_after(10):
            async with client.stream("GET", url, headers=bearer(ada)) as response:
                events = read_sse(response)
                left = await client.delete(f"/matches/{match}/seats/1", headers=bearer(bob))
                assert left.status_code == 200, left.text
                done = await client.post(f"/matches/{match}/abandon", headers=bearer(ada))
                assert done.status_code == 200, done.text
                async for event in events:
                    if event.event == "event":
                        told.append(json.loads(event.data)["text"])
                    if event.event == "end":
                        end = json.loads(event.data)
                        break
        assert told == [
            "Seat 2 was left by its player: it is open again.",
            "The match was abandoned by its creator: it is over, without a winner.",
        ]
        assert end["ended"] == "abandoned" and end["outcome"] is None
        # Asked again from its end, the stream of an abandoned match just ends.
        with anyio.fail_after(5):
            again = await client.get(f"/matches/{match}/events?after={after + 2}")
        assert again.text.startswith("event: end")


async def test_an_abandoned_match_leaves_the_listing_and_its_log_stays_for_the_admin(
    registry: Registry,
) -> None:
    admin = "admin-secret-for-lifecycle-tests"
    async with serve(registry, admin_token=admin) as served:
        client = served.client
        _, ada = await player(served, "Ada")
        match = await create(served, ada)
        assert (await client.post(f"/matches/{match}/abandon", headers=bearer(ada))).is_success
        listed = (await client.get("/matches")).json()
        assert [m["match"] for m in listed["matches"]] == [match]
        real = served.hall.now
        served.hall.now = lambda: real() + 8 * 24 * 3600  # past the 7 days kept by default
        assert (await client.get("/matches")).json() == {"matches": [], "total": 0, "next": None}
        assert (await client.get(f"/matches/{match}")).json()["ended"] == "abandoned"
        exported = await client.get(f"/matches/{match}/log", headers=bearer(admin))
        assert exported.status_code == 200, exported.text
        lines = [json.loads(line) for line in exported.text.splitlines()]
        assert lines[-1]["event"]["type"] == "gamehall.MatchAbandoned"
        refused(await client.get(f"/matches/{match}/log"), 403, "forbidden", "admin token")
        deleted = await client.delete(f"/matches/{match}", headers=bearer(admin))
        assert deleted.status_code == 200, deleted.text
