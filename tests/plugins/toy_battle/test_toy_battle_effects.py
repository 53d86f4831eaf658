"""Scenario tests for troop effects, special bases on every terrain, and hidden information."""

from __future__ import annotations

import msgspec
from gamehall.core import Table
from gamehall.plugins.toy_battle.commands import (
    DRAW,
    SKIP,
    USE,
    ChooseTarget,
    MoveTroop,
    PlaceTroop,
)
from gamehall.plugins.toy_battle.events import (
    EffectFinished,
    SupplyShuffled,
    TroopDiscarded,
    TroopsDrawn,
    TroopTurnedDown,
)
from toy_battle_helpers import RULES, B, R, awaited, kinds, make, refused, send


def place(troop: str, spot: int) -> PlaceTroop:
    return PlaceTroop(troop=troop, spot=spot)


def target(troop: str) -> ChooseTarget:
    return ChooseTarget(troop=troop)


def strings(obj: object) -> str:
    return msgspec.json.encode(obj).decode()


# -- troop effects ----------------------------------------------------------------------------


def test_TB_SKULLY_1_draws_two_or_one() -> None:
    _, after = send(make(racks=((B("skully"),), ())), place(B("skully"), 11))
    assert awaited(after) == "effect:skully" and RULES.legal(after, 0) == [USE, SKIP]
    events, after = send(after, USE)
    assert events[1].count == 2 and len(after.racks[0]) == 2
    rack = (
        (B("skully"),)
        + tuple(B(k, n) for k in ("roxy", "star", "hook") for n in (1, 2))
        + (B("kwak"),)
    )
    _, after = send(make(racks=(rack, ())), place(B("skully"), 11))
    events, after = send(after, USE)
    assert events[1].count == 1 and len(after.racks[0]) == 8


def test_TB_CAPN_1_extra_placement_with_its_effect() -> None:
    _, after = send(make(racks=((B("capn"), B("star")), ())), place(B("capn"), 11))
    assert awaited(after) == "effect:capn"
    legal = RULES.legal(after, 0)
    assert set(legal) == {place(B("star"), s) for s in (11, 12, 13)} | {SKIP}
    refused(after, place(B("star"), 17), "TB-CONNECT-1")
    events, after = send(after, place(B("star"), 13))
    assert kinds(events) == ["EffectFinished", "TroopPlaced"] and awaited(after) == "effect:star"


def test_TB_CAPN_2_troop_effects_before_base_effects() -> None:
    own = {11: [B("roxy")], 13: [B("roxy", 2)], 17: [B("roxy", 3)]}
    _, after = send(make(stacks=own, racks=((B("capn"), B("skully")), ())), place(B("capn"), 15))
    assert [(p.effect, p.spot) for p in after.queue] == [("capn", 15), ("castle", 15)]
    _, after = send(after, place(B("skully"), 20))
    assert [(p.effect, p.spot) for p in after.queue] == [
        ("skully", 20),
        ("castle", 15),
        ("castle", 20),
    ]


def test_TB_JUMBO_1_discards_adjacent_visible_enemy() -> None:
    stacks = {
        11: [B("star")],
        17: [R("roxy")],
        18: [R("hook"), B("kwak")],
        22: [R("skully")],
        15: [R("capn"), B("kwak", 2)],
    }
    _, after = send(make(stacks=stacks, racks=((B("jumbo"),), (R("star"),))), place(B("jumbo"), 13))
    assert RULES.legal(after, 0) == [target(R("roxy")), SKIP]
    refused(after, target(R("skully")), "TB-JUMBO-1")
    refused(after, target(B("kwak")), "TB-JUMBO-1")
    refused(after, target(R("capn")), "TB-EFFECT-2")
    refused(after, target(R("star")), "TB-EFFECT-2")
    events, after = send(after, target(R("roxy")))
    assert TroopDiscarded(seat=1, troop=R("roxy"), spot=17) in events
    assert 17 not in after.stacks and after.discard == (R("roxy"),)


def test_TB_XB42_1_discards_random_troop_from_opponent_rack() -> None:
    red = (R("roxy"), R("star"), R("hook"), R("kwak"))
    _, after = send(make(racks=((B("xb42"),), red)), place(B("xb42"), 11))
    picks = set()
    for seed in range(12):
        events, done = send(after, USE, seed=seed)
        assert events == send(after, USE, seed=seed)[0]
        troop = events[1].troop
        picks.add(troop)
        assert troop in red and troop not in done.racks[1] and done.discard == (troop,)
    assert len(picks) > 1
    _, lonely = send(make(racks=((B("xb42"),), ())), place(B("xb42"), 11))
    assert lonely.turn == 1


