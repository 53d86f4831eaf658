"""Movement, watchtowers and heroes on the board (GUN-MOVE, GUN-TOWER, GUN-HERO-1..5).

The positions use the side for 2-3 players: Crab (seat 0) has its fort on A1, Crane (seat 1)
on D7; Toshi Ranbo is D4, the watchtowers D2 and F4.
"""

from __future__ import annotations

from gamehall.plugins.gunsen import commands as cmd
from gamehall.plugins.gunsen import events as ev
from gamehall.plugins.gunsen.activation import column_steps
from gamehall.plugins.gunsen.claims import end_turn
from gamehall.plugins.gunsen.combat import relocate_stage
from gunsen_helpers import (
    CAT,
    acting,
    fighting,
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


def board(**placement: int) -> object:
    """Crab's troops by label (``A1`` its fort); Crab to move with one move and extra moves."""
    state = troops(ready(), 0, placement or {"A1": 4})
    return acting(player(state, 0, koku=5, influence=3), 0, [step("move"),
                  step("buy_move", resource="koku")])  # fmt: skip


def moved(
    state: object, origin: str, to: str, count: int, hero: str = "", tower: bool = False
) -> tuple[list, object]:
    _, state = send(
        state, cmd.SelectArmy(space=sp(state, origin), troops=count, hero=hero, tower=tower)
    )
    return send(state, cmd.MoveArmy(to=sp(state, to)))


def test_GUN_MOVE_1_pick_an_army_up_and_move_it_to_an_adjacent_space() -> None:
    state = board()
    picks = [c for c in legal(state) if isinstance(c, cmd.SelectArmy) and not c.tower]
    assert {c.space for c in picks} == {sp(state, "A1")} and {c.troops for c in picks} == {
        1,
        2,
        3,
        4,
    }
    _, picked = send(state, cmd.SelectArmy(space=sp(state, "A1"), troops=2))
    assert {c.to for c in legal(picked)} == {sp(state, "A2"), sp(state, "B1"), sp(state, "B2")}
    refused(picked, cmd.MoveArmy(to=sp(state, "C3")), "GUN-MOVE-1")
    _events, after = send(picked, cmd.MoveArmy(to=sp(state, "B2")))
    assert after.troops[0][sp(state, "B2")] == 2 and after.troops[0][sp(state, "A1")] == 2
    refused(state, cmd.SelectArmy(space=sp(state, "A1"), troops=5), "GUN-MOVE-1")


def test_GUN_MOVE_2_five_troops_of_a_clan_on_a_space_at_most() -> None:
    state = board(A1=8, B2=4)
    refused(state, cmd.SelectArmy(space=sp(state, "A1"), troops=6), "GUN-MOVE-2")
    _, picked = send(state, cmd.SelectArmy(space=sp(state, "A1"), troops=2))
    assert sp(state, "B2") not in [c.to for c in legal(picked)]
    refused(picked, cmd.MoveArmy(to=sp(state, "B2")), "GUN-MOVE-2")
    back = board(A1=1, B2=5)
    _, picked = send(back, cmd.SelectArmy(space=sp(state, "B2"), troops=5))
    _, after = send(picked, cmd.MoveArmy(to=sp(state, "A1")))  # the fort takes any number
    assert after.troops[0][sp(state, "A1")] == 6


def test_GUN_MOVE_3_armies_merge_within_the_cap() -> None:
    _, after = moved(board(A1=4, B2=2), "A1", "B2", 3)
    assert after.troops[0][sp(after, "B2")] == 5


def test_GUN_MOVE_4_an_army_splits_by_moving_some_troops() -> None:
    _, after = moved(board(A1=1, B2=4), "B2", "C3", 3)
    assert (after.troops[0][sp(after, "B2")], after.troops[0][sp(after, "C3")]) == (1, 3)


def test_GUN_MOVE_5_one_move_at_a_time_and_only_with_a_move_action() -> None:
    state = board()
    _, picked = send(state, cmd.SelectArmy(space=sp(state, "A1"), troops=1))
    refused(picked, cmd.SelectArmy(space=sp(state, "A1"), troops=1), "GUN-MOVE-5")
    refused(picked, cmd.Skip(), "GUN-MOVE-5")
    recruit = acting(troops(ready(), 0, {"A1": 3}), 0, [step("recruit"), step("move")], 1)
    refused(recruit, cmd.SelectArmy(space=sp(recruit, "A1"), troops=1), "GUN-MOVE-5")


def test_GUN_MOVE_6_extra_moves_cost_the_column_resource() -> None:
    state = board()
    _, state = moved(state, "A1", "B2", 1)
    assert legal(state)[0] == cmd.BuyMove()
    events, after = send(state, cmd.BuyMove())
    assert of(events, ev.MoveBought)[0].resource == "koku" and after.players[0].koku == 4
    poor = player(state, 0, koku=0)
    assert cmd.BuyMove() not in legal(poor)
    refused(poor, cmd.BuyMove(), "GUN-MOVE-6")
    for column, resource in ((1, "influence"), (2, "wood")):
        assert column_steps(CAT, ready(), 0, column)[-1].resource == resource


def test_GUN_MOVE_7_the_same_army_may_move_again() -> None:
    state = acting(troops(ready(), 0, {"A1": 3}), 0, [step("move", 2)])
    _, state = moved(state, "A1", "B2", 3)
    _, state = moved(state, "B2", "C3", 3)
    assert state.troops[0][sp(state, "C3")] == 3


def test_GUN_MOVE_8_a_village_token_is_claimed_only_if_the_troops_stay() -> None:
    state = acting(troops(ready(), 0, {"A1": 3, "B1": 1}), 0, [step("move", 2)])
    village = sp(state, "C2")
    token = dict(state.villages)[village]
    events, stay = moved(state, "B1", "C2", 1)
    assert dict(stay.villages)[village] == token and "VillageClaimed" not in kinds(events)
    claimed = run(replace(stay, activation=None), end_turn)
    assert of(claimed.events, ev.VillageClaimed)[0].token == token
    events, gone = moved(stay, "C2", "B1", 1)
    assert of(events, ev.VillageClaimed) == [] and dict(gone.villages)[village] == token


def test_GUN_MOVE_9_entering_an_enemy_army_starts_a_combat_and_ends_movement() -> None:
    state = troops(board(A1=3, B2=2), 1, {"D7": 2, "C3": 1})
    state = acting(
        state, 0, [step("move", 2), step("influence"), step("buy_move", resource="koku")]
    )
    events, after = moved(state, "B2", "C3", 2)
    assert kinds(events).index("CombatArose") < kinds(events).index("ArmyMoved")
    arose = of(events, ev.CombatArose)[0]
    assert (arose.attacker, arose.defender, arose.space) == (0, 1, sp(state, "C3"))
    assert "MovementLapsed" in kinds(events)
    assert of(events, ev.Gained)[0].resource == "influence"  # the column's other actions follow
    assert after.phase in ("keep", "reroll") and after.combat is not None


def test_GUN_TOWER_1_a_watchtower_move_costs_one_influence_and_no_move() -> None:
    state = board()
    towers = [c for c in legal(state) if isinstance(c, cmd.SelectArmy) and c.tower]
    assert {c.space for c in towers} == {sp(state, "A1")}
    _events, after = moved(state, "A1", "D2", 2, tower=True)
    assert after.players[0].influence == 2 and after.troops[0][sp(state, "D2")] == 2
    assert after.activation is not None and after.activation.steps[0].kind == "move"
    poor = player(state, 0, influence=0)
    assert not any(isinstance(c, cmd.SelectArmy) and c.tower for c in legal(poor))
    refused(poor, cmd.SelectArmy(space=sp(state, "A1"), troops=1, tower=True), "GUN-TOWER-1")


def _towers(state: object) -> bool:
    return any(isinstance(c, cmd.SelectArmy) and c.tower for c in legal(state))


def test_GUN_TOWER_2_one_watchtower_move_right_before_or_after_each_move() -> None:
    state = board()
    _, before = moved(state, "A1", "D2", 1, tower=True)  # before the move
    assert not _towers(before)
    _, after_move = moved(before, "A1", "B2", 1)  # that move had its watchtower move
    assert not _towers(after_move)
    _, plain = moved(state, "A1", "B2", 1)  # right after a move without one
    assert _towers(plain)
    _, bought = send(plain, cmd.BuyMove())  # another decision: the chance after the move lapses
    assert bought.activation is not None and not bought.activation.tower_after
    last = acting(troops(player(ready(), 0, influence=2), 0, {"A1": 3}), 0, [step("move")])
    _, done = moved(last, "A1", "B2", 1)  # the column's last move: a last decision
    assert done.phase == "act" and done.activation is not None and not done.activation.steps
    assert _towers(done) and legal(done)[-1] == cmd.Skip()
    events, ended = send(done, cmd.Skip())
    assert "ActivationEnded" in kinds(events) and ended.turn == 1


def test_GUN_TOWER_3_between_the_own_fort_and_the_watchtowers_only() -> None:
    state = board(A1=2, B2=2)
    refused(state, cmd.SelectArmy(space=sp(state, "B2"), troops=1, tower=True), "GUN-TOWER-3")
    _, picked = send(state, cmd.SelectArmy(space=sp(state, "A1"), troops=1, tower=True))
    assert sorted(c.to for c in legal(picked)) == sorted(state.towers)
    refused(picked, cmd.MoveArmy(to=fort(state, 1)), "GUN-TOWER-3")
    refused(picked, cmd.MoveArmy(to=sp(state, "B2")), "GUN-TOWER-3")


def test_GUN_TOWER_4_an_enemy_on_the_watchtower_means_combat_and_no_more_movement() -> None:
    state = troops(board(), 1, {"D7": 2, "D2": 1})
    events, after = moved(state, "A1", "D2", 2, tower=True)
    assert "CombatArose" in kinds(events) and "MovementLapsed" in kinds(events)
    assert after.combat is not None and after.combat.space == sp(state, "D2")


def test_GUN_HERO_1_a_hero_joins_on_the_fort_or_with_an_army() -> None:
    state = troops(player(ready(), 0, influence=2), 0, {"A1": 2, "C3": 1})
    state = replace(state, phase="hero", noble=2, asked=0)
    spaces = {c.space for c in legal(state)}
    assert spaces == {sp(state, "A1"), sp(state, "C3")}
    refused(state, cmd.RecruitHero(hero="hida-kisada", space=sp(state, "B2")), "GUN-HERO-1")
    _, after = send(state, cmd.RecruitHero(hero="hida-kisada", space=sp(state, "C3")))
    assert after.players[0].heroes == (("hida-kisada", sp(state, "C3")),)


def test_GUN_HERO_2_a_hero_stays_with_an_army_or_on_its_fort() -> None:
    state = player(board(A1=2, B2=2), 0, heroes=(("hida-kisada", sp(ready(), "B2")),))
    _, after = moved(state, "B2", "C3", 2, hero="hida-kisada")
    assert after.players[0].heroes == (("hida-kisada", sp(state, "C3")),)
    home = player(board(A1=2), 0, heroes=(("hida-kisada", sp(ready(), "A1")),))
    _, after = moved(home, "A1", "B2", 2)
    assert after.players[0].heroes == (("hida-kisada", sp(state, "A1")),)  # alone on the fort


def test_GUN_HERO_3_a_hero_never_moves_or_stays_alone() -> None:
    state = player(board(A1=2, B2=2), 0, heroes=(("hida-kisada", sp(ready(), "B2")),))
    refused(state, cmd.SelectArmy(space=sp(state, "B2"), troops=2), "GUN-HERO-3")
    refused(
        state, cmd.SelectArmy(space=sp(state, "A1"), troops=1, hero="hida-kisada"), "GUN-HERO-3"
    )
    picks = [
        c for c in legal(state) if isinstance(c, cmd.SelectArmy) and c.space == sp(state, "B2")
    ]
    assert cmd.SelectArmy(space=sp(state, "B2"), troops=2, hero="hida-kisada") in picks
    assert cmd.SelectArmy(space=sp(state, "B2"), troops=1) in picks


def test_GUN_HERO_4_one_hero_per_space_outside_the_fort_and_no_cap_for_heroes() -> None:
    heroes = (("hida-kisada", sp(ready(), "B2")), ("hida-o-ushi", sp(ready(), "A1")))
    state = player(board(A1=2, B2=4), 0, heroes=heroes)
    _, picked = send(state, cmd.SelectArmy(space=sp(state, "A1"), troops=1, hero="hida-o-ushi"))
    refused(picked, cmd.MoveArmy(to=sp(state, "B2")), "GUN-HERO-4")
    _, after = moved(state, "A1", "B2", 1)
    assert after.troops[0][sp(state, "B2")] == 5  # the hero does not count toward the five


def test_GUN_HERO_5_a_hero_is_never_lost() -> None:
    state = player(troops(ready(), 0, {"A1": 2}), 0, heroes=(("hida-kisada", sp(ready(), "C3")),))
    state = troops(state, 1, {"C3": 2, "D7": 3})
    state = fighting(state, sp(state, "C3"), 0, 1, resolved=True, winner=1, loser=0)
    play = run(state, relocate_stage)
    assert play.state.players[0].heroes == (("hida-kisada", sp(state, "A1")),)
