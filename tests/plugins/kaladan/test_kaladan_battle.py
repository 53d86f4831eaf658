"""The battle chapter, rule by rule, and its worked example die for die (KAL-BATTLE … EXAMPLE)."""

from __future__ import annotations

import msgspec
from gamehall.plugins.kaladan import battle as fight
from gamehall.plugins.kaladan.commands import (
    Attack,
    ChooseLosses,
    EndActions,
    EndPurchase,
    Invade,
    MoveUnit,
    Recruit,
    UpgradeSpecial,
)
from gamehall.plugins.kaladan.dice import SidePlan, compare, pool
from gamehall.plugins.kaladan.events import (
    AttackDeclared,
    BattleEnded,
    BattleJoined,
    CrownFell,
    DiceCompared,
    DiceRolled,
    Invaded,
    InvasionOrdered,
    UnitsDefeated,
)
from gamehall.plugins.kaladan.invariants import two_armies_never_share
from gamehall.plugins.kaladan.state import NOBODY, Options
from kaladan_helpers import CAT, RULESET, battle_of, make, names, of, refused, send, unit

# In the 2-player world tile 0 is the centre and tiles 1-6 a ring (1 next to 2 and 6).
CROWNS = {4: (0, ["crown"]), 6: (1, ["crown"])}


def duel(attack: list[str], defence: list[str], **kw: object) -> object:
    """Return seat 0's army on tile 1 facing seat 1's on tile 2, Crowns out of the way."""
    return make(units={1: (0, attack), 2: (1, defence), **CROWNS}, **kw)  # type: ignore[arg-type]


# -- the basis ---------------------------------------------------------------------------------


def test_KAL_BATTLE_1_only_a_won_battle_enters_an_enemy_tile() -> None:
    state = duel(["sword"], ["shield"])
    events, after = send(state, 0, Attack(origin=1, target=2), rolls=[5, 5])
    assert of(events, BattleEnded)[0].result == "defender"
    assert after.board[1] == state.board[1] and after.board[2] == state.board[2]
    state = duel(["sword", "general"], ["shield"])
    refused(state, 0, MoveUnit(origin=1, to=2, kind="sword"), "KAL-DECLARE-1")


def test_KAL_BATTLE_2_from_one_own_tile_onto_one_enemy_tile() -> None:
    state = duel(["sword"], ["shield"])
    refused(state, 0, Attack(origin=2, target=1), "KAL-BATTLE-2")
    refused(state, 0, Attack(origin=1, target=0), "KAL-BATTLE-2")  # empty tile
    events, _ = send(state, 0, Attack(origin=1, target=2), rolls=[1, 1])
    declared = of(events, AttackDeclared)[0]
    assert (declared.origin, declared.target, declared.defender) == (1, 2, 1)


def test_KAL_BATTLE_3_only_between_adjacent_tiles() -> None:
    state = make(units={1: (0, ["sword"]), 3: (1, ["shield"]), **CROWNS})
    error = refused(state, 0, Attack(origin=1, target=3), "KAL-BATTLE-3")
    assert "not adjacent" in error.reason
    refused(state, 0, Attack(origin=1, target=40), "KAL-WORLD-1")


def test_KAL_BATTLE_4_every_unit_on_both_tiles_fights() -> None:
    state = duel(["sword", "archer", "shield"], ["general", "shield"])
    events, _ = send(state, 0, Attack(origin=1, target=2), rolls=[1, 1, 1, 1, 1])
    joined = of(events, BattleJoined)[0]
    assert joined.attackers == state.board[1] and joined.defenders == state.board[2]


def test_KAL_BATTLE_5_attack_dice_against_defence_dice() -> None:
    state = duel(["shield"], ["shield"])
    events, _ = send(state, 0, Attack(origin=1, target=2), rolls=[6, 10])
    rolled = of(events, DiceRolled)[0]
    assert [d.sides for d in rolled.attack] == [6] and [d.sides for d in rolled.defence] == [10]


