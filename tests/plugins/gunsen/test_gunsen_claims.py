"""Shrines, villages, Toshi Ranbo, the end of a turn, objectives and achievements.

Side for 2-3 players: Crab (seat 0, fort A1), Crane (seat 1, fort D7), Toshi Ranbo on D4.
"""

from __future__ import annotations

from typing import Any

import pytest
from gamehall.core import Context, IllegalCommand
from gamehall.plugins.gunsen import combat
from gamehall.plugins.gunsen import commands as cmd
from gamehall.plugins.gunsen import events as ev
from gamehall.plugins.gunsen.claims import CONDITIONS, end_turn, settle
from gamehall.plugins.gunsen.components import COLOURS
from gamehall.plugins.gunsen.state import NOBODY
from gunsen_helpers import (
    CAT,
    RULES,
    acting,
    fighting,
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


def ended(state: Any) -> Any:
    """Return the play of the active player's end of turn."""
    return run(replace(state, activation=None), end_turn)


def shrine(state: Any, index: int = 0) -> tuple[int, int]:
    space, colour = state.shrines[index]
    return space, COLOURS.index(colour)


def test_GUN_SHRINE_1_a_controlled_shrine_gives_its_upgrade_tile() -> None:
    state = ready()
    space, column = shrine(state)
    state = troops(state, 0, {"A1": 3, space: 1})
    play = ended(state)
    taken = of(play.events, ev.UpgradeTaken)[0]
    assert (taken.seat, taken.column, taken.previous) == (0, column, NOBODY)
    assert play.state.upgrades[column] == 0
    from_crane = replace(troops(state, 0, {"A1": 3, space: 1}), upgrades=tuple(
        1 if i == column else u for i, u in enumerate(state.upgrades)))  # fmt: skip
    assert of(ended(from_crane).events, ev.UpgradeTaken)[0].previous == 1


def test_GUN_SHRINE_2_the_tile_stays_and_is_no_control() -> None:
    state = ready()
    _space, column = shrine(state)
    state = replace(troops(state, 0, {"A1": 3}), upgrades=tuple(
        0 if i == column else u for i, u in enumerate(state.upgrades)))  # fmt: skip
    play = ended(state)
    assert play.state.upgrades[column] == 0 and of(play.events, ev.UpgradeTaken) == []
    assert of(play.events, ev.AchievementEarned) == []


def test_GUN_SHRINE_3_two_shrines_with_a_troop_each_earn_an_achievement() -> None:
    state = ready()
    (one, _), (two, _) = state.shrines
    state = troops(state, 0, {"A1": 3, one: 1})
    assert of(run(state, settle).events, ev.AchievementEarned) == []
    both = troops(state, 0, {"A1": 3, one: 1, two: 1})
    assert [e.box for e in of(run(both, settle).events, ev.AchievementEarned)] == ["shrines"]
    contested = troops(both, 1, {two: 1})
    assert of(run(contested, settle).events, ev.AchievementEarned) == []


def village(state: Any, index: int = 0) -> tuple[int, str]:
    return state.villages[index]


def test_GUN_VILLAGE_1_a_controlled_village_gives_its_token_and_reward() -> None:
    state = ready()
    space, token = village(state)
    state = troops(player(state, 0, koku=0, wood=0, influence=0), 0, {"A1": 3, space: 1})
    play = ended(state)
    claimed = of(play.events, ev.VillageClaimed)[0]
    reward = CAT.tokens[token].reward
    assert (claimed.token, claimed.reward, claimed.kept) == (token, reward, True)
    assert play.state.players[0].tokens == (token,) and dict(play.state.villages)[space] == ""
    if reward == "troop":
        assert play.state.troops[0][state.forts[0]] == 4
    else:
        assert getattr(play.state.players[0], reward) >= 1


def test_GUN_VILLAGE_2_a_fourth_token_goes_back_to_the_box() -> None:
    state = ready()
    space, token = village(state)
    state = player(state, 0, tokens=("village-97", "village-98", "village-99"))
    state = troops(state, 0, {"A1": 3, space: 1})
    claimed = of(ended(state).events, ev.VillageClaimed)[0]
    assert not claimed.kept and claimed.amount == 1
    assert token in ended(state).state.boxed


def test_GUN_VILLAGE_3_three_tokens_earn_an_achievement() -> None:
    state = player(ready(), 0, tokens=("village-01", "village-02"))
    space, _ = village(state)
    state = troops(state, 0, {"A1": 3, space: 1})
    assert "villages" in [e.box for e in of(ended(state).events, ev.AchievementEarned)]


def entering(strength_troops: int, **fields: Any) -> Any:
    state = troops(ready(), 0, {"A1": 3, "C3": strength_troops})
    state = acting(player(state, 0, **fields), 0, [step("move", 2), step("influence")])
    _, state = send(state, cmd.SelectArmy(space=sp(state, "C3"), troops=strength_troops))
    return state


def test_GUN_TOSHI_1_the_first_army_into_toshi_ranbo_needs_strength_five() -> None:
    state = entering(4)
    refused(state, cmd.MoveArmy(to=sp(state, "D4")), "GUN-TOSHI-1")
    assert sp(state, "D4") not in [c.to for c in legal(state)]
    helped = entering(4, columns=(("blue-01",), (), (), ()))  # +1 strength on an order card
    assert sp(state, "D4") in [c.to for c in legal(helped)]
    hero = troops(ready(), 0, {"A1": 3, "C3": 3})
    hero = player(hero, 0, heroes=(("hida-kisada", sp(hero, "C3")),))
    hero = acting(hero, 0, [step("move")])
    _, hero = send(hero, cmd.SelectArmy(space=sp(hero, "C3"), troops=3, hero="hida-kisada"))
    assert sp(hero, "D4") in [c.to for c in legal(hero)]


def test_GUN_TOSHI_2_the_first_entry_is_no_combat_but_stops_movement() -> None:
    events, after = send(entering(5), cmd.MoveArmy(to=sp(ready(), "D4")))
    assert "ToshiRanboEntered" in kinds(events) and "CombatArose" not in kinds(events)
    assert of(events, ev.MovementLapsed)[0].reason == "toshi ranbo"
    assert "Gained" in kinds(events) and after.taken
    later = entering(1)
    later = replace(later, taken=True)
    assert sp(later, "D4") in [c.to for c in legal(later)]


def test_GUN_TOSHI_3_taking_the_city_at_the_end_of_the_turn_first_entrant_included() -> None:
    events, after = send(entering(5), cmd.MoveArmy(to=sp(ready(), "D4")))
    names = kinds(events)
    assert names.index("TurnEnded") > names.index("HoldMarkerPlaced") > names.index("UpgradeTaken")
    assert after.holder == 0 and "conquer" in after.players[0].achievements


def held(seat: int = 1) -> Any:
    state = troops(ready(), 0, {"A1": 3, "D4": 2})
    return replace(state, taken=True, holder=seat, upgrades=(*ready().upgrades[:3], seat))


def test_GUN_TOSHI_4_the_expand_upgrade_goes_to_the_occupier() -> None:
    play = ended(held())
    assert of(play.events, ev.UpgradeTaken)[0].previous == 1 and play.state.upgrades[3] == 0


def test_GUN_TOSHI_5_an_opponents_marker_goes_back() -> None:
    play = ended(held())
    assert of(play.events, ev.HoldMarkerReturned)[0].seat == 1 and play.state.holder == 0


def test_GUN_TOSHI_6_the_first_occupation_of_a_clan_marks_the_conquest() -> None:
    mine = [e.box for e in of(ended(held()).events, ev.AchievementEarned) if e.seat == 0]
    assert mine == ["conquer"]
    again = player(held(), 0, achievements=("conquer",))
    assert [e for e in of(ended(again).events, ev.AchievementEarned) if e.seat == 0] == []
    assert ended(again).state.holder == 0


def test_GUN_TOSHI_7_the_marker_on_the_tile_counts_toward_seven() -> None:
    six = player(held(), 0, achievements=("conquer", "noble", "tactics", "attacker", "buildings",
                                           "villages"))  # fmt: skip
    play = ended(six)
    assert play.state.phase == "over" and play.state.winner == 0 and play.state.ending == "hold"


def test_GUN_TOSHI_8_the_marker_goes_back_when_no_army_remains() -> None:
    state = replace(troops(ready(), 0, {"A1": 3, "D4": 1}), taken=True, holder=0)
    state = acting(state, 0, [step("move")])
    _, state = send(state, cmd.SelectArmy(space=sp(state, "D4"), troops=1))
    events, after = send(state, cmd.MoveArmy(to=sp(state, "C3")))
    assert of(events, ev.HoldMarkerReturned)[0].seat == 0 and after.holder == NOBODY


def test_GUN_TOSHI_9_only_an_army_controls_the_city_and_its_defender_is_stronger() -> None:
    no_army = replace(
        troops(ready(), 0, {"A1": 3}), taken=True, upgrades=(*ready().upgrades[:3], 0)
    )
    assert of(ended(no_army).events, ev.HoldMarkerPlaced) == []
    state = troops(troops(ready(), 0, {"A1": 2, "D4": 3}), 1, {"D7": 2, "D4": 3})
    state = replace(fighting(state, sp(state, "D4"), 0, 1), taken=True, holder=1)
    result = of(run(state, combat.resolve).events, ev.CombatResolved)[0]
    assert result.strength == (3, 4) and result.armour == (0, 1) and result.winner == 1


def test_GUN_END_1_claims_come_after_moves_and_combats_villages_first() -> None:
    state = ready()
    space, _ = village(state)
    shrine_space, _ = shrine(state)
    state = troops(state, 0, {"A1": 3, space: 1, shrine_space: 1})
    names = kinds(ended(state).events)
    assert names.index("VillageClaimed") < names.index("UpgradeTaken") < names.index("TurnEnded")
    other = troops(state, 1, {"D7": 3, space: 1}, clear=False)
    other = troops(other, 0, {"A1": 3, shrine_space: 1})
    assert of(ended(other).events, ev.VillageClaimed) == []


def test_GUN_END_2_building_income_then_kachiko_for_the_active_player() -> None:
    state = ready(clans=("scorpion", "crane"))
    state = troops(state, 0, {"A1": 3, "C3": 2})
    state = player(state, 0, heroes=(("bayushi-kachiko", sp(state, "C3")),))
    state = player(state, 1, buildings=(("crane-kyuden-doji", sp(state, "D5")),))
    state = troops(state, 0, {"A1": 3, "C3": 2, "D5": 1})
    names = kinds(ended(state).events)
    assert names.index("Gained") < names.index("TroopAdded") < names.index("TurnEnded")


def test_GUN_END_3_every_clan_below_three_troops_refills_its_fort() -> None:
    state = troops(troops(ready(), 0, {"A1": 1}), 1, {"D7": 0})
    play = ended(state)
    refills = {e.seat: e.troops for e in of(play.events, ev.FortRefilled)}
    assert refills == {0: 2, 1: 3}
    assert sum(play.state.troops[1]) == 3


def test_GUN_END_4_the_row_is_refilled_and_play_passes_clockwise() -> None:
    state = replace(ready(), row=("blue-01", "blue-02"))
    play = ended(state)
    assert len(play.state.row) == 5 and play.state.turn == 1 and play.state.phase == "choose"
    last = ended(replace(troops(ready(), 1, {"D7": 3}), turn=1))
    assert last.state.turn == 0


def test_GUN_OBJ_1_an_objective_is_announced_at_once_two_at_most() -> None:
    state = troops(ready(), 0, {"A1": 3, "C3": 5})
    play = run(state, settle)
    assert [(e.box, e.objective) for e in of(play.events, ev.AchievementEarned)] == [
        ("objective", "crab-unbreakable-line")
    ]
    both = troops(player(play.state, 0), 0, {"A1": 8, "C3": 5})
    play = run(both, settle)
    assert [e.objective for e in of(play.events, ev.AchievementEarned)] == ["crab-muster-the-clan"]
    third = player(play.state, 0, defended=1)
    assert of(run(third, settle).events, ev.AchievementEarned) == []
    crane = troops(ready(), 1, {"D7": 3})
    crane = player(crane, 1, influence=7)  # on Crab's turn
    assert of(run(crane, settle).events, ev.AchievementEarned)[0].seat == 1


def test_GUN_OBJ_2_doing_more_than_asked_counts() -> None:
    state = troops(ready(), 0, {"A1": 3, "C3": 5})
    state = player(state, 0, heroes=(("toturi-the-black", sp(state, "C3")),))
    state = troops(state, 0, {"A1": 3, "C3": 6})
    assert (
        of(run(state, settle).events, ev.AchievementEarned)[0].objective == "crab-unbreakable-line"
    )


@pytest.mark.parametrize("condition", sorted(CONDITIONS))
def test_GUN_OBJ_3_every_condition_can_be_met_and_unmet(condition: str) -> None:
    state = ready(players=4)
    board = CAT.boards[state.side]
    test = CONDITIONS[condition]
    amount = 1 if condition == "enemy_fort" else 2
    empty = troops(player(state, 0, koku=0, wood=0, influence=0), 0, {})
    assert not test(CAT, empty, 0, amount, "blue")
    full = troops(empty, 0, {
        board.neighbours[board.toshi_ranbo][0]: 5, board.neighbours[board.toshi_ranbo][1]: 5,
        state.towers[0]: 1, state.towers[1]: 1, board.villages[0]: 1, board.villages[1]: 1,
        board.neighbours[state.forts[1]][0]: 1,
    })  # fmt: skip
    full = player(
        full,
        0,
        koku=9,
        heroes=(("hida-kisada", 0), ("hida-o-ushi", 0)),
        columns=(("blue-01", "blue-02"),) * 4,
        defended=2,
        kills=2,
        steals=2,
    )
    full = replace(full, upgrades=(0, 0, -1, -1))
    assert test(CAT, full, 0, amount, "blue")
    patronage = CAT.objectives["crane-patronage"]
    assert (patronage.amount_on("large"), patronage.amount_on("small")) == (1, 2)


def test_GUN_ACH_1_the_boxes_and_their_places() -> None:
    boxes = {b.id: b.places for b in CAT.pieces.boxes}
    assert boxes == {"attacker": 2, "objective": 2, "buildings": 1, "tactics": 1, "noble": 1,
                     "shrines": 1, "villages": 1, "conquer": 1, "hold": 1}  # fmt: skip
    on_board = sum(p for b, p in boxes.items() if b != "hold")
    assert on_board == 10 and sum(boxes.values()) == 11


def test_GUN_ACH_2_an_achievement_is_placed_as_soon_as_it_is_met() -> None:
    state = player(ready(), 0, koku=3, hand=("ambush",), tactics=("fortify", "war-drums"))
    state = acting(state, 0, [step("tactics"), step("wood_or_koku")], 3)
    events, after = send(state, cmd.BuyTactic(tactic="ambush"))
    assert kinds(events)[:2] == ["TacticBought", "AchievementEarned"] and after.phase == "act"


def test_GUN_ACH_3_one_marker_per_place() -> None:
    state = player(
        troops(ready(), 0, {"A1": 3}), 0, tactics=("a", "b", "c"), achievements=("tactics",)
    )
    assert of(run(state, settle).events, ev.AchievementEarned) == []
    many = player(ready(), 0, tactics=("a", "b", "c"), noble=("x", "y", "z"))
    assert [e.box for e in of(run(many, settle).events, ev.AchievementEarned)] == [
        "tactics",
        "noble",
    ]


def test_GUN_ACH_4_several_clans_stack_on_one_box() -> None:
    state = player(player(ready(), 0, tactics=("a", "b", "c")), 1, tactics=("d", "e", "f"))
    earned = of(run(state, settle).events, ev.AchievementEarned)
    assert [(e.seat, e.box) for e in earned] == [(0, "tactics"), (1, "tactics")]


def test_GUN_ACH_5_a_box_with_two_places_twice() -> None:
    first = duel_won(achievements=("attacker",))
    assert first.state.players[0].achievements.count("attacker") == 2
    third = duel_won(achievements=("attacker", "attacker"))
    assert third.state.players[0].achievements.count("attacker") == 2


def duel_won(**fields: Any) -> Any:
    state = troops(troops(ready(), 0, {"A1": 2, "C3": 3}), 1, {"D7": 2, "C3": 1})
    state = player(state, 0, **fields)
    return run(fighting(state, sp(state, "C3"), 0, 1), combat.resolve)


def test_GUN_ACH_6_achievements_stay_but_holding_the_city() -> None:
    state = player(ready(), 0, buildings=(("crab-camp", 1), ("crab-kaiu-wall", 2)))
    state = player(state, 0, achievements=("buildings",))
    state = replace(state, holder=0, taken=True)
    play = run(troops(state, 0, {"A1": 3}), settle)
    assert play.state.players[0].achievements == ("buildings",) and play.state.holder == NOBODY


def test_GUN_ACH_7_the_seventh_marker_wins_at_once_the_active_player_first() -> None:
    six = ("conquer", "noble", "attacker", "attacker", "buildings", "villages")
    state = player(player(ready(), 0, achievements=six, tactics=("a", "b", "c")), 1,
                   achievements=six, tactics=("d", "e", "f"))  # fmt: skip
    play = run(state, settle)
    assert play.state.winner == 0 and play.state.phase == "over"
    assert [type(e).__name__ for e in play.events] == ["AchievementEarned", "GameWon"]
    later = replace(state, turn=1)
    assert run(later, settle).state.winner == 1
    outcome = RULES.outcome(play.state)
    assert outcome.winners == (0,) and outcome.scores == (7, 6)
    assert outcome.reason == "reached seven achievements, the last: bought three tactics"
    assert RULES.legal(play.state, 0) == () and RULES.awaiting(play.state) == {}
    with pytest.raises(IllegalCommand) as caught:
        RULES.decide(play.state, cmd.Skip(), Context(0, 1, 0))
    assert caught.value.rule == "GUN-ACH-7"
