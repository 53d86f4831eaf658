"""The skirmish around the battle: setup, world, units, terrains, realms, the six phases, the end."""

from __future__ import annotations

import msgspec
import pytest
from gamehall.core import Table
from gamehall.core.rules import MatchConfig
from gamehall.plugins.kaladan.commands import (
    AddEventUnit,
    Attack,
    ChooseRealm,
    Deploy,
    EndActions,
    EndPurchase,
    MoveUnit,
    PlaceCastle,
    RaiseUnit,
    Recruit,
    SkipSpawn,
    Spawn,
    TakeGold,
    UpgradeUnit,
)
from gamehall.plugins.kaladan.dice import SidePlan, pool, unit_dice
from gamehall.plugins.kaladan.events import (
    CastlePlaced,
    EventDrawn,
    GoldGained,
    MatchEnded,
    PhaseBegan,
    RealmChosen,
    TilePlaced,
    TurnBegan,
    TurnOrderRolled,
)
from gamehall.plugins.kaladan.state import NOBODY, Options
from gamehall.plugins.kaladan.world import capacity, neighbours
from kaladan_helpers import CAT, RULESET, Scripted, make, names, of, refused, send, unit

RULES = RULESET.rules
CROWNS = {4: (0, ["crown"]), 6: (1, ["crown"])}


def dice(kind: str, role: str = "attack", terrain: str = "field", **kw: object) -> tuple[int, ...]:
    plan = SidePlan(role, ("u",), (kind,), terrain, "field", **kw)  # type: ignore[arg-type]
    return unit_dice(CAT, Options(), plan, "u", kind)


def setup_table(players: int = 3, seed: int = 4) -> Table:
    return Table.new("kaladan", players, seed=seed)


def choose_all(table: Table) -> None:
    """Choose realms in turn order (the first free one) and place castles where legal."""
    while table.state.phase in ("realms", "castles"):
        seat = next(iter(table.awaiting()))
        table.send(seat, table.legal(seat)[0])


# -- setup ------------------------------------------------------------------------------------------


def test_KAL_SETUP_1_d10_roll_off_ties_reroll_then_clockwise() -> None:
    state = RULES.initial(MatchConfig(players=3))
    events = RULES.start(state, MatchConfig(players=3), Scripted([5, 9, 9, 4, 6]))
    rolled = events[0]
    assert isinstance(rolled, TurnOrderRolled)
    assert rolled.rounds == (((0, 5), (1, 9), (2, 9)), ((1, 4), (2, 6)))
    assert rolled.order == (2, 0, 1)


@pytest.mark.parametrize(("players", "tiles"), [(2, 7), (3, 7), (4, 13), (5, 14), (6, 19)])
def test_KAL_SETUP_2_world_size_by_player_count(players: int, tiles: int) -> None:
    table = setup_table(players)
    assert len(table.state.terrain) == tiles
    mix = CAT.worlds[players]
    assert sorted(table.state.terrain) == sorted(mix.terrains())


def test_KAL_SETUP_3_realms_are_chosen_in_turn_order() -> None:
    table = setup_table(3)
    order = table.state.order
    assert list(table.awaiting()) == [order[0]]
    table.send(order[0], ChooseRealm(realm="khalisia"))
    assert list(table.awaiting()) == [order[1]]
    refused(table.state, order[1], ChooseRealm(realm="khalisia"), "KAL-SETUP-3")
    events = table.send(order[1], ChooseRealm(realm="verdance"))
    assert len(of(events, RealmChosen)[0].army) == 17


def test_KAL_SETUP_4_one_secret_card_each_the_rest_stays_as_the_pile() -> None:
    table = setup_table(2)
    seat = table.state.order[0]
    table.send(seat, ChooseRealm(realm="khalisia"))
    hand = table.state.hands[seat]
    assert len(hand) == 1 and hand[0].startswith("khalisia/")
    assert len(table.state.piles["khalisia"]) == 3 and hand[0] not in table.state.piles["khalisia"]
    assert RULES.view(table.state, 1 - seat).state.hands[seat] == ()