def test_KAL_BATTLE_6_armies_never_share_a_tile() -> None:
    state = duel(["sword"], ["shield"])
    mixed = msgspec.structs.replace(
        state, board=(state.board[0], (*state.board[1], *state.board[2]), *state.board[2:])
    )
    assert two_armies_never_share(CAT, mixed) is not None
    assert two_armies_never_share(CAT, state) is None
    refused(state, 0, MoveUnit(origin=1, to=2, kind="sword"), "KAL-DECLARE-1")


# -- when is there a battle ---------------------------------------------------------------------


def test_KAL_DECLARE_1_entering_an_enemy_tile_or_crown_means_battle() -> None:
    state = make(units={1: (0, ["sword"]), 2: (1, ["crown"]), 4: (0, ["crown"])})
    error = refused(state, 0, MoveUnit(origin=1, to=2, kind="sword"), "KAL-DECLARE-1")
    assert "declare an attack" in error.reason
    assert Attack(origin=1, target=2) in RULESET.rules.legal(state, 0)


def test_KAL_DECLARE_2_one_battle_per_turn() -> None:
    state = make(units={1: (0, ["sword"]), 2: (1, ["shield"]), 6: (1, ["shield"]), **CROWNS})
    _, after = send(state, 0, Attack(origin=1, target=2), rolls=[2, 9])
    assert after.battle is None and after.battled
    refused(after, 0, Attack(origin=1, target=6), "KAL-DECLARE-2")
    assert not [c for c in RULESET.rules.legal(after, 0) if isinstance(c, Attack)]


# -- the course ---------------------------------------------------------------------------------


def test_KAL_SEQ_1_every_step_in_the_chapters_order() -> None:
    state = duel(["sword", "general"], ["shield"])
    events, _after = send(state, 0, Attack(origin=1, target=2), rolls=[8, 12, 3])
    assert names(events) == [
        "AttackDeclared",
        "MagicDeclared",
        "MagicDeclared",
        "MagicRevealed",
        "BattleJoined",
        "DiceRolled",
        "DiceCompared",
        "UnitsDefeated",
        "Invaded",
        "BattleEnded",
    ]
    battling = duel(["sword", "general"], ["shield", "shield", "shield"])
    _, waiting = send(battling, 0, Attack(origin=1, target=2), rolls=[8, 12, 3, 3, 3])
    assert battle_of(waiting).step == "losses"
    refused(waiting, 1, EndActions(), "KAL-SEQ-1")


# -- dice ---------------------------------------------------------------------------------------


def test_KAL_DICE_1_all_dice_in_one_event() -> None:
    state = duel(["catapult", "general"], ["shield", "general"])
    events, _ = send(state, 0, Attack(origin=1, target=2), rolls=[5, 6, 7, 8, 9])
    rolled = of(events, DiceRolled)
    assert len(rolled) == 1
    assert [d.value for d in rolled[0].attack] == [5, 6, 7]
    assert [d.value for d in rolled[0].defence] == [8, 9]


def test_KAL_DICE_2_nothing_is_added_up() -> None:
    state = duel(["catapult"], ["shield"])
    events, _after = send(state, 0, Attack(origin=1, target=2), rolls=[6, 6, 10])
    compared = of(events, DiceCompared)[0]
    assert compared.attacker_losses == 1 and compared.defender_losses == 0  # 6+6 > 10, still lost


# -- who wins -----------------------------------------------------------------------------------


def test_KAL_COMPARE_1_sorted_high_to_low_highest_against_highest() -> None:
    state = duel(["sword", "archer", "general"], ["shield", "general", "sword"])
    events, _ = send(state, 0, Attack(origin=1, target=2), rolls=[3, 10, 5, 4, 11, 8])
    compared = of(events, DiceCompared)[0]
    assert compared.attack == (10, 5, 3) and compared.defence == (11, 8, 4)
    assert compare((10, 5, 3), (11, 8, 4)) == (3, 0)
    assert compare((10, 5, 3), (4, 8, 11)) == (2, 1)  # unsorted pools pair differently


