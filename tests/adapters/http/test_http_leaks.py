"""No answer, stream event or error of the HTTP API shows a fact hidden from the asker.

Each test plays a seeded random match over a live server. At every step it asks every seat and
a spectator for the view, the board, the match, the history, and sends refused commands (a
seat that is not awaited, a stale command); all the while each of them follows the live
stream. Every body is checked against the game's own ``rules.hidden(state, seat)`` tokens: the
current ones for views and errors, and for each event the ones of the state right after it.
"""

from __future__ import annotations

import json
import random
from typing import Any

import anyio
import httpx
import pytest
from gamehall.core import Registry, default_registry
from http_helpers import Served, bearer, leaked, read_sse, serve
from http_hidden_game import Plugin


class Leak(AssertionError):
    """A hidden token was shown."""


class Checker:
    """Play a match over HTTP and check every body against the hidden tokens."""

    def __init__(
        self, served: Served, match: str, tokens: dict[int, str], history_every: int
    ) -> None:
        self.s, self.match, self.tokens = served, match, tokens
        self.askers: list[int | None] = [*sorted(tokens), None]
        self.rules = served.hall.ruleset(match).rules
        self.hidden_at: dict[int, dict[int | None, set[str]]] = {}
        self.streams: dict[int | None, list[dict[str, Any]]] = {a: [] for a in self.askers}
        self.history_every = history_every
        self.checked = 0
        self.hidden_seen = 0

    def hidden_now(self) -> dict[int | None, set[str]]:
        state = self.s.hall.state(self.match)
        return {a: set(self.rules.hidden(state, a)) for a in self.askers}

    def note(self, first: int, last: int) -> dict[int | None, set[str]]:
        hidden = self.hidden_now()
        self.hidden_seen += sum(len(h) for h in hidden.values())
        for seq in range(first, last + 1):
            self.hidden_at[seq] = hidden
        return hidden

    def check(self, asker: int | None, body: bytes | str, hidden: set[str], where: str) -> None:
        self.checked += 1
        shown = leaked(body, hidden)
        if shown:
            raise Leak(f"{where} shows seat {asker} hidden {sorted(shown)[:5]}")

    def check_records(self, asker: int | None, records: list[dict[str, Any]], where: str) -> None:
        for record in records:
            hidden = self.hidden_at[record["seq"]][asker]
            self.check(asker, json.dumps(record), hidden, f"{where} seq {record['seq']}")

    async def get(self, asker: int | None, path: str) -> httpx.Response:
        response = await self.s.client.get(path, headers=bearer(self.tokens.get(asker)))  # type: ignore[arg-type]
        assert response.status_code == 200, response.text
        return response

    async def post(self, seat: int, command: dict[str, Any], cid: str) -> httpx.Response:
        body = {"command": command, "command_id": cid}
        return await self.s.client.post(
            f"/matches/{self.match}/commands", json=body, headers=bearer(self.tokens[seat])
        )

    async def follow(self, asker: int | None) -> None:
        url = f"/matches/{self.match}/events"
        timeout = httpx.Timeout(30, read=None)
        async with self.s.client.stream(
            "GET", url, headers=bearer(self.tokens.get(asker)), timeout=timeout
        ) as r:  # type: ignore[arg-type]
            assert r.status_code == 200
            async for event in read_sse(r):
                if event.data:
                    self.streams[asker].append({"event": event.event, "data": event.data})
                if event.event == "end":
                    return

    async def look(self, step: int) -> dict[str, Any]:
        hidden = self.hidden_now()
        m = self.match
        public = None
        for asker in self.askers:
            h = hidden[asker]
            view = await self.get(asker, f"/matches/{m}/view")
            self.check(asker, view.content, h, "view")
            self.check(asker, (await self.get(asker, f"/matches/{m}/board")).text, h, "board")
            self.check(asker, (await self.get(asker, f"/matches/{m}")).content, h, "match info")
            if step % self.history_every == 0:
                history = (await self.get(asker, f"/matches/{m}/history")).json()
                self.check_records(asker, history["events"], "history")
            if asker is None:
                public = view.json()
        assert public is not None
        return public

    async def refused(self, seat: int, command: dict[str, Any], cid: str) -> None:
        response = await self.post(seat, command, cid)
        assert 400 <= response.status_code < 500, response.text
        self.check(seat, response.content, self.hidden_now()[seat], f"error {response.status_code}")

    async def play(self, rng: random.Random, max_steps: int) -> bool:
        previous: list[dict[str, Any]] = []
        for step in range(max_steps):
            public = await self.look(step)
            if public["outcome"] is not None:
                return True
            seat = min(int(s) for s in public["awaiting"])
            legal = (await self.get(seat, f"/matches/{self.match}/view")).json()["legal"]
            hidden = self.hidden_now()
            for other in self.tokens:
                if str(other) in public["awaiting"]:
                    continue
                # A free action (a trade) is legal for a seat that is not awaited too.
                theirs = (await self.get(other, f"/matches/{self.match}/view")).json()["legal"]
                # A request that itself names a hidden token proves nothing when echoed.
                known = [
                    c for c in legal if c not in theirs and not leaked(json.dumps(c), hidden[other])
                ]
                if known:
                    await self.refused(other, known[0], f"na-{step}")
            stale = [
                c for c in previous if c not in legal and not leaked(json.dumps(c), hidden[seat])
            ]
            if stale:
                await self.refused(seat, stale[0], f"stale-{step}")
            previous = legal
            response = await self.post(seat, rng.choice(legal), f"c-{step}")
            assert response.status_code == 200, response.text
            ack = response.json()
            hidden = self.note(ack["first_seq"], ack["last_seq"])
            self.check(seat, response.content, hidden[seat], "ack")
        return False

    def check_streams(self, ended: bool) -> None:
        for asker, events in self.streams.items():
            records = [json.loads(e["data"]) for e in events if e["event"] == "event"]
            self.check_records(asker, records, "stream")
            if ended:
                assert events and events[-1]["event"] == "end", f"seat {asker}'s stream did not end"
                assert [r["seq"] for r in records] == sorted({r["seq"] for r in records})


