"""Two stdio servers on one PostgreSQL schema: a view or command naming the version of an
acknowledgement given by the other is answered only from state at least that new."""

from __future__ import annotations

import io

import anyio
from gamehall.adapters.stdin import protocol
from gamehall.core import Registry
from gamehall.core.hall import Hall

from tests.adapters.stdin.test_stdin_protocol import PLACE, Session


def test_a_view_naming_the_version_of_the_other_servers_ack_is_not_stale(
    registry: Registry, pg_url: str
) -> None:
    from gamehall.core.store.postgres import PostgresStore

    async def main() -> None:
        stores = [PostgresStore(pg_url, registry.codec) for _ in range(2)]
        try:
            async with (
                Hall(stores[0], registry) as ha,
                Hall(stores[1], registry) as hb,
                anyio.create_task_group() as tg,
            ):
                outs = [io.BytesIO(), io.BytesIO()]
                a = Session(protocol.Server(ha, outs[0], tg), outs[0])
                b = Session(protocol.Server(hb, outs[1], tg), outs[1])
                await a.ask({"id": 1, "op": "create", "game": "tictactoe", "match": "m"})
                [seen] = await b.ask({"id": 2, "op": "view", "match": "m"})
                assert seen["result"]["seq"] == 1
                assert hb.follower is not None
                hb.follower.stop()  # B hears of no commit of A any more
                move = {"type": PLACE, "cell": 4}
                [ack] = await a.ask({"id": 3, "op": "command", "match": "m", "seat": 0,
                                     "command": move})  # fmt: skip
                version = ack["result"]["last_seq"]
                assert version == 2
                [old] = await b.ask({"id": 4, "op": "view", "match": "m"})
                assert old["result"]["seq"] == 1  # without the version: what B holds
                [new] = await b.ask({"id": 5, "op": "view", "match": "m", "version": version})
                assert new["result"]["seq"] == 2 and new["result"]["view"]["board"][4] != 0
                [legal] = await b.ask({"id": 6, "op": "legal", "match": "m", "seat": 1,
                                       "version": version})  # fmt: skip
                assert {"type": PLACE, "cell": 4} not in [
                    c["command"] for c in legal["result"]["legal"]
                ]
                [never] = await b.ask({"id": 7, "op": "view", "match": "m", "version": 50})
                assert never["ok"] is False
                assert never["error"]["code"] == "unknown_version"
                await a.server.drain()
                await b.server.drain()
                tg.cancel_scope.cancel()
        finally:
            for store in stores:
                store.close()

    anyio.run(main)