def test_KAL_COMPARE_2_lower_die_loses_a_unit_ties_lose_nothing() -> None:
    assert compare((9, 9, 7), (12, 9, 2)) == (1, 1)
    assert compare((5,), (5,)) == (0, 0)
    state = duel(["sword"], ["shield"])
    events, _after = send(state, 0, Attack(origin=1, target=2), rolls=[4, 4])
    assert of(events, DiceCompared)[0].attacker_losses == 0 and not of(events, UnitsDefeated)


def test_KAL_COMPARE_3_only_as_many_pairs_as_the_smaller_pool() -> None:
    assert compare((12, 11, 10, 9), (1,)) == (0, 1)
    state = duel(["general", "catapult"], ["sword"])
    events, _ = send(state, 0, Attack(origin=1, target=2), rolls=[1, 1, 1, 2])
    compared = of(events, DiceCompared)[0]
    assert compared.attacker_losses == 1 and compared.defender_losses == 0


# -- pools --------------------------------------------------------------------------------------


def test_KAL_POOL_1_dice_from_units_terrain_and_castle() -> None:
    plan = SidePlan(
        role="defence",
        units=("a", "b"),
        kinds=("crown", "shield"),
        terrain="mountain",
        opposing_terrain="forest",
        own_castle=True,
    )
    # units, terrain, then the castle bonus (the Crown's D8 and the castle die both count)
    assert pool(CAT, Options(), plan) == [(8, "a"), (10, "b"), (10, "mountain"), (8, "castle")]
    with_castle_die = pool(CAT, Options(castle_defence_die=6), plan)
    assert with_castle_die[-1] == (6, "castle")
    assert pool(CAT, Options(castle_defence_die=0), plan) == [(8, "a"), (10, "b"), (10, "mountain")]
    attack = SidePlan("attack", ("c",), ("catapult",), "forest", "field")
    assert pool(CAT, Options(), attack) == [(10, "c"), (10, "c"), (10, "forest")]


def test_KAL_POOL_2_a_side_without_units_rolls_nothing() -> None:
    empty = SidePlan("defence", (), (), "mountain", "field", own_castle=True)
    assert pool(CAT, Options(castle_defence_die=12), empty) == []


# -- invasion and holding -----------------------------------------------------------------------


def example_state(**kw: object) -> object:
    """Return the worked example as printed: 4 attackers on a plain Forest, 2 defenders on a
    Mountain."""
    terrain = ["field", "forest", "mountain", "field", "field", "field", "field"]
    return make(
        terrain=terrain,
        units={1: (0, ["general", "archer", "archer", "sword"]), 2: (1, ["general", "shield"])}
        | CROWNS,
        **kw,  # type: ignore[arg-type]
    )


def test_KAL_INVADE_1_mandatory_up_to_capacity_the_rest_stays() -> None:
    state = example_state()
    rolls = [12, 10, 10, 8, 10, 1, 1, 1]  # attacker wins every pair
    events, after = send(state, 0, Attack(origin=1, target=2), rolls=rolls)  # type: ignore[arg-type]
    assert of(events, InvasionOrdered)[0].capacity == 3
    assert RULESET.rules.awaiting(after).keys() == {0}
    four = after.board[1]
    refused(after, 0, Invade(units=four), "KAL-INVADE-1")
    refused(after, 0, Invade(units=four[:2]), "KAL-INVADE-1")
    events, done = send(after, 0, Invade(units=four[:3]))
    assert done.board[2] == four[:3] and done.board[1] == four[3:] and done.holder[2] == 0
    assert set(four[:3]) <= set(done.moved)


def test_KAL_INVADE_2_all_survivors_move_in_when_they_fit() -> None:
    terrain = ["field", "mountain", "field", "field", "field", "field", "field"]
    state = make(
        terrain=terrain, units={1: (0, ["sword", "sword", "archer"]), 2: (1, ["sword"])} | CROWNS
    )
    events, after = send(state, 0, Attack(origin=1, target=2), rolls=[8, 8, 10, 1])
    assert of(events, Invaded)[0].units == state.board[1]
    assert not after.board[1] and after.board[2] == state.board[1] and after.battle is None