async def check_match(
    registry: Registry, game: str, seed: int, *, max_steps: int = 60, history_every: int = 5
) -> Checker:
    """Play one match of ``game`` over a live server, checking every answer; return the checker."""
    try:
        return await _check_match(registry, game, seed, max_steps, history_every)
    except BaseExceptionGroup as group:
        raise _first(group) from None


async def _check_match(
    registry: Registry, game: str, seed: int, max_steps: int, history_every: int
) -> Checker:
    async with serve(registry, live=True, heartbeat=0.5) as served:
        created = await served.client.post("/matches", json={"game": game, "seed": seed})
        assert created.status_code == 201, created.text
        body = created.json()
        tokens = {s["seat"]: s["token"] for s in body["seats"]}
        checker = Checker(served, body["match"], tokens, history_every)
        checker.note(1, served.hall.view(body["match"], None).seq)
        ended = await _play_followed(checker, seed, max_steps)
        checker.check_streams(ended)
        for asker in checker.askers:
            log = await served.client.get(
                f"/matches/{body['match']}/log", headers=bearer(tokens.get(asker))
            )  # type: ignore[arg-type]
            assert log.status_code == (200 if ended else 403), log.text
        return checker


async def _play_followed(checker: Checker, seed: int, max_steps: int) -> bool:
    async with anyio.create_task_group() as tg:
        for asker in checker.askers:
            tg.start_soon(checker.follow, asker)
        ended = await checker.play(random.Random(seed), max_steps)
        if ended:
            await checker.look(max_steps)
        else:
            tg.cancel_scope.cancel()
    return ended


def _first(group: BaseExceptionGroup) -> BaseException:  # type: ignore[type-arg]
    first = group.exceptions[0]
    return _first(first) if isinstance(first, BaseExceptionGroup) else first


@pytest.fixture(scope="module")
def draws_registry() -> Registry:
    """Return a registry holding only the test game (and its leaky twin)."""
    return Registry([Plugin()], entry_points=False)


@pytest.mark.anyio
@pytest.mark.parametrize("seed", [1, 2])
async def test_hidden_test_game_leaks_nothing(draws_registry: Registry, seed: int) -> None:
    checker = await check_match(draws_registry, "draws", seed, history_every=1)
    assert checker.hidden_seen > 0 and checker.checked > 100


@pytest.mark.anyio
async def test_a_leaky_redaction_is_caught(draws_registry: Registry) -> None:
    with pytest.raises(Leak, match="hidden"):
        await check_match(draws_registry, "leaky-draws", 1, history_every=1)


def _installed(module: str, game: str) -> Registry:
    pytest.importorskip(module, reason=f"{game} is not installed yet")
    registry = default_registry()
    if game not in registry.games:
        pytest.skip(f"{game} is not registered through the gamehall entry points yet")
    return registry


@pytest.mark.anyio
async def test_toy_battle_racks_stay_hidden() -> None:
    registry = _installed("gamehall.plugins.toy_battle", "toy-battle")
    checker = await check_match(registry, "toy-battle", 7, max_steps=150, history_every=10)
    assert checker.hidden_seen > 0


@pytest.mark.anyio
async def test_river_of_gold_hands_stay_hidden() -> None:
    registry = _installed("gamehall.plugins.river_of_gold", "river-of-gold")
    checker = await check_match(registry, "river-of-gold", 7, max_steps=150, history_every=10)
    assert checker.hidden_seen > 0
