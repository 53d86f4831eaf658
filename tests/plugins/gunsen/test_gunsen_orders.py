"""Steps 1-3 of a turn: order cards, placing them, columns, noble actions, special orders."""

from __future__ import annotations

import pytest
from gamehall.core import Context, IllegalCommand
from gamehall.plugins.gunsen import commands as cmd
from gamehall.plugins.gunsen import events as ev
from gamehall.plugins.gunsen.activation import column_steps, proceed
from gamehall.plugins.gunsen.orders import ask_choose, refill_row
from gamehall.plugins.gunsen.state import Step
from gunsen_helpers import (
    CAT,
    RULES,
    acting,
    fort,
    kinds,
    legal,
    of,
    player,
    ready,
    refused,
    run,
    send,
    step,
    troops,
)
from msgspec.structs import replace

ROW = ("blue-01", "yellow-01", "purple-01", "brown-01", "brown-05")


def at_choose(**changes: object) -> object:
    state = replace(ready(), row=ROW)
    return replace(state, **changes) if changes else state


def test_GUN_TURN_1_steps_in_order_and_only_the_asked_seat() -> None:
    state = at_choose()
    assert RULES.awaiting(state)[0].kind == "choose"
    refused(state, cmd.PlaceCard(column=0), "GUN-TURN-1")
    with pytest.raises(IllegalCommand) as caught:
        RULES.decide(state, cmd.TakeCard(card="blue-01"), Context(1, 1, 0))
    assert caught.value.rule == "GUN-TURN-1"
    assert legal(state, 1) == []
    _, state = send(state, cmd.TakeCard(card="blue-01"))
    assert state.phase == "place"
    refused(state, cmd.TakeCard(card="yellow-01"), "GUN-TURN-1")


def test_GUN_ORDER_1_take_one_of_the_open_cards() -> None:
    state = at_choose()
    assert {c.card for c in legal(state) if isinstance(c, cmd.TakeCard)} == set(ROW)
    refused(state, cmd.TakeCard(card="blue-02"), "GUN-ORDER-1")
    _events, after = send(state, cmd.TakeCard(card="brown-01"))
    assert after.card == "brown-01" and "brown-01" not in after.row


def test_GUN_ORDER_2_the_price_is_paid_at_once_or_the_card_cannot_be_taken() -> None:
    state = at_choose(row=("blue-09", "blue-11", *ROW[2:]))
    state = player(state, 0, influence=1, wood=0)
    _, after = send(state, cmd.TakeCard(card="blue-09"))
    assert after.players[0].influence == 0
    refused(state, cmd.TakeCard(card="blue-11"), "GUN-ORDER-2")
    assert cmd.TakeCard(card="blue-11") not in legal(state)


def test_GUN_ORDER_3_noble_action_1_takes_from_the_four_left_and_the_row_waits() -> None:
    state = player(at_choose(), 0, influence=3)
    _, state = send(state, cmd.TakeCard(card="blue-01"))
    _, state = send(state, cmd.PlaceCard(noble=1))
    assert state.phase == "noble_card" and len(state.row) == 4
    assert {c.card for c in legal(state)} == set(ROW[1:])
    _, state = send(state, cmd.TakeCard(card="brown-01"))
    assert len(state.row) == 3


def test_GUN_ORDER_4_replace_the_row_when_four_share_a_colour_or_a_price() -> None:
    state = at_choose()
    assert cmd.ReplaceRow() not in legal(state)
    refused(state, cmd.ReplaceRow(), "GUN-ORDER-4")
    same = at_choose(row=("blue-01", "blue-02", "blue-03", "blue-04", "brown-01"))
    events, after = send(same, cmd.ReplaceRow())
    assert kinds(events)[:2] == ["RowReplaced", "RowRefilled"]
    assert len(after.row) == 5 and after.discard[-5:] == same.row
    priced = at_choose(row=("blue-09", "blue-11", "yellow-09", "purple-09", "brown-01"))
    assert cmd.ReplaceRow() in legal(priced)
    after = replace(after, row=same.row)
    refused(after, cmd.ReplaceRow(), "GUN-ORDER-4")
    again = replace(after, options=replace(after.options, row_replacements="repeat"))
    assert cmd.ReplaceRow() in legal(again)