def test_KAL_HOLD_1_the_defender_stays_only_attackers_fall() -> None:
    state = duel(["sword", "archer"], ["general", "shield"])
    events, after = send(state, 0, Attack(origin=1, target=2), rolls=[1, 1, 12, 10])
    assert of(events, BattleEnded)[0].result == "defender"
    assert after.board[2] == state.board[2] and not after.board[1]
    assert after.graveyard[1] == state.board[1]


# -- losses ---------------------------------------------------------------------------------------


def test_KAL_LOSS_1_defeated_units_leave_the_board_for_good() -> None:
    state = duel(["sword"], ["shield", "shield"])
    _, after = send(state, 0, Attack(origin=1, target=2), rolls=[1, 5, 5])
    gone = state.board[1][0]
    assert all(gone not in units for units in after.board) and gone in after.graveyard[1]
    assert gone not in after.reserve[0]


def test_KAL_LOSS_2_the_losing_general_chooses_its_losses() -> None:
    state = duel(["sword", "archer", "general"], ["shield", "shield", "general"])
    _, after = send(state, 0, Attack(origin=1, target=2), rolls=[8, 10, 1, 5, 1, 12])
    battle = battle_of(after)
    assert battle.step == "losses" and battle.owed == (1, 1)
    assert set(RULESET.rules.awaiting(after)) == {0, 1}
    stranger = state.board[4][0]  # the Crown on tile 4 did not fight
    refused(after, 0, ChooseLosses(units=(stranger,)), "KAL-LOSS-2")
    refused(after, 0, ChooseLosses(units=state.board[1][:2]), "KAL-LOSS-2")
    refused(after, 0, ChooseLosses(units=(state.board[2][0],)), "KAL-LOSS-2")
    _, after = send(after, 1, ChooseLosses(units=(unit(state, 2, "shield"),)))
    _, after = send(after, 0, ChooseLosses(units=(unit(state, 1, "archer"),)))
    assert after.battle is None and unit(state, 1, "archer") in after.graveyard[1]


def test_KAL_LOSS_3_kills_go_onto_the_winners_graveyard() -> None:
    state = duel(["sword", "archer"], ["shield", "shield"])
    _, after = send(state, 0, Attack(origin=1, target=2), rolls=[2, 10, 9, 5])
    _, after = send(after, 0, ChooseLosses(units=(unit(state, 1, "sword"),)))
    _, after = send(after, 1, ChooseLosses(units=(unit(state, 2, "shield", 1),)))
    assert after.graveyard[0] == (unit(state, 2, "shield", 1),)
    assert after.graveyard[1] == (unit(state, 1, "sword"),)


def test_KAL_LOSS_4_special_units_go_back_to_their_owners_reserve() -> None:
    state = duel(["iron-warden"], ["general"])
    _, after = send(state, 0, Attack(origin=1, target=2), rolls=[1, 12])
    assert "khalisia/iron-warden" in after.reserve[0] and not after.graveyard[1]


# -- the fall of a Crown ----------------------------------------------------------------------------


def crown_state(castle: int = 2) -> object:
    """Three realms: seat 0 attacks from tile 1 onto seat 1's Crown and Shield on tile 2.

    The scripted rolls give the defender three 1s: its Crown, its Shield and, when tile 2 is
    its Castle, the castle die (KAL-TERRAIN-4); a roll left over is never drawn.
    """
    return make(
        3,
        castles={castle: 1, 5: 0},
        units={
            1: (0, ["general", "sword"]),
            2: (1, ["crown", "shield"]),
            4: (1, ["archer"]),
            5: (0, ["crown"]),
            6: (2, ["crown"]),
        },
        hands={1: ["verdance/root-snare"]},
    )


def fell(state: object) -> tuple[list[object], object]:
    return send(state, 0, Attack(origin=1, target=2), rolls=[12, 8, 1, 1, 1])  # type: ignore[arg-type]


