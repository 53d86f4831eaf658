"""Sail, journey and imperial ship scenarios (ROG-SAIL-*, ROG-JOURNEY-*, ROG-NOBLE-2, -3)."""

from __future__ import annotations

import pytest
from gamehall.core import IllegalCommand
from gamehall.plugins.river_of_gold.commands import Sail, TakeGood, TakeKoku
from gamehall.plugins.river_of_gold.events import TileDiscarded

from tests.plugins.river_of_gold.rog_helpers import build_on, clean, gained, player, table


def sailing(die: int, at: int):  # type: ignore[no-untyped-def]
    t = clean(table())
    player(t, 0, die=die, ships=(at, 9), koku=5, favour=0, goods=(0, 0, 0))
    player(t, 1, koku=5, goods=(0, 0, 0))
    return t


def test_ROG_SAIL_1_own_ship_moves_by_the_die() -> None:
    t = sailing(3, 2)
    t.send(0, Sail(ship=0))
    assert t.state.players[0].ships == (5, 9)
    assert t.state.players[1].ships == table().state.players[1].ships  # others' ships stay


def test_ROG_SAIL_2_visitor_rewards_empty_spaces_pay_one_koku() -> None:
    t = sailing(1, 1)  # to river 2: spaces 3, 4, 5, 7
    build_on(t, 3, "bldg-19")  # shrine: 2 points
    build_on(t, 4, "bldg-41")  # start port: 3 koku
    events = t.send(0, Sail(ship=0))
    assert gained(events, 0, "points") == 2
    assert gained(events, 0, "koku") == 3 + 2


def test_ROG_SAIL_3_owners_paid_too_own_included_start_tiles_never() -> None:
    t = sailing(1, 1)
    build_on(t, 3, "bldg-19", 1)  # owner: porcelain
    build_on(t, 7, "bldg-14", 0)  # owner: 1 koku and rice
    build_on(t, 4, "bldg-42")
    events = t.send(0, Sail(ship=0))
    assert t.state.players[1].goods == (0, 0, 1)
    assert gained(events, 0, "rice") == 1 + 1  # the owner reward, and step 2 of region 2's track
    assert gained(events, 0, "koku") == 3 + 1 + 1  # start port, empty space 5, own manor


def test_ROG_SAIL_4_influence_goes_to_the_building_region() -> None:
    t = sailing(1, 1)
    build_on(t, 7, "bldg-13")  # manor in region 2: visitor +2 influence
    build_on(t, 5, "bldg-30", 1)  # region 1: owner +1 influence
    t.send(0, Sail(ship=0))
    assert t.state.players[0].influence == (0, 2, 0, 0, 0, 0)
    assert t.state.players[1].influence == (1, 0, 0, 0, 0, 0)


def test_ROG_JOURNEY_1_koku_or_good_end_tile_discarded() -> None:
    t = sailing(3, 14)
    row = t.state.row
    events = t.send(0, Sail(ship=0))
    assert t.state.players[0].ships[0] == 3
    assert TileDiscarded(tile=row[-1]) in events
    assert t.state.row[1:] == row[:3] and len(t.state.row) == 4
    assert t.state.choices[0].kind == "journey"
    koku = t.state.players[0].koku
    t.send(0, TakeKoku())
    assert t.state.players[0].koku == koku + 3
    t = sailing(3, 14)
    t.send(0, Sail(ship=0))
    t.send(0, TakeGood(good="rice"))
    assert t.state.players[0].goods[1] == 1


def test_ROG_JOURNEY_2_the_completion_is_not_a_step() -> None:
    t = sailing(1, 14)
    t.send(0, Sail(ship=0))
    assert t.state.players[0].ships[0] == 1
    t = sailing(6, 9)
    t.send(0, Sail(ship=0))
    assert t.state.players[0].ships[0] == 1 and t.state.choices[0].kind == "journey"


def test_ROG_NOBLE_2_imperial_ship_abilities() -> None:
    t = sailing(2, 1)  # to river 3: spaces 4, 6 (market), 7, 9
    nobles = ("cust-25", "cust-26", "cust-27", "cust-28", "cust-30")
    player(t, 0, royal=0, delivered=nobles, favour=0)
    build_on(t, 6, "bldg-48")  # imperial market: rice + favour
    build_on(t, 7, "bldg-13", 1)  # another clan's manor (region 2)
    build_on(t, 9, "bldg-01", 0)  # own port
    events = t.send(0, Sail(ship=0))
    p = t.state.players[0]
    assert (
        gained(events, 0, "rice") == 2
    )  # own port and region 2's step 2; the market's is a choice
    assert p.favour == 1
    assert [c.kind for c in t.state.choices] == ["good"]
    assert gained(events, 0, "koku") == 2 + 3  # empty space 4 (+1), the port's visitor reward
    assert p.influence == (1, 1 + 2, 0, 0, 0, 0)  # +1 in each touching region, manor +2
    assert p.points == 2  # another clan's building and an own building
    plain = sailing(2, 1)
    build_on(plain, 6, "bldg-48")
    plain.send(0, Sail(ship=0))
    assert plain.state.players[0].goods == (0, 1, 0) and not plain.state.choices


def test_ROG_NOBLE_3_free_die_turn_for_the_imperial_ship() -> None:
    t = sailing(3, 2)
    player(t, 0, royal=0, delivered=("cust-29",))
    assert Sail(ship=0, shift=1) in t.legal(0) and Sail(ship=1, shift=1) not in t.legal(0)
    with pytest.raises(IllegalCommand) as info:
        t.send(0, Sail(ship=1, shift=-1))
    assert info.value.rule == "ROG-NOBLE-3"
    t.send(0, Sail(ship=0, shift=1))
    assert t.state.players[0].ships[0] == 6 and t.state.players[0].favour == 0
