"""Expiry on two PostgreSQL nodes: both sweep, only the node holding a match's lease expires
it, once; what it did shows on the other node."""

from __future__ import annotations

import time

import anyio
import pytest
from gamehall.core import Registry
from gamehall.core.errors import MatchOver
from gamehall.core.events import MatchExpired
from gamehall.core.hall import Hall

pytestmark = pytest.mark.anyio
HOUR = 3600.0


async def test_two_nodes_expire_a_match_once(pg_url: str, registry: Registry) -> None:
    from gamehall.core.store.postgres import PostgresStore

    one, two = PostgresStore(pg_url, registry.codec), PostgresStore(pg_url, registry.codec)
    try:
        async with (
            Hall(one, registry, expire_after=HOUR) as a,
            Hall(two, registry, expire_after=HOUR) as b,
        ):
            ada, _ = await a.lobby.register("Ada")
            matches = [await a.create("tictactoe", open_seats=[0, 1]) for _ in range(3)]
            assert one.try_lease(matches[0])  # A holds the first match's lease
            assert two.try_lease(matches[1])  # B the second's
            later = time.time() + 2 * HOUR
            # Each node expires only what it holds, and takes the free lease of the third.
            assert await b.lifecycle.sweep(later) == 2
            assert await a.lifecycle.sweep(later) == 1
            assert await a.lifecycle.sweep(later) == 0 and await b.lifecycle.sweep(later) == 0
            for match in matches:
                expired = [r for r in one.read(match) if isinstance(r.event, MatchExpired)]
                assert len(expired) == 1, match
            with anyio.fail_after(20):
                while not all(b.lobby.entry(m).ended == "expired" for m in matches):
                    await anyio.sleep(0.02)
            with pytest.raises(MatchOver, match="expired while waiting for players"):
                await b.lobby.take_seat(matches[0], ada.player, 0)
    finally:
        one.close()
        two.close()