def test_KAL_CROWN_1_a_defeated_crown_is_out_at_once() -> None:
    state = crown_state()
    from gamehall.plugins.kaladan.commands import DeclareMagic

    _, declared = send(state, 0, Attack(origin=1, target=2))
    events, after = send(declared, 1, DeclareMagic(card=""), rolls=[12, 8, 1, 1, 1])
    assert of(events, CrownFell)[0].seat == 1 and not after.alive[1]
    assert not after.over and after.phase == "action"


def test_KAL_CROWN_2_remaining_units_leave_onto_no_graveyard() -> None:
    state = crown_state()
    _, declared = send(state, 0, Attack(origin=1, target=2))
    from gamehall.plugins.kaladan.commands import DeclareMagic

    _, after = send(declared, 1, DeclareMagic(card=""), rolls=[12, 8, 1, 1, 1])
    archer = state.board[4][0]
    assert not after.board[4] and all(archer not in g for g in after.graveyard)
    assert after.graveyard[0] == state.board[2] and after.reserve[1] == ()


def _conquer(state: object) -> object:
    from gamehall.plugins.kaladan.commands import DeclareMagic

    _, declared = send(state, 0, Attack(origin=1, target=2))  # type: ignore[arg-type]
    return send(declared, 1, DeclareMagic(card=""), rolls=[12, 8, 1, 1, 1])[1]


def test_KAL_CROWN_3_a_battle_in_its_castle_gives_the_castle_to_the_winner() -> None:
    after = _conquer(crown_state(castle=2))
    assert after.castles[2] == 0 and after.board[2] == crown_state().board[1]  # type: ignore[attr-defined]


def test_KAL_CROWN_4_otherwise_the_castle_becomes_a_free_tile() -> None:
    before = crown_state(castle=3)
    assert before.controls(1, 3)  # type: ignore[attr-defined]
    after = _conquer(before)
    assert after.castles[3] == NOBODY  # type: ignore[attr-defined]
    assert not any(after.controls(s, 3) for s in range(3))  # type: ignore[attr-defined]
    from gamehall.plugins.kaladan.world import capacity

    assert capacity(CAT, after, 3) == 5  # still a Castle: a Field holds one more


def test_KAL_CROWN_5_the_special_unit_goes_to_the_winners_reserve() -> None:
    after = _conquer(crown_state())
    assert "verdance/zhoji" in after.reserve[0]  # type: ignore[attr-defined]
    _, buying = send(after, 0, EndActions())  # type: ignore[arg-type]
    assert Recruit(kind="zhoji") in RULESET.rules.legal(buying, 0)
    _, bought = send(buying, 0, Recruit(kind="zhoji"))
    assert bought.gold[0] == buying.gold[0] - 2 and "verdance/zhoji" in bought.ready[0]


def test_KAL_CROWN_6_the_defeated_realms_cards_become_buyable_by_the_winner() -> None:
    after = _conquer(crown_state())
    assert after.pile_owner["verdance"] == 0  # type: ignore[attr-defined]
    assert "verdance/root-snare" in after.piles["verdance"]  # type: ignore[attr-defined]
    _, buying = send(after, 0, EndActions())  # type: ignore[arg-type]
    from gamehall.plugins.kaladan.commands import BuyMagic

    assert BuyMagic(realm="verdance") in RULESET.rules.legal(buying, 0)
    _, bought = send(buying, 0, BuyMagic(realm="verdance"))
    assert bought.gold[0] == buying.gold[0] - 4 and any(
        c.startswith("verdance/") for c in bought.hands[0]
    )


# -- special units ----------------------------------------------------------------------------------


def test_KAL_SPECIAL_1_bringing_a_special_back_costs_2_gold() -> None:
    state = make(units=CROWNS, phase="purchase", gold=[3, 3])
    _, after = send(state, 0, Recruit(kind="iron-warden"))
    assert after.gold[0] == 1 and after.ready[0] == ("khalisia/iron-warden",)
    poor = make(units=CROWNS, phase="purchase", gold=[1, 1])
    refused(poor, 0, Recruit(kind="iron-warden"), "KAL-BUY-1")


