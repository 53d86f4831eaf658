"""Deliveries and the five customer kinds (ROG-DELIVER-*, -MONK-*, -MERCHANT-*, -NOBLE-*, …)."""

from __future__ import annotations

import pytest
from gamehall.core import IllegalCommand, Table
from gamehall.plugins.river_of_gold.commands import (
    Build,
    Deliver,
    DiscardCustomer,
    PlaceMarker,
    Sail,
    SellGood,
    StopSelling,
    TakeKoku,
    UpgradeShip,
)
from gamehall.plugins.river_of_gold.events import DeckShuffled
from gamehall.plugins.river_of_gold.scoring import customer_bonus
from msgspec.structs import replace

from tests.plugins.river_of_gold.rog_helpers import build_on, clean, player, state, table


def delivering(card: str, die: int, goods=(6, 6, 6), **changes):  # type: ignore[no-untyped-def]
    t = clean(table())
    player(t, 0, die=die, goods=goods, hand=(card, *t.state.players[0].hand), **changes)
    return t


def test_ROG_DELIVER_1_customer_region_is_the_die() -> None:
    t = delivering("cust-03", 2)
    with pytest.raises(IllegalCommand) as info:
        t.send(0, Deliver(card="cust-03"))
    assert info.value.rule == "ROG-DELIVER-1"
    t = delivering("cust-03", 3)
    assert Deliver(card="cust-03") in t.legal(0)
    t.send(0, Deliver(card="cust-03"))


def test_ROG_DELIVER_2_goods_paid() -> None:
    t = delivering("cust-07", 1, goods=(2, 1, 1))  # elder: 2 silk, 1 rice, 2 porcelain
    with pytest.raises(IllegalCommand) as info:
        t.send(0, Deliver(card="cust-07"))
    assert info.value.rule == "ROG-DELIVER-2"
    t = delivering("cust-07", 1, goods=(3, 1, 2))
    t.send(0, Deliver(card="cust-07"))
    assert t.state.players[0].goods == (1, 0, 0)


def test_ROG_DELIVER_3_customer_face_up_with_its_ability() -> None:
    t = delivering("cust-15", 3)
    t.send(0, Deliver(card="cust-15"))
    assert t.state.players[0].delivered == ("cust-15",)
    assert "cust-15" not in t.state.players[0].hand
    assert "delivered to: the merchant of Three Man Alliance Plain (3)" in t.render(1)  # all see it


def test_ROG_DELIVER_4_draw_two_discard_one_and_reshuffle() -> None:
    t = delivering("cust-03", 3)
    hand = len(t.state.players[0].hand)
    t.send(0, Deliver(card="cust-03"))
    assert len(t.state.players[0].hand) == hand - 1 + 2
    assert t.state.choices[-1].kind == "discard"
    card = t.state.players[0].hand[0]
    t.send(0, DiscardCustomer(card=card))
    assert t.state.discard[-1] == card and len(t.state.players[0].hand) == hand
    t = delivering("cust-03", 3)
    state(t, deck=t.state.deck[:1], discard=t.state.deck[1:])
    events = t.send(0, Deliver(card="cust-03"))
    assert any(isinstance(e, DeckShuffled) for e in events)
    assert not t.state.discard and len(t.state.players[0].hand) == 4  # before the discard


def test_ROG_MONK_1_favour_cap_and_two_favour_no_influence() -> None:
    t = delivering("cust-19", 1, favour=1)
    t.send(0, Deliver(card="cust-19"))
    p = t.state.players[0]
    assert (p.favour_cap, p.favour) == (4, 3) and p.influence == (0,) * 6
    t = delivering("cust-19", 1, favour=6, favour_cap=6)
    t.send(0, Deliver(card="cust-19"))
    assert t.state.players[0].favour_cap == 6


def test_ROG_MONK_2_second_marker_own_or_other() -> None:
    t = delivering("cust-19", 1)  # region 1: on an own building
    build_on(t, 8, "bldg-01", 0)
    build_on(t, 9, "bldg-02", 1)
    build_on(t, 10, "bldg-03", 0, 1)  # two markers: never
    t.send(0, Deliver(card="cust-19"))
    assert t.state.choices[0].options == ("8",)
    with pytest.raises(IllegalCommand):
        t.send(0, PlaceMarker(space=9))
    t.send(0, PlaceMarker(space=8))
    assert t.state.markers[7] == (0, 0) and t.state.players[0].influence == (0,) * 6
    t = delivering("cust-20", 2)  # region 2: on another clan's building
    build_on(t, 8, "bldg-01", 0)
    build_on(t, 9, "bldg-02", 1)
    t.send(0, Deliver(card="cust-20"))
    assert t.state.choices[0].options == ("9",)


def test_ROG_MONK_3_every_marker_is_an_owner() -> None:
    t = clean(table())
    player(t, 0, die=1, ships=(1, 9), goods=(0, 0, 0))
    player(t, 1, goods=(0, 0, 0))
    build_on(t, 3, "bldg-19", 0, 0)  # porcelain to the owner, twice
    build_on(t, 4, "bldg-01", 1, 0)  # rice to both clans
    t.send(0, Sail(ship=0))  # to river 2: spaces 3, 4, 5, 7
    assert t.state.players[0].goods == (0, 1, 2)
    assert t.state.players[1].goods == (0, 1, 0)


def test_ROG_MERCHANT_1_three_influence() -> None:
    t = delivering("cust-14", 2)
    t.send(0, Deliver(card="cust-14"))
    assert t.state.players[0].influence == (0, 3, 0, 0, 0, 0)


