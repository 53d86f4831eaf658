"""Three ``gamehall serve`` nodes on one PostgreSQL database, one of them SIGKILLed now and then.

Clients send each command to a random node and retry it, with the same id, on another node
when theirs dies; every seat watches its match's SSE stream, reconnecting to another node
with ``after`` when its node dies. At the end every acknowledged command is stored once, no
match has a gap or a duplicate, every match verifies, and every stream saw every event of
its seat, in order.

Half the matches are created with open seats, each raced for by two players on random nodes
while the nodes are killed: exactly one holds each seat, every claim answered 201 is stored,
and no seat is both open and taken (the seat, its listing entry and its token share a commit).

A variant holds a write transaction open in the schema for a good part of the run, which holds
every follower back (the watermark), and the same holds once it ends.
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
class Claim:
    """A player's claim of a seat: its answer, and whether an answer was lost on the way."""

    seat: int
    player: str
    token: str
    status: int = 0
    lost: bool = False


@dataclass
class Played:
    """One match as its clients saw it."""

    match: str
    tokens: list[str]
    claims: list[Claim] = field(default_factory=list)
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


class Holder:
    """A write transaction held open in the nodes' schema under their application name (as
    an operator's tool connected like a node would be): it holds every follower back, and the
    `/metrics` of the nodes are read meanwhile to see that it does."""

    def __init__(self, db: str, start: float, hold: float) -> None:
        self.db, self.start, self.hold = db, start, hold
        self.held_events = 0
        self.held_seconds = 0.0
        self.released = False

    async def run(self, cluster: Cluster, client: httpx.AsyncClient) -> None:
        import psycopg
        from gamehall.core.store.url import parse_store_url

        url = parse_store_url(self.db)
        conn = await psycopg.AsyncConnection.connect(
            url.conninfo,
            options=f"-c search_path={url.schema}",
            application_name=f"gamehall {url.schema}",
        )
        try:
            await conn.execute("CREATE TABLE IF NOT EXISTS held_scratch (note text)")
            await conn.commit()
            await anyio.sleep(self.start)
            await conn.execute("INSERT INTO held_scratch VALUES ('held')")  # an id of its own
            began = anyio.current_time()
            while anyio.current_time() - began < self.hold:
                await anyio.sleep(0.25)
                node = cluster.pick()
                try:
                    got = await client.get(f"{node}/metrics", timeout=5)
                except httpx.TransportError:
                    continue
                for line in got.text.splitlines():
                    name, _, value = line.partition(" ")
                    if name == "gamehall_follow_held_events":
                        self.held_events = max(self.held_events, int(float(value)))
                    elif name == "gamehall_follow_held_seconds":
                        self.held_seconds = max(self.held_seconds, float(value))
            await conn.commit()
            self.released = True
        finally:
            await conn.close()


async def _watch(cluster: Cluster, client: httpx.AsyncClient, played: Played, seat: int) -> None:
    seen = played.seen.setdefault(seat, [])
    while len(played.tokens) < 2:  # an open match: its seats are being claimed
        await anyio.sleep(0.05)
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


NAMES = ("Kestrel", "Otter", "Birch", "Quartz")


async def _claim(cluster: Cluster, client: httpx.AsyncClient, played: Played, claim: Claim) -> None:
    """Claim a seat on random nodes until one answers; a lost answer may have taken it."""
    path = f"/matches/{played.match}/seats"
    while True:
        url = cluster.pick()
        if url:
            try:
                got = await client.post(
                    url + path, json={"seat": claim.seat}, headers=bearer(claim.token)
                )
            except httpx.TransportError:
                claim.lost = True
            else:
                if got.status_code < 500:
                    claim.status = got.status_code
                    assert got.status_code in (201, 409), got.text
                    if got.status_code == 409:
                        assert got.json()["error"] == "seat_taken", got.text
                    return
                claim.lost = True
        await anyio.sleep(0.05)