def test_KAL_SPECIAL_2_upgrading_a_special_costs_2_gold() -> None:
    state = make(units={1: (0, ["iron-warden"]), **CROWNS}, phase="purchase", gold=[2, 0])
    _, after = send(state, 0, UpgradeSpecial(unit="khalisia/iron-warden"))
    assert after.gold[0] == 0 and "khalisia/iron-warden" in after.upgraded
    refused(after, 0, UpgradeSpecial(unit="khalisia/iron-warden"), "KAL-SPECIAL-2")


def test_KAL_SPECIAL_3_a_defeated_special_loses_its_upgrade() -> None:
    state = duel(["iron-warden"], ["general"], upgraded=("khalisia/iron-warden",))
    events, after = send(state, 0, Attack(origin=1, target=2), rolls=[1, 12])  # type: ignore[union-attr]
    rolled = of(events, DiceRolled)[0]
    assert rolled.attack[0].sides == 12  # upgraded: D10 -> D12
    assert "khalisia/iron-warden" in after.reserve[0] and not after.upgraded
    _, buying = send(after, 0, EndActions())
    assert Recruit(kind="iron-warden") in RULESET.rules.legal(buying, 0)
    assert EndPurchase() in RULESET.rules.legal(buying, 0)


# -- the worked example, die for die ----------------------------------------------------------------

RECORDED_ROLL = (
    b'{"type":"kaladan.DiceRolled","attack":['
    b'{"sides":12,"value":7,"source":"khalisia/general-1"},'
    b'{"sides":10,"value":9,"source":"khalisia/archer-1"},'
    b'{"sides":10,"value":9,"source":"khalisia/archer-2"},'
    b'{"sides":8,"value":2,"source":"khalisia/sword-1"},'
    b'{"sides":10,"value":1,"source":"forest"}],"defence":['
    b'{"sides":12,"value":12,"source":"verdance/general-1"},'
    b'{"sides":10,"value":9,"source":"verdance/shield-1"},'
    b'{"sides":10,"value":2,"source":"mountain"}]}'
)
EXAMPLE_ROLLS = [7, 9, 9, 2, 1, 12, 9, 2]


def _joined() -> object:
    """Return the worked example just after the units are fixed, before the dice."""
    from gamehall.core import Emitter
    from gamehall.plugins.kaladan.events import MagicDeclared, MagicRevealed

    state = example_state()
    em = Emitter(RULESET.rules, state)
    fight.declare_attack(CAT, em, 0, 1, 2)
    em.emit(MagicDeclared(seat=0, uses=False), MagicDeclared(seat=1, uses=False))
    em.emit(MagicRevealed(attacker="", defender=""))
    em.emit(BattleJoined(attackers=state.board[1], defenders=state.board[2]))  # type: ignore[attr-defined]
    return em


def test_KAL_EXAMPLE_1_pools_of_five_and_three_dice_with_terrain_bonuses() -> None:
    state = example_state()
    events, _ = send(state, 0, Attack(origin=1, target=2), rolls=EXAMPLE_ROLLS)  # type: ignore[arg-type]
    rolled = of(events, DiceRolled)[0]
    assert sorted(d.sides for d in rolled.attack) == [8, 10, 10, 10, 12]
    assert ("forest", 10) in [(d.source, d.sides) for d in rolled.attack]
    assert sorted(d.sides for d in rolled.defence) == [10, 10, 12]
    assert ("mountain", 10) in [(d.source, d.sides) for d in rolled.defence]


def test_KAL_EXAMPLE_2_the_recorded_roll_replays_die_for_die() -> None:
    recorded = RULESET.codec.event_from_builtins(msgspec.json.decode(RECORDED_ROLL))
    assert isinstance(recorded, DiceRolled)
    events, _ = send(example_state(), 0, Attack(origin=1, target=2), rolls=EXAMPLE_ROLLS)  # type: ignore[arg-type]
    assert of(events, DiceRolled)[0] == recorded
    attack = sorted(((d.sides, d.value) for d in recorded.attack), reverse=True)
    assert attack == [(12, 7), (10, 9), (10, 9), (10, 1), (8, 2)]
    assert [(d.sides, d.value) for d in recorded.defence] == [(12, 12), (10, 9), (10, 2)]


