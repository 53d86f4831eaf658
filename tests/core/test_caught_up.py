"""Reading one's own writes waits for the actor's publication, not by polling."""

from __future__ import annotations

from dataclasses import dataclass, field

import anyio
import pytest
from gamehall.core import nodes
from gamehall.core.errors import NotCaughtUp, UnknownVersion
from gamehall.core.kernel.hub import Hub

pytestmark = pytest.mark.anyio


@dataclass
class FakeActor:
    version: int


@dataclass
class FakeStore:
    stored: int
    threaded: bool = False
    reads: int = 0

    def version(self, match: str) -> int:
        self.reads += 1
        return self.stored


@dataclass
class FakeHost:
    """A node whose actor is busy: told it is behind, it applies nothing by itself."""

    store: FakeStore
    actor: FakeActor
    hub: Hub = field(default_factory=lambda: Hub(8))
    told: list[int] = field(default_factory=list)

    async def activate(self, match: str) -> FakeActor:
        return self.actor

    def advanced(self, match: str, seq: int) -> None:
        self.told.append(seq)


async def test_a_busy_actor_is_waited_for_until_it_publishes(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(nodes, "CATCH_UP_BACKOFF", 30.0)  # no look again before it: only events
    host = FakeHost(FakeStore(stored=5), FakeActor(version=3))

    async def commit_ends() -> None:
        await anyio.sleep(0.05)
        host.actor.version = 5
        host.hub.publish("m", [])

    async with anyio.create_task_group() as tg:
        tg.start_soon(commit_ends)
        with anyio.fail_after(5):
            began = anyio.current_time()
            await nodes.caught_up(host, "m", 5, wait=10)
            took = anyio.current_time() - began
    assert 0.04 < took < 2, took
    assert host.told == [5] and host.store.reads == 2
    assert not host.hub._subs  # nothing left subscribed


async def test_a_dropped_actor_is_looked_for_again_after_a_back_off() -> None:
    host = FakeHost(FakeStore(stored=5), FakeActor(version=3))

    async def replaced() -> None:
        await anyio.sleep(0.02)
        host.actor = FakeActor(version=5)  # a new actor, loaded; the old one published nothing

    async with anyio.create_task_group() as tg:
        tg.start_soon(replaced)
        with anyio.fail_after(5):
            await nodes.caught_up(host, "m", 5)
    assert not host.hub._subs


async def test_a_version_never_stored_or_not_reached_in_time_is_refused() -> None:
    host = FakeHost(FakeStore(stored=5), FakeActor(version=3))
    with pytest.raises(UnknownVersion):
        await nodes.caught_up(host, "m", 9)
    with anyio.fail_after(5), pytest.raises(NotCaughtUp):
        await nodes.caught_up(host, "m", 5, wait=0.2)
    assert not host.hub._subs


async def test_a_subscription_the_hub_drops_is_made_again(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(nodes, "CATCH_UP_BACKOFF", 30.0)
    host = FakeHost(FakeStore(stored=5), FakeActor(version=3))

    async def dropped_then_published() -> None:
        await anyio.sleep(0.02)
        host.hub.drop("m")  # as when the match passivates: its watchers read the store
        await anyio.sleep(0.02)
        host.actor.version = 5
        host.hub.publish("m", [])

    async with anyio.create_task_group() as tg:
        tg.start_soon(dropped_then_published)
        with anyio.fail_after(5):
            await nodes.caught_up(host, "m", 5, wait=10)
    assert not host.hub._subs
