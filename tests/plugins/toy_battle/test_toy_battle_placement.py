"""Scenario tests for setup, turns, drawing, placement, regions and the end of a match."""

from __future__ import annotations

from collections import Counter

import pytest
from gamehall.core import InvalidOptions, NotAwaited, Table
from gamehall.plugins.toy_battle.commands import DRAW, SKIP, ChooseTarget, PlaceTroop, UseEffect
from gamehall.plugins.toy_battle.events import (
    ColoursChosen,
    MatchEnded,
    RegionTaken,
    StartPlayerChosen,
    SupplyShuffled,
    TroopsDrawn,
    TroopsRemoved,
)
from toy_battle_helpers import RULES, B, R, awaited, kinds, make, refused, send

# Castle Field: HQ 1 - 11/12; 11-13; 13-15,17,18; 17-20,22; 18-22,23; 22-24; 24,25-HQ 41.


def place(troop: str, spot: int) -> PlaceTroop:
    return PlaceTroop(troop=troop, spot=spot)


# -- setup ------------------------------------------------------------------------------------


def test_TB_SETUP_1_default_terrain_is_castle_field_and_unknown_refused() -> None:
    assert Table.new("toy-battle", seed=1).state.terrain == "castle"
    assert Table.new("toy-battle", options={"terrain": "Kasteelland"}).state.terrain == "castle"
    assert Table.new("toy-battle", options={"terrain": "slagveld"}).state.terrain == "battlefield"
    with pytest.raises(InvalidOptions, match="unknown terrain"):
        Table.new("toy-battle", options={"terrain": "moon"})


def test_TB_SETUP_1_every_name_of_a_terrain_in_any_case_and_unknown_lists_them() -> None:
    from gamehall.plugins.toy_battle.terrain import load_terrains

    for terrain in load_terrains():
        for name in {terrain.key, terrain.name, terrain.name_nl}:
            for given in (name, name.upper(), name.lower(), name.title()):
                table = Table.new("toy-battle", options={"terrain": given})
                assert table.state.terrain == terrain.key, given
    assert Table.new("toy-battle", options={"terrain": "Station Metal-X"}).state.terrain == (
        "metal-x"
    )
    with pytest.raises(InvalidOptions) as unknown:
        Table.new("toy-battle", options={"terrain": "moon"})
    for terrain in load_terrains():
        assert terrain.key in str(unknown.value) and terrain.name_nl in str(unknown.value)


def test_TB_SETUP_2_colours_and_headquarters() -> None:
    table = Table.new("toy-battle", seed=3)
    assert table.state.blue == 0
    players = table.view(0).players
    assert (players[0].colour, players[0].headquarters) == ("blue", (1,))
    assert (players[1].colour, players[1].headquarters) == ("red", (41,))
    assert Table.new("toy-battle", options={"colour": "red"}).state.blue == 1
    blues = {
        Table.new("toy-battle", options={"colour": "random"}, seed=s).state.blue for s in range(12)
    }
    assert blues == {0, 1}
    table = Table.new("toy-battle", options={"colour": "random"}, seed=5)
    assert [e.blue for e in table.events if isinstance(e, ColoursChosen)] == [table.state.blue]


def test_TB_SETUP_3_medals_on_every_region() -> None:
    view = Table.new("toy-battle", seed=1).view(None)
    assert [r.medals for r in view.regions] == [3, 1, 1, 2, 2, 1, 1, 3]
    assert view.medal_target == 7


def test_TB_SETUP_4_24_troops_three_of_each_kind() -> None:
    table = Table.new("toy-battle", seed=2)
    state = table.state
    for seat, colour in ((0, "blue"), (1, "red")):
        mine = state.supply[seat] + state.removed[seat] + state.racks[seat]
        assert len(mine) == len(set(mine)) == 24
        assert all(t.startswith(colour + "-") for t in mine)
        assert set(Counter(t.split("-")[1] for t in mine).values()) == {3}
        assert len(Counter(t.split("-")[1] for t in mine)) == 8
    shuffles = [e for e in table.events if isinstance(e, SupplyShuffled)]
    assert [len(e.order or ()) for e in shuffles] == [24, 24]


def test_TB_SETUP_5_four_removed_unseen() -> None:
    table = Table.new("toy-battle", seed=2)
    assert [len(r) for r in table.state.removed] == [4, 4]
    removed = [e for e in table.events if isinstance(e, TroopsRemoved)]
    for event in removed:
        for seat in (0, 1, None):
            assert RULES.redact(event, seat).troops is None
    assert set(table.state.removed[0]) <= set(RULES.hidden(table.state, 0))


