"""The turn, trading, caps and refusals (ROG-TURN-*, ROG-TRADE-*, ROG-INPUT-1, ROG-END-2)."""

from __future__ import annotations

import msgspec
import pytest
from gamehall.core import Context, IllegalCommand, MatchOver, NotAwaited, RandomBot
from gamehall.core.debug.provenance import trace_command
from gamehall.plugins.river_of_gold.commands import (
    Build,
    BuyFavour,
    Deliver,
    EndTurn,
    Sail,
    ShiftDie,
    TakeGood,
    TradeGoods,
)
from gamehall.plugins.river_of_gold.events import DieRolled, ResourcesChanged, TurnEnded

from tests.plugins.river_of_gold.rog_helpers import build_on, clean, player, table, types


def refused(t, seat, command, rule):  # type: ignore[no-untyped-def]
    """Send a command, expect a refusal with ``rule``, and check nothing changed."""
    before = msgspec.msgpack.encode(t.state)
    with pytest.raises(IllegalCommand) as info:
        t.send(seat, command)
    assert info.value.rule == rule, info.value
    assert info.value.reason
    assert msgspec.msgpack.encode(t.state) == before
    return info.value


def test_ROG_TURN_1_favour_turns_the_die_and_wraps() -> None:
    t = clean(table())
    player(t, 0, die=6, favour=2)
    t.send(0, ShiftDie(by=1))
    assert (t.state.players[0].die, t.state.players[0].favour) == (1, 1)
    t.send(0, ShiftDie(by=-1))
    assert (t.state.players[0].die, t.state.players[0].favour) == (6, 0)
    refused(t, 0, ShiftDie(by=1), "ROG-TURN-1")
    player(t, 0, favour=1)
    t.send(0, Sail(ship=0))
    refused(t, 0, ShiftDie(by=1), "ROG-TURN-1")


def test_ROG_TURN_2_exactly_one_action_choices_first() -> None:
    t = clean(table())
    player(t, 0, die=1, ships=(14, 9))
    t.send(0, Sail(ship=0))  # completes the journey: a choice opens
    assert t.awaiting()[0].kind == "journey"
    refused(t, 0, EndTurn(), "ROG-TURN-2")
    refused(t, 0, Sail(ship=1), "ROG-TURN-2")
    t.send(0, t.legal(0)[0])
    assert t.awaiting()[0].kind == "finish"
    refused(t, 0, Sail(ship=1), "ROG-TURN-2")


def test_ROG_TURN_3_end_turn_only_after_the_action() -> None:
    t = clean(table())
    refused(t, 0, EndTurn(), "ROG-TURN-2")
    player(t, 0, die=1, ships=(2, 9))
    t.send(0, Sail(ship=1))
    assert t.awaiting()[0].kind == "finish" and EndTurn() in t.legal(0)
    assert BuyFavour() in t.legal(0)  # trading goes on after the action


def test_ROG_TURN_4_roll_and_pass_left() -> None:
    t = clean(table(3))
    player(t, 0, die=1, ships=(2, 9))
    t.send(0, Sail(ship=1))
    events = t.send(0, EndTurn())
    assert types(events)[-2:] == ["DieRolled", "TurnEnded"]
    assert isinstance(events[-2], DieRolled) and events[-2].seat == 0
    assert isinstance(events[-1], TurnEnded) and events[-1].next == 1
    assert list(t.awaiting()) == [1]
    with pytest.raises(NotAwaited):
        t.send(0, Sail(ship=0))


def test_ROG_TRADE_1_two_goods_for_one_other() -> None:
    t = clean(table())
    player(t, 0, goods=(3, 1, 0))
    t.send(0, TradeGoods(give="silk", take="porcelain"))
    assert t.state.players[0].goods == (1, 1, 1)
    refused(t, 0, TradeGoods(give="silk", take="rice"), "ROG-TRADE-1")
    player(t, 0, goods=(2, 0, 0))
    refused(t, 0, TradeGoods(give="silk", take="silk"), "ROG-TRADE-1")
    t.send(0, Sail(ship=1))
    t.send(0, TradeGoods(give="silk", take="rice"))  # still on one's own turn
    assert t.state.players[0].goods[1] >= 1


def test_ROG_TRADE_4_trading_on_another_clans_turn_before_an_owner_reward() -> None:
    t = clean(table())
    build_on(t, 3, "bldg-19", 1)  # seat 1 owns it: its owner reward is a porcelain
    player(t, 0, die=1, ships=(1, 9))
    player(t, 1, goods=(2, 0, 6))  # a porcelain more would be lost at the cap of 6
    assert 1 not in t.awaiting()
    assert TradeGoods(give="porcelain", take="silk") in t.legal(1)
    t.send(1, TradeGoods(give="porcelain", take="silk"))  # on seat 0's turn
    assert t.state.players[1].goods == (3, 0, 4)
    t.send(0, Sail(ship=0))  # visits space 3: the owner reward lands in the room made
    assert t.state.players[1].goods == (3, 0, 5)
    assert list(t.awaiting()) == [0], "a trade never takes the turn"