def test_KAL_EXAMPLE_3_sorted_pairs_9_12_then_9_9_then_7_2() -> None:
    em = _joined()
    recorded = RULESET.codec.event_from_builtins(msgspec.json.decode(RECORDED_ROLL))
    fight.resolve_roll(CAT, em, recorded)  # type: ignore[arg-type]
    compared = em.events[-1]  # type: ignore[attr-defined]
    assert isinstance(compared, DiceCompared)
    assert compared.attack == (9, 9, 7, 2, 1) and compared.defence == (12, 9, 2)
    pairs = list(zip(compared.attack, compared.defence, strict=False))
    assert pairs == [(9, 12), (9, 9), (7, 2)]
    verdicts = ["defender" if a < d else "attacker" if d < a else "tie" for a, d in pairs]
    assert verdicts == ["defender", "tie", "attacker"]


def test_KAL_EXAMPLE_4_each_side_loses_one_unit_chosen_by_its_general() -> None:
    em = _joined()
    recorded = RULESET.codec.event_from_builtins(msgspec.json.decode(RECORDED_ROLL))
    fight.resolve_roll(CAT, em, recorded)  # type: ignore[arg-type]
    state = em.state  # type: ignore[attr-defined]
    assert battle_of(state).owed == (1, 1) and set(RULESET.rules.awaiting(state)) == {0, 1}
    archer, shield = unit(state, 1, "archer"), unit(state, 2, "shield")
    _, state = send(state, 0, ChooseLosses(units=(archer,)))
    _, state = send(state, 1, ChooseLosses(units=(shield,)))
    assert state.graveyard == ((shield,), (archer,))
    assert len(state.board[1]) == 3 and len(state.board[2]) == 1


def test_KAL_EXAMPLE_5_four_attackers_stand_on_a_plain_forest() -> None:
    state = example_state()
    from gamehall.plugins.kaladan.invariants import two_armies_never_share as check
    from gamehall.plugins.kaladan.world import capacity

    assert 1 not in state.castles and capacity(CAT, state, 1) == 4  # type: ignore[attr-defined]
    assert len(state.board[1]) == 4 and check(CAT, state) is None  # type: ignore[arg-type]
    events, after = send(state, 0, Attack(origin=1, target=2), rolls=EXAMPLE_ROLLS)  # type: ignore[arg-type]
    assert [d.source for d in of(events, DiceRolled)[0].defence if d.source == "castle"] == []
    _, after = send(after, 0, ChooseLosses(units=(unit(after, 1, "sword"),)))
    events, after = send(after, 1, ChooseLosses(units=(unit(after, 2, "shield"),)))
    assert of(events, BattleEnded)[0].result == "defender"
    assert after.holder[2] == 1 and len(after.board[1]) == 3


def test_KAL_EXAMPLE_5_under_the_compendiums_figure_the_example_needs_a_castle() -> None:
    compendium = Options(terrain_capacity="compendium")
    state = example_state(options=compendium)
    from gamehall.plugins.kaladan.invariants import two_armies_never_share as check
    from gamehall.plugins.kaladan.world import capacity

    assert capacity(CAT, state, 1) == 3  # type: ignore[arg-type]
    assert "more than its capacity 3" in (check(CAT, state) or "")  # type: ignore[arg-type]
    castle = msgspec.structs.replace(state, castles={1: NOBODY})  # type: ignore[type-var]
    assert capacity(CAT, castle, 1) == 4 and check(CAT, castle) is None  # type: ignore[arg-type]
    events, after = send(castle, 0, Attack(origin=1, target=2), rolls=EXAMPLE_ROLLS)
    assert sorted(d.sides for d in of(events, DiceRolled)[0].attack) == [8, 10, 10, 10, 12]