def test_TB_STAR_1_draws_one() -> None:
    _, after = send(make(racks=((B("star"),), ())), place(B("star"), 11))
    events, after = send(after, USE)
    assert events[1] == TroopsDrawn(seat=0, count=1, cause="star", troops=after.racks[0])


def test_TB_ROXY_1_no_effect_strongest() -> None:
    events, after = send(make(racks=((B("roxy"),), (R("star"), R("kwak")))), place(B("roxy"), 11))
    assert kinds(events) == ["TroopPlaced", "TurnEnded"]
    state = make(stacks={24: [B("roxy")]}, racks=((), (R("star"), R("kwak"))), turn=1)
    refused(state, place(R("star"), 24), "TB-PLACE-3")
    _, after = send(state, place(R("kwak"), 24))
    assert after.stacks[24] == (B("roxy"), R("kwak"))


# -- effects in general -----------------------------------------------------------------------


def test_TB_EFFECT_1_optional_effect_can_be_skipped() -> None:
    _, after = send(make(racks=((B("star"),), ())), place(B("star"), 11))
    refused(after, DRAW, "TB-EFFECT-1")
    refused(after, target(B("star")), "TB-EFFECT-1")
    events, done = send(after, SKIP)
    assert events[0] == EffectFinished(seat=0, effect="star", outcome="skipped")
    assert done.racks[0] == () and done.turn == 1


def test_TB_EFFECT_2_only_visible_troops_are_targets() -> None:
    stacks = {11: [B("star")], 13: [B("hook"), B("star", 2)]}
    _, after = send(make(stacks=stacks, racks=((B("roxy"), B("kwak")), ())), place(B("roxy"), 15))
    assert set(RULES.legal(after, 0)) == {target(B("star")), target(B("star", 2)), SKIP}
    refused(after, target(B("hook")), "TB-EFFECT-2")
    refused(after, target(B("kwak")), "TB-EFFECT-2")
    refused(after, target(after.supply[0][0]), "TB-EFFECT-2")
    refused(after, target("green-elf-1"), "TB-CASTLE-1")


def test_TB_EFFECT_3_no_effect_takes_rack_past_eight() -> None:
    rack = (
        (B("star"),)
        + tuple(B(k, n) for k in ("roxy", "skully", "hook") for n in (1, 2))
        + (B("kwak"),)
    )
    own = {11: [B("roxy", 3)], 13: [B("hook", 3)]}
    _, after = send(make(stacks=own, racks=(rack, ())), place(B("star"), 15))
    events, done = send(after, USE)
    assert len(done.racks[0]) == 8
    assert events[-2:] == [
        EffectFinished(seat=0, effect="castle", outcome="impossible"),
        events[-1],
    ]
    assert done.turn == 1


def test_TB_EFFECT_4_unusable_effect_lapses_by_itself() -> None:
    events, after = send(make(racks=((B("jumbo"),), ())), place(B("jumbo"), 11))
    assert kinds(events) == ["TroopPlaced", "EffectFinished", "TurnEnded"]
    assert events[1].outcome == "impossible" and after.turn == 1


# -- terrains ---------------------------------------------------------------------------------


def test_TB_TERRAIN_1_beginner_option_plain_special_bases() -> None:
    own = {11: [B("roxy")], 13: [B("roxy", 2)]}
    events, _ = send(
        make(stacks=own, racks=((B("kwak"),), ()), special_bases=False), place(B("kwak"), 15)
    )
    assert events[0].base_effect == "" and kinds(events) == ["TroopPlaced", "TurnEnded"]
    _, after = send(
        make("pool", stacks={11: [B("star")]}, racks=((B("roxy"),), ()), special_bases=False),
        place(B("roxy"), 12),
    )
    assert after.stacks[12] == (B("roxy"),)
    events, _ = send(
        make(
            "metal-x",
            stacks={12: [B("roxy")], 15: [B("roxy", 2)]},
            racks=((B("star"),), ()),
            special_bases=False,
        ),
        place(B("star"), 16),
    )
    assert events[0].troop_effect == "star"


def test_TB_CASTLE_1_returns_other_own_visible_troop() -> None:
    own = {11: [B("star")], 13: [B("star", 2)], 17: [B("star", 3)]}
    _, after = send(make(stacks=own, racks=((B("roxy"),), ())), place(B("roxy"), 15))
    assert target(B("roxy")) not in RULES.legal(after, 0)
    refused(after, target(B("roxy")), "TB-CASTLE-1")
    _, done = send(after, target(B("star", 3)))
    assert 17 not in done.stacks and done.racks[0] == (B("star", 3),)
    assert RULES.view(done, 1).players[0].known == (B("star", 3),)
    assert B("star", 3) not in RULES.hidden(done, 1)