def test_ROG_TRADE_4_trading_while_a_journey_choice_is_open() -> None:
    t = clean(table())
    player(t, 0, die=3, ships=(14, 9), goods=(2, 0, 0))
    player(t, 1, goods=(0, 2, 0))
    t.send(0, Sail(ship=0))  # completes the journey: the choice of 3 koku or a good opens
    assert t.awaiting()[0].kind == "journey"
    silk, rice, porcelain = t.state.players[0].goods
    t.send(0, TradeGoods(give="silk", take="rice"))  # the chooser trades before choosing
    t.send(1, TradeGoods(give="rice", take="silk"))  # and so may another clan
    assert t.state.players[0].goods == (silk - 2, rice + 1, porcelain)
    assert t.state.players[1].goods == (1, 0, 0)
    assert t.awaiting()[0].kind == "journey"
    t.send(0, TakeGood(good="rice"))
    assert t.state.players[0].goods == (silk - 2, rice + 2, porcelain)


def test_ROG_TRADE_4_trading_several_times_in_a_row() -> None:
    t = clean(table())
    player(t, 1, goods=(6, 0, 0), koku=10, favour=0)
    for _ in range(3):
        t.send(1, TradeGoods(give="silk", take="porcelain"))
    t.send(1, BuyFavour())
    t.send(1, BuyFavour())
    p = t.state.players[1]
    assert (p.goods, p.koku, p.favour) == ((0, 0, 3), 0, 2)
    assert list(t.awaiting()) == [0]


def test_ROG_TRADE_4_no_trade_once_the_match_is_over() -> None:
    t = clean(table())
    player(t, 1, goods=(6, 0, 0))
    t.state = msgspec.structs.replace(t.state, over=True)
    assert t.legal(1) == [] and not t.rules.free(t.state, 1)
    with pytest.raises(IllegalCommand):
        t.send(1, TradeGoods(give="silk", take="rice"))


def test_ROG_TRADE_2_five_koku_for_a_favour() -> None:
    t = clean(table())
    player(t, 0, koku=10, favour=1)
    t.send(0, BuyFavour())
    assert (t.state.players[0].koku, t.state.players[0].favour) == (5, 2)
    # at the cap the trade is legal and the favour is lost ("gunst die je krijgt terwijl je al
    # op je maximum staat, gaat verloren")
    player(t, 0, favour=3, koku=10)
    assert BuyFavour() in t.legal(0)
    t.send(0, BuyFavour())
    assert (t.state.players[0].koku, t.state.players[0].favour) == (5, 3)
    player(t, 0, favour=0, koku=4)
    refused(t, 0, BuyFavour(), "ROG-TRADE-2")


def test_ROG_TRADE_3_caps_lose_the_excess() -> None:
    t = clean(table())
    build_on(t, 1, "bldg-41")  # a start port: visitors get 3 koku
    player(t, 0, die=1, ships=(14, 9), koku=24, goods=(6, 6, 5), favour=3)
    t.send(0, Sail(ship=0))  # lands on river 1: 3 koku + 3 empty spaces
    t.send(0, t.legal(0)[0])  # the journey's 3 koku: all lost at the cap
    assert t.state.players[0].koku == 25
    player(t, 0, goods=(6, 6, 6))
    t.send(0, TradeGoods(give="silk", take="rice"))
    assert t.state.players[0].goods == (4, 6, 6)


def test_ROG_INPUT_1_bad_input_is_refused_and_changes_nothing() -> None:
    t = clean(table())
    player(t, 0, die=2, koku=5, goods=(0, 0, 0), hand=("cust-03", "cust-02"))
    refused(t, 0, Build(space=1, slot=0), "ROG-BUILD-1")  # region 1, die shows 2
    refused(t, 0, Build(space=9, slot=0), "ROG-BUILD-2")  # costs 12
    build_on(t, 8, "bldg-01", 1)
    refused(t, 0, Build(space=8, slot=0), "ROG-BUILD-1")  # occupied
    refused(t, 0, msgspec.structs.replace(Sail(ship=1), ship=7), "ROG-SAIL-1")
    refused(t, 0, Deliver(card="cust-03"), "ROG-DELIVER-1")  # region 3
    refused(t, 0, Deliver(card="cust-02"), "ROG-DELIVER-2")  # needs 2 porcelain
    refused(t, 0, Deliver(card="cust-09"), "ROG-DELIVER-1")  # not in hand
    refused(t, 0, TradeGoods(give="rice", take="silk"), "ROG-TRADE-1")


def test_ROG_END_2_nothing_after_the_end() -> None:
    t = table(2, seed=3)
    outcome = t.play(RandomBot(3))
    assert outcome is not None and t.awaiting() == {}
    assert all(not t.legal(s) for s in range(2))
    with pytest.raises(MatchOver):
        t.send(0, Sail(ship=0))
    with pytest.raises(IllegalCommand) as info:
        t.rules.decide(t.state, Sail(ship=0), _ctx())
    assert info.value.rule == "ROG-END-2"


def _ctx():  # type: ignore[no-untyped-def]
    from gamehall.core import Context

    return Context(0, 1, 0)


def test_a_shared_effect_gives_the_actions_rule_first_where_an_event_comes_from() -> None:
    # gain is an @effect: the favour paid to turn the die is ROG-TURN-1's, with the caps'
    # rule (ROG-TRADE-3, in gain's docstring) as context, as when gain was an emitter method.
    t = clean(table())
    player(t, 0, die=3, favour=2)
    ctx = Context(0, len(t.events) + 1, 1)
    trace = trace_command(t.ruleset, t.state, 0, ShiftDie(by=1), ctx)
    paid = next(e for e in trace.emissions if isinstance(e.event, ResourcesChanged))
    assert (paid.rule, paid.declared, paid.context) == ("ROG-TURN-1", "docstring", ("ROG-TRADE-3",))
    assert paid.function.endswith("effects.gain")
