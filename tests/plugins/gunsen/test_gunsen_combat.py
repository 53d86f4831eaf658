"""Combat: strength, dice, deaths, the winner, retreat, stealing, and the heroes' effects.

Crab (seat 0, fort A1) attacks Crane (seat 1, fort D7) on C3 of the side for 2-3 players
unless a test says otherwise; symbols come from tactics given to the clans.
"""

from __future__ import annotations

from typing import Any

from gamehall.plugins.gunsen import combat
from gamehall.plugins.gunsen import commands as cmd
from gamehall.plugins.gunsen import events as ev
from gamehall.plugins.gunsen.claims import end_of_turn_effects, settle
from gamehall.plugins.gunsen.queries import cap
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


def duel(
    attack: int,
    defend: int,
    where: str = "C3",
    kept: tuple[tuple[str, ...], ...] = ((), ()),
    tactics: tuple[tuple[str, ...], ...] = ((), ()),
    **combat_fields: Any,
) -> Any:
    """Return a combat ready to be resolved on ``where``."""
    state = ready()
    space = sp(state, where)
    state = troops(state, 0, {"A1": 2, space: attack})
    state = troops(state, 1, {"D7": 2, space: defend})
    for seat in (0, 1):
        state = player(state, seat, tactics=tactics[seat])
    return fighting(state, space, 0, 1, kept=(kept[0], kept[1]), **combat_fields)


def resolved(state: Any) -> tuple[ev.CombatResolved, Any]:
    play = run(state, combat.resolve)
    return of(play.events, ev.CombatResolved)[0], play


def test_GUN_COMBAT_1_the_column_is_finished_before_the_combat_then_the_turn_ends() -> None:
    state = troops(troops(ready(), 0, {"A1": 3, "B2": 2}), 1, {"D7": 2, "C3": 1})
    state = acting(state, 0, [step("move"), step("koku", 2)])
    _, state = send(state, cmd.SelectArmy(space=sp(state, "B2"), troops=2))
    events, after = send(state, cmd.MoveArmy(to=sp(state, "C3")))
    names = kinds(events)
    assert names.index("Gained") < names.index("ActivationEnded") < names.index("DiceThrown")
    assert of(events, ev.DiceThrown)[0].seat == 1
    while after.phase != "choose":
        _, after = send(after, legal(after)[0])
    assert after.turn == 1 and after.combat is None


def test_GUN_COMBAT_2_strength_from_troops_and_every_source_of_symbols() -> None:
    state = duel(3, 2, tactics=(("war-drums",), ()))
    state = player(state, 0, columns=(("blue-01",), (), (), ()),
                   heroes=(("hida-kisada", sp(state, "C3")),))  # fmt: skip
    state = player(state, 0, buildings=(("crab-kaiu-wall", sp(state, "B2")),))
    symbols = combat.side_symbols(run(state, lambda p: None), 0)
    assert (symbols.strength, symbols.armour) == (1 + 1 + 2, 2)  # drums, card, Kisada; the wall
    assert (symbols.throw, symbols.keep) == (3, 2)
    walled = player(duel(2, 2), 1, buildings=(("crab-kaiu-wall", sp(state, "C3")),))
    assert combat.side_symbols(run(walled, lambda p: None), 1).armour == 2  # the defender's
    assert combat.side_symbols(run(walled, lambda p: None), 0).armour == 0
    big = duel(12, 1, where="B2")
    big = player(big, 0, buildings=(("crab-camp", sp(big, "B2")),), tactics=("siege-engineers",))
    result, _ = resolved(big)
    assert result.strength[0] == 14


def test_GUN_DICE_1_the_defender_throws_its_throw_symbols_six_at_most() -> None:
    state = duel(2, 2)
    play = run(state, combat.start)
    thrown = of(play.events, ev.DiceThrown)[0]
    assert thrown.seat == 1 and len(thrown.faces) == 3 and set(thrown.faces) <= set(CAT.die)
    many = player(
        state, 1, tactics=("veteran-archers",), heroes=(("agasha-tamori", sp(state, "C3")),)
    )
    many = player(many, 1, columns=(("blue-11", "blue-12"), (), (), ()))
    assert len(of(run(many, combat.start).events, ev.DiceThrown)[0].faces) == 6  # of seven


