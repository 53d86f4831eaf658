"""Seats are taken by events of the match, decided by its actor at the match's version.

Of any number of takers of one seat exactly one wins and the others are told ``seat_taken``
naming the seat; takers of different seats all win; bad requests store nothing. The events
meet everything that reads a log: folds, take-backs, verify, watchers in words.
"""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import anyio
import httpx
import pytest
from gamehall.adapters.http import create_app
from gamehall.adapters.stdin import protocol
from gamehall.core import Registry, replay
from gamehall.core.errors import GamehallError, MatchOver, UnknownMatch, UnknownPlayer
from gamehall.core.events import SeatTaken
from gamehall.core.hall import Hall
from gamehall.core.seating import NoFreeSeat, SeatAlreadyTaken
from gamehall.core.store import SQLiteStore

TAKERS = 100
PLACE = "tictactoe.PlaceMark"


def sqlite_hall(registry: Registry, tmp_path: Path) -> Hall:
    return Hall(SQLiteStore(tmp_path / "hall.db", registry.codec), registry)


async def players(hall: Hall, count: int) -> list[str]:
    return [(await hall.lobby.register(f"P{i}"))[0].player for i in range(count)]


def test_a_hundred_takers_of_one_seat_give_one_winner(registry: Registry, tmp_path: Path) -> None:
    async def body() -> None:
        async with sqlite_hall(registry, tmp_path) as hall:
            ids = await players(hall, TAKERS)
            match = await hall.create("tictactoe", open_seats=[0, 1])
            hall.passivate()  # cold: the first takers activate it at once
            won: list[str] = []
            refused: list[GamehallError] = []

            async def take(player: str) -> None:
                try:
                    assert await hall.lobby.take_seat(match, player, 1) == 1
                    won.append(player)
                except SeatAlreadyTaken as exc:
                    refused.append(exc)

            async with anyio.create_task_group() as tg:
                for player in ids:
                    tg.start_soon(take, player)
            assert len(won) == 1 and len(refused) == TAKERS - 1
            assert all(e.code == "seat_taken" and "seat 1 " in str(e) for e in refused)
            assert hall.lobby.holders(match) == [None, won[0]]
            seated = [r.event for r in hall.read(match) if isinstance(r.event, SeatTaken)]
            assert seated == [SeatTaken(seat=1, player=won[0])]

    anyio.run(body)


def test_takers_of_every_seat_all_win(registry: Registry, tmp_path: Path) -> None:
    async def body() -> None:
        async with sqlite_hall(registry, tmp_path) as hall:
            ids = await players(hall, 6)
            match = await hall.create("gunsen", 6, open_seats=range(6))
            taken: dict[int, str] = {}

            async def take(seat: int) -> None:
                taken[await hall.lobby.take_seat(match, ids[seat], seat)] = ids[seat]

            async with anyio.create_task_group() as tg:
                for seat in range(6):
                    tg.start_soon(take, seat)
            assert hall.lobby.holders(match) == [taken[s] for s in range(6)] == ids
            assert hall.lobby.entry(match).open_seats == 0
            # Any seat, six at once: each gets another one.
            other = await hall.create("gunsen", 6, open_seats=range(6))
            got: list[int] = []

            async def any_seat(player: str) -> None:
                got.append(await hall.lobby.take_seat(other, player))

            async with anyio.create_task_group() as tg:
                for player in ids:
                    tg.start_soon(any_seat, player)
            assert sorted(got) == list(range(6))

    anyio.run(body)