def test_TB_SETUP_6_random_start_player_three_and_four() -> None:
    starts = set()
    for seed in range(10):
        table = Table.new("toy-battle", seed=seed)
        first = next(e.seat for e in table.events if isinstance(e, StartPlayerChosen))
        starts.add(first)
        assert table.state.turn == first
        assert len(table.state.racks[first]) == 3 and len(table.state.racks[1 - first]) == 4
        assert len(table.state.supply[first]) == 17 and len(table.state.supply[1 - first]) == 16
    assert starts == {0, 1}


# -- turns and drawing ------------------------------------------------------------------------


def test_TB_TURN_1_one_action_then_turn_passes() -> None:
    state = make(racks=((B("roxy"),), ()))
    refused(state, UseEffect(), "TB-TURN-1")
    refused(state, SKIP, "TB-TURN-1")
    with pytest.raises(NotAwaited):
        send(state, DRAW, seat=1)
    events, after = send(state, DRAW)
    assert kinds(events) == ["TroopsDrawn", "TurnEnded"]
    assert after.turn == 1 and RULES.legal(after, 0) == []


def test_TB_DRAW_1_draw_two_from_top_of_supply() -> None:
    state = make(racks=((B("roxy"),), ()))
    events, after = send(state, DRAW)
    assert events[0] == TroopsDrawn(seat=0, count=2, cause="draw", troops=state.supply[0][:2])
    assert after.racks[0] == (B("roxy"),) + state.supply[0][:2]
    assert after.supply[0] == state.supply[0][2:]


def test_TB_DRAW_2_full_rack_refused() -> None:
    rack = tuple(B(k, n) for k in ("roxy", "star", "hook", "kwak") for n in (1, 2))
    state = make(racks=(rack, ()))
    refused(state, DRAW, "TB-DRAW-2")


def test_TB_DRAW_3_one_troop_cases() -> None:
    rack = tuple(B(k, n) for k in ("roxy", "star", "hook") for n in (1, 2)) + (B("kwak"),)
    events, _ = send(make(racks=(rack, ())), DRAW)
    assert events[0].count == 1
    events, _ = send(make(racks=((B("roxy"),), ()), supply=((B("star"),), ())), DRAW)
    assert events[0].troops == (B("star"),)
    refused(make(racks=((B("roxy"),), ()), supply=((), (R("star"),))), DRAW, "TB-DRAW-3")


# -- placement --------------------------------------------------------------------------------


def test_TB_PLACE_1_troop_not_on_rack_refused() -> None:
    state = make(racks=((B("roxy"),), (R("star"),)))
    before = state
    refused(state, place(B("star"), 11), "TB-PLACE-1")
    refused(state, place(R("star"), 11), "TB-PLACE-1")
    refused(state, place(B("roxy"), 99), "TB-PLACE-1")
    assert state == before
    events, after = send(state, place(B("roxy"), 11))
    assert after.stacks[11] == (B("roxy"),) and after.racks[0] == ()


def test_TB_PLACE_2_empty_or_own_base() -> None:
    state = make(stacks={11: [B("star")]}, racks=((B("skully"), B("roxy")), ()))
    _, after = send(state, place(B("roxy"), 12))
    assert after.stacks[12] == (B("roxy"),)
    _, after = send(state, place(B("skully"), 11))
    assert after.stacks[11] == (B("star"), B("skully"))


def test_TB_PLACE_3_stronger_enemy_refused() -> None:
    state = make(stacks={11: [R("jumbo")]}, racks=((B("capn"), B("jumbo"), B("hook")), ()))
    refused(state, place(B("capn"), 11), "TB-PLACE-3")
    error = refused(state, place(B("jumbo"), 11), "TB-PLACE-3")
    assert "not weaker" in error.reason
    _, after = send(state, place(B("hook"), 11))
    assert after.stacks[11] == (R("jumbo"), B("hook"))


def test_TB_PLACE_4_own_headquarters_refused_enemy_headquarters_allowed() -> None:
    state = make(
        stacks={
            24: [B("star")],
            22: [B("star", 2)],
            18: [B("star", 3)],
            13: [B("roxy")],
            11: [B("roxy", 2)],
        },
        racks=((B("skully"),), ()),
    )
    refused(state, place(B("skully"), 1), "TB-PLACE-4")
    events, after = send(state, place(B("skully"), 41))
    assert events[-1] == MatchEnded(winner=0, reason="headquarters", medals=after.medals)


def test_TB_PLACE_5_stack_top_occupies() -> None:
    state = make(stacks={11: [B("roxy"), R("kwak")]}, racks=((B("skully"),), ()))
    refused(state, place(B("skully"), 13), "TB-CONNECT-1")
    _, after = send(state, place(B("skully"), 11))
    assert after.stacks[11] == (B("roxy"), R("kwak"), B("skully"))
    assert RULES.view(after, 1).stacks[11] == (B("roxy"), R("kwak"), B("skully"))