def test_GUN_ORDER_5_an_empty_deck_is_the_shuffled_discard() -> None:
    state = replace(at_choose(), row=ROW[:2], deck=(), discard=("blue-02", "blue-03", "blue-04"))
    play = run(state, refill_row)
    shuffled = of(play.events, ev.DeckShuffled)
    assert (
        shuffled
        and shuffled[0].reshuffle
        and sorted(shuffled[0].order) == ["blue-02", "blue-03", "blue-04"]
    )
    assert len(play.state.row) == 5 and play.state.discard == () and play.state.reshuffled
    empty = replace(state, discard=())
    assert run(empty, refill_row).state.row == ROW[:2]


def test_GUN_ORDER_6_with_no_card_to_take_a_column_is_activated_without_one() -> None:
    state = at_choose(row=("blue-09", "blue-10", "yellow-09"), deck=(), discard=())
    state = player(state, 0, influence=0, wood=0)
    play = run(state, ask_choose)
    assert play.state.phase == "column"
    assert legal(play.state) == [cmd.ChooseColumn(column=c) for c in range(4)]
    events, after = send(play.state, cmd.ChooseColumn(column=2))
    assert of(events, ev.ColumnActivated)[0].column == 2 and after.players[0].columns[2] == ()


def test_GUN_PLACE_1_open_on_the_column_of_its_colour() -> None:
    _, state = send(at_choose(), cmd.TakeCard(card="purple-01"))
    refused(state, cmd.PlaceCard(column=0), "GUN-PLACE-1")
    refused(state, cmd.PlaceCard(), "GUN-PLACE-1")
    assert cmd.PlaceCard(column=2) in legal(state)
    events, after = send(state, cmd.PlaceCard(column=2))
    assert after.players[0].columns[2][0] == "purple-01"
    assert of(events, ev.ColumnActivated)[0].column == 2


def test_GUN_PLACE_2_face_down_on_a_free_noble_space_paying_its_influence() -> None:
    state = player(at_choose(), 0, influence=2)
    _, state = send(state, cmd.TakeCard(card="yellow-01"))
    assert cmd.PlaceCard(noble=2) in legal(state) and cmd.PlaceCard(noble=3) not in legal(state)
    _, after = send(state, cmd.PlaceCard(noble=2))
    assert after.players[0].noble == ("", "yellow-01", "") and after.players[0].influence == 0
    assert after.phase == "hero" and all("yellow-01" not in c for c in after.players[0].columns)


def test_GUN_ACT_1_top_to_bottom_new_card_older_cards_then_printed_boxes() -> None:
    state = player(ready(), 0, columns=((), ("yellow-02",), (), ()))
    state = replace(state, card="yellow-06", phase="place", row=ROW)
    events, _ = send(state, cmd.PlaceCard(column=1))
    steps = of(events, ev.ColumnActivated)[0].steps
    assert [(s.source, s.kind) for s in steps] == [
        ("yellow-06", "recruit"), ("yellow-06", "move"), ("yellow-02", "recruit"),
        ("printed", "recruit"), ("printed", "move"), ("printed", "buy_move"),
    ]  # fmt: skip
    upgraded = replace(state, upgrades=(-1, 0, -1, -1))
    steps = column_steps(CAT, upgraded, 0, 1)
    assert steps[-3] == Step("recruit", 2, "", "upgrade")


def test_GUN_ACT_2_every_action_may_be_skipped_and_infinity_repeats() -> None:
    state = troops(player(ready(), 0, koku=3), 0, {fort(ready(), 0): 3})
    state = acting(state, 0, [step("recruit"), step("buy_move", resource="koku")])
    assert cmd.Skip() in legal(state)
    events, state = send(state, cmd.Skip())
    assert of(events, ev.ActionSkipped)[0].kind == "recruit"
    for koku in (2, 1):
        _, state = send(state, cmd.BuyMove())
        assert state.players[0].koku == koku
        select = next(c for c in legal(state) if isinstance(c, cmd.SelectArmy) and not c.tower)
        _, state = send(state, select)
        _, state = send(state, legal(state)[0])
        assert state.activation is not None and state.activation.steps[0].kind == "buy_move"