def test_KAL_SETUP_5_castles_in_reverse_order_apart_where_possible() -> None:
    table = setup_table(3)
    for _ in range(3):
        seat = next(iter(table.awaiting()))
        table.send(seat, table.legal(seat)[0])
    order = table.state.order
    assert list(table.awaiting()) == [order[2]]
    table.send(order[2], PlaceCastle(tile=1))
    assert list(table.awaiting()) == [order[1]]
    near = [t for t in neighbours(CAT, table.state, 1)]
    refused(table.state, order[1], PlaceCastle(tile=near[0]), "KAL-SETUP-5")
    refused(table.state, order[1], PlaceCastle(tile=1), "KAL-SETUP-5")
    assert all(c.tile not in (1, *near) for c in table.legal(order[1]))  # type: ignore[attr-defined]


def test_KAL_SETUP_6_crown_general_sword_shield_start_on_the_castle() -> None:
    table = setup_table(2)
    choose_all(table)
    placed = [e for e in table.events if isinstance(e, CastlePlaced)]
    for castle in placed:
        kinds = sorted(u.split("/")[1] for u in castle.units)
        assert kinds == ["crown-1", "general-1", "shield-1", "sword-1"]
        assert len(table.state.reserve[castle.seat]) + 4 >= 13


def test_KAL_SETUP_7_every_realm_starts_with_2_gold() -> None:
    assert RULES.initial(MatchConfig(players=4)).gold == (2, 2, 2, 2)
    rich = RULES.initial(MatchConfig(players=2, options=Options(starting_gold=5)))
    assert rich.gold == (5, 5)


# -- the world ----------------------------------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 4, 5, 6])
def test_KAL_WORLD_1_hex_tiles_adjacent_when_they_share_an_edge(players: int) -> None:
    adjacency = CAT.adjacency[players]
    for tile, near in enumerate(adjacency):
        assert all(tile in adjacency[n] for n in near) and 2 <= len(near) <= 6
    assert len(adjacency[0]) == 6  # the centre
    state = make(units=CROWNS)
    refused(state, 0, MoveUnit(origin=4, to=99, kind="crown"), "KAL-WORLD-1")


def test_KAL_WORLD_2_tiles_drawn_in_turn_from_the_first_player() -> None:
    table = setup_table(3, seed=11)
    placed = [e for e in table.events if isinstance(e, TilePlaced)]
    order = table.state.order
    assert [e.seat for e in placed] == [order[i % 3] for i in range(7)]
    assert tuple(e.terrain for e in placed) == table.state.terrain


# -- units --------------------------------------------------------------------------------------------


def test_KAL_UNIT_1_sword() -> None:
    assert dice("sword") == (8,) and dice("sword", "defence") == (8,)
    assert CAT.units["sword"].cost == 1 and CAT.units["sword"].cls == "basic"


def test_KAL_UNIT_2_archer() -> None:
    assert dice("archer") == (10,) and dice("archer", "defence") == (6,)
    assert CAT.units["archer"].cost == 1


def test_KAL_UNIT_3_shield() -> None:
    assert dice("shield") == (6,) and dice("shield", "defence") == (10,)
    assert CAT.units["shield"].cost == 1


def test_KAL_UNIT_4_catapult_rolls_two_dice() -> None:
    assert dice("catapult") == (10, 10) and dice("catapult", "defence") == (6,)
    assert CAT.units["catapult"].cost == 2


def test_KAL_UNIT_5_a_general_never_comes_back() -> None:
    assert dice("general") == (12,) and dice("general", "defence") == (12,)
    assert CAT.units["general"].cost == 2 and not CAT.units["general"].returns
    graves = (("verdance/general-1",), ())
    events, after = into_turn_of_seat_1("raise-the-fallen#1", units=CROWNS, graveyard=graves)
    assert next(e.cause for e in of(events, GoldGained)) == "event"  # nothing to raise: gold
    assert after.graveyard[0] == ("verdance/general-1",)