def test_TB_CEMETERY_1_takes_own_troop_from_discard() -> None:
    state = make(
        "cemetery",
        stacks={13: [B("star")]},
        racks=((B("roxy"),), ()),
        discard=(R("star"), B("star", 2)),
    )
    _, after = send(state, place(B("roxy"), 12))
    assert RULES.legal(after, 0) == [target(B("star", 2)), SKIP]
    refused(after, target(R("star")), "TB-CEMETERY-1")
    _, done = send(after, target(B("star", 2)))
    assert done.racks[0] == (B("star", 2),) and done.discard == (R("star"),)


def test_TB_CLOUDS_1_draws_one() -> None:
    state = make("clouds", stacks={11: [B("star")]}, racks=((B("roxy"),), ()))
    _, after = send(state, place(B("roxy"), 13))
    events, done = send(after, USE)
    assert events[1].cause == "clouds" and len(done.racks[0]) == 1


def test_TB_JUNGLE_1_moves_adjacent_enemy_ignoring_rules() -> None:
    stacks = {11: [B("star")], 12: [B("star", 2)], 18: [R("skully")], 21: [B("roxy")]}
    _, after = send(
        make("jungle", stacks=stacks, racks=((B("roxy", 2),), ())), place(B("roxy", 2), 15)
    )
    assert set(RULES.legal(after, 0)) == {
        MoveTroop(troop=R("skully"), to=to) for to in (15, 17, 21)
    } | {SKIP}
    refused(after, MoveTroop(troop=R("skully"), to=13), "TB-JUNGLE-1")
    refused(after, MoveTroop(troop=B("star"), to=13), "TB-JUNGLE-1")
    _, done = send(after, MoveTroop(troop=R("skully"), to=21))
    assert done.stacks[21] == (B("roxy"), R("skully")) and 18 not in done.stacks


def test_TB_BATTLEFIELD_1_blind_pick_face_down() -> None:
    red = tuple(R(k, n) for k in ("roxy", "star", "hook", "skully") for n in (1, 2))
    own = {11: [B("star")], 13: [B("star", 2)]}
    _, after = send(
        make("battlefield", stacks=own, racks=((B("roxy"),), red)), place(B("roxy"), 14)
    )
    events, done = send(after, USE, seed=4)
    down = events[1]
    assert isinstance(down, TroopTurnedDown) and down.seat == 1 and down.troop in red
    assert RULES.redact(down, 0).troop is None and RULES.redact(down, None).troop is None
    assert RULES.redact(down, 1) == down
    assert RULES.view(done, 0).players[1].face_down == 1
    assert down.troop not in strings(RULES.view(done, 0)) and down.troop in RULES.hidden(done, 0)


def test_TB_BATTLEFIELD_1_the_effect_is_an_order_not_a_choice() -> None:
    red = (R("roxy"), R("star"))
    own = {11: [B("star")], 13: [B("star", 2)]}
    _, after = send(
        make("battlefield", stacks=own, racks=((B("roxy"),), red)), place(B("roxy"), 14)
    )
    assert RULES.legal(after, 0) == [USE]  # no SkipEffect: "Wijs 1 troep ... aan"
    assert "or skip" not in RULES.awaiting(after)[0].prompt
    refused(after, SKIP, "TB-BATTLEFIELD-1")
    events, _ = send(after, USE, seed=1)
    assert isinstance(events[1], TroopTurnedDown) and events[1].troop in red
    # with nothing standing on the opponent's rack it lapses by itself (TB-EFFECT-4)
    events, done = send(
        make("battlefield", stacks=own, racks=((B("roxy"),), ())), place(B("roxy"), 14)
    )
    assert kinds(events)[-2:] == ["EffectFinished", "TurnEnded"] and not done.queue


def test_TB_BATTLEFIELD_2_face_down_not_placeable_returns_at_end_of_turn() -> None:
    red = tuple(R(k, n) for k in ("roxy", "star", "hook", "skully") for n in (1, 2))
    state = make("battlefield", racks=((), red), face_down=((), (R("roxy"),)), turn=1)
    refused(state, place(R("roxy"), 23), "TB-BATTLEFIELD-2")
    refused(state, DRAW, "TB-DRAW-2")  # the face-down troop still counts toward 8
    assert all(c.troop != R("roxy") for c in RULES.legal(state, 1))
    events, done = send(state, place(R("hook"), 23))
    assert kinds(events)[-1] == "TurnEnded" and done.face_down == ((), ())
    assert R("roxy") in done.racks[1]


def test_TB_CARIBBEAN_1_two_blue_headquarters_either_wins() -> None:
    view = RULES.view(make("caribbean"), None)
    assert view.players[0].headquarters == (1, 2) and view.players[1].headquarters == (41,)
    state = make(
        "caribbean",
        stacks={
            22: [R("star")],
            19: [R("star", 2)],
            16: [R("star", 3)],
            14: [R("hook")],
            11: [R("hook", 2)],
        },
        racks=((), (R("skully"),)),
        turn=1,
    )
    events, _ = send(state, place(R("skully"), 1))
    assert events[-1].reason == "headquarters" and events[-1].winner == 1


