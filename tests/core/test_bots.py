"""Bots: specs in words, reproducible search, time budgets, and IS-MCTS that never peeks."""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence
from typing import Any

import msgspec
import pytest
from gamehall.core import Command, RandomBot, Registry, Table
from gamehall.core.bots import (
    BotError,
    BotSpec,
    ISMCTSBot,
    MCTSBot,
    make_bot,
    parse_bot,
    parse_role,
)
from gamehall.plugins.tictactoe.commands import PlaceMark

from tests.core.sample_games import SECRETS, SamplePlugin
from tests.core.turn_games import StrikePlugin


def test_the_bot_names_stay_importable_from_core_and_core_bots() -> None:
    from gamehall import core
    from gamehall.core import bots

    assert core.RandomBot is bots.RandomBot and core.Bot is bots.Bot


@pytest.mark.parametrize(
    ("text", "spec"),
    [
        ("", BotSpec("random")),
        ("random", BotSpec("random")),
        ("mcts", BotSpec("mcts")),
        ("mcts:2000", BotSpec("mcts", iterations=2000)),
        ("ismcts:500", BotSpec("ismcts", iterations=500)),
        ("ismcts:2s", BotSpec("ismcts", seconds=2.0)),
        ("ismcts:0.25s", BotSpec("ismcts", seconds=0.25)),
    ],
)
def test_bot_specs_read_as_written(text: str, spec: BotSpec) -> None:
    assert parse_bot(text) == spec
    assert parse_bot(str(spec)) == spec
    assert spec.reproducible == (spec.seconds is None)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("chess", "unknown bot 'chess': bots are random, mcts, ismcts"),
        ("random:10", "the random bot takes no budget"),
        ("mcts:many", "the budget is a number of iterations"),
        ("mcts:lots", "the time budget is a number of seconds"),
        ("mcts:0", "iterations go from 1"),
        ("mcts:0s", "a time budget is above 0"),
        ("ismcts:1e9s", "at most 600s"),
    ],
)
def test_bad_bot_specs_say_why(text: str, message: str) -> None:
    with pytest.raises(BotError, match=message):
        parse_bot(text)


def test_seat_roles() -> None:
    assert parse_role("human") is None
    assert parse_role("bot") == BotSpec()
    assert parse_role("bot:mcts:50") == BotSpec("mcts", iterations=50)
    with pytest.raises(BotError, match="use human, bot or bot:KIND"):
        parse_role("wizard")


def test_mcts_refuses_a_game_with_hidden_information(registry: Registry) -> None:
    with pytest.raises(BotError, match="use ismcts"):
        make_bot("mcts:10", registry.ruleset("toy-battle"), 0)
    assert isinstance(make_bot("ismcts:10", registry.ruleset("toy-battle"), 0), ISMCTSBot)
    assert isinstance(make_bot("mcts", registry.ruleset("tictactoe"), 0), MCTSBot)


def test_ismcts_refuses_a_hidden_game_that_cannot_sample() -> None:
    import dataclasses

    from tests.core.sample_games import Secrets

    class Blind(Secrets):
        sample = Secrets.__mro__[1].sample  # Rules.sample: refuses

    registry = Registry(
        [SamplePlugin(dataclasses.replace(SECRETS, rules=Blind))], entry_points=False
    )
    with pytest.raises(BotError, match="needs Secrets to sample hidden information"):
        make_bot("ismcts:10", registry.ruleset("secrets"), 0)


def test_mcts_takes_a_win_in_one_and_blocks_a_loss_in_one(registry: Registry) -> None:
    bot = make_bot("mcts:300", registry.ruleset("tictactoe"), 1)
    for moves, best in [([0, 4, 1, 8], 2), ([0, 4, 8, 1], 7)]:  # X wins 0-1-2; X blocks 1-4-7
        table = Table.new("tictactoe", seed=1)
        for turn, cell in enumerate(moves):
            table.send(turn % 2, PlaceMark(cell=cell))
        assert bot.choose(0, table.legal(0), lambda t=table: t.view(0)) == PlaceMark(cell=best)


def _play(game: str, bots: dict[int, Any], seed: int, **kw: Any) -> list[Any]:
    table = Table.new(game, seed=seed, **kw)
    table.play(bots)
    return table.events


def test_an_iteration_budget_is_reproducible_from_the_bot_seed(registry: Registry) -> None:
    ruleset = registry.ruleset("toy-battle")
    one = _play("toy-battle", {0: make_bot("ismcts:15", ruleset, 7), 1: RandomBot(1)}, 3)
    two = _play("toy-battle", {0: make_bot("ismcts:15", ruleset, 7), 1: RandomBot(1)}, 3)
    assert one == two
    rog = registry.ruleset("river-of-gold")
    bots = {0: make_bot("ismcts:5", rog, 2), 1: make_bot("ismcts:5", rog, 3)}
    again = {0: make_bot("ismcts:5", rog, 2), 1: make_bot("ismcts:5", rog, 3)}
    assert _play("river-of-gold", bots, 4) == _play("river-of-gold", again, 4)