def test_KAL_UNIT_6_the_crown_rolls_a_d8_defending_its_own_castle() -> None:
    assert dice("crown", "defence") == (6,)
    assert dice("crown", "defence", own_castle=True) == (8,)
    assert dice("crown", "attack", own_castle=True) == (6,)
    both = SidePlan("attack", ("u",), ("crown",), "field", "field", own_castle=True)
    assert unit_dice(CAT, Options(crown_castle_die="both"), both, "u", "crown") == (8,)
    assert Recruit(kind="crown") not in RULES.legal(make(units=CROWNS, phase="purchase"), 0)


def test_KAL_UNIT_7_seventeen_pieces_per_realm() -> None:
    army = CAT.army("khalisia")
    kinds = [
        u.split("/")[1].rsplit("-", 1)[0] if u[-1].isdigit() else u.split("/")[1] for u in army
    ]
    assert len(army) == 17
    assert {k: kinds.count(k) for k in set(kinds)} == {
        "crown": 1, "general": 1, "catapult": 2, "archer": 4, "shield": 4, "sword": 4,
        "iron-warden": 1,
    }  # fmt: skip


def test_KAL_UNIT_8_an_upgraded_unit_rolls_one_size_up() -> None:
    plan = SidePlan("defence", ("a", "b", "c"), ("archer", "shield", "general"), "field", "field",
                    upgraded=("a", "b", "c"))  # fmt: skip
    assert [s for s, _ in pool(CAT, Options(), plan)] == [8, 12, 12]
    state = make(units={1: (0, ["crown", "general", "sword"]), 6: (1, ["crown"])},
                 phase="event", queue=(0,), event="training#1")  # fmt: skip
    assert RULES.legal(state, 0) == [UpgradeUnit(tile=1, kind="sword"), TakeGold()]


# -- terrains -------------------------------------------------------------------------------------------


def test_KAL_TERRAIN_1_field_holds_4_or_5_with_a_castle() -> None:
    state = make(terrain=["field"] * 7, castles={2: 0}, units=CROWNS)
    assert capacity(CAT, state, 1) == 4 and capacity(CAT, state, 2) == 5


def test_KAL_TERRAIN_2_forest_holds_4_or_5_with_a_castle_and_gives_attackers_a_d10() -> None:
    state = make(terrain=["forest"] * 7, castles={2: 0}, units=CROWNS)
    assert capacity(CAT, state, 1) == 4 and capacity(CAT, state, 2) == 5
    attack = SidePlan("attack", ("u",), ("sword",), "forest", "field")
    defend = SidePlan("defence", ("u",), ("sword",), "forest", "field")
    assert (
        pool(CAT, Options(), attack)[-1] == (10, "forest")
        and len(pool(CAT, Options(), defend)) == 1
    )


def test_KAL_TERRAIN_3_mountain_holds_3_and_gives_defenders_a_d10() -> None:
    defend = SidePlan("defence", ("u",), ("sword",), "mountain", "field")
    attack = SidePlan("attack", ("u",), ("sword",), "mountain", "field")
    assert (
        pool(CAT, Options(), defend)[-1] == (10, "mountain")
        and len(pool(CAT, Options(), attack)) == 1
    )


def test_KAL_TERRAIN_4_the_army_defending_any_castle_rolls_a_castle_die() -> None:
    own = SidePlan("defence", ("u",), ("sword",), "field", "field", own_castle=True)
    taken = SidePlan("defence", ("u",), ("sword",), "field", "field", castle=True)
    plain = SidePlan("defence", ("u",), ("sword",), "field", "field")
    attacking = SidePlan("attack", ("u",), ("sword",), "field", "field", own_castle=True)
    assert pool(CAT, Options(), own) == [(8, "u"), (8, "castle")]
    assert pool(CAT, Options(), taken) == [(8, "u"), (8, "castle")]  # whoever holds it
    assert pool(CAT, Options(), plain) == [(8, "u")]
    assert pool(CAT, Options(), attacking) == [(8, "u")]  # a defence bonus only
    assert pool(CAT, Options(castle_defence_die=10), taken) == [(8, "u"), (10, "castle")]
    # with the Crown's D8 in its own Castle: both castle bonuses count
    crown = SidePlan("defence", ("c",), ("crown",), "field", "field", own_castle=True)
    assert pool(CAT, Options(), crown) == [(8, "c"), (8, "castle")]