def test_TB_POOL_1_restricted_spots() -> None:
    state = make("pool", stacks={11: [B("star")]}, racks=((B("roxy"), B("skully")), ()))
    refused(state, place(B("roxy"), 12), "TB-POOL-1")
    _, after = send(state, place(B("skully"), 12))
    assert after.stacks[12] == (B("skully"),)
    chain = {11: [B("star")], 13: [B("star", 2)], 17: [B("roxy")], 21: [B("hook")]}
    state = make("pool", stacks=chain, racks=((B("jumbo"), B("roxy", 2)), ()))
    refused(state, place(B("jumbo"), 41), "TB-POOL-1")
    events, _ = send(state, place(B("roxy", 2), 41))
    assert events[-1].reason == "headquarters"


def test_TB_POOL_2_kwak_choice_and_option() -> None:
    stacks, racks = {11: [B("star")]}, ((B("kwak"),), ())
    refused(make("pool", stacks=stacks, racks=racks), place(B("kwak"), 12), "TB-POOL-2")
    _, after = send(
        make("pool", stacks=stacks, racks=racks, kwak_on_restricted=True), place(B("kwak"), 12)
    )
    assert after.stacks[12] == (B("kwak"),)


def test_TB_METALX_1_no_troop_effects_on_metal_x_bases() -> None:
    own = {12: [B("roxy")], 15: [B("roxy", 2)]}
    events, _ = send(make("metal-x", stacks=own, racks=((B("star"),), ())), place(B("star"), 16))
    assert events[0].troop_effect == "" and kinds(events) == ["TroopPlaced", "TurnEnded"]
    events, _ = send(
        make("metal-x", stacks=own, racks=((B("capn"), B("star")), ())), place(B("capn"), 18)
    )
    assert kinds(events) == ["TroopPlaced", "TurnEnded"]
    empty = make("metal-x", racks=((B("hook"),), ()))
    refused(empty, place(B("hook"), 17), "TB-METALX-1")
    _, after = send(empty, place(B("hook"), 19))
    assert after.stacks[19] == (B("hook"),)


# -- hidden information -----------------------------------------------------------------------


def test_TB_HIDDEN_1_supply_hidden_even_from_owner() -> None:
    table = Table.new("toy-battle", seed=9)
    shuffled = next(e for e in table.events if isinstance(e, SupplyShuffled) and e.seat == 0)
    assert RULES.redact(shuffled, 0).order is None and RULES.redact(shuffled, 0).size == 24
    text = strings(table.view(0))
    assert not any(t in text for t in table.state.supply[0] + table.state.supply[1])
    assert set(table.state.supply[0]) <= set(RULES.hidden(table.state, 0))
    assert table.view(0).players[0].supply == len(table.state.supply[0])


def test_TB_HIDDEN_2_rack_seen_by_owner_size_by_opponent() -> None:
    table = Table.new("toy-battle", seed=9)
    state = table.state
    assert table.view(0).players[0].rack == state.racks[0]
    assert table.view(1).players[0].rack is None
    assert table.view(1).players[0].rack_size == len(state.racks[0])
    assert not any(
        t in strings(table.view(1)) or t in strings(table.view(None)) for t in state.racks[0]
    )
    drawn = next(e for e in table.events if isinstance(e, TroopsDrawn) and e.seat == 0)
    assert RULES.redact(drawn, 1).troops is None and RULES.redact(drawn, 0) == drawn


def test_TB_HIDDEN_3_removed_hidden_from_everyone() -> None:
    table = Table.new("toy-battle", seed=9)
    removed = table.state.removed[0] + table.state.removed[1]
    for seat in (0, 1, None):
        assert not any(t in strings(table.view(seat)) for t in removed)
        assert set(removed) <= set(RULES.hidden(table.state, seat))


def test_TB_HIDDEN_4_face_down_troop_hidden_from_picker() -> None:
    state = make(
        "battlefield", racks=((), (R("roxy"), R("star"))), face_down=((), (R("roxy"),)), turn=1
    )
    assert (
        R("roxy") not in strings(RULES.view(state, 0))
        and RULES.view(state, 0).players[1].face_down == 1
    )
    assert RULES.view(state, 1).players[1].face_down_troops == (R("roxy"),)


def test_TB_HIDDEN_5_board_and_discard_public() -> None:
    state = make(stacks={11: [B("star"), R("roxy")]}, discard=(B("kwak"), R("hook")))
    views = [RULES.view(state, seat) for seat in (0, 1, None)]
    assert all(
        v.stacks == {11: (B("star"), R("roxy"))} and v.discard == (B("kwak"), R("hook"))
        for v in views
    )
