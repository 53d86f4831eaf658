"""Three ``gamehall serve`` nodes on one PostgreSQL database, one of them SIGKILLed now and then.

Clients send each command to a random node and retry it, with the same id, on another node
when theirs dies; every seat watches its match's SSE stream, reconnecting to another node
with ``after`` when its node dies. At the end every acknowledged command is stored once, no
match has a gap or a duplicate, every match verifies, and every stream saw every event of
its seat, in order.
"""

from __future__ import annotations

import random
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import anyio
import httpx
import pytest
from http_helpers import bearer, read_sse

from tests.nodes import Node

pytestmark = pytest.mark.anyio


@dataclass
class Played:
    """One match as its clients saw it."""

    match: str
    tokens: list[str]
    acks: dict[str, tuple[int, int]] = field(default_factory=dict)
    seen: dict[int, list[int]] = field(default_factory=dict)
    ended: set[int] = field(default_factory=set)


class Cluster:
    """The nodes, and a client's way of reaching any live one."""

    def __init__(self, db: str, count: int, seed: int) -> None:
        self.nodes = [Node(db) for _ in range(count)]
        self.rng = random.Random(seed)
        self.kills = 0
        self.transport_retries = 0

    def live(self) -> list[Node]:
        return [n for n in self.nodes if n.alive]

    def pick(self) -> str:
        return self.rng.choice(self.live() or self.nodes).url

    async def request(
        self, client: httpx.AsyncClient, method: str, path: str, **kwargs: Any
    ) -> httpx.Response:
        """Send to a random node until one answers (a dead node's request is sent again)."""
        while True:
            url = self.pick()
            if url:
                try:
                    response = await client.request(method, url + path, **kwargs)
                except httpx.TransportError:
                    pass
                else:
                    if response.status_code < 500:
                        return response
            self.transport_retries += 1
            await anyio.sleep(0.05)

    async def killer(self, every: float, kills: int) -> None:
        for _ in range(kills):
            await anyio.sleep(every)
            node = self.rng.choice(self.live())
            node.kill()
            self.kills += 1
            await anyio.sleep(0.2)
            await anyio.to_thread.run_sync(node.start)


async def _watch(cluster: Cluster, client: httpx.AsyncClient, played: Played, seat: int) -> None:
    seen = played.seen.setdefault(seat, [])
    while True:
        url = cluster.pick()
        after = seen[-1] if seen else 0
        path = f"{url}/matches/{played.match}/events?after={after}"
        try:
            async with client.stream("GET", path, headers=bearer(played.tokens[seat])) as got:
                if got.status_code != 200:
                    await anyio.sleep(0.05)
                    continue
                async for message in read_sse(got):
                    if message.event == "event":
                        seen.append(int(message.id or 0))
                    elif message.event == "end":
                        played.ended.add(seat)
                        return
        except (httpx.TransportError, httpx.StreamError):
            pass
        await anyio.sleep(0.05)


async def _play(cluster: Cluster, client: httpx.AsyncClient, played: Played, seed: int) -> None:
    rng = random.Random(seed)
    number = 0
    while True:
        view = (await cluster.request(
            client, "GET", f"/matches/{played.match}/view", headers=bearer(played.tokens[0])
        )).json()  # fmt: skip
        if view["outcome"] is not None:
            return
        seat = int(next(iter(view["awaiting"])))
        mine = (await cluster.request(
            client, "GET", f"/matches/{played.match}/view", headers=bearer(played.tokens[seat])
        )).json()  # fmt: skip
        if not mine["legal"] or int(next(iter(mine["awaiting"]), -1)) != seat:
            continue  # the node answered before it heard of the last move: ask again
        command = rng.choice(mine["legal"])
        cid = f"{played.match}-{number}"
        number += 1
        body = {"command": command, "command_id": cid}
        # The same id until a node gives a definite answer, whichever node that is.
        sent = await cluster.request(
            client, "POST", f"/matches/{played.match}/commands", json=body,
            headers=bearer(played.tokens[seat]),
        )  # fmt: skip
        if sent.status_code == 200:
            ack = sent.json()
            played.acks[cid] = (ack["first_seq"], ack["last_seq"])


async def run_cluster(pg_url: str, matches: int, kills: int, every: float, seed: int) -> None:
    from gamehall.adapters.file import tools
    from gamehall.core.registry import builtin_registry
    from gamehall.core.store.postgres import PostgresStore

    cluster = Cluster(pg_url, 3, seed)
    for node in cluster.nodes:
        await anyio.to_thread.run_sync(node.start)
    games: list[Played] = []
    limits = httpx.Limits(max_connections=None, max_keepalive_connections=50)
    try:
        async with httpx.AsyncClient(timeout=30, limits=limits) as client:
            for i in range(matches):
                made = await cluster.request(
                    client, "POST", "/matches", json={"game": "tictactoe", "seed": i}
                )
                assert made.status_code == 201, made.text
                created = made.json()
                games.append(Played(created["match"], [s["token"] for s in created["seats"]]))
            with anyio.fail_after(max(120, matches * 3)):
                async with anyio.create_task_group() as tg:
                    for played in games:
                        for seat in (0, 1):
                            tg.start_soon(_watch, cluster, client, played, seat)
                    async with anyio.create_task_group() as players:
                        players.start_soon(cluster.killer, every, kills)
                        for i, played in enumerate(games):
                            players.start_soon(_play, cluster, client, played, seed * 1000 + i)
    finally:
        codes = [node.stop() for node in cluster.nodes]
    assert cluster.kills == kills
    assert codes == [0, 0, 0]

    registry = builtin_registry()
    store = PostgresStore(pg_url, registry.codec)
    try:
        assert store.check() == []  # no gap, no duplicate, every checksum sound
        tmp = Path(tempfile.mkdtemp())
        for played in games:
            records = store.read(played.match)
            seqs = [r.seq for r in records]
            assert seqs == list(range(1, len(seqs) + 1))
            heads: dict[str, list[int]] = {}
            for record in records:
                if record.meta.command is not None and record.meta.command_id:
                    heads.setdefault(record.meta.command_id, []).append(record.seq)
            assert all(len(s) == 1 for s in heads.values()), heads  # stored once each
            for cid, (first, _) in played.acks.items():
                assert heads.get(cid) == [first], (played.match, cid)
            assert len(heads) == len(played.acks)  # nothing stored that was not acknowledged
            path = tmp / f"{played.match}.jsonl"
            tools.export(store, registry, played.match, None, str(path))
            ok, report = tools.verify(tools.load(str(path), registry))
            assert ok, report
            for seat in (0, 1):
                assert played.seen[seat] == seqs, (played.match, seat)
                assert seat in played.ended
    finally:
        store.close()


async def test_three_nodes_one_killed_every_command_stored_once(pg_url: str) -> None:
    await run_cluster(pg_url, matches=12, kills=1, every=1.0, seed=1)


@pytest.mark.long
async def test_three_nodes_100_matches_killed_again_and_again(pg_url: str) -> None:
    await run_cluster(pg_url, matches=100, kills=6, every=3.0, seed=2)