def test_bad_seat_requests_name_the_problem_and_store_nothing(
    registry: Registry, tmp_path: Path
) -> None:
    async def body() -> None:
        async with sqlite_hall(registry, tmp_path) as hall:
            (ada,) = await players(hall, 1)
            match = await hall.create("tictactoe", open_seats=[0], bots={1: "random"})
            before = hall.store.version(match)
            cases: list[tuple[Any, type[GamehallError], str]] = [
                ((match, ada, 2), NoFreeSeat, "seat 2 does not exist: seats are 0 to 1"),
                ((match, ada, 1), NoFreeSeat, "a bot plays it"),
                ((match, "nobody", 0), UnknownPlayer, "unknown player"),
                (("0123456789abcdef", ada, 0), UnknownMatch, "0123456789abcdef"),
            ]
            for args, error, words in cases:
                with pytest.raises(error, match=words):
                    await hall.lobby.take_seat(*args)
            assert hall.store.version(match) == before
            done = await hall.create("tictactoe", open_seats=[1], seed=3)
            for cell in (0, 3, 1, 4, 2):
                seat = 0 if cell in (0, 1, 2) else 1
                await hall.send(done, seat, {"type": PLACE, "cell": cell})
            version = hall.store.version(done)
            with pytest.raises(MatchOver, match="is over"):
                await hall.lobby.take_seat(done, ada, 1)
            assert hall.store.version(done) == version
            await hall.lobby.delete(done)
            with pytest.raises(UnknownMatch):
                await hall.lobby.take_seat(done, ada, 1)

    anyio.run(body)


def test_seat_events_meet_folds_take_backs_verify_and_watchers(
    registry: Registry, tmp_path: Path
) -> None:
    async def body() -> None:
        async with sqlite_hall(registry, tmp_path) as hall:
            ada, bob = await players(hall, 2)
            match = await hall.create("tictactoe", seat_players={0: ada}, open_seats=[1], seed=4)
            await hall.send(match, 0, {"type": PLACE, "cell": 4})
            await hall.lobby.take_seat(match, bob, 1)
            told: list[str] = []
            with anyio.fail_after(5):
                async for item in hall.watch_narrated(match, 1):
                    told.append(item.text)
                    if isinstance(item.record.event, SeatTaken):
                        break
            assert told[-1] == "You took seat 2."  # API seat 1: people count from 1
            with anyio.fail_after(5):
                async for item in hall.watch_narrated(match, 0):
                    if isinstance(item.record.event, SeatTaken):
                        assert item.text == "Seat 2 was taken by a player."
                        break
            # A take-back of seat 0's move is not blocked by the seat event after it.
            status = await hall.request_undo(match, 0)
            assert status is not None
            records = hall.read(match)
            assert any(isinstance(r.event, SeatTaken) for r in records)
            assert replay.verify(hall.ruleset(match), records) is None
            hall.passivate()
            assert hall.view(match, 1).seq == hall.store.version(match)

    anyio.run(body)


def test_a_hundred_http_takers_of_one_seat(registry: Registry, tmp_path: Path) -> None:
    async def body() -> None:
        async with sqlite_hall(registry, tmp_path) as hall:
            app = create_app(hall, rate_limits=None)
            transport = httpx.ASGITransport(app=app)
            async with httpx.AsyncClient(transport=transport, base_url="http://t") as client:
                made = await client.post("/matches", json={"game": "tictactoe", "seating": "open"})
                match = made.json()["match"]
                answers: list[httpx.Response] = []

                async def claim() -> None:
                    answers.append(await client.post(f"/matches/{match}/seats", json={"seat": 1}))

                async with anyio.create_task_group() as tg:
                    for _ in range(TAKERS):
                        tg.start_soon(claim)
                codes = sorted(a.status_code for a in answers)
                assert codes == [201] + [409] * (TAKERS - 1)
                lost = [a.json() for a in answers if a.status_code == 409]
                assert all(x["error"] == "seat_taken" and "seat 1 " in x["message"] for x in lost)
                token = next(a.json()["token"] for a in answers if a.status_code == 201)
                view = await client.get(
                    f"/matches/{match}/view", headers={"Authorization": f"Bearer {token}"}
                )
                assert view.json()["seat"] == 1
            app.state.gamehall.seats.close()

    anyio.run(body)


