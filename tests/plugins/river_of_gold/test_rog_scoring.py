"""Masteries, the imperial visit, the end and the final scoring (ROG-MASTERY-*, -VISIT-*, …)."""

from __future__ import annotations

import pytest
from gamehall.core import RandomBot
from gamehall.plugins.river_of_gold.commands import Build, EndTurn, Sail
from gamehall.plugins.river_of_gold.events import EndTriggered, GameEnded, ImperialVisitPaid
from gamehall.plugins.river_of_gold.scoring import final_scores, goal_met, region_points, winners

from tests.plugins.river_of_gold.rog_helpers import build_on, clean, player, state, table


def quiet_turn(t, seat: int) -> list:  # type: ignore[no-untyped-def,type-arg]
    """Sail a ship to river space 6, where no market or start tile stands, and end the turn."""
    player(t, seat, die=1, ships=(5, 9))
    t.send(seat, Sail(ship=0))
    return list(t.send(seat, EndTurn()))


@pytest.mark.parametrize(("players", "rewards"), [(2, [5, 0]), (3, [7, 5, 3]), (4, [7, 5, 3, 0])])
def test_ROG_MASTERY_1_rewards_by_claim_order(players: int, rewards: list[int]) -> None:
    t = clean(table(players))
    state(t, masteries=("void", "air", "fire"))
    for seat in range(players):
        player(t, seat, influence=(1,) * 6)
    for seat in range(players):
        before = t.state.players[seat].points
        quiet_turn(t, seat)
        assert t.state.players[seat].points - before == rewards[seat]
    quiet_turn(t, 0)  # a clan claims a mastery once
    assert t.state.claims[0][:1] == (0,) and t.state.claims[0].count(0) == 1


def test_ROG_MASTERY_2_goals() -> None:
    t = clean(table())
    s = t.state
    assert not any(goal_met(s, 0, g.goal) for g in _masteries())
    player(t, 0, delivered=("cust-01", "cust-07", "cust-13"))
    assert goal_met(t.state, 0, "customer-kinds-3") and not goal_met(
        t.state, 0, "customers-of-a-kind-2"
    )
    player(t, 0, delivered=("cust-01", "cust-02"))
    assert goal_met(t.state, 0, "customers-of-a-kind-2")
    for space, tile in ((1, "bldg-01"), (2, "bldg-02"), (5, "bldg-07")):
        build_on(t, space, tile, 0)
    assert not goal_met(t.state, 0, "buildings-of-a-type-3")
    build_on(t, 8, "bldg-03", 1, 0)
    assert goal_met(t.state, 0, "buildings-of-a-type-3")
    assert not goal_met(t.state, 0, "building-types-4")
    build_on(t, 9, "bldg-13", 0)
    build_on(t, 10, "bldg-19", 0)
    assert goal_met(t.state, 0, "building-types-4")
    player(t, 0, influence=(0, 0, 11, 0, 0, 0))
    assert goal_met(t.state, 0, "flower") and not goal_met(t.state, 0, "influence-everywhere")


def _masteries():  # type: ignore[no-untyped-def]
    from gamehall.plugins.river_of_gold.components import COMPONENTS

    return COMPONENTS.masteries


def test_ROG_VISIT_1_imperial_visit_at_the_end_of_the_turn() -> None:
    t = clean(table())
    build_on(t, 3, "bldg-19", 1, 1)  # porcelain, twice
    build_on(t, 13, "bldg-05", 0)  # 1 point
    build_on(t, 4, "bldg-41")  # a start tile pays nobody
    player(t, 0, die=2, koku=10)
    player(t, 1, goods=(0, 0, 0))
    state(t, era1=t.state.era1[-1:])
    t.send(0, Build(space=8, slot=0))
    assert t.state.visit_due and t.state.era == 1
    events = t.send(0, EndTurn())
    assert any(isinstance(e, ImperialVisitPaid) for e in events)
    assert t.state.era == 2 and not t.state.visit_due
    assert t.state.players[1].goods == (0, 0, 2)
    assert t.state.players[0].points == 1
    assert t.state.markers[7] == (0,)  # the new building pays too (1 koku and porcelain)
    quiet_turn(t, 1)
    player(t, 0, die=2, koku=10)
    top = t.state.era2[0]
    t.send(0, Build(space=10, slot=0))
    assert t.state.row[0] == top