def test_GUN_DICE_2_each_reroll_symbol_rerolls_chosen_dice_once() -> None:
    state = duel(2, 2, roller=1, dice=("blank", "blood", "strength"), rerolls=2)
    state = replace(state, phase="reroll", asked=1)
    options = legal(state)
    assert cmd.Reroll(faces=("blank",)) in options and cmd.Skip() in options
    assert len(options) == 7 + 1
    refused(state, cmd.Reroll(faces=("fury",)), "GUN-DICE-2")
    refused(state, cmd.Reroll(faces=()), "GUN-DICE-2")
    events, after = send(state, cmd.Reroll(faces=("blank",)))
    rerolled = of(events, ev.DiceRerolled)[0]
    assert rerolled.old == ("blank",) and len(rerolled.new) == 1
    assert after.combat is not None and after.combat.rerolls == 1 and after.phase == "reroll"
    events, after = send(after, cmd.Skip())
    assert "RerollsStopped" in kinds(events) and after.phase == "keep"


def test_GUN_DICE_3_keep_as_many_dice_as_keep_symbols() -> None:
    state = duel(2, 2, roller=1, dice=("blank", "blood", "strength"))
    state = replace(state, phase="keep", asked=1)
    assert all(len(c.faces) == 2 for c in legal(state)) and len(legal(state)) == 3
    refused(state, cmd.Keep(faces=("blood", "strength", "blank")), "GUN-DICE-3")
    refused(state, cmd.Keep(faces=("blood",)), "GUN-DICE-3")
    refused(state, cmd.Keep(faces=("fury", "blood")), "GUN-DICE-3")
    _events, after = send(state, cmd.Keep(faces=("strength", "blood")))
    assert after.combat is not None and after.combat.kept[1] == ("blood", "strength")
    few = replace(state, combat=replace(state.combat, dice=("blood", "fury")))
    play = run(few, combat.keep_stage, 1)
    assert of(play.events, ev.DiceKept)[0].faces == ("blood", "fury")


def test_GUN_DICE_4_then_the_attacker_each_decision_by_its_owner() -> None:
    state = duel(2, 2, roller=1, dice=("blank", "blood", "strength"))
    state = replace(state, phase="keep", asked=1, turn=0)
    events, after = send(state, cmd.Keep(faces=("blood", "strength")), seat=1)
    thrown = of(events, ev.DiceThrown)
    assert thrown and thrown[0].seat == 0 and after.asked == 0
    assert list(RULES.awaiting(after)) == [0]


def test_GUN_DICE_5_the_combat_die_and_dice_named_by_faces() -> None:
    assert CAT.die == ("blank", "strength", "strength", "blood", "armour", "fury")
    faces = {f for seed in range(30) for f in of(run(duel(1, 1), combat.start, seed=seed).events,
                                                   ev.DiceThrown)[0].faces}  # fmt: skip
    assert faces == set(CAT.die)


def test_GUN_COMBAT_3_blood_kills_armour_prevents_the_dead_go_home() -> None:
    state = duel(3, 3, kept=(("blood", "blood"), ("armour",)))
    result, play = resolved(state)
    assert result.deaths == (0, 1)
    assert play.state.players[1].supply == state.players[1].supply + 1


def test_GUN_COMBAT_4_deaths_never_lower_strength() -> None:
    result, _ = resolved(duel(2, 3, kept=(("fury", "fury"), ())))
    assert result.deaths == (0, 2) and result.strength == (4, 3)


def test_GUN_COMBAT_5_an_attacker_with_as_much_strength_and_a_troop_wins() -> None:
    result, play = resolved(duel(3, 3))
    assert result.winner == 0 and result.loser == 1
    assert play.state.players[0].achievements == ("attacker",)
    assert play.state.troops[1][sp(play.state, "C3")] == 0