def test_GUN_ACT_3_a_fixed_gain_is_taken_and_wood_or_koku_asks() -> None:
    state = player(ready(), 0, influence=0, wood=0, koku=0)
    play = run(acting(state, 0, [step("influence", 2), step("wood_or_koku")], column=3), proceed)
    assert play.state.players[0].influence == 2 and play.state.phase == "act"
    assert legal(play.state) == [cmd.Gain(resource="wood"), cmd.Gain(resource="koku"), cmd.Skip()]
    _, after = send(play.state, cmd.Gain(resource="koku"))
    assert after.players[0].koku == 1
    refused(after, cmd.Gain(resource="wood"), "GUN-TURN-1")


def test_GUN_ACT_4_an_action_that_cannot_be_used_is_skipped_at_once() -> None:
    state = player(ready(), 0, supply=0)
    play = run(acting(state, 0, [step("recruit"), step("influence")], column=1), proceed)
    assert kinds(play.events)[:3] == ["ActionSkipped", "Gained", "ActionUsed"]


def test_GUN_ACT_5_activating_costs_nothing() -> None:
    state = player(ready(), 0, columns=(("blue-09",), (), (), ()), influence=0)
    state = replace(state, card="blue-01", phase="place", row=ROW)
    _, after = send(state, cmd.PlaceCard(column=0))
    assert after.players[0].influence == 0


def test_GUN_ACT_6_red_symbols_give_nothing_on_activation() -> None:
    state = player(ready(), 0, columns=(("blue-13", "blue-11"), (), (), ()))
    steps = column_steps(CAT, state, 0, 0)
    assert all(s.source == "printed" for s in steps)
    assert CAT.cards["blue-13"].symbols.blood == 2


def test_GUN_COLUMN_1_the_printed_columns() -> None:
    state = ready()
    printed = [[(s.kind, s.resource) for s in column_steps(CAT, state, 0, c)] for c in range(4)]
    assert printed == [
        [("move", ""), ("buy_move", "koku")],
        [("recruit", ""), ("move", ""), ("buy_move", "influence")],
        [("influence", ""), ("move", ""), ("buy_move", "wood")],
        [("wood_or_koku", ""), ("build", ""), ("tactics", "")],
    ]
    armory = CAT.columns[0].top.symbols
    assert (armory.throw, armory.keep) == (3, 2)


def test_GUN_NOBLE_1_each_noble_action_once_paying_its_cost() -> None:
    state = player(at_choose(), 0, influence=1, noble=("purple-02", "", ""))
    _, state = send(state, cmd.TakeCard(card="blue-01"))
    refused(state, cmd.PlaceCard(noble=1), "GUN-NOBLE-1")
    refused(state, cmd.PlaceCard(noble=2), "GUN-NOBLE-1")
    assert [c for c in legal(state) if c.noble] == []


def test_GUN_NOBLE_2_a_second_card_on_any_column_activated() -> None:
    state = player(at_choose(), 0, influence=1)
    _, state = send(state, cmd.TakeCard(card="blue-01"))
    _, state = send(state, cmd.PlaceCard(noble=1))
    assert state.players[0].influence == 0
    _, state = send(state, cmd.TakeCard(card="brown-01"))
    assert state.phase == "column" and state.card == "brown-01"
    events, after = send(state, cmd.ChooseColumn(column=1))
    assert after.players[0].columns[1] == ("brown-01",)
    activated = of(events, ev.ColumnActivated)[0]
    assert activated.column == 1 and activated.steps[0].source == "brown-01"


def test_GUN_NOBLE_3_a_clan_hero_then_any_column_without_a_card() -> None:
    state = player(at_choose(), 0, influence=2)
    _, state = send(state, cmd.TakeCard(card="blue-01"))
    _, state = send(state, cmd.PlaceCard(noble=2))
    heroes = {c.hero for c in legal(state)}
    assert heroes == {h.id for h in CAT.clans["crab"].heroes}
    refused(state, cmd.RecruitHero(hero="toturi-the-black", space=fort(state, 0)), "GUN-HERO-1")
    _, state = send(state, cmd.RecruitHero(hero="hida-kisada", space=fort(state, 0)))
    assert state.phase == "column"
    events, after = send(state, cmd.ChooseColumn(column=3))
    assert of(events, ev.ColumnActivated)[0].column == 3
    assert all("blue-01" not in c for c in after.players[0].columns)