def test_ROG_END_1_trigger_bonus_and_one_more_turn_each() -> None:
    t = clean(table(3))
    state(t, era1=(), era2=t.state.era2[-1:], era=2)
    player(t, 1, die=2, koku=10)
    quiet_turn(t, 0)
    t.send(1, Build(space=8, slot=0))
    assert t.state.end_due
    points = t.state.players[1].points
    events = t.send(1, EndTurn())
    assert EndTriggered(seat=1) in events
    assert t.state.players[1].points == points + 5
    quiet_turn(t, 2)
    assert not t.state.over
    events = quiet_turn(t, 0)
    assert isinstance(events[-1], GameEnded) and t.state.over and t.awaiting() == {}


@pytest.mark.parametrize(("players", "influence", "tile", "expected"), [
    (3, (7, 5, 0), "score-d", (12, 8, 0)),
    (4, (7, 5, 3, 1), "score-d", (12, 8, 4, 0)),
    (3, (0, 0, 0), "score-a", (0, 0, 0)),
])  # fmt: skip
def test_ROG_SCORE_1_places_with_influence(players, influence, tile, expected) -> None:  # type: ignore[no-untyped-def]
    t = clean(table(players))
    state(t, score_tiles=(tile,) * 6)
    for seat in range(players):
        player(t, seat, influence=(influence[seat], 0, 0, 0, 0, 0))
    assert region_points(t.state, 1) == expected


def test_ROG_SCORE_2_ties_split_rounded_down() -> None:
    t = clean(table(4))
    state(t, score_tiles=("score-d",) * 6)  # 12/8/4
    for seat, level in enumerate((9, 9, 9, 2)):
        player(t, seat, influence=(level, 18, 0, 0, 0, 0))
    assert region_points(t.state, 1) == (8, 8, 8, 0)
    assert region_points(t.state, 2) == (6, 6, 6, 6)  # 24 // 4, all at the top
    player(t, 3, influence=(9, 18, 0, 0, 0, 0))
    assert region_points(t.state, 1) == (6, 6, 6, 6)


def test_ROG_SCORE_3_two_players_second_within_five() -> None:
    t = clean(table(2))
    state(t, score_tiles=("score-d",) * 6)  # two-player side 8/4
    player(t, 0, influence=(11, 8, 0, 0, 0, 0))
    player(t, 1, influence=(6, 2, 0, 0, 0, 0))
    assert region_points(t.state, 1) == (8, 4)
    assert region_points(t.state, 2) == (8, 0)


@pytest.mark.parametrize(
    ("served", "points"), [(0, 0), (1, 2), (2, 5), (3, 9), (4, 14), (5, 20), (6, 27), (8, 27)]
)
def test_ROG_SCORE_4_customer_table(served: int, points: int) -> None:
    t = clean(table())
    cards = ("cust-07", "cust-08", "cust-09", "cust-10", "cust-11", "cust-12", "cust-19", "cust-20")
    player(t, 0, delivered=cards[:served], koku=0, points=0, goods=(0, 0, 0), influence=(0,) * 6)
    player(t, 1, influence=(0,) * 6)
    assert final_scores(t.state, t.rules.hook)[0] == points


def test_ROG_SCORE_5_total_adds_every_part() -> None:
    t = clean(table())
    state(t, score_tiles=("score-d",) * 6)
    player(
        t,
        0,
        points=10,
        influence=(5, 0, 0, 0, 0, 0),
        delivered=("cust-13",),
        koku=11,
        goods=(0, 0, 0),
    )
    player(t, 1, influence=(0,) * 6)
    assert final_scores(t.state, t.rules.hook)[0] == 10 + 8 + 2 + 2


def test_ROG_SCORE_6_favour_breaks_ties_else_shared() -> None:
    t = clean(table(3))
    player(t, 0, favour=1)
    player(t, 1, favour=2)
    player(t, 2, favour=2)
    assert winners(t.state, (30, 30, 30)) == (1, 2)
    assert winners(t.state, (31, 30, 30)) == (0,)
    player(t, 2, favour=3)
    assert winners(t.state, (30, 30, 30)) == (2,)
    done = table(2, seed=11)
    outcome = done.play(RandomBot(11))
    assert outcome is not None and outcome.scores == done.state.final
    assert set(outcome.winners) == set(winners(done.state, done.state.final))