def test_GUN_COMBAT_6_an_attacker_without_troops_wins_nothing_but_the_defender_retreats() -> None:
    result, play = resolved(duel(1, 1, kept=(("strength",), ("blood",))))
    assert result.deaths == (1, 0) and result.winner == NOBODY and result.loser == 1
    assert (
        play.state.players[0].achievements == () and play.state.troops[1][sp(play.state, "C3")] == 0
    )


def test_GUN_COMBAT_7_a_stronger_defender_with_a_troop_wins_without_an_achievement() -> None:
    result, play = resolved(duel(2, 3))
    assert result.winner == 1 and result.loser == 0
    assert play.state.players[1].achievements == () and play.state.players[1].defended == 1
    assert play.state.troops[0][sp(play.state, "C3")] == 0


def test_GUN_COMBAT_8_a_stronger_defender_without_troops_still_makes_the_attacker_retreat() -> None:
    result, play = resolved(duel(1, 2, kept=(("blood", "blood"), ())))
    assert result.deaths == (0, 2) and result.winner == NOBODY and result.loser == 0
    assert play.state.troops[0][sp(play.state, "C3")] == 0


def test_GUN_COMBAT_9_the_loser_retreats_all_its_troops_to_one_place() -> None:
    state = duel(3, 2)
    state = player(state, 1, buildings=(("crane-camp", sp(state, "D5")),))
    _result, play = resolved(state)
    assert play.state.phase == "retreat" and play.state.asked == 1
    assert {c.to for c in legal(play.state)} == {sp(state, "D7"), sp(state, "D5")}
    refused(play.state, cmd.Retreat(to=sp(state, "C4")), "GUN-COMBAT-9")
    events, after = send(play.state, cmd.Retreat(to=sp(state, "D5")))
    assert of(events, ev.ArmyRetreated)[0].troops == 2 and after.troops[1][sp(state, "D5")] == 2


def test_GUN_COMBAT_10_a_building_must_hold_the_whole_army_or_the_fort_it_is() -> None:
    state = duel(4, 3)
    unique = sp(state, "D5")
    state = troops(state, 1, {"D7": 2, "C3": 3, unique: 3})
    state = player(state, 1, buildings=(("crane-kyuden-doji", unique),))
    play = run(state, combat.resolve)
    retreat = of(play.events, ev.ArmyRetreated)[0]
    assert retreat.to == sp(state, "D7")  # five is the cap of a unique building


def test_GUN_COMBAT_11_a_troopless_side_places_its_heroes() -> None:
    state = duel(2, 1, kept=(("blood",), ()))
    state = player(state, 1, heroes=(("doji-hoturi", sp(state, "C3")),),
                   buildings=(("crane-camp", sp(state, "D5")),))  # fmt: skip
    state = troops(state, 1, {"D7": 2, "C3": 1, "D5": 1})
    play = run(state, combat.resolve)
    assert play.state.phase == "relocate" and play.state.asked == 1
    assert {c.space for c in legal(play.state)} == {sp(state, "D7"), sp(state, "D5")}
    _, after = send(play.state, cmd.PlaceHero(hero="doji-hoturi", space=sp(state, "D5")))
    assert after.players[1].heroes == (("doji-hoturi", sp(state, "D5")),)


def test_GUN_COMBAT_12_the_winner_steals_a_village_token_and_its_reward() -> None:
    state = player(duel(3, 2), 1, tokens=("village-04", "village-07"))
    state = player(state, 0, koku=0, tokens=("village-01", "village-02"))
    _result, play = resolved(state)
    assert play.state.phase == "steal" and play.state.asked == 0
    events, after = send(play.state, cmd.StealToken(token="village-04"))
    stolen = of(events, ev.TokenStolen)[0]
    assert (stolen.reward, stolen.kept) == ("koku", True)
    assert after.players[0].koku == 1 and after.players[1].tokens == ("village-07",)
    full = player(state, 0, tokens=("village-01", "village-02", "village-03"))
    _, play = resolved(full)
    events, after = send(play.state, cmd.StealToken(token="village-07"))
    assert not of(events, ev.TokenStolen)[0].kept and "village-07" in after.boxed
    loser_picks = replace(state, options=replace(state.options, steal_choice="loser"))
    _, play = resolved(loser_picks)
    assert play.state.phase == "steal" and play.state.asked == 1