def test_a_time_budget_stops_in_time(registry: Registry) -> None:
    table = Table.new("tictactoe", seed=1)
    bot = make_bot("mcts:0.05s", table.ruleset, 1)
    assert isinstance(bot, MCTSBot)
    started = time.perf_counter()
    command = bot.choose(0, table.legal(0), lambda: table.view(0))
    assert time.perf_counter() - started < 1.0 and command in table.legal(0)
    assert bot.last_iterations >= 1


def test_a_single_legal_command_is_chosen_without_searching(registry: Registry) -> None:
    bot = make_bot("mcts:1000000", registry.ruleset("tictactoe"), 0)
    only = [PlaceMark(cell=8)]
    assert bot.choose(0, only, lambda: pytest.fail("the view was not needed")) == only[0]


class Watching:
    """A bot that records what it was asked and checks that its bot answers with a legal one."""

    def __init__(self, bot: Any, asked: list[Sequence[Command]]) -> None:
        self.bot, self.asked = bot, asked

    def choose(self, seat: int, legal: Sequence[Command], view: Callable[[], Any]) -> Any:
        self.asked.append(legal)
        command = self.bot.choose(seat, legal, view)
        assert command in legal
        return command


def test_the_search_plays_reaction_windows_and_free_actions() -> None:
    registry = Registry([StrikePlugin()], entry_points=False)
    ruleset = registry.ruleset("strike")
    for seed in range(3):
        table = Table(ruleset, ruleset.started(3, None, None, seed))
        asked: list[Sequence[Command]] = []
        bots = {0: Watching(make_bot("ismcts:20", ruleset, seed), asked), 1: RandomBot(seed),
                2: RandomBot(seed + 1)}  # fmt: skip
        assert table.play(bots) is not None
        assert any(len(legal) > 1 for legal in asked)


# -- IS-MCTS never peeks ------------------------------------------------------------------------


def _scrambled_toy_battle(view: Any, seat: int, rng: random.Random) -> Any:
    # Fill what the seat cannot see with troops that are not there: the other rack.
    other = view.players[1 - seat]
    troops = [f"{other.colour}-roxy-{n}" for n in (1, 2, 3)] * 3
    fake = tuple(rng.sample(troops, min(other.rack_size, len(troops))))
    players = list(view.players)
    players[1 - seat] = msgspec.structs.replace(
        other, rack=fake, face_down_troops=fake[: other.face_down]
    )
    return msgspec.structs.replace(view, players=tuple(players))


def _scrambled_river_of_gold(view: Any, seat: int, rng: random.Random) -> Any:
    # A whole state drawn afresh: other hands, the deck and the stacks hold real-looking
    # cards and tiles where the view has '?', none of them where they really are.
    from gamehall.plugins.river_of_gold.view import sample

    return sample(view, seat, rng)


@pytest.mark.parametrize(
    ("game", "scramble", "spec"),
    [
        ("toy-battle", _scrambled_toy_battle, "ismcts:20"),
        ("river-of-gold", _scrambled_river_of_gold, "ismcts:10"),
    ],
)
def test_ismcts_decides_the_same_whatever_the_hidden_parts_of_its_view_hold(
    registry: Registry, game: str, scramble: Callable[..., Any], spec: str
) -> None:
    ruleset = registry.ruleset(game)
    table = Table.new(game, seed=5)
    rng, other = random.Random(5), RandomBot(5)
    checked = 0
    while table.awaiting() and checked < 12:
        seat = next(iter(table.awaiting()))
        legal = table.legal(seat)
        if seat == 1 and len(legal) > 1:
            view = table.view(1)
            shown = scramble(view, 1, rng)
            assert msgspec.msgpack.encode(shown) != msgspec.msgpack.encode(view)
            honest = make_bot(spec, ruleset, checked).choose(1, legal, lambda v=view: v)
            fooled = make_bot(spec, ruleset, checked).choose(1, legal, lambda v=shown: v)
            assert honest == fooled
            checked += 1
            table.send(1, honest)
        else:
            table.send(seat, other.choose(seat, legal, lambda: None))
    assert checked >= 5


@pytest.mark.parametrize("seed", [0, 1, "x", 2**40])
def test_the_random_bot_chooses_as_random_choice_does(seed: int | str) -> None:
    bot, rng = RandomBot(seed), random.Random(seed)
    for n in [1, 2, 3, 4, 5, 7, 8, 9, 16, 17, 100] * 20:
        legal = list(range(n))
        assert bot.choose(0, legal, lambda: None) == rng.choice(legal)  # type: ignore[arg-type]


def test_the_random_bot_refuses_nothing_to_choose_from_as_random_choice_does() -> None:
    with pytest.raises(IndexError):
        RandomBot(0).choose(0, [], lambda: None)
