"""The engine plays bot seats: whole matches, people against bots, restarts, holds, failures."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import anyio
import pytest
from gamehall.core import Command, GamehallError, InvalidOptions, Registry
from gamehall.core.bots.driver import bot_seed
from gamehall.core.hall import Hall
from gamehall.core.store import MemoryStore, SQLiteStore
from gamehall.plugins.tictactoe.commands import PlaceMark

from tests.core.sample_games import SECRETS, Reveal, SamplePlugin, Secrets

pytestmark = pytest.mark.anyio


async def until_over(hall: Hall, match: str, timeout: float = 20.0) -> Any:
    with anyio.fail_after(timeout):
        while (outcome := hall.view(match, None).outcome) is None:
            await anyio.sleep(0.005)
    return outcome


def bot_commands(hall: Hall, match: str) -> list[tuple[int, str, int]]:
    """Return (seat, command id, seq before the command) of every command in the log."""
    return [
        (r.meta.seat, r.meta.command_id or "", r.seq - 1)
        for r in hall.store.read(match)
        if r.meta.command is not None and r.meta.seat is not None
    ]


async def test_two_bots_play_a_whole_match_by_themselves(registry: Registry) -> None:
    async with Hall(MemoryStore(registry.codec), registry) as hall:
        match = await hall.create(
            "toy-battle", seed=2, bots={0: "random", 1: "ismcts:10"}, bot_seed=9
        )
        assert hall.info(match).bots == {0: "random", 1: "ismcts:10"}
        await until_over(hall, match)
        played = bot_commands(hall, match)
        assert played and all(cid == f"bot-{seat}-{seq}" for seat, cid, seq in played)
        assert len({cid for _, cid, _ in played}) == len(played)


async def test_a_bot_answers_a_person_and_never_loses_at_tictactoe(registry: Registry) -> None:
    async with Hall(MemoryStore(registry.codec), registry) as hall:
        for seed in range(3):
            match = await hall.create("tictactoe", seed=seed, bots={1: "mcts:400"}, bot_seed=1)
            while hall.view(match, None).outcome is None:
                await hall.bots.settled(match)
                seen = hall.view(match, 0)
                if seen.legal:
                    await hall.send(match, 0, seen.legal[-1], f"p{seen.seq}")
            assert 0 not in hall.view(match, None).outcome.winners  # type: ignore[union-attr]


async def test_bot_seeds_are_kept_with_the_match_and_are_not_the_match_seed(
    registry: Registry,
) -> None:
    async with Hall(MemoryStore(registry.codec), registry) as hall:
        match = await hall.create("tictactoe", seed=5, bots={1: "mcts:20"}, bot_seed=5)
        stored = hall.store.stream_info(match).info["bots"]  # type: ignore[union-attr]
        assert stored == {"1": {"bot": "mcts:20", "seed": bot_seed(5, 1)}}
        assert bot_seed(5, 1) != 5 and bot_seed(5, 1) != bot_seed(5, 0)
        fresh = await hall.create("tictactoe", bots={1: "random"})
        other = hall.store.stream_info(fresh).info["bots"]["1"]["seed"]  # type: ignore[union-attr]
        assert isinstance(other, int) and other != stored["1"]["seed"]


@pytest.mark.parametrize(
    ("bots", "message"),
    [
        ({2: "random"}, "bot seat 2 does not exist: seats are 0 to 1"),
        ({1: "wizard"}, "unknown bot 'wizard'"),
    ],
)
async def test_bad_bot_seats_are_refused_and_nothing_is_stored(
    registry: Registry, bots: dict[int, str], message: str
) -> None:
    async with Hall(MemoryStore(registry.codec), registry) as hall:
        with pytest.raises(InvalidOptions, match=message):
            await hall.create("tictactoe", bots=bots)
        with pytest.raises(InvalidOptions, match="use ismcts"):
            await hall.create("toy-battle", bots={1: "mcts:5"})
        assert hall.matches() == []


async def test_a_restarted_hall_plays_an_awaited_bot_seat_and_never_twice(
    tmp_path: Path, registry: Registry
) -> None:
    db = tmp_path / "bots.db"
    store = SQLiteStore(db, registry.codec)
    async with Hall(store, registry) as hall:
        match = await hall.create("tictactoe", seed=1, bots={1: "mcts:50"}, bot_seed=2)
        hall.bots.hold(match)  # as if the hall stopped before the bot could answer
        await hall.send(match, 0, PlaceMark(cell=4), "p1")
        assert hall.awaiting(match).keys() == {1}
    store.close()
    store = SQLiteStore(db, registry.codec)
    async with Hall(store, registry) as hall:
        assert hall.info(match).bots == {1: "mcts:50"}  # read from the store, not played yet
        await hall.bots.settled(match)  # the first use activates the match: the bot answers
        assert hall.awaiting(match).keys() == {0}
        version = hall.view(match, None).seq
    store.close()
    store = SQLiteStore(db, registry.codec)
    async with Hall(store, registry) as hall:
        await hall.bots.settled(match)
        assert hall.view(match, None).seq == version  # nothing awaited the bot: nothing played
        played = bot_commands(hall, match)
        assert [seat for seat, _, _ in played] == [0, 1]
        assert played[1][1] == f"bot-1-{played[1][2]}"
    store.close()


async def test_a_held_match_waits_and_step_lets_one_command_through(registry: Registry) -> None:
    async with Hall(MemoryStore(registry.codec), registry) as hall:
        match = await hall.create("tictactoe", seed=3, bots={0: "random", 1: "random"})
        hall.bots.hold(match)
        version = hall.view(match, None).seq
        await anyio.sleep(0.05)
        assert hall.view(match, None).seq == version  # held: nobody moved
        await hall.bots.step(match)
        assert hall.view(match, None).seq == version + 1
        hall.bots.release(match)
        await until_over(hall, match)


async def test_set_bots_changes_who_plays_for_this_hall_only(registry: Registry) -> None:
    async with Hall(MemoryStore(registry.codec), registry) as hall:
        match = await hall.create("tictactoe", seed=3, bots={1: "random"})
        hall.set_bots(match, {})  # a person takes the bot's seat for this session
        await hall.send(match, 0, PlaceMark(cell=0), "p1")
        await anyio.sleep(0.05)
        assert hall.awaiting(match).keys() == {1}
        assert hall.store.stream_info(match).info["bots"]["1"]["bot"] == "random"  # type: ignore[union-attr]
        hall.set_bots(match, {1: "mcts:20", 0: "mcts:20"})
        await until_over(hall, match)


class _RefusesItsOwnLegal(Secrets):
    def decide(self, state: Any, command: Command, ctx: Any) -> Sequence[Any]:
        if isinstance(command, Reveal):
            from gamehall.core import IllegalCommand

            raise IllegalCommand("revealing is broken today")
        return super().decide(state, command, ctx)

    def legal(self, state: Any, seat: int) -> Sequence[Command]:
        return [Reveal()] if not state.over and seat == state.turn else []


async def test_a_bot_the_rules_refuse_stops_alone_and_says_why() -> None:
    spec = dataclasses.replace(SECRETS, rules=_RefusesItsOwnLegal)
    registry = Registry([SamplePlugin(spec)], entry_points=False)
    async with Hall(MemoryStore(registry.codec), registry) as hall:
        match = await hall.create("secrets", 2, seed=1, bots={0: "random"})
        with pytest.raises(GamehallError, match="the bot of seat 1 was refused: revealing"):
            with anyio.fail_after(5):
                await hall.bots.settled(match)
        other = await hall.create("secrets", 2, seed=2)
        assert hall.view(other, None).seq >= 1  # the hall goes on


async def test_a_cheap_bot_moves_while_two_matches_think_for_ever(registry: Registry) -> None:
    """Thinking is shared in slices: two matches whose bots would think for minutes take
    every slot, and a third match's random bot still answers its person at once."""
    endless = "mcts:10000000"
    async with Hall(MemoryStore(registry.codec), registry) as hall:
        thinkers = hall.bots.thinkers
        heavy = [
            await hall.create("tictactoe", seed=n, bots={0: endless, 1: endless}, bot_seed=n)
            for n in range(2)
        ]
        with anyio.fail_after(30):
            while not (thinkers.busy == thinkers.slots and set(heavy) <= set(thinkers.thinking)):
                await anyio.sleep(0.005)
        light = await hall.create("tictactoe", seed=3, bots={1: "random"}, bot_seed=3)
        await hall.send(light, 0, PlaceMark(cell=4), "p1")
        with anyio.fail_after(30):
            await hall.bots.settled(light)
        assert hall.view(light, None).seq == 3  # the random bot answered
        # … while both heavy matches were still in their first decision, taking turns
        assert all(hall.view(m, None).seq == 1 for m in heavy)
        assert set(heavy) <= set(thinkers.thinking)
        with anyio.fail_after(30):
            while min(thinkers.thinking[m] for m in heavy) < 3:
                await anyio.sleep(0.005)
        assert all(hall.view(m, None).seq == 1 for m in heavy)


async def test_a_sliced_search_decides_as_a_whole_one(registry: Registry) -> None:
    from gamehall.core.bots.fair import FairThinkers
    from gamehall.core.bots.spec import make_bot
    from gamehall.core.table import Table

    ruleset = registry.ruleset("tictactoe")
    table = Table.new("tictactoe", seed=5, registry=registry)
    table.send(0, PlaceMark(cell=0))
    legal = table.legal(1)
    whole = make_bot("mcts:300", ruleset, 7).choose(1, legal, lambda: table.view(1))
    thinkers = FairThinkers(1, slice_seconds=0.0)  # a slice of one iteration
    sliced = await thinkers.think(
        "m", make_bot("mcts:300", ruleset, 7), 1, legal, lambda: table.view(1)
    )
    assert sliced == whole and thinkers.slices >= 300 and thinkers.busy == 0
