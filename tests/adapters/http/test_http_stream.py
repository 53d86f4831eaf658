"""The live stream: Server-Sent Events per seat, resumed after a reconnect, ended with the match."""

from __future__ import annotations

import json
from typing import Any

import anyio
import pytest
from gamehall.core import Registry
from http_helpers import Served, SseEvent, bearer, read_sse, serve
from http_hidden_game import Plugin

pytestmark = pytest.mark.anyio
MOVES = [(0, 0), (1, 3), (0, 1), (1, 4), (0, 2)]


def place(cell: int) -> dict[str, Any]:
    return {"type": "tictactoe.PlaceMark", "cell": cell}


async def new_match(served: Served, game: str = "tictactoe") -> tuple[str, dict[int, str]]:
    data = (await served.client.post("/matches", json={"game": game, "seed": 2})).json()
    return data["match"], {s["seat"]: s["token"] for s in data["seats"]}


async def move(served: Served, match: str, tokens: dict[int, str], n: int) -> None:
    seat, cell = MOVES[n]
    body = {"command": place(cell), "command_id": f"m{n}"}
    response = await served.client.post(
        f"/matches/{match}/commands", json=body, headers=bearer(tokens[seat])
    )
    assert response.status_code == 200, response.text


async def take(
    events: Any, count: int, kinds: tuple[str, ...] = ("event", "end")
) -> list[SseEvent]:
    out: list[SseEvent] = []
    with anyio.fail_after(5):
        async for event in events:
            if event.data and event.event in kinds:
                out.append(event)
            if len(out) == count:
                break
    return out


def seqs(events: list[SseEvent]) -> list[int]:
    return [json.loads(e.data)["seq"] for e in events if e.event == "event"]


async def test_stream_resumes_after_a_reconnect_and_ends_with_the_match(registry: Registry) -> None:
    async with serve(registry, live=True) as served:
        match, tokens = await new_match(served)
        await move(served, match, tokens, 0)
        url = f"/matches/{match}/events"
        async with served.client.stream("GET", url, headers=bearer(tokens[1])) as response:
            assert response.headers["content-type"].startswith("text/event-stream")
            events = read_sse(response)
            first = await take(events, 2)
            assert seqs(first) == [1, 2] and [e.id for e in first] == ["1", "2"]
            await move(served, match, tokens, 1)
            live = await take(events, 1)
            assert seqs(live) == [3]
        # Reconnect as a browser would, with the last id it saw; then the match goes on.
        await move(served, match, tokens, 2)
        headers = {**bearer(tokens[1]), "Last-Event-ID": live[0].id or ""}
        async with served.client.stream("GET", url, headers=headers) as response:
            events = read_sse(response)
            assert seqs(await take(events, 1)) == [4]
            await move(served, match, tokens, 3)
            await move(served, match, tokens, 4)
            rest = await take(events, 4)
        assert seqs(rest) == [5, 6, 7] and rest[-1].event == "end"
        end = json.loads(rest[-1].data)
        assert end["outcome"]["winners"] == [0] and end["seq"] == 7
        with anyio.fail_after(5):  # a stream asked from the end of a finished match just ends
            response = await served.client.get(f"{url}?after=7")
        assert response.text.startswith("event: end")


async def test_idle_streams_get_keep_alive_comments(registry: Registry) -> None:
    async with serve(registry, live=True, heartbeat=0.05) as served:
        match, _ = await new_match(served)
        async with served.client.stream("GET", f"/matches/{match}/events?after=1") as response:
            with anyio.fail_after(5):
                async for event in read_sse(response):
                    assert not event.data or event.event == "turn"
                    if "keep-alive" in event.comments:
                        break


async def test_the_stream_tells_each_seat_when_it_may_act(registry: Registry) -> None:
    async with serve(registry, live=True) as served:
        match, tokens = await new_match(served)
        url = f"/matches/{match}/events?after=1"
        async with served.client.stream("GET", url, headers=bearer(tokens[1])) as response:
            messages = read_sse(response)
            (first,) = await take(messages, 1, ("turn",))
            told = json.loads(first.data)
            assert (told["seat"], told["awaiting"], told["decision"]) == (1, [0], None)
            await move(served, match, tokens, 0)
            (mine,) = await take(messages, 1, ("turn",))
            told = json.loads(mine.data)
            assert told["awaiting"] == [1] and told["decision"]["kind"] == "place"
            assert told["seq"] == 2 and told["free"] is False
            await move(served, match, tokens, 1)
            (theirs,) = await take(messages, 1, ("turn",))
            assert json.loads(theirs.data)["decision"] is None


async def test_stream_events_carry_their_words_for_the_seat(registry: Registry) -> None:
    async with serve(registry, live=True) as served:
        match, tokens = await new_match(served)
        await move(served, match, tokens, 0)
        async with served.client.stream(
            "GET", f"/matches/{match}/events", headers=bearer(tokens[1])
        ) as response:
            first, second = await take(read_sse(response), 2)
        assert json.loads(first.data)["text"] == "A match of Tic-tac-toe began with 2 players."
        assert json.loads(second.data)["text"] == "X marks cell 0 (row 1, column 1)."
        history = await served.client.get(f"/matches/{match}/history", headers=bearer(tokens[1]))
        body = history.json()
        assert [e["text"] for e in body["events"]] == [
            "A match of Tic-tac-toe began with 2 players.",
            "X marks cell 0 (row 1, column 1).",
        ]
        assert body["upto"] == 2


async def test_a_seat_token_in_the_query_sees_its_own_hidden_events() -> None:
    registry = Registry([Plugin()], entry_points=False)
    async with serve(registry, live=True) as served:
        match, tokens = await new_match(served, "draws")
        body = {"command": {"type": "draws.Draw"}, "command_id": "d"}
        ack = await served.client.post(
            f"/matches/{match}/commands", json=body, headers=bearer(tokens[0])
        )
        gem = ack.json()["events"][0]["event"]["gem"]
        assert gem.startswith("gem-")
        url = f"/matches/{match}/events"
        async with served.client.stream(
            "GET", url, params={"token": tokens[0], "after": 1}
        ) as mine:
            (event,) = await take(read_sse(mine), 1)
        assert json.loads(event.data)["event"]["gem"] == gem
        async with served.client.stream(
            "GET", url, params={"token": tokens[1], "after": 1}
        ) as theirs:
            (event,) = await take(read_sse(theirs), 1)
        assert json.loads(event.data)["event"]["gem"] is None and gem not in event.data
        forged = await served.client.get(url, params={"token": "forged"})
        assert forged.status_code == 401


async def test_closing_the_stream_frees_the_subscription(registry: Registry) -> None:
    async with serve(registry, live=True) as served:
        match, _ = await new_match(served)
        for _ in range(3):
            async with served.client.stream("GET", f"/matches/{match}/events") as response:
                await take(read_sse(response), 1)
        with anyio.fail_after(5):
            while served.hall.hub._subs.get(match):
                await anyio.sleep(0.01)