def test_TB_PLACE_6_troop_effect_before_base_effect() -> None:
    state = make(stacks={11: [B("roxy")], 13: [B("roxy", 2)]}, racks=((B("star"),), ()))
    events, after = send(state, place(B("star"), 15))
    assert (events[0].troop_effect, events[0].base_effect) == ("star", "castle")
    assert [p.effect for p in after.queue] == ["star", "castle"]
    assert awaited(after) == "effect:star"
    _, after = send(after, SKIP)
    assert awaited(after) == "effect:castle"


def test_TB_CONNECT_1_unconnected_base_refused() -> None:
    state = make(racks=((B("roxy"),), ()))
    error = refused(state, place(B("roxy"), 13), "TB-CONNECT-1")
    assert "not connected" in error.reason
    _, after = send(make(stacks={11: [B("star")]}, racks=((B("roxy"),), ())), place(B("roxy"), 13))
    assert after.stacks[13] == (B("roxy"),)
    legal = {(c.troop, c.spot) for c in RULES.legal(state, 0) if isinstance(c, PlaceTroop)}
    assert legal == {(B("roxy"), 11), (B("roxy"), 12)}


def test_TB_CONNECT_2_empty_or_enemy_base_breaks_chain() -> None:
    state = make(
        stacks={11: [B("star")], 13: [B("star", 2), R("roxy")], 17: [B("kwak")]},
        racks=((B("roxy"),), ()),
    )
    refused(state, place(B("roxy"), 20), "TB-CONNECT-1")
    refused(state, place(B("roxy"), 15), "TB-CONNECT-1")
    caribbean = make("caribbean", racks=((B("roxy"),), ()))
    _, after = send(caribbean, place(B("roxy"), 15))  # next to blue's second headquarters
    assert after.stacks[15] == (B("roxy"),)


def test_TB_KWAK_1_kwak_covers_any_enemy() -> None:
    state = make(stacks={11: [R("roxy")]}, racks=((B("kwak"),), ()))
    _, after = send(state, place(B("kwak"), 11))
    assert after.stacks[11] == (R("roxy"), B("kwak"))


def test_TB_KWAK_2_any_enemy_covers_kwak() -> None:
    state = make(stacks={11: [R("kwak")], 12: [R("kwak", 2)]}, racks=((B("skully"), B("kwak")), ()))
    _, after = send(state, place(B("skully"), 11))
    assert after.stacks[11][-1] == B("skully")
    _, after = send(state, place(B("kwak"), 12))
    assert after.stacks[12][-1] == B("kwak")


def test_TB_HOOK_1_ignores_connection_on_a_base() -> None:
    state = make(stacks={22: [R("capn")]}, racks=((B("hook"), B("roxy")), ()))
    _, after = send(state, place(B("hook"), 22))
    assert after.stacks[22] == (R("capn"), B("hook"))
    refused(state, place(B("roxy"), 22), "TB-CONNECT-1")
    refused(
        make(stacks={22: [R("xb42")]}, racks=((B("hook"),), ())), place(B("hook"), 22), "TB-PLACE-3"
    )


def test_TB_HOOK_2_needs_connection_for_enemy_headquarters() -> None:
    state = make(stacks={24: [B("hook", 2)]}, racks=((B("hook"),), ()))
    refused(state, place(B("hook"), 41), "TB-HOOK-2")


# -- regions ----------------------------------------------------------------------------------


def test_TB_REGION_1_all_bases_take_medals_at_once() -> None:
    state = make(
        stacks={11: [B("star")], 13: [B("star", 2)], 15: [B("star", 3)]}, racks=((B("roxy"),), ())
    )
    events, after = send(state, place(B("roxy"), 17))
    assert RegionTaken(seat=0, region=1, medals=1) in events
    assert after.medals == (1, 0)
    assert RULES.view(after, 1).regions[1].taken_by == 0


def test_TB_REGION_2_medals_kept_when_bases_lost() -> None:
    state = make(
        stacks={11: [B("star")], 13: [B("star", 2)], 15: [B("skully")], 17: [B("skully", 2)]},
        racks=((), (R("hook"),)),
        turn=1,
        medals=(1, 0),
        taken=[(1, 0)],
    )
    events, after = send(state, place(R("hook"), 15))
    assert after.stacks[15][-1] == R("hook") and after.medals == (1, 0)
    assert not [e for e in events if isinstance(e, RegionTaken)]


