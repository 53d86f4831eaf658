"""The two board sides and the component data: counts, connection, fairness by seat."""

from __future__ import annotations

import pytest
from gamehall.plugins.gunsen.board import Board, load_sides
from gamehall.plugins.gunsen.components import load_clans, load_neutral, load_orders, load_pieces

SIDES = {side.key: Board(side) for side in load_sides()}
COUNTS = {"small": (3, 2, 2, 7), "large": (6, 3, 3, 10)}  # forts, towers, shrines, villages


@pytest.mark.parametrize("key", sorted(SIDES))
def test_GUN_SETUP_1_each_side_has_toshi_ranbo_in_the_centre_and_its_marked_spaces(
    key: str,
) -> None:
    board = SIDES[key]
    centre = board.spaces[board.toshi_ranbo]
    assert (centre.q, centre.r) == (0, 0)
    forts, towers, shrines, villages = COUNTS[key]
    assert len(board.forts) == forts
    assert (len(board.watchtowers), len(board.shrines), len(board.villages)) == (
        towers,
        shrines,
        villages,
    )
    assert all(board.hex_distance(f, board.toshi_ranbo) == board.radius for f in board.forts)


@pytest.mark.parametrize("key", sorted(SIDES))
def test_GUN_SETUP_2_the_board_is_connected_and_every_fort_reaches_toshi_ranbo(key: str) -> None:
    board = SIDES[key]
    assert -1 not in board.distances(board.toshi_ranbo)
    for fort in board.forts:
        others = frozenset(f for f in board.forts if f != fort)
        assert board.distances(fort, others)[board.toshi_ranbo] == board.radius


@pytest.mark.parametrize(
    ("key", "players"), [("small", 2), ("small", 3), ("large", 4), ("large", 5), ("large", 6)]
)
def test_GUN_SETUP_3_fort_distances_are_fair_by_seat(key: str, players: int) -> None:
    board = SIDES[key]
    forts = board.seat_forts(players)
    assert len(set(forts)) == players
    rows = []
    for fort in forts:
        dist = board.distances(fort, frozenset(f for f in board.forts if f != fort))
        rows.append(
            (
                dist[board.toshi_ranbo],
                min(dist[v] for v in board.villages),
                sum(1 for v in board.villages if dist[v] <= 3),
                min(dist[s] for s in board.shrines),
                min(dist[t] for t in board.watchtowers),
            )
        )
    for column in zip(*rows, strict=True):
        assert max(column) - min(column) <= 1, rows
    assert len({row[0] for row in rows}) == 1


def test_GUN_SETUP_3_the_small_side_mirrors_the_first_two_forts_onto_each_other() -> None:
    board = SIDES["small"]
    where = {(s.q, s.r): s.kind for s in board.spaces}
    assert all(where[(-r, -q)] == kind for (q, r), kind in where.items())
    first, second = board.seat_forts(2)
    a, b = board.spaces[first], board.spaces[second]
    assert (-a.r, -a.q) == (b.q, b.r)


def test_GUN_COMP_1_component_data_decodes_and_ids_are_unique() -> None:
    clans = load_clans()
    assert [c.name for c in clans] == [
        "Crab",
        "Crane",
        "Dragon",
        "Lion",
        "Phoenix",
        "Scorpion",
        "Unicorn",
    ]
    for clan in clans:
        sizes = (
            len(clan.heroes),
            len(clan.tactics),
            len(clan.objectives),
            len(clan.specials),
            len(clan.buildings),
        )
        assert sizes == (3, 2, 3, 2, 2), clan.id
        assert sorted(b.kind for b in clan.buildings) == ["camp", "unique"]
    neutral = load_neutral()
    assert len(neutral.mercenaries) == 3
    assert sum(t.effect == "mercenary" for t in neutral.tactics) == 3
    assert [t.id for t in neutral.tactics if t.effect == "innovation"] == ["innovation"]
    ids = [
        x.id
        for c in clans
        for x in (*c.heroes, *c.tactics, *c.objectives, *c.specials, *c.buildings)
    ]
    ids += [h.id for h in neutral.mercenaries] + [t.id for t in neutral.tactics]
    ids += [c.id for c in load_orders()] + [t.id for t in load_pieces().tokens]
    assert len(ids) == len(set(ids))


def test_GUN_COMP_3_the_order_deck_has_four_colours_prices_and_five_six_cards() -> None:
    cards = load_orders()
    assert {c.colour for c in cards} == {"blue", "yellow", "purple", "brown"}
    assert {c.price for c in cards} == {"", "influence", "wood"}
    assert any(c.players == 5 for c in cards) and all(c.players in (2, 5) for c in cards)
    # Enough cards for 2-4 players to deal the row ten times over.
    assert sum(c.players == 2 for c in cards) >= 50
