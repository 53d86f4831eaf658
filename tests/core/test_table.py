"""Table: the synchronous runner — refusals, queries, bots, envelopes and seeded randomness."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any

import msgspec
import pytest
from gamehall.core import (
    Command,
    Context,
    Event,
    GameSpec,
    IllegalCommand,
    InvalidCommand,
    MatchOver,
    MatchStarted,
    NotAwaited,
    RandomBot,
    Registry,
    Table,
    hookimpl,
)
from gamehall.core.rules import LazyRandom, match_rng
from gamehall.plugins.tictactoe.commands import PlaceMark
from gamehall.plugins.tictactoe.events import BoardFilled, LineCompleted, MarkPlaced

from tests.core.dice_game import DICE, Dice, DicePlugin, FirstPlayerDrawn, Hold, Roll, Rolled
from tests.core.sample_games import SECRETS, CardDealt, Pass, Reveal, SamplePlugin


class Idle(Dice):
    """Dice whose Hold is a rules bug: it decides no event at all."""

    def decide(self, state: Any, command: Command, ctx: Context) -> Sequence[Event]:
        if isinstance(command, Hold):
            return []
        return super().decide(state, command, ctx)


IDLE = GameSpec(**{**DICE.__dict__, "id": "idle-dice", "rules": Idle})


class IdlePlugin(DicePlugin):
    @hookimpl
    def gamehall_games(self) -> list[GameSpec]:
        return [IDLE]


@pytest.fixture(scope="module")
def reg() -> Registry:
    return Registry([SamplePlugin(SECRETS), DicePlugin(), IdlePlugin()])


# -- starting ----------------------------------------------------------------------------------


def test_new_starts_a_match_with_its_first_event(reg: Registry) -> None:
    table = Table.new("tictactoe", registry=reg)
    assert table.seq == 1 and len(table.events) == 1
    started = table.events[0]
    assert isinstance(started, MatchStarted)
    assert (started.game, started.players, started.seed, started.expansions) == (
        "tictactoe",
        2,
        0,
        (),
    )
    assert table.ruleset is reg.ruleset("tictactoe")
    assert table.state == table.rules.initial(table.ruleset.config(started))


def test_new_runs_the_setup_of_the_game(reg: Registry) -> None:
    table = Table.new("secrets", 3, registry=reg, seed=8)
    assert [type(e) for e in table.events] == [MatchStarted, CardDealt, CardDealt, CardDealt]
    assert table.seq == 4
    assert all(hand is not None for hand in table.state.hands)


def test_new_passes_options_and_expansions(reg: Registry) -> None:
    table = Table.new("dice", 3, options={"rounds": 1}, registry=reg, seed=1)
    assert table.state.rounds == 1 and table.state.players == 3
    misere = Table.new("tictactoe", expansions=["tictactoe-misere"], registry=reg)
    assert misere.ruleset.name == "tictactoe+tictactoe-misere"
    assert [e.id for e in misere.events[0].expansions] == ["tictactoe-misere"]  # type: ignore[attr-defined]


# -- refusals change nothing -------------------------------------------------------------------


def snapshot(table: Table) -> tuple[Any, int, list[Any]]:
    return table.state, len(table.events), table.records()


def assert_unchanged(table: Table, before: tuple[Any, int, list[Any]]) -> None:
    state, count, records = before
    assert table.state is state
    assert len(table.events) == count
    assert table.records() == records


def test_a_taken_cell_is_refused_and_changes_nothing(reg: Registry) -> None:
    table = Table.new("tictactoe", registry=reg)
    table.send(0, PlaceMark(cell=4))
    before = snapshot(table)
    with pytest.raises(IllegalCommand) as info:
        table.send(1, PlaceMark(cell=4), command_id="x")
    assert info.value.rule == "TTT-2"
    assert_unchanged(table, before)
    table.send(1, PlaceMark(cell=0))  # and the seat may still play
    assert table.seq == 3


def test_a_seat_that_is_not_awaited_is_refused(reg: Registry) -> None:
    table = Table.new("tictactoe", registry=reg)
    before = snapshot(table)
    with pytest.raises(NotAwaited, match="seat 1"):
        table.send(1, PlaceMark(cell=0))
    assert_unchanged(table, before)


def test_a_command_after_the_end_is_refused(reg: Registry) -> None:
    table = Table.new("tictactoe", registry=reg)
    for i, cell in enumerate([0, 3, 1, 4, 2]):
        table.send(i % 2, PlaceMark(cell=cell))
    before = snapshot(table)
    for seat in (0, 1):
        with pytest.raises(MatchOver):
            table.send(seat, PlaceMark(cell=8))
    assert_unchanged(table, before)


def test_a_command_of_another_game_is_refused(reg: Registry) -> None:
    table = Table.new("tictactoe", registry=reg)
    before = snapshot(table)
    with pytest.raises(InvalidCommand, match="secrets.Reveal"):
        table.send(0, Reveal())
    assert_unchanged(table, before)


def test_a_decision_without_events_is_refused(reg: Registry) -> None:
    table = Table.new("idle-dice", registry=reg, seed=3)
    seat = next(iter(table.awaiting()))
    before = snapshot(table)
    with pytest.raises(IllegalCommand, match="changes nothing"):
        table.send(seat, Hold())
    assert_unchanged(table, before)


def test_a_rules_refusal_in_a_game_with_draws_changes_nothing(reg: Registry) -> None:
    table = Table.new("dice", registry=reg, seed=3)
    for _ in range(4):
        table.send(next(iter(table.awaiting())), Hold())
    seat = next(iter(table.awaiting()))
    before = snapshot(table)
    with pytest.raises(IllegalCommand, match="twice"):
        table.send(seat, Hold())
    assert_unchanged(table, before)
    # the refused command drew nothing that matters: the roll now is the one of its seq
    seq = table.seq + 1
    (rolled,) = table.send(seat, Roll())
    assert rolled == Rolled(seat=seat, value=match_rng(3, seq).randint(1, 6))


# -- queries -----------------------------------------------------------------------------------


def test_awaiting_legal_and_outcome_follow_the_match(reg: Registry) -> None:
    table = Table.new("tictactoe", registry=reg)
    assert list(table.awaiting()) == [0] and table.awaiting()[0].kind == "place"
    assert table.legal(0) == [PlaceMark(cell=c) for c in range(9)]
    assert list(table.legal(1)) == []
    assert table.outcome() is None
    events = table.send(0, PlaceMark(cell=0))
    assert list(events) == [MarkPlaced(seat=0, cell=0)]
    assert list(table.awaiting()) == [1]
    assert PlaceMark(cell=0) not in table.legal(1) and len(table.legal(1)) == 8
    assert list(table.legal(0)) == []
    for i, cell in enumerate([4, 8, 2, 6, 3, 5, 7, 1], start=1):  # a draw
        table.send(i % 2, PlaceMark(cell=cell))
    assert isinstance(table.events[-1], BoardFilled)
    outcome = table.outcome()
    assert outcome is not None and outcome.winners == ()
    assert table.awaiting() == {} and list(table.legal(0)) == list(table.legal(1)) == []


def test_view_and_render_go_through_the_rules(reg: Registry) -> None:
    table = Table.new("secrets", registry=reg, seed=6)
    mine = table.view(0)
    assert mine.mine == table.state.hands[0]
    assert table.view(1).mine == table.state.hands[1]
    assert table.view(None).mine is None
    assert table.state.hands[1] not in table.render(0)
    text = Table.new("tictactoe", registry=reg).render(None)
    assert "X to move" in text


# -- bots --------------------------------------------------------------------------------------


class Recording:
    """A bot that plays the first legal command and remembers what it was shown."""

    def __init__(self) -> None:
        self.seats: list[int] = []
        self.views: list[Any] = []

    def choose(self, seat: int, legal: Sequence[Command], view: Callable[[], Any]) -> Command:
        self.seats.append(seat)
        self.views.append(view())
        return legal[0]


def test_play_asks_each_seat_its_own_bot(reg: Registry) -> None:
    table = Table.new("tictactoe", registry=reg)
    bots = {0: Recording(), 1: Recording()}
    outcome = table.play(bots)
    assert outcome is not None and outcome == table.outcome()
    assert set(bots[0].seats) == {0} and set(bots[1].seats) == {1}
    # first legal each time: X takes 0, 2, 4, 6 and wins on the diagonal 2-4-6
    cells = [e.cell for e in table.events if isinstance(e, MarkPlaced)]
    assert cells == [0, 1, 2, 3, 4, 5, 6]
    assert isinstance(table.events[-1], LineCompleted) and outcome.winners == (0,)
    assert len(bots[0].seats) == 4 and len(bots[1].seats) == 3


def test_bots_see_only_their_seats_view(reg: Registry) -> None:
    table = Table.new("secrets", registry=reg, seed=12)
    hands = table.state.hands
    bots = {0: Recording(), 1: Recording()}
    table.play(bots)
    for seat, bot in bots.items():
        assert bot.views
        for view in bot.views:
            assert view.mine == hands[seat]
            other = hands[1 - seat]
            assert other not in msgspec.json.encode(view).decode() or other in view.shown


def test_play_without_a_bot_for_an_awaited_seat_raises(reg: Registry) -> None:
    table = Table.new("tictactoe", registry=reg)
    with pytest.raises(KeyError, match="seat 1"):
        table.play({0: RandomBot(1)})
    assert table.seq == 2  # the command before the missing bot was played


def test_play_stops_after_max_commands(reg: Registry) -> None:
    table = Table.new("tictactoe", registry=reg)
    assert table.play(RandomBot(1), max_commands=3) is None
    assert table.seq == 4 and table.outcome() is None
    table.play(RandomBot(1))
    assert table.outcome() is not None


def test_play_gives_the_same_log_as_sending_the_same_commands(reg: Registry) -> None:
    for game in ("dice", "secrets", "toy-battle"):
        if game not in reg.games:
            continue
        played = Table.new(game, registry=reg, seed=17)
        played.play(RandomBot(4))
        sent = Table.new(game, registry=reg, seed=17)
        for record in played.records()[1:]:
            if record.meta.command is not None:
                assert record.meta.seat is not None
                sent.send(record.meta.seat, record.meta.command)
        assert sent.events == played.events, game
        assert sent.records() == played.records(), game


# -- envelopes ---------------------------------------------------------------------------------


def test_records_put_the_command_on_the_first_event_of_each_batch(reg: Registry) -> None:
    table = Table.new("tictactoe", expansions=["tictactoe-misere"], registry=reg, seed=2)
    moves = [0, 3, 1, 4, 2]
    for i, cell in enumerate(moves):
        table.send(i % 2, PlaceMark(cell=cell), command_id=f"cmd-{i}")
    records = table.records()
    assert [r.seq for r in records] == list(range(1, len(table.events) + 1))
    assert [r.position for r in records] == [r.seq for r in records]
    assert all(r.stream == "table" and r.time == 0.0 for r in records)
    assert [r.event for r in records] == table.events
    first = records[0].meta
    assert first.versions == {"tictactoe": "1.0.0", "tictactoe-misere": "1.0.0"}
    assert (first.command, first.command_id, first.seat) == (None, None, None)
    for i, cell in enumerate(moves):
        meta = records[i + 1].meta
        assert (meta.command, meta.command_id, meta.seat) == (
            PlaceMark(cell=cell),
            f"cmd-{i}",
            i % 2,
        )
        assert meta.versions is None
    tail = records[-1]  # the LineCompleted of the last command: same batch, no command again
    assert isinstance(tail.event, LineCompleted)
    assert (tail.meta.command, tail.meta.command_id, tail.meta.seat) == (None, "cmd-4", 0)
    assert tail.meta.versions is None


def test_records_of_a_setup_batch_carry_no_command(reg: Registry) -> None:
    table = Table.new("secrets", registry=reg, seed=2)
    table.send(0, Pass(), command_id="p")
    records = table.records()
    assert records[0].meta.versions == {"secrets": "1.0.0"}
    assert all(r.meta.command is None and r.meta.versions is None for r in records[1:3])
    assert records[3].meta.command == Pass() and records[3].meta.command_id == "p"


def test_records_of_bot_play_name_the_seat_of_each_command(reg: Registry) -> None:
    table = Table.new("dice", 3, registry=reg, seed=5)
    table.play(RandomBot(2))
    heads = [r for r in table.records() if r.meta.command is not None]
    assert len(heads) == len(table.events) - 2
    for head in heads:
        assert head.meta.seat == head.event.seat  # type: ignore[attr-defined]
        assert head.meta.command_id is None


# -- randomness --------------------------------------------------------------------------------


@pytest.mark.parametrize("game", ["secrets", "dice", "toy-battle", "river-of-gold"])
def test_the_same_seed_gives_the_same_log(reg: Registry, game: str) -> None:
    if game not in reg.games:
        pytest.skip(f"{game} is not installed")
    logs = []
    for _ in range(2):
        table = Table.new(game, registry=reg, seed=1234)
        table.play(RandomBot(9), max_commands=300)
        logs.append(table.records())
    assert logs[0] == logs[1]


def test_different_seeds_give_different_logs(reg: Registry) -> None:
    deals = set()
    for seed in range(10):
        table = Table.new("secrets", registry=reg, seed=seed)
        deals.add(tuple(table.events[1:]))
    assert len(deals) >= 5
    rolls = set()
    for seed in range(10):
        table = Table.new("dice", registry=reg, seed=seed)
        table.play(RandomBot(0))  # the same bot: only the seed differs
        rolls.add(tuple(e.value for e in table.events if isinstance(e, Rolled)))
    assert len(rolls) >= 5


def test_setup_draws_from_the_generator_of_seq_two(reg: Registry) -> None:
    for seed in (0, 1, 99, 2**40):
        table = Table.new("secrets", registry=reg, seed=seed)
        cards = match_rng(seed, 2).sample(range(1, 20), 2)
        assert table.events[1:] == [
            CardDealt(seat=s, card=f"card-{c:02d}") for s, c in enumerate(cards)
        ]
        dice = Table.new("dice", 4, registry=reg, seed=seed)
        assert dice.events[1] == FirstPlayerDrawn(seat=match_rng(seed, 2).randrange(4))


def test_decide_draws_from_the_generator_of_its_first_seq(reg: Registry) -> None:
    sent = Table.new("dice", registry=reg, seed=77)
    played = Table.new("dice", registry=reg, seed=77)
    played.play({0: RandomBot(3), 1: RandomBot(4)})
    rolls = [r for r in played.records() if isinstance(r.event, Rolled)]
    assert rolls
    for record in rolls:
        assert record.event.value == match_rng(77, record.seq).randint(1, 6)  # type: ignore[attr-defined]
    while sent.awaiting():
        seat = next(iter(sent.awaiting()))
        seq = sent.seq + 1
        (event,) = sent.send(seat, Roll())
        assert event == Rolled(seat=seat, value=match_rng(77, seq).randint(1, 6))


def test_context_rng_is_seeded_from_seed_and_seq() -> None:
    ctx = Context(0, 5, 42, "c")
    rng = ctx.rng
    assert ctx.rng is rng  # one generator per context
    draws = [rng.random() for _ in range(5)]
    reference = match_rng(42, 5)
    assert draws == [reference.random() for _ in range(5)]
    assert Context(1, 5, 42).rng.random() == draws[0]  # the seat does not matter
    assert Context(0, 6, 42).rng.random() != draws[0]
    assert Context(0, 5, 43).rng.random() != draws[0]
    assert (ctx.seat, ctx.seq, ctx.command_id) == (0, 5, "c")


def test_match_rng_depends_on_both_seed_and_seq() -> None:
    firsts = {
        (seed, seq): match_rng(seed, seq).random() for seed in range(5) for seq in range(1, 6)
    }
    assert len(set(firsts.values())) == len(firsts)
    assert match_rng(3, 4).getstate() == match_rng(3, 4).getstate()
    assert match_rng(3, 4).getstate() != match_rng(4, 3).getstate()


def shuffled(rng: random.Random, items: list[int]) -> list[int]:
    rng.shuffle(items)
    return items


@pytest.mark.parametrize(
    "draw",
    [
        lambda r: [r.random() for _ in range(4)],
        lambda r: [r.randint(1, 6) for _ in range(10)],
        lambda r: r.sample(range(100), 10),
        lambda r: r.choice("abcdefgh"),
        lambda r: [r.getrandbits(64), r.randrange(1000)],
        lambda r: shuffled(r, list(range(20))),
        lambda r: [r.gauss(0, 1), r.uniform(2, 3)],
        lambda r: r.getstate(),
    ],
    ids=["random", "randint", "sample", "choice", "bits", "shuffle", "gauss", "state"],
)
def test_lazy_random_gives_the_same_numbers_as_match_rng(
    draw: Callable[[random.Random], Any],
) -> None:
    for seed, seq in ((0, 2), (7, 2), (2**62, 13)):
        assert draw(LazyRandom(seed, seq)) == draw(match_rng(seed, seq))


def test_lazy_random_is_a_random_and_stays_seeded_once() -> None:
    lazy = LazyRandom(5, 9)
    assert isinstance(lazy, random.Random)
    first = lazy.random()
    second = lazy.random()  # not re-seeded on the next use
    reference = match_rng(5, 9)
    assert [first, second] == [reference.random(), reference.random()]


class _Sends:
    """A bot that sends a fixed command, whatever it is offered."""

    def __init__(self, command: Any) -> None:
        self.command = command

    def choose(self, seat: int, legal: Sequence[Any], view: Callable[[], Any]) -> Any:
        return self.command


def test_play_makes_the_checks_of_send_and_keeps_what_came_before(reg: Registry) -> None:
    # The fast path of play refuses what send refuses, with the same words, and a refused
    # command leaves the state and log as the last accepted command left them.
    table = Table.new("tictactoe", registry=reg)
    table.play(RandomBot(1), max_commands=2)
    before = snapshot(table)
    with pytest.raises(InvalidCommand, match="secrets.Reveal"):
        table.play(_Sends(Reveal()))
    assert_unchanged(table, before)
    taken = next(e for e in table.events if isinstance(e, MarkPlaced)).cell
    with pytest.raises(IllegalCommand, match="already taken"):
        table.play(_Sends(PlaceMark(cell=taken)))
    assert_unchanged(table, before)
    idle = Table.new("idle-dice", registry=reg, seed=3)
    kept = snapshot(idle)
    with pytest.raises(IllegalCommand, match="changes nothing"):
        idle.play(_Sends(Hold()))
    assert_unchanged(idle, kept)


def test_a_random_bot_plays_the_same_drawn_in_the_loop_as_asked_to_choose() -> None:
    # One RandomBot for every seat is drawn for inside Table.play; the same bot behind a map
    # of seats is asked through choose: the moves are the same.
    for seed in range(30):
        drawn = Table.new("tictactoe", seed=seed)
        drawn_outcome = drawn.play(RandomBot(seed))
        bot = RandomBot(seed)
        asked = Table.new("tictactoe", seed=seed)
        asked_outcome = asked.play({0: bot, 1: bot})
        assert drawn.events == asked.events
        assert drawn_outcome == asked_outcome
