"""The rate limiter: a player token has a bucket by default, and a forwarded address counts
only when it comes from a proxy the operator named."""

from __future__ import annotations

from pathlib import Path

import httpx
import pytest
from gamehall.adapters.http.guard import RateLimits
from gamehall.core import Registry
from http_helpers import bearer, gamehall_serve, serve

pytestmark = pytest.mark.anyio


async def test_a_free_player_token_is_limited_by_default(registry: Registry) -> None:
    async with serve(registry, rate_limits=RateLimits()) as served:
        client = served.client
        made = await client.post("/players", json={"name": "Ann"})
        token = made.json()["token"]
        seen = [
            (await client.get("/players/me", headers=bearer(token))).status_code
            for _ in range(RateLimits().token_burst + 40)
        ]
        assert seen[0] == 200 and 429 in seen, seen.count(200)


def _statuses(url: str, count: int) -> list[int]:
    with httpx.Client(base_url=url) as client:
        return [
            client.get("/health", headers={"X-Forwarded-For": f"203.0.113.{n}"}).status_code
            for n in range(count)
        ]


def test_forwarded_addresses_count_only_from_named_proxies(tmp_path: Path) -> None:
    limits = ["--anonymous-rate", "0.01", "--anonymous-burst", "3"]
    with gamehall_serve(str(tmp_path / "a.db"), args=limits) as url:
        seen = _statuses(url, 6)
    assert seen[:3] == [200] * 3 and seen[3:] == [429] * 3  # one address: the peer's
    trusted = [*limits, "--trusted-proxy", "127.0.0.1"]
    with gamehall_serve(str(tmp_path / "b.db"), args=trusted) as url:
        assert _statuses(url, 6) == [200] * 6  # the proxy says who asks: six clients