@pytest.mark.parametrize(
    ("card", "check"),
    [
        ("cust-13", lambda p: p.influence == (1, 1, 0, 0, 0, 0)),
        ("cust-14", lambda p: p.points == 1),
        ("cust-17", lambda p: p.favour == 1),
        ("cust-18", lambda p: p.koku == 3 + 3 + 4),  # journey, merchant, four empty spaces
    ],
)
def test_ROG_MERCHANT_2_journey_abilities(card: str, check) -> None:  # type: ignore[no-untyped-def]
    t = clean(table())
    build_on(t, 8, "bldg-01", 0)
    build_on(t, 2, "bldg-02", 0)
    player(t, 0, die=3, ships=(14, 9), delivered=(card,), koku=0, favour=0, goods=(0, 0, 0))
    state(t, tiles=tuple(None if i == 5 else x for i, x in enumerate(t.state.tiles)))
    t.send(0, Sail(ship=0))  # to river 3: spaces 4, 6, 7, 9 (all empty now)
    t.send(0, TakeKoku())
    p = t.state.players[0]
    assert check(p), p


def test_ROG_MERCHANT_2_good_and_sale() -> None:
    t = clean(table())
    player(t, 0, die=1, ships=(14, 9), delivered=("cust-15", "cust-16"), koku=0, goods=(2, 0, 0))
    t.send(0, Sail(ship=0))
    assert [c.kind for c in t.state.choices] == ["journey", "good", "sell"]
    t.send(0, TakeKoku())
    t.send(0, t.legal(0)[0])  # a silk from the merchant of region 3
    t.send(0, SellGood(good="silk"))
    assert t.state.players[0].goods[0] == 2 and t.state.choices[0].kind == "sell"
    t.send(0, StopSelling())
    assert not t.state.choices


def test_ROG_MERCHANT_3_a_point_per_five_koku_each() -> None:
    t = clean(table())
    player(t, 0, koku=12, delivered=("cust-13", "cust-14"))
    assert customer_bonus(t.state, 0) == 4


def test_ROG_NOBLE_1_imperial_ship_then_two_influence() -> None:
    t = delivering("cust-28", 4)
    t.send(0, Deliver(card="cust-28"))
    assert t.state.players[0].influence == (0, 0, 0, 2, 0, 0)
    assert t.state.choices[0].kind == "upgrade"
    ships = t.state.players[0].ships
    t.send(0, UpgradeShip(ship=1))
    assert t.state.players[0].royal == 1 and t.state.players[0].ships == ships
    t.send(0, DiscardCustomer(card=t.state.players[0].hand[0]))
    assert not t.state.choices
    t = delivering("cust-27", 3, royal=1, delivered=("cust-28",))
    t.send(0, Deliver(card="cust-27"))
    assert [c.kind for c in t.state.choices] == ["discard"]


def test_ROG_NOBLE_4_building_bonuses() -> None:
    # "Krijg 1 punt per gebouw dat je bezit van de aangegeven soort", for all six nobles.
    t = clean(table())
    build_on(t, 8, "bldg-07", 0)  # market, region 2
    build_on(t, 9, "bldg-08", 0)  # market, region 2
    build_on(t, 13, "bldg-01", 1, 0)  # port, region 3 (co-owned)
    cards = ("cust-25", "cust-26", "cust-27", "cust-29", "cust-30")
    player(t, 0, delivered=cards, goods=(0, 0, 0), koku=0)
    # markets 2, ports 1, manors 0; nobles 5 and 6 count every building owned: 3 each
    assert customer_bonus(t.state, 0) == 2 + 1 + 0 + 3 + 3
    # the published card data's reading, as an option: 2 types owned, 2 regions with a building
    t.state = replace(t.state, noble_bonus="types-and-regions")
    assert customer_bonus(t.state, 0) == 2 + 1 + 0 + 2 + 2
    started = Table.new("river-of-gold", options={"noble_bonus": "types-and-regions"}, seed=1)
    assert started.state.noble_bonus == "types-and-regions"


def test_ROG_ARTISAN_1_two_influence() -> None:
    t = delivering("cust-05", 5)
    t.send(0, Deliver(card="cust-05"))
    assert t.state.players[0].influence == (0, 0, 0, 0, 2, 0)


def test_ROG_ARTISAN_2_builds_two_cheaper_in_its_region() -> None:
    t = clean(table())
    player(t, 0, die=2, koku=7, delivered=("cust-02",))
    assert Build(space=10, slot=0) in t.legal(0)  # 9 - 2
    t.send(0, Build(space=10, slot=0))
    assert t.state.players[0].koku == 0


def test_ROG_ARTISAN_3_a_point_per_three_goods_each() -> None:
    t = clean(table())
    player(t, 0, goods=(3, 2, 2), koku=0, delivered=("cust-01", "cust-02"))
    assert customer_bonus(t.state, 0) == 4


def test_ROG_ELDER_1_doubles_the_region_score() -> None:
    from gamehall.plugins.river_of_gold.scoring import region_points

    t = clean(table())
    player(t, 0, influence=(5, 0, 0, 0, 0, 0))
    player(t, 1, influence=(3, 0, 0, 0, 0, 0), delivered=("cust-07",))
    plain = region_points(t.state, 1)
    player(t, 0, delivered=("cust-07",))
    player(t, 1, delivered=())
    assert region_points(t.state, 1) == (plain[0] * 2, plain[1])