async def _seat(cluster: Cluster, client: httpx.AsyncClient, played: Played, delay: float) -> None:
    """Race two players for each seat of an open match, then learn who holds each."""
    await anyio.sleep(delay)
    async with anyio.create_task_group() as tg:
        for claim in played.claims:
            tg.start_soon(_claim, cluster, client, played, claim)
    holders: dict[int, str] = {}
    while len(holders) < 2:  # a node may not have heard of the other node's commit yet
        for claim in played.claims:
            view = await cluster.request(
                client, "GET", f"/matches/{played.match}/view", headers=bearer(claim.token)
            )
            if view.status_code == 200 and view.json()["seat"] == claim.seat:
                holders[claim.seat] = claim.token
        await anyio.sleep(0.05)
    played.tokens = [holders[0], holders[1]]


async def _play(cluster: Cluster, client: httpx.AsyncClient, played: Played, seed: int) -> None:
    rng = random.Random(seed)
    number = 0
    while len(played.tokens) < 2:
        await anyio.sleep(0.05)
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


async def _run_clients(
    cluster: Cluster,
    client: httpx.AsyncClient,
    games: list[Played],
    kills: int,
    every: float,
    seed: int,
    holder: Holder | None,
) -> None:
    """Watch every seat's stream, seat the open matches, play every match, kill nodes."""
    async with anyio.create_task_group() as tg:
        for played in games:
            for seat in (0, 1):
                tg.start_soon(_watch, cluster, client, played, seat)
        async with anyio.create_task_group() as players:
            players.start_soon(cluster.killer, every, kills)
            if holder is not None:
                players.start_soon(holder.run, cluster, client)
            rng = random.Random(seed)
            for played in games:
                if played.claims:  # claimed while nodes are being killed
                    spread = rng.uniform(0, every * kills + 0.5)
                    players.start_soon(_seat, cluster, client, played, spread)
            for i, played in enumerate(games):
                players.start_soon(_play, cluster, client, played, seed * 1000 + i)


async def _stuck(cluster: Cluster, client: httpx.AsyncClient, games: list[Played]) -> str:
    """Say what had not ended when the guard fired: each such match as its clients and each
    live node see it, and what each node's follower reports."""
    lines = [f"kills {cluster.kills}, transport retries {cluster.transport_retries}"]
    for node in cluster.live():
        try:
            got = await client.get(f"{node.url}/metrics", timeout=5)
            wanted = ("gamehall_stream_lag", "gamehall_follow_held", "gamehall_actors_active")
            lines.append(f"{node.url} (start {node.starts}): " + "; ".join(
                line for line in got.text.splitlines() if line.startswith(wanted)
            ))  # fmt: skip
        except httpx.HTTPError as error:
            lines.append(f"{node.url}: {error!r}")
    for played in games:
        if len(played.tokens) == 2 and played.ended == {0, 1}:
            continue
        seen = {seat: (len(s), s[-1:]) for seat, s in played.seen.items()}
        lines.append(
            f"{played.match}: tokens {len(played.tokens)}, acks {len(played.acks)}, "
            f"seen {seen}, ended {sorted(played.ended)}, claims "
            f"{[(c.seat, c.status, c.lost) for c in played.claims]}"
        )
        token = played.tokens[0] if played.tokens else ""
        for node in cluster.live():
            try:
                view = await client.get(
                    f"{node.url}/matches/{played.match}/view", headers=bearer(token), timeout=5
                )
                body = view.json() if view.status_code == 200 else view.text[:200]
                if isinstance(body, dict):
                    body = {k: body.get(k) for k in ("seat", "awaiting", "outcome", "seq")}
                lines.append(f"  {node.url}: {view.status_code} {body}")
            except httpx.HTTPError as error:
                lines.append(f"  {node.url}: {error!r}")
    return "the clients did not end:\n" + "\n".join(lines)