def test_TB_REGION_3_several_regions_in_one_placement() -> None:
    own = {
        11: [B("star")],
        13: [B("star", 2)],
        15: [B("star", 3)],
        18: [B("hook")],
        22: [B("hook", 2)],
    }
    events, after = send(make(stacks=own, racks=((B("roxy"),), ())), place(B("roxy"), 17))
    assert [(e.region, e.medals) for e in events if isinstance(e, RegionTaken)] == [(1, 1), (3, 2)]
    assert after.medals == (3, 0)


def test_TB_REGION_4_emptied_region_gives_nothing() -> None:
    state = make(
        stacks={11: [B("star")], 13: [B("star", 2)], 15: [B("star", 3)]},
        racks=((B("roxy"),), ()),
        medals=(0, 1),
        taken=[(1, 1)],
    )
    events, after = send(state, place(B("roxy"), 17))
    assert not [e for e in events if isinstance(e, RegionTaken)] and after.medals == (0, 1)


def test_TB_REGION_5_uncovering_can_give_region_to_either_player() -> None:
    state = make(
        stacks={
            11: [B("star")],
            13: [B("star", 2)],
            19: [R("hook"), B("kwak")],
            21: [R("star")],
            23: [R("star", 2)],
        },
        racks=((B("roxy"),), ()),
    )
    _, after = send(state, place(B("roxy"), 15))
    assert awaited(after) == "effect:castle"
    events, after = send(after, ChooseTarget(troop=B("kwak")))
    assert RegionTaken(seat=1, region=6, medals=1) in events and after.medals == (0, 1)


# -- the end ----------------------------------------------------------------------------------


def test_TB_END_1_troop_on_enemy_headquarters_wins() -> None:
    state = make(
        "caribbean",
        stacks={20: [R("star")], 21: [R("star", 2)], 12: [R("star", 3)], 15: [R("skully")]},
        racks=((), (R("skully", 2),)),
        turn=1,
    )
    events, after = send(state, place(R("skully", 2), 2))
    assert events[-1].reason == "headquarters" and events[-1].winner == 1
    assert RULES.awaiting(after) == {} and RULES.legal(after, 0) == RULES.legal(after, 1) == []
    assert RULES.outcome(after).winners == (1,)


def test_TB_END_2_medal_target_reached_wins() -> None:
    state = make(
        stacks={11: [B("star")], 13: [B("star", 2)], 15: [B("star", 3)]},
        racks=((B("capn"),), ()),
        medals=(6, 0),
    )
    events, after = send(state, place(B("capn"), 17))
    assert kinds(events) == ["TroopPlaced", "RegionTaken", "MatchEnded"]
    assert events[-1] == MatchEnded(winner=0, reason="medals", medals=(7, 0))
    assert after.queue and RULES.awaiting(after) == {} and RULES.legal(after, 0) == []


def test_TB_END_3_player_who_cannot_act_ends_match_medals_compared() -> None:
    state = make(racks=((B("roxy"),), ()), supply=((B("star"),), ()), medals=(1, 3))
    events, after = send(state, DRAW)
    assert kinds(events) == ["TroopsDrawn", "TurnEnded", "MatchEnded"]
    assert events[-1] == MatchEnded(winner=1, reason="stuck", medals=(1, 3), ended_by=1, stuck=(1,))
    assert RULES.outcome(after).scores == (1, 3)


def test_TB_END_3_checked_for_the_mover_too_as_soon_as_it_holds() -> None:
    # Seat 0 places its last troop with an empty supply: it can neither draw nor place now,
    # while seat 1 still could; the match ends at once instead of after seat 1's turn.
    state = make(racks=((B("roxy"),), (R("star"),)), supply=((), (R("skully"),)), medals=(1, 3))
    events, after = send(state, place(B("roxy"), 11))
    assert kinds(events)[-2:] == ["TurnEnded", "MatchEnded"]
    assert events[-1] == MatchEnded(winner=1, reason="stuck", medals=(1, 3), ended_by=0, stuck=(0,))
    assert RULES.awaiting(after) == {}
    # both stuck at once: the mover ended the match, and loses a tie
    both = make(racks=((B("roxy"),), ()), supply=((), ()), medals=(2, 2))
    events, _ = send(both, place(B("roxy"), 11))
    assert (events[-1].winner, events[-1].ended_by, events[-1].stuck) == (1, 0, (0, 1))


def test_TB_END_4_tie_lost_by_player_who_ended() -> None:
    state = make(racks=((B("roxy"),), ()), supply=((B("star"),), ()), medals=(2, 2))
    events, _ = send(state, DRAW)
    assert (events[-1].winner, events[-1].ended_by) == (0, 1)
    last = make(
        racks=((B("roxy"),), ()), supply=((B("star"),), ()), medals=(2, 2), tie_loser="last"
    )
    events, _ = send(last, DRAW)
    assert (events[-1].winner, events[-1].ended_by) == (1, 0)