def test_KAL_TERRAIN_4_options_give_the_die_to_owners_only_or_no_die() -> None:
    owner = Options(castle_die_defender="owner")
    own = SidePlan("defence", ("u",), ("sword",), "field", "field", own_castle=True)
    taken = SidePlan("defence", ("u",), ("sword",), "field", "field", castle=True)
    assert pool(CAT, owner, own) == [(8, "u"), (8, "castle")]
    assert pool(CAT, owner, taken) == [(8, "u")]
    assert pool(CAT, Options(castle_defence_die=0), own) == [(8, "u")]
    assert pool(CAT, Options(castle_defence_die=0), taken) == [(8, "u")]


# -- realms ----------------------------------------------------------------------------------------------


def test_KAL_REALM_1_six_realms_each_with_a_special_and_four_cards() -> None:
    assert len(CAT.realms) == 6 and CAT.realms["khalisia"].title.startswith("The Iron Throne")
    assert all(len(r.cards) == 4 for r in CAT.realms.values())
    assert len({r.special.key for r in CAT.realms.values()}) == 6
    table = setup_table(6)
    choose_all(table)
    assert sorted(table.state.realms) == sorted(CAT.realms)


def test_KAL_REALM_2_special_units_roll_a_d12_when_their_condition_holds() -> None:
    assert dice("zhoji", terrain="forest") == (12,) and dice("zhoji", "defence", "forest") == (12,)
    assert dice("zhoji") == (10,)
    strict = SidePlan("defence", ("u",), ("zhoji",), "forest", "field")
    assert unit_dice(CAT, Options(zhoji="attack-from-forest"), strict, "u", "zhoji") == (10,)
    assert dice("ardan", "defence", "mountain") == (12,) and dice(
        "ardan", "attack", "mountain"
    ) == (10,)
    assert dice("iron-warden", "defence", own_castle=True) == (12,)
    assert dice("dune-lancer") == (12,)  # attacking onto a Field
    assert dice("tide-caller", "defence") == (12,) and dice("tide-caller") == (10,)


# -- the turn ---------------------------------------------------------------------------------------------


def played(players: int = 2, seed: int = 3, commands: int = 400) -> Table:
    from gamehall.core import RandomBot

    table = Table.new("kaladan", players, seed=seed)
    table.play(RandomBot(seed), max_commands=commands)
    return table


def test_KAL_TURN_1_six_phases_always_in_order() -> None:
    table = played(3, seed=2)
    order = ["event", "income", "spawn", "action", "purchase", "reinforce"]
    turns: list[list[str]] = []
    for event in table.events:
        if isinstance(event, TurnBegan):
            turns.append(["event"])
        elif isinstance(event, PhaseBegan) and event.seat != NOBODY:
            turns[-1].append(event.phase)
    assert len(turns) >= 3
    for phases in turns:
        assert phases == sorted(set(phases), key=order.index)
    assert sum(phases == order for phases in turns) >= 1
    first = next(e for e in table.events if isinstance(e, TurnBegan))
    assert first.seat == table.state.order[0]


def test_KAL_TURN_2_each_phase_takes_only_its_own_commands() -> None:
    state = make(units={1: (0, ["sword"]), **CROWNS}, phase="purchase")
    refused(state, 0, MoveUnit(origin=1, to=2, kind="sword"), "KAL-TURN-2")
    refused(make(units=CROWNS, phase="spawn"), 0, EndActions(), "KAL-TURN-2")
    refused(make(units=CROWNS), 0, EndPurchase(), "KAL-TURN-2")


def test_KAL_TURN_3_a_round_is_a_turn_of_everyone_still_in() -> None:
    state = make(3, units={4: (0, ["crown"]), 5: (1, ["crown"]), 6: (2, ["crown"])},
                 phase="purchase", turn=2, alive=(True, False, True))  # fmt: skip
    events, after = send(state, 2, EndPurchase())
    began = of(events, TurnBegan)[0]
    assert began.seat == 0 and began.round == 2
    state = msgspec.structs.replace(after, phase="purchase", battle=None, queue=())
    _, later = send(state, 0, EndPurchase())
    assert later.turn == 2 and later.round == 2  # seat 1 is out: skipped


