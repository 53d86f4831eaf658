"""Recruiting, forts, building and tactics (GUN-RECRUIT, GUN-FORT, GUN-BUILD, GUN-TACTIC)."""

from __future__ import annotations

from gamehall.plugins.gunsen import commands as cmd
from gamehall.plugins.gunsen import events as ev
from gamehall.plugins.gunsen.activation import build_spaces
from gamehall.plugins.gunsen.claims import end_of_turn_effects
from gamehall.plugins.gunsen.queries import cap, own_symbols, recruit_spaces, retreat_spaces
from gunsen_helpers import (
    CAT,
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
    sp,
    step,
    troops,
)
from msgspec.structs import replace

CAMP = "crab-camp"
WALL = "crab-kaiu-wall"


def base(**fields: object) -> object:
    state = ready()
    state = troops(state, 0, {fort(state, 0): 3})
    return player(state, 0, **fields) if fields else state


def test_GUN_RECRUIT_1_each_recruit_symbol_brings_one_troop() -> None:
    state = acting(base(), 0, [step("recruit", 2)], column=1)
    home = fort(state, 0)
    _, state = send(state, cmd.Recruit(space=home))
    assert state.troops[0][home] == 4 and state.players[0].supply == 11
    assert state.activation is not None and state.activation.steps[0].amount == 1
    _, state = send(state, cmd.Recruit(space=home))
    assert state.troops[0][home] == 5


def test_GUN_RECRUIT_2_onto_the_fort_or_a_controlled_clan_building() -> None:
    state = base(buildings=((CAMP, 0),))
    camp = sp(state, "C3")
    state = player(state, 0, buildings=((CAMP, camp),))
    assert recruit_spaces(CAT, state, 0) == [fort(state, 0), camp]
    state = acting(state, 0, [step("recruit")], column=1)
    refused(state, cmd.Recruit(space=sp(state, "C4")), "GUN-RECRUIT-2")
    _, after = send(state, cmd.Recruit(space=camp))
    assert after.troops[0][camp] == 1
    taken = troops(state, 1, {camp: 1})
    assert recruit_spaces(CAT, taken, 0) == [fort(state, 0)]
    assert camp in recruit_spaces(CAT, taken, 1)  # the opponent now controls it


def test_GUN_RECRUIT_3_never_more_than_fifteen_troops_in_play() -> None:
    state = troops(ready(), 0, {fort(ready(), 0): 15})
    assert state.players[0].supply == 0
    state = acting(state, 0, [step("recruit"), step("move")], column=1)
    refused(state, cmd.Recruit(space=fort(state, 0)), "GUN-RECRUIT-3")
    assert not any(isinstance(c, cmd.Recruit) for c in legal(state))


def test_GUN_FORT_1_a_fort_holds_any_number_of_its_troops() -> None:
    state = troops(ready(), 0, {fort(ready(), 0): 12})
    assert cap(CAT, state, 0, fort(state, 0)) >= 15
    assert retreat_spaces(CAT, state, 0, 12, sp(state, "C3")) == [fort(state, 0)]


def test_GUN_FORT_2_only_the_owner_enters_its_fort() -> None:
    state = ready()
    other = fort(state, 1)
    near = next(
        n
        for n in CAT.boards[state.side].neighbours[other]
        if CAT.boards[state.side].kinds[n] == "plain"
    )
    state = troops(state, 0, {near: 2})
    state = acting(state, 0, [step("move")])
    _, state = send(state, cmd.SelectArmy(space=near, troops=2))
    refused(state, cmd.MoveArmy(to=other), "GUN-FORT-2")
    unused = next(f for f in CAT.boards[state.side].forts if f not in state.forts)
    assert unused not in [c.to for c in legal(state)]


