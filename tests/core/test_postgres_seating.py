"""Seats on two PostgreSQL nodes: one winner across nodes, and what A does shows on B."""

from __future__ import annotations

from typing import Any

import anyio
import pytest
from gamehall.core import Registry
from gamehall.core.errors import GamehallError
from gamehall.core.events import SeatTaken
from gamehall.core.hall import Hall
from gamehall.core.seating import SeatAlreadyTaken

pytestmark = pytest.mark.anyio


def two_stores(pg_url: str, registry: Registry) -> Any:
    from gamehall.core.store.postgres import PostgresStore

    return PostgresStore(pg_url, registry.codec), PostgresStore(pg_url, registry.codec)


async def until(check: Any, timeout: float = 20.0) -> None:
    """Wait, generously, until ``check()`` holds (another node's commit reaches this one)."""
    with anyio.fail_after(timeout):
        while not check():
            await anyio.sleep(0.02)


async def test_a_seat_taken_and_a_rename_on_a_show_on_b(pg_url: str, registry: Registry) -> None:
    one, two = two_stores(pg_url, registry)
    try:
        async with Hall(one, registry) as a, Hall(two, registry) as b:
            ada, _ = await a.lobby.register("Ada")
            match = await a.create("tictactoe", open_seats=[0, 1])
            assert b.lobby.names(match) == [None, None]  # B holds the match now
            await a.lobby.take_seat(match, ada.player, 1)
            await until(lambda: b.lobby.names(match) == [None, "Ada"])
            assert b.view(match, None).names == [None, "Ada"]
            assert [s.seat for s in b.lobby.entry(match).seats if s.open] == [0]
            await a.lobby.rename(ada.player, "Ada L.")
            await until(lambda: b.view(match, 1).names == [None, "Ada L."])
            assert [e.match for e in b.lobby.find(player=ada.player).matches] == [match]
            # B knows the seat is taken: its own taker is refused, naming it.
            bob, _ = await b.lobby.register("Bob")
            with pytest.raises(SeatAlreadyTaken, match="seat 1 "):
                await b.lobby.take_seat(match, bob.player, 1)
    finally:
        one.close()
        two.close()


async def takers_on_two_nodes(pg_url: str, registry: Registry, takers: int) -> None:
    one, two = two_stores(pg_url, registry)
    try:
        async with Hall(one, registry) as a, Hall(two, registry) as b:
            ids = [(await a.lobby.register(f"P{i}"))[0].player for i in range(takers)]
            match = await a.create("tictactoe", open_seats=[0, 1])
            b.lobby.names(match)  # both nodes hold the match's actor
            won: list[str] = []
            lost: list[GamehallError] = []

            async def take(hall: Hall, player: str) -> None:
                try:
                    await hall.lobby.take_seat(match, player, 1)
                    won.append(player)
                except SeatAlreadyTaken as exc:
                    lost.append(exc)

            async with anyio.create_task_group() as tg:
                for number, player in enumerate(ids):
                    tg.start_soon(take, a if number % 2 else b, player)
            assert len(won) == 1 and len(lost) == takers - 1
            assert all("seat 1 " in str(e) for e in lost)
            seated = [r.event for r in one.read(match) if isinstance(r.event, SeatTaken)]
            assert seated == [SeatTaken(seat=1, player=won[0])]
            entry = one.stream_info(match)
            assert entry is not None and entry.info["seat_players"] == [None, won[0]]
            assert entry.info["open"] == [0]
    finally:
        one.close()
        two.close()


async def test_takers_of_one_seat_on_two_nodes_give_one_winner(
    pg_url: str, registry: Registry
) -> None:
    await takers_on_two_nodes(pg_url, registry, 20)


@pytest.mark.long
async def test_a_hundred_takers_of_one_seat_on_two_nodes(pg_url: str, registry: Registry) -> None:
    await takers_on_two_nodes(pg_url, registry, 100)