def test_KAL_TURN_4_control_is_the_army_on_a_tile_or_an_empty_own_castle() -> None:
    state = make(units={1: (0, ["sword"]), **CROWNS}, castles={3: 0, 2: 1})
    assert state.controls(0, 1) and state.controls(0, 3) and not state.controls(0, 2)
    assert state.controls(1, 2) and not state.controls(0, 0)


# -- event phase --------------------------------------------------------------------------------------------


def into_turn_of_seat_1(card: str, **kw: object) -> tuple[list[object], object]:
    """End seat 0's turn so that seat 1 draws ``card``."""
    deck = (card, *(c for c in CAT.deck() if c != card))
    state = make(phase="purchase", deck=deck, **kw)  # type: ignore[arg-type]
    return send(state, 0, EndPurchase())  # type: ignore[return-value]


def test_KAL_EVENT_1_draw_the_top_card_and_resolve_it_before_income() -> None:
    events, after = into_turn_of_seat_1("courageous-swords#1", units=CROWNS)
    drawn = of(events, EventDrawn)[0]
    assert drawn.card == "courageous-swords#1" and drawn.seats == (1, 0)
    assert after.phase == "event" and list(RULES.awaiting(after)) == [1]
    assert not [e for e in events if isinstance(e, PhaseBegan) and e.phase == "income"]
    empty = make(units=CROWNS, phase="purchase", deck=(), discard=tuple(CAT.deck()))
    events, after = send(empty, 0, EndPurchase())
    assert "EventDeckShuffled" in names(events) and len(after.deck) == 19


def test_KAL_EVENT_2_add_a_unit_from_the_reserve_or_take_gold() -> None:
    _, after = into_turn_of_seat_1("shields-suns#1", units={1: (1, ["sword"]), **CROWNS})
    legal = RULES.legal(after, 1)
    assert AddEventUnit(tile=1) in legal and TakeGold() in legal
    refused(after, 1, AddEventUnit(tile=2), "KAL-EVENT-2")
    _, done = send(after, 1, AddEventUnit(tile=1))
    assert unit(done, 1, "shield")
    full = {1: (1, ["sword"] * 4), 6: (1, ["crown", "shield", "shield", "archer"])}
    events, after = into_turn_of_seat_1("shields-suns#1", units={**full, 4: (0, ["crown"])},
                                        terrain=["field"] * 6 + ["forest"])  # fmt: skip
    assert of(events, GoldGained)[0].cause == "event" and after.phase != "event"


def test_KAL_EVENT_3_war_chest_pays_only_catapults_on_the_board() -> None:
    events, _ = into_turn_of_seat_1("war-chest#1", units={1: (1, ["catapult"]), **CROWNS})
    paid = [e.seat for e in of(events, GoldGained) if e.cause == "event"]
    assert paid == [1]  # seat 0's catapults are in its reserve only


def test_KAL_EVENT_4_training_upgrades_a_deployed_unit_for_free() -> None:
    _, after = into_turn_of_seat_1("training#1", units={1: (1, ["archer"]), **CROWNS})
    assert RULES.legal(after, 1) == [UpgradeUnit(tile=1, kind="archer"), TakeGold()]
    _, done = send(after, 1, UpgradeUnit(tile=1, kind="archer"))
    assert unit(done, 1, "archer") in done.upgraded and done.gold[1] == after.gold[1] + 2  # income


def test_KAL_EVENT_5_raise_the_fallen_from_a_chosen_graveyard() -> None:
    graves = (("verdance/sword-4",), ("khalisia/sword-4",))
    _, after = into_turn_of_seat_1("raise-the-fallen#1", units=CROWNS, graveyard=graves)
    assert RULES.legal(after, 1) == [RaiseUnit(graveyard=0, kind="sword"), TakeGold()]
    _, done = send(after, 1, RaiseUnit(graveyard=0, kind="sword"))
    assert "verdance/sword-4" in done.reserve[1] and done.graveyard[0] == ()