def test_GUN_NOBLE_4_a_special_order_on_its_column_activated_first() -> None:
    state = player(at_choose(), 0, influence=3)
    _, state = send(state, cmd.TakeCard(card="blue-01"))
    _, state = send(state, cmd.PlaceCard(noble=3))
    options = legal(state)
    assert cmd.TakeSpecial(card="crab-hida-vanguard", column=0) in options
    assert cmd.TakeSpecial(card="crab-kaiu-engineers", column=3) in options
    events, after = send(state, cmd.TakeSpecial(card="crab-kaiu-engineers", column=3))
    activated = of(events, ev.ColumnActivated)[0]
    assert activated.column == 3 and activated.steps[0].source == "crab-kaiu-engineers"
    assert after.players[0].specials == ("crab-kaiu-engineers",)


def test_GUN_NOBLE_5_all_three_noble_actions_earn_an_achievement() -> None:
    state = player(at_choose(), 0, influence=3, noble=("purple-02", "purple-03", ""))
    _, state = send(state, cmd.TakeCard(card="blue-01"))
    events, after = send(state, cmd.PlaceCard(noble=3))
    assert of(events, ev.AchievementEarned)[0].box == "noble"
    assert after.players[0].achievements == ("noble",)
    none_left = player(state, 0, specials=("crab-kaiu-engineers", "crab-hida-vanguard"))
    assert cmd.PlaceCard(noble=3) not in legal(none_left)
    refused(none_left, cmd.PlaceCard(noble=3), "GUN-NOBLE-5")


def _noble3(clan: str = "crab") -> object:
    state = player(at_choose(), 0, influence=3)
    _, state = send(state, cmd.TakeCard(card="blue-01"))
    _, state = send(state, cmd.PlaceCard(noble=3))
    return state


def test_GUN_SPECIAL_1_a_special_order_not_taken_yet() -> None:
    state = _noble3()
    taken = player(state, 0, specials=("crab-hida-vanguard",))
    assert {c.card for c in legal(taken)} == {"crab-kaiu-engineers"}
    refused(taken, cmd.TakeSpecial(card="crab-hida-vanguard", column=0), "GUN-SPECIAL-1")
    refused(taken, cmd.TakeSpecial(card="lion-matsu-charge", column=0), "GUN-SPECIAL-1")


def test_GUN_SPECIAL_2_four_colours_go_anywhere_one_colour_only_on_its_own() -> None:
    state = _noble3()
    refused(state, cmd.TakeSpecial(card="crab-hida-vanguard", column=2), "GUN-SPECIAL-2")
    crane = player(state, 0, clan="crane")
    assert {c.column for c in legal(crane) if c.card == "crane-imperial-favour"} == {0, 1, 2, 3}


def test_GUN_SPECIAL_3_a_one_shot_special_is_discarded_after_its_activation() -> None:
    state = _noble3()
    events, after = send(state, cmd.TakeSpecial(card="crab-kaiu-engineers", column=3))
    while after.activation is not None and after.phase == "act":
        _, after = send(after, cmd.Skip())
    ended = [e for e in events if isinstance(e, ev.ActivationEnded)]
    assert after.players[0].columns[3] == () or ended
    assert "crab-kaiu-engineers" not in after.players[0].columns[3]
    assert after.players[0].specials == ("crab-kaiu-engineers",)
    assert after.players[0].wood >= 3


def test_GUN_SPECIAL_4_innovation_lays_a_special_order_without_activation() -> None:
    state = player(ready(), 0, koku=5, hand=("innovation", "ambush"))
    state = acting(state, 0, [step("tactics")], column=3)
    _, state = send(state, cmd.BuyTactic(tactic="innovation"))
    assert state.phase == "special"
    events, after = send(state, cmd.TakeSpecial(card="crab-hida-vanguard", column=0))
    assert "ColumnActivated" not in kinds(events)
    assert after.players[0].columns[0] == ("crab-hida-vanguard",)
    assert after.phase == "act" and after.activation is not None and after.activation.column == 3