def test_GUN_COMBAT_13_a_winner_in_toshi_ranbo_gets_its_achievements() -> None:
    state = replace(duel(4, 2, where="D4"), taken=True, holder=1)
    _, play = resolved(state)
    boxes = [e.box for e in of(play.events, ev.AchievementEarned)]
    assert boxes == ["attacker", "conquer"] and play.state.holder == 0
    assert play.state.upgrades[3] == 0
    assert of(play.events, ev.HoldMarkerReturned)[0].seat == 1


def test_GUN_COMBAT_14_objectives_needing_troops_there_wait_for_the_combat() -> None:
    state = duel(5, 1, kept=((), ("fury",)))
    state = troops(state, 0, {"A1": 2, "C3": 5})  # Crab's objective: five troops on one space
    assert of(run(state, settle).events, ev.AchievementEarned) == []
    play = run(state, combat.resolve)
    boxes = [(e.box, e.objective) for e in of(play.events, ev.AchievementEarned)]
    assert ("attacker", "") in boxes and ("objective", "crab-unbreakable-line") not in boxes
    lost = duel(5, 1, kept=((), ("blood", "blood")))
    play = run(lost, combat.resolve)
    assert ("objective", "crab-unbreakable-line") not in [
        (e.box, e.objective) for e in of(play.events, ev.AchievementEarned)
    ]
    kept = run(duel(5, 1), combat.resolve)
    assert ("objective", "crab-unbreakable-line") in [
        (e.box, e.objective) for e in of(kept.events, ev.AchievementEarned)
    ]


# -- heroes' effects (GUN-HERO-6..12) -----------------------------------------------------------


def scorpion_vs_unicorn(**combat_fields: Any) -> Any:
    state = ready(clans=("scorpion", "unicorn"))
    space = sp(state, "C3")
    state = troops(state, 0, {"A1": 2, space: 3})
    state = troops(state, 1, {"D7": 3, space: 2})
    state = player(state, 0, heroes=(("bayushi-aramoro", space),))
    return fighting(state, space, 0, 1, **combat_fields)


def test_GUN_HERO_6_bayushi_aramoro_demands_tribute_first() -> None:
    state = player(
        scorpion_vs_unicorn(), 1, influence=2, heroes=(("moto-chagatai", sp(ready(), "D7")),)
    )
    play = run(state, combat.begin)
    assert play.state.phase == "tribute" and play.state.asked == 1
    _events, refusing = send(play.state, cmd.PayTribute(pay=False))
    assert refusing.combat is not None and refusing.combat.ignored == (False, True)
    assert refusing.phase == "ride"  # Moto may still ride
    _, rode = send(refusing, cmd.Ride(ride=True))
    assert rode.combat is not None
    moto = combat.side_symbols(run(rode, lambda p: None), 1)
    assert moto.strength == 0  # his strength lapses
    _, paying = send(play.state, cmd.PayTribute(pay=True))
    assert paying.players[1].influence == 1 and paying.combat.ignored == (False, False)
    broke = player(state, 1, influence=0)
    auto = run(broke, combat.begin)
    assert of(auto.events, ev.TributeDecided)[0].paid is False and auto.state.phase == "ride"


def test_GUN_HERO_7_bayushi_kachiko_brings_a_troop_at_the_end_of_her_turn() -> None:
    state = ready(clans=("scorpion", "crab"))
    space = sp(state, "C3")
    state = troops(state, 0, {"A1": 2, space: 4})
    state = player(state, 0, heroes=(("bayushi-kachiko", space),))
    play = run(state, end_of_turn_effects, 0)
    assert of(play.events, ev.TroopAdded)[0].space == space and play.state.troops[0][space] == 5
    assert of(run(play.state, end_of_turn_effects, 0).events, ev.TroopAdded) == []