def test_KAL_EVENT_6_royal_tribute_gives_2_gold() -> None:
    events, _ = into_turn_of_seat_1("royal-tribute#1", units=CROWNS)
    assert [(e.seat, e.gold) for e in of(events, GoldGained) if e.cause == "event"] == [(1, 2)]


def test_KAL_INCOME_1_one_gold_per_tile_and_per_castle() -> None:
    events, _ = into_turn_of_seat_1("royal-tribute#1", units={1: (1, ["sword"]), 2: (1, ["sword"]), **CROWNS},
                                    castles={6: 1, 3: 1})  # fmt: skip
    income = [e.gold for e in of(events, GoldGained) if e.cause == "income"]
    assert income == [4 + 2]  # tiles 1, 2, 6 and the empty castle 3; two castles


def test_KAL_SPAWN_1_a_free_basic_unit_onto_an_own_castle() -> None:
    state = make(units=CROWNS, castles={6: 1, 4: 0}, phase="spawn", turn=1)
    legal = RULES.legal(state, 1)
    assert Spawn(kind="sword", tile=6) in legal and SkipSpawn() in legal
    assert not [c for c in legal if isinstance(c, Spawn) and c.kind == "catapult"]
    refused(state, 1, Spawn(kind="general", tile=6), "KAL-SPAWN-1")
    _, after = send(state, 1, Spawn(kind="archer", tile=6))
    assert unit(after, 6, "archer") and after.phase == "action"


# -- action, purchase, reinforcement ---------------------------------------------------------------------------


def test_KAL_MOVE_1_each_unit_moves_once_one_tile() -> None:
    state = make(units={1: (0, ["sword", "sword"]), **CROWNS})
    _, after = send(state, 0, MoveUnit(origin=1, to=2, kind="sword"))
    _, after = send(after, 0, MoveUnit(origin=1, to=2, kind="sword"))
    refused(after, 0, MoveUnit(origin=2, to=3, kind="sword"), "KAL-MOVE-1")
    refused(state, 0, MoveUnit(origin=1, to=3, kind="sword"), "KAL-MOVE-1")
    assert not [c for c in RULES.legal(after, 0) if isinstance(c, MoveUnit) and c.origin == 2]


def test_KAL_MOVE_2_no_tile_holds_more_than_its_capacity() -> None:
    units = {1: (0, ["sword"]), 2: (0, ["sword"] * 3 + ["shield"]), **CROWNS}
    state = make(terrain=["forest"] * 7, units=units)
    error = refused(state, 0, MoveUnit(origin=1, to=2, kind="sword"), "KAL-MOVE-2")
    assert "holds 4 units at most" in str(error)


def test_KAL_MOVE_2_a_fourth_unit_moves_onto_a_plain_forest_but_not_under_the_compendium() -> None:
    units = {1: (0, ["sword"]), 2: (0, ["sword"] * 3), **CROWNS}
    state = make(terrain=["forest"] * 7, units=units)
    _, after = send(state, 0, MoveUnit(origin=1, to=2, kind="sword"))
    assert len(after.board[2]) == 4
    compendium = make(terrain=["forest"] * 7, units=units,
                      options=Options(terrain_capacity="compendium"))  # fmt: skip
    error = refused(compendium, 0, MoveUnit(origin=1, to=2, kind="sword"), "KAL-MOVE-2")
    assert "holds 3 units at most" in str(error)


def test_KAL_BUY_1_pay_the_unit_table_costs_then_wait_for_reinforcement() -> None:
    state = make(units=CROWNS, phase="purchase", gold=[3, 0])
    _, after = send(state, 0, Recruit(kind="catapult"))
    assert after.gold[0] == 1 and "khalisia/catapult-1" in after.ready[0]
    _, after = send(after, 0, Recruit(kind="sword"))
    refused(after, 0, Recruit(kind="archer"), "KAL-BUY-1")