def test_a_hundred_stdio_takers_of_one_seat(registry: Registry, tmp_path: Path) -> None:
    async def body() -> None:
        out = io.BytesIO()
        async with sqlite_hall(registry, tmp_path) as hall, anyio.create_task_group() as tg:
            server = protocol.Server(hall, out, tg)
            tokens = [(await hall.lobby.register(f"P{i}"))[1] for i in range(TAKERS)]
            match = await hall.create("tictactoe", open_seats=[0, 1])
            async with anyio.create_task_group() as takers:
                for number, token in enumerate(tokens, 1):
                    line = {"id": number, "op": "take_seat", "match": match, "token": token,
                            "seat": 1}  # fmt: skip
                    takers.start_soon(server.handle_line, json.dumps(line).encode(), number)
            await server.drain()
            tg.cancel_scope.cancel()
        answers = [json.loads(x) for x in out.getvalue().decode().splitlines()]
        answers = [a for a in answers if "ok" in a]
        assert len(answers) == TAKERS
        assert sum(a["ok"] for a in answers) == 1
        lost = [a for a in answers if not a["ok"]]
        assert all(a["error"]["code"] == "seat_taken" for a in lost), lost[:2]

    anyio.run(body)


def test_a_hundred_join_form_posts_for_one_seat(registry: Registry, tmp_path: Path) -> None:
    async def body() -> None:
        async with sqlite_hall(registry, tmp_path) as hall:
            app = create_app(hall, rate_limits=None)
            transport = httpx.ASGITransport(app=app)
            match = await hall.create("tictactoe", open_seats=[0, 1])
            answers: list[httpx.Response] = []

            async def join(number: int) -> None:
                csrf = f"csrf-token-of-browser-{number:04d}"
                # Each taker is a browser of its own: its own CSRF cookie, a new player.
                async with httpx.AsyncClient(
                    transport=transport, base_url="http://t", cookies={"gh_csrf": csrf}
                ) as browser:
                    form = {"csrf": csrf, "seat": "1", "name": f"P{number}"}
                    answers.append(await browser.post(f"/join/{match}", data=form))

            async with anyio.create_task_group() as tg:
                for number in range(TAKERS):
                    tg.start_soon(join, number)
            codes = sorted(a.status_code for a in answers)
            assert codes == [303] + [409] * (TAKERS - 1), codes[:3]
            assert all(
                "seat 1 " in a.text and "taken" in a.text
                for a in answers[1:]
                if a.status_code == 409
            )
            winner = next(a for a in answers if a.status_code == 303)
            assert winner.headers["location"].endswith("/1")
            assert hall.lobby.holders(match)[1] is not None
            taken = [r for r in hall.read(match) if isinstance(r.event, SeatTaken)]
            assert len(taken) == 1

    anyio.run(body)


def test_an_open_seat_given_to_a_bot_is_stored_and_played(
    registry: Registry, tmp_path: Path
) -> None:
    from gamehall.core.events import SeatGivenToBot
    from gamehall.core.seating import rebuild_lobby

    async def body() -> None:
        async with sqlite_hall(registry, tmp_path) as hall:
            (ada,) = await players(hall, 1)
            match = await hall.create("tictactoe", open_seats=[0, 1], seed=9)
            await hall.lobby.take_seat(match, ada, 0)
            await hall.lobby.give_seat_to_bot(match, 1, "random", seed=3)
            entry = hall.lobby.entry(match)
            assert entry.seats[1].bot == "random" and entry.open_seats == 0
            assert hall.lobby.names(match)[1] == "bot (random)"
            with pytest.raises(NoFreeSeat, match="a bot plays it"):
                await hall.lobby.take_seat(match, ada, 1)
            with pytest.raises(NoFreeSeat, match="a bot plays it"):
                await hall.lobby.give_seat_to_bot(match, 1, "random")
            await hall.send(match, 0, {"type": PLACE, "cell": 4})
            with anyio.fail_after(10):  # the bot answers
                while hall.view(match, None).seq < hall.store.version(match) or 1 in hall.awaiting(
                    match
                ):
                    await anyio.sleep(0.01)
            given = [r.event for r in hall.read(match) if isinstance(r.event, SeatGivenToBot)]
            assert given == [SeatGivenToBot(seat=1, bot="random", seed=given[0].seed)]
            assert rebuild_lobby(hall.store, registry).changed == []
        # Stored: a restarted hall plays the seat too.
        async with sqlite_hall(registry, tmp_path) as hall:
            assert hall.info(match).bots == {1: "random"}

    anyio.run(body)