def test_GUN_HERO_8_daidoji_uji_counts_troops_after_the_deaths() -> None:
    state = ready(clans=("crab", "crane"))
    space = sp(state, "C3")
    state = troops(troops(state, 0, {"A1": 2, space: 3}), 1, {"D7": 2, space: 3})
    plain = fighting(state, space, 0, 1, kept=(("blood", "blood"), ()))
    assert of(run(plain, combat.resolve).events, ev.CombatResolved)[0].strength == (3, 3)
    uji = player(plain, 1, heroes=(("daidoji-uji", space),))
    result = of(run(uji, combat.resolve).events, ev.CombatResolved)[0]
    assert result.deaths == (0, 1) and result.strength == (3, 2)


def test_GUN_HERO_9_moto_chagatai_rides_to_a_combat_from_anywhere() -> None:
    state = ready(clans=("unicorn", "crab"))
    space = sp(state, "C3")
    state = troops(troops(state, 0, {"A1": 2, "E5": 1, space: 2}), 1, {"D7": 2, space: 1})
    state = player(state, 0, heroes=(("moto-chagatai", sp(state, "E5")),))
    state = fighting(state, space, 0, 1)
    play = run(state, combat.begin)
    assert play.state.phase == "ride" and play.state.asked == 0
    _, after = send(play.state, cmd.Ride(ride=True))
    assert after.players[0].heroes == (("moto-chagatai", space),)
    other = player(
        state, 0, heroes=(("moto-chagatai", sp(state, "E5")), ("utaku-xieng-chi", space))
    )
    assert run(other, combat.begin).state.phase != "ride"


def test_GUN_HERO_10_togashi_yokuni_swaps_two_kept_dice() -> None:
    state = ready(clans=("dragon", "crab"))
    space = sp(state, "C3")
    state = troops(troops(state, 0, {"A1": 2, space: 2}), 1, {"D7": 2, space: 2})
    state = player(state, 0, heroes=(("togashi-yokuni", space),))
    state = fighting(state, space, 0, 1, kept=(("blank", "blood"), ("fury", "strength")))
    play = run(state, combat.swap_stage)
    assert play.state.phase == "swap" and play.state.asked == 0
    assert cmd.SwapDice(mine="blank", theirs="fury") in legal(play.state)
    refused(play.state, cmd.SwapDice(mine="fury", theirs="blank"), "GUN-HERO-10")
    events, _after = send(play.state, cmd.SwapDice(mine="blank", theirs="fury"))
    result = of(events, ev.CombatResolved)[0]
    assert result.strength == (2 + 2 + 1, 2 + 1) and result.winner == 0


def test_GUN_HERO_11_toturi_the_black_raises_the_cap_and_brings_a_troop() -> None:
    state = duel(5, 2)
    state = player(state, 0, heroes=(("toturi-the-black", sp(state, "C3")),))
    assert cap(CAT, state, 0, sp(state, "C3")) == 6
    play = run(state, combat.start)
    assert of(play.events, ev.TroopAdded)[0].hero == "toturi-the-black"
    assert play.state.troops[0][sp(state, "C3")] == 6
    ignored = replace(state, combat=replace(state.combat, ignored=(True, False)))
    assert of(run(ignored, combat.start).events, ev.TroopAdded) == []
    assert cap(CAT, ignored, 0, sp(state, "C3")) == 6


def test_GUN_HERO_12_hero_symbols_count_on_their_own_space_only() -> None:
    state = duel(2, 2)
    here = player(state, 0, heroes=(("hida-kisada", sp(state, "C3")),))
    away = player(state, 0, heroes=(("hida-kisada", sp(state, "A1")),))
    strength = [combat.side_symbols(run(s, lambda p: None), 0).strength for s in (here, away)]
    assert strength == [2, 0]
    assert all(h.ability == "" for c in CAT.clans.values() for h in c.heroes
               if h.id not in ("bayushi-aramoro", "bayushi-kachiko", "daidoji-uji",
                               "moto-chagatai", "togashi-yokuni"))  # fmt: skip
