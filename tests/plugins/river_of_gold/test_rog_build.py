"""Build and influence scenarios (ROG-BUILD-*, ROG-INFL-*)."""

from __future__ import annotations

import pytest
from gamehall.core import IllegalCommand
from gamehall.plugins.river_of_gold.commands import Build, TakeGood
from gamehall.plugins.river_of_gold.components import TILES

from tests.plugins.river_of_gold.rog_helpers import clean, player, state, table

ROW = ("bldg-13", "bldg-01", "bldg-07", "bldg-03")  # slot 0 … end slot 3


def setup_build(die: int = 2, koku: int = 10):  # type: ignore[no-untyped-def]
    t = clean(table())
    state(t, row=ROW)
    player(t, 0, die=die, koku=koku)
    return t


def test_ROG_BUILD_1_in_the_die_region_on_an_empty_space() -> None:
    t = setup_build(die=2)
    with pytest.raises(IllegalCommand, match="region"):
        t.send(0, Build(space=13, slot=0))
    t.send(0, Build(space=8, slot=0))
    assert t.state.tiles[7] == "bldg-13"
    builds = {c.space for c in setup_build(die=2).legal(0) if isinstance(c, Build)}
    assert builds == {7, 8, 10}  # 6 holds a market, 9 costs 12


def test_ROG_BUILD_2_pay_the_space_cost() -> None:
    t = setup_build(die=2, koku=9)
    t.send(0, Build(space=10, slot=0))
    assert t.state.players[0].koku == 0
    t2 = setup_build(die=2, koku=8)
    with pytest.raises(IllegalCommand) as info:
        t2.send(0, Build(space=10, slot=0))
    assert info.value.rule == "ROG-BUILD-2"


def test_ROG_BUILD_3_end_slot_gives_favour() -> None:
    t = setup_build()
    favour = t.state.players[0].favour
    t.send(0, Build(space=8, slot=3))
    assert t.state.tiles[7] == "bldg-03"
    assert t.state.players[0].favour == favour + 1
    t2 = setup_build()
    t2.send(0, Build(space=8, slot=2))
    assert t2.state.players[0].favour == favour


def test_ROG_BUILD_4_marker_and_build_bonus_influence() -> None:
    t = setup_build(die=2)
    t.send(0, Build(space=8, slot=2))  # bldg-07, bonus 4
    assert t.state.markers[7] == (0,)
    assert t.state.players[0].influence == (0, 4, 0, 0, 0, 0)


def test_ROG_BUILD_5_row_slides_and_refills() -> None:
    t = setup_build()
    top = t.state.era1[0]
    t.send(0, Build(space=8, slot=1))
    assert t.state.row == (top, "bldg-13", "bldg-07", "bldg-03")
    state(t, era1=(), era2=("bldg-30",), row=ROW, acted=False)
    player(t, 0, koku=10)
    t.send(0, Build(space=10, slot=3))
    assert t.state.row == ("bldg-30", *ROW[:3])
    assert t.state.end_due


def test_ROG_BUILD_5_row_shrinks_when_stacks_are_empty() -> None:
    t = setup_build()
    state(t, era1=(), era2=())
    t.send(0, Build(space=8, slot=0))
    assert t.state.row == ROW[1:]
    slots = {c.slot for c in t.legal(0) if isinstance(c, Build)}
    assert not slots  # the action is taken; the slot map is tested next
    from gamehall.plugins.river_of_gold.actions import row_index

    assert [row_index(t.state, s) for s in range(4)] == [None, 0, 1, 2]


def test_ROG_INFL_1_influence_past_the_top_is_lost() -> None:
    t = setup_build()
    player(t, 0, influence=(0, 16, 0, 0, 0, 0))
    t.send(0, Build(space=8, slot=2))  # +4
    assert t.state.players[0].influence[1] == 18
    assert t.state.choices[0].kind == "good"  # the top pays 3 points and a good of choice
    t.send(0, TakeGood(good="porcelain"))
    assert t.state.players[0].goods[2] == 2


def test_ROG_INFL_2_every_reward_reached_or_passed() -> None:
    t = setup_build()
    player(t, 0, influence=(0, 1, 0, 0, 0, 0), koku=10, goods=(0, 0, 0))
    state(t, players=t.state.players[:1] + (t.state.players[1],))
    player(t, 1, influence=(0, 2, 0, 0, 0, 0))  # another marker on step 2 changes nothing
    t.send(0, Build(space=8, slot=2))  # 1 -> 5: rice (region 2) and 2 koku
    p = t.state.players[0]
    assert p.goods == (0, 1, 0) and p.koku == 10 - 6 + 2
    t = setup_build(die=2, koku=10)
    player(t, 0, influence=(0, 8, 0, 0, 0, 0), favour=0)
    t.send(0, Build(space=8, slot=2))  # 8 -> 12: favour at 9, the flower at 11 pays nothing
    p = t.state.players[0]
    assert (p.favour, p.points, p.koku) == (1, 0, 4)
    t = setup_build(die=2, koku=10)
    player(t, 0, influence=(0, 12, 0, 0, 0, 0))
    t.send(0, Build(space=8, slot=2))  # 12 -> 16: 3 points at 13
    assert t.state.players[0].points == 3
    assert TILES["bldg-07"].bonus == 4