def test_GUN_BUILD_1_build_a_clan_building_for_its_wood() -> None:
    state = acting(base(wood=5), 0, [step("build")], column=3)
    space = build_spaces(CAT, state, 0)[0]
    _events, after = send(state, cmd.Build(building=CAMP, space=space))
    assert after.players[0].wood == 3 and after.players[0].buildings == ((CAMP, space),)
    assert after.activation is not None and after.activation.steps[0].kind == "build"
    other = build_spaces(CAT, after, 0)[0]
    refused(after, cmd.Build(building=CAMP, space=other), "GUN-BUILD-1")
    refused(after, cmd.Build(building="lion-camp", space=other), "GUN-BUILD-1")
    poor = player(after, 0, wood=2, buildings=())
    refused(poor, cmd.Build(building=WALL, space=other), "GUN-BUILD-1")  # Kaiu Wall costs 3


def test_GUN_BUILD_2_on_or_next_to_an_army_or_next_to_the_fort() -> None:
    state = base(wood=5)
    home = fort(state, 0)
    board = CAT.boards[state.side]
    far = sp(state, "G2") if state.side == "small" else sp(state, "I3")
    state = acting(state, 0, [step("build")], column=3)
    spaces = set(build_spaces(CAT, state, 0))
    assert spaces <= set(board.neighbours[home]) and far not in spaces
    refused(state, cmd.Build(building=CAMP, space=far), "GUN-BUILD-2")
    army = troops(state, 0, {home: 1, "D5": 1})
    assert sp(state, "D5") in build_spaces(CAT, army, 0) or board.kinds[sp(state, "D5")] != "plain"
    assert set(board.neighbours[sp(state, "D5")]) & set(build_spaces(CAT, army, 0))


def test_GUN_BUILD_3_never_on_tiles_tokens_enemies_or_buildings() -> None:
    state = base(wood=9)
    board = CAT.boards[state.side]
    shrine = state.shrines[0][0]
    village = state.villages[0][0]
    tower = state.towers[0]
    spaces = (shrine, village, tower, board.toshi_ranbo, fort(state, 1))
    state = troops(state, 0, {fort(state, 0): 1, **{s: 1 for s in spaces}}, clear=False)
    state = acting(state, 0, [step("build")], column=3)
    allowed = set(build_spaces(CAT, state, 0))
    assert not allowed & set(spaces)
    refused(state, cmd.Build(building=CAMP, space=shrine), "GUN-BUILD-3")
    refused(state, cmd.Build(building=CAMP, space=village), "GUN-BUILD-3")
    emptied = replace(state, villages=((village, ""), *state.villages[1:]))
    assert village in build_spaces(CAT, emptied, 0)
    enemy = next(iter(allowed))
    held = troops(state, 1, {enemy: 1})
    refused(held, cmd.Build(building=CAMP, space=enemy), "GUN-BUILD-3")
    built = player(state, 1, buildings=(("crane-camp", enemy),))
    refused(built, cmd.Build(building=CAMP, space=enemy), "GUN-BUILD-3")


def test_GUN_BUILD_4_unique_building_effect_and_cap_camp_without_cap() -> None:
    state = ready()
    wall, camp = sp(state, "C3"), sp(state, "C4")
    state = player(state, 0, buildings=((WALL, wall), (CAMP, camp)))
    assert cap(CAT, state, 0, wall) == 5 and cap(CAT, state, 0, camp) > 15
    assert own_symbols(CAT, state, 0).armour == 2  # Kaiu Wall counts for its controller
    taken = troops(state, 1, {wall: 1})
    assert own_symbols(CAT, taken, 0).armour == 0 and own_symbols(CAT, taken, 1).armour == 2
    assert cap(CAT, troops(state, 1, {camp: 1}), 0, camp) == 5
    assert camp in retreat_spaces(CAT, state, 0, 9, sp(state, "D4"))
    assert wall not in retreat_spaces(CAT, state, 0, 6, sp(state, "D4"))