def test_KAL_REINFORCE_1_paid_units_go_onto_controlled_tiles_with_room() -> None:
    state = make(units=CROWNS, phase="purchase", gold=[2, 0])
    _, after = send(state, 0, Recruit(kind="sword"))
    _, after = send(after, 0, EndPurchase())
    assert after.phase == "reinforce" and RULES.legal(after, 0) == [Deploy(kind="sword", tile=4)]
    refused(after, 0, Deploy(kind="sword", tile=1), "KAL-REINFORCE-1")
    events, done = send(after, 0, Deploy(kind="sword", tile=4))
    assert unit(done, 4, "sword") and of(events, TurnBegan)[0].seat == 1


# -- the end ----------------------------------------------------------------------------------------------------


def test_KAL_END_1_the_last_crown_standing_wins() -> None:
    state = make(units={1: (0, ["general"]), 2: (1, ["crown"]), 4: (0, ["crown"])})
    events, after = send(state, 0, Attack(origin=1, target=2), rolls=[12, 1])
    ended = of(events, MatchEnded)[0]
    assert (
        ended.winners == (0,)
        and after.over
        and RULES.outcome(after).reason == "the last Crown standing"
    )
    assert RULES.awaiting(after) == {}


def test_KAL_END_2_the_last_two_crowns_falling_together_is_a_draw() -> None:
    state = make(units={1: (0, ["crown"]), 2: (1, ["crown"])})
    events, after = send(state, 0, Attack(origin=1, target=2), rolls=[6, 6])
    assert not after.over
    events, after = send(state, 0, Attack(origin=1, target=2), rolls=[2, 5])
    assert of(events, MatchEnded)[0].winners == (1,)  # the attacker's Crown fell
    both = make(units={1: (0, ["crown", "sword"]), 2: (1, ["crown", "shield"])})
    events, after = send(both, 0, Attack(origin=1, target=2), rolls=[6, 1, 5, 2])
    assert after.battle is not None  # each side chooses one loss
    from gamehall.plugins.kaladan.commands import ChooseLosses

    _, after = send(after, 0, ChooseLosses(units=(unit(both, 1, "crown"),)))
    events, after = send(after, 1, ChooseLosses(units=(unit(both, 2, "crown"),)))
    assert of(events, MatchEnded)[0].winners == () and RULES.outcome(after).winners == ()


def test_KAL_END_3_round_limit_most_tiles_then_units_then_gold() -> None:
    state = make(units={1: (0, ["sword"]), 2: (0, ["sword"]), 4: (0, ["crown"]), 6: (1, ["crown"])},
                 phase="purchase", turn=1, round=3, options=Options(round_limit=3))  # fmt: skip
    events, after = send(state, 1, EndPurchase())
    ended = of(events, MatchEnded)[0]
    assert ended.winners == (0,) and ended.scores == (3, 1)
    outcome = RULES.outcome(after)
    assert [line.category for line in outcome.breakdown] == [
        "tiles held",
        "units on the board",
        "gold",
    ]
    tie = make(units={1: (0, ["sword"]), 2: (1, ["sword"]), 4: (0, ["crown"]), 6: (1, ["crown"])},
               phase="purchase", turn=1, round=3, options=Options(round_limit=3))  # fmt: skip
    events, _ = send(tie, 1, EndPurchase())
    assert of(events, MatchEnded)[0].winners == (0, 1)


def test_KAL_TERRAIN_2_the_board_in_words_and_the_drawing_show_the_matchs_capacity() -> None:
    import msgspec as ms
    from gamehall.plugins.kaladan import draw
    from gamehall.plugins.kaladan.render import render

    units = {1: (0, ["sword"] * 3), **CROWNS}
    for options, cap in ((Options(), 4), (Options(terrain_capacity="compendium"), 3)):
        state = make(terrain=["forest"] * 7, units=units, options=options)
        view = RULES.view(state, 0)
        assert f"tile  1 Forest   3/{cap}" in render(view)
        drawing = ms.json.encode(draw.draw(view, 0, [])).decode()
        assert f'"text":"3/{cap}"' in drawing and f"3 of the {cap} units it holds" in drawing