async def run_cluster(
    pg_url: str,
    matches: int,
    kills: int,
    every: float,
    seed: int,
    holder: Holder | None = None,
) -> None:
    from gamehall.adapters.file import tools
    from gamehall.core.registry import builtin_registry
    from gamehall.core.seating import rebuild_lobby
    from gamehall.core.store.postgres import PostgresStore

    cluster = Cluster(pg_url, 3, seed)
    for node in cluster.nodes:
        await anyio.to_thread.run_sync(node.start)
    games: list[Played] = []
    limits = httpx.Limits(max_connections=None, max_keepalive_connections=50)
    try:
        async with httpx.AsyncClient(timeout=30, limits=limits) as client:
            for i in range(matches):
                body: dict[str, Any] = {"game": "tictactoe", "seed": i}
                if i % 2:
                    body["seating"] = "open"
                made = await cluster.request(client, "POST", "/matches", json=body)
                assert made.status_code == 201, made.text
                created = made.json()
                played = Played(created["match"], [s["token"] for s in created["seats"]])
                if i % 2:
                    assert played.tokens == []
                    for k, name in enumerate(NAMES):
                        joined = await cluster.request(
                            client, "POST", "/players", json={"name": name}
                        )
                        assert joined.status_code == 201, joined.text
                        player = joined.json()
                        played.claims.append(Claim(k % 2, player["player"], player["token"]))
                games.append(played)
            # A guard against a hang, not a timing: a loaded 2-core machine runs this several
            # times slower than a quiet one (40 matches: 20 s quiet, over 120 s under two suites).
            try:
                with anyio.fail_after(max(300, matches * 5)):
                    await _run_clients(cluster, client, games, kills, every, seed, holder)
            except TimeoutError:
                raise AssertionError(await _stuck(cluster, client, games)) from None
    finally:
        codes = [node.stop() for node in cluster.nodes]
    assert cluster.kills == kills
    assert codes == [0, 0, 0]
    if holder is not None:  # it held the followers back, then let them go
        assert holder.released
        assert holder.held_seconds >= 1 and holder.held_events > 0, vars(holder)

    registry = builtin_registry()
    store = PostgresStore(pg_url, registry.codec)
    try:
        assert store.check() == []  # no gap, no duplicate, every checksum sound
        claimed = [played for played in games if played.claims]
        assert claimed and any(c.status == 201 for p in claimed for c in p.claims)
        for played in claimed:
            check_seats(store, played)
        assert rebuild_lobby(store, registry).changed == []  # the listing is the log's
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


def check_seats(store: Any, played: Played) -> None:
    """Each seat was taken once, by a claimant; a claim answered 201 holds its seat; no seat
    is listed open and taken; each seat taken has its token, recorded with it."""
    from gamehall.core.events import SeatTaken

    taken = [r.event for r in store.read(played.match) if isinstance(r.event, SeatTaken)]
    assert sorted(e.seat for e in taken) == [0, 1], (played.match, taken)
    by_seat = {e.seat: e.player for e in taken}
    for claim in played.claims:
        holds = by_seat[claim.seat] == claim.player
        if claim.status == 201:
            assert holds, (played.match, claim)  # acknowledged: never lost
        elif not claim.lost:
            assert not holds, (played.match, claim)  # refused and never stored
    entry = store.stream_info(played.match)
    assert not set(entry.info.get("open") or []) & {0, 1}, entry.info
    assert entry.info["seat_players"] == [by_seat[0], by_seat[1]], entry.info
    assert set(store.seat_tokens(played.match)) == {0, 1}


async def test_three_nodes_one_killed_every_command_stored_once(pg_url: str) -> None:
    await run_cluster(pg_url, matches=12, kills=1, every=1.0, seed=1)


@pytest.mark.long
async def test_three_nodes_100_matches_killed_again_and_again(pg_url: str) -> None:
    await run_cluster(pg_url, matches=100, kills=6, every=3.0, seed=2)


@pytest.mark.long
async def test_three_nodes_killed_while_a_long_transaction_holds_the_watermark(
    pg_url: str,
) -> None:
    """A write transaction held open for a good part of the run holds every follower back;
    nodes are killed meanwhile. Nothing acknowledged is lost or stored twice, and every live
    stream sees every event once the transaction ends."""
    holder = Holder(pg_url, start=1.0, hold=8.0)
    await run_cluster(pg_url, matches=40, kills=4, every=2.5, seed=3, holder=holder)