def test_GUN_BUILD_5_the_builder_controls_an_empty_building_until_an_opponent_arrives() -> None:
    state = ready()
    here = sp(state, "C3")
    state = player(state, 0, buildings=(("crane-kyuden-doji", here),), clan="crane")
    state = player(state, 1, clan="crab")
    play = run(state, end_of_turn_effects, 0)
    assert of(play.events, ev.Gained)[0].resource == "koku"
    moved = troops(state, 1, {here: 1})
    assert of(run(moved, end_of_turn_effects, 1).events, ev.Gained)[0].seat == 1
    assert of(run(moved, end_of_turn_effects, 0).events, ev.Gained) == []


def test_GUN_BUILD_6_both_buildings_earn_an_achievement() -> None:
    state = acting(base(wood=5, buildings=((CAMP, sp(ready(), "B2")),)), 0, [step("build")], 3)
    space = build_spaces(CAT, state, 0)[0]
    events, _after = send(state, cmd.Build(building=WALL, space=space))
    assert [e.box for e in of(events, ev.AchievementEarned)] == ["buildings"]


def test_GUN_TACTIC_1_buy_a_clan_or_own_neutral_tactic_for_koku() -> None:
    state = acting(base(koku=3, hand=("ambush", "fortify")), 0, [step("tactics")], 3)
    bought = {c.tactic for c in legal(state) if isinstance(c, cmd.BuyTactic)}
    assert bought == {"crab-call-of-the-hida", "crab-shield-wall", "ambush", "fortify"}
    refused(state, cmd.BuyTactic(tactic="war-drums"), "GUN-TACTIC-1")
    refused(state, cmd.BuyTactic(tactic="lion-pride"), "GUN-TACTIC-1")
    _, after = send(state, cmd.BuyTactic(tactic="crab-shield-wall"))
    assert after.players[0].koku == 0 and after.players[0].tactics == ("crab-shield-wall",)
    _, after = send(state, cmd.BuyTactic(tactic="ambush"))
    assert after.players[0].hand == ("fortify",)


def test_GUN_TACTIC_2_at_most_three_tactics_in_a_game() -> None:
    state = base(koku=9, hand=("ambush",), tactics=("crab-shield-wall", "fortify", "war-drums"))
    state = acting(state, 0, [step("tactics"), step("influence")], 3)
    refused(state, cmd.BuyTactic(tactic="ambush"), "GUN-TACTIC-2")
    assert legal(state) == [cmd.Skip()]


def test_GUN_TACTIC_3_a_hero_tactic_recruits_at_once() -> None:
    state = acting(base(koku=4, hand=("mercenary-toturi", "ambush")), 0, [step("tactics")], 3)
    _, hero = send(state, cmd.BuyTactic(tactic="crab-call-of-the-hida"))
    assert hero.phase == "hero"
    assert {c.hero for c in legal(hero)} == {h.id for h in CAT.clans["crab"].heroes}
    _, merc = send(state, cmd.BuyTactic(tactic="mercenary-toturi"))
    assert {c.hero for c in legal(merc)} == {"toturi-the-black"}
    _events, after = send(merc, cmd.RecruitHero(hero="toturi-the-black", space=fort(state, 0)))
    assert after.players[0].heroes == (("toturi-the-black", fort(state, 0)),)
    assert after.phase == "act"


def test_GUN_TACTIC_4_innovation_asks_for_a_special_order() -> None:
    state = acting(base(koku=4, hand=("innovation", "ambush")), 0, [step("tactics")], 3)
    _, after = send(state, cmd.BuyTactic(tactic="innovation"))
    assert after.phase == "special" and len(legal(after)) == 2


def test_GUN_TACTIC_5_three_tactics_earn_an_achievement() -> None:
    state = base(koku=3, hand=("ambush",), tactics=("fortify", "war-drums"))
    events, _ = send(acting(state, 0, [step("tactics")], 3), cmd.BuyTactic(tactic="ambush"))
    assert [e.box for e in of(events, ev.AchievementEarned)] == ["tactics"]
    assert "TacticBought" in kinds(events)
