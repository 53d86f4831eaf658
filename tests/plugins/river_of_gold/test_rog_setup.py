"""Setup scenarios (ROG-SETUP-*) and hidden information (ROG-HIDDEN-1)."""

from __future__ import annotations

import msgspec
import pytest
from gamehall.plugins.river_of_gold.components import (
    MARKET_SPACES,
    SCORE_TILES,
    TILES,
    start_spaces,
)
from gamehall.plugins.river_of_gold.events import CustomersDrawn, DeckShuffled, StacksDealt

from tests.plugins.river_of_gold.rog_helpers import table

COUNTS = (2, 3, 4)


@pytest.mark.parametrize("players", COUNTS)
def test_ROG_SETUP_1_one_score_tile_per_region(players: int) -> None:
    t = table(players, seed=players)
    assert sorted(t.state.score_tiles) == sorted(SCORE_TILES)
    side = "two" if players == 2 else "more"
    text = t.render(0).splitlines()
    for region, tile in enumerate(t.state.score_tiles):
        values = "/".join(map(str, getattr(SCORE_TILES[tile], side)))
        line = next(line for line in text if line.startswith(f"  {region + 1} "))
        assert f"; tile {values})" in line


def test_ROG_SETUP_1_tiles_are_dealt_at_random() -> None:
    assert len({table(2, seed=s).state.score_tiles for s in range(8)}) > 1


@pytest.mark.parametrize("players", COUNTS)
def test_ROG_SETUP_2_three_of_six_masteries(players: int) -> None:
    masteries = table(players).state.masteries
    assert len(set(masteries)) == 3
    assert len({table(players, seed=s).state.masteries for s in range(10)}) > 1


@pytest.mark.parametrize("players", COUNTS)
def test_ROG_SETUP_3_deck_and_two_customers_each(players: int) -> None:
    t = table(players)
    hands = [p.hand for p in t.state.players]
    assert all(len(h) == 2 for h in hands)
    assert len(t.state.deck) == 30 - 2 * players
    shuffled = next(e for e in t.events if isinstance(e, DeckShuffled))
    assert sorted(shuffled.order) == [f"cust-{n:02d}" for n in range(1, 31)]
    assert shuffled.order[: 2 * players] == tuple(c for h in hands for c in h)


@pytest.mark.parametrize(("players", "starts"), [(2, 6), (3, 3), (4, 0)])
def test_ROG_SETUP_4_markets_and_start_tiles(players: int, starts: int) -> None:
    t = table(players)
    for space in MARKET_SPACES:
        assert TILES[t.state.tiles[space - 1] or ""].era == 3
    placed = [s for s, tile in enumerate(t.state.tiles, 1) if tile and TILES[tile].era == 0]
    assert len(placed) == starts
    assert set(placed) == set(start_spaces(players))
    assert all(not m for m in t.state.markers)


@pytest.mark.parametrize(("players", "era1", "era2"), [(2, 12, 9), (3, 14, 11), (4, 16, 13)])
def test_ROG_SETUP_5_stacks_by_player_count(players: int, era1: int, era2: int) -> None:
    t = table(players)
    assert len(t.state.era1) + len(t.state.row) == era1
    assert len(t.state.era2) == era2
    assert all(TILES[x].era == 1 for x in t.state.era1 + t.state.row)
    assert all(TILES[x].era == 2 for x in t.state.era2)


def test_ROG_SETUP_6_row_of_four_era_one_tiles() -> None:
    t = table(3)
    assert len(t.state.row) == 4
    dealt = next(e for e in t.events if isinstance(e, StacksDealt))
    assert t.state.row == tuple(reversed(dealt.era1[:4]))


@pytest.mark.parametrize("players", COUNTS)
def test_ROG_SETUP_7_ships_placed_by_rolls(players: int) -> None:
    for p in table(players, seed=5).state.players:
        assert 2 <= p.ships[0] <= 7 and 9 <= p.ships[1] <= 14
        assert p.royal is None


@pytest.mark.parametrize("players", COUNTS)
def test_ROG_SETUP_8_favour_goods_koku_in_turn_order(players: int) -> None:
    t = table(players)
    assert [p.koku for p in t.state.players] == [7, 8, 9, 10][:players]
    for p in t.state.players:
        assert (p.favour, p.favour_cap, p.goods, p.points) == (2, 3, (1, 1, 1), 0)
    assert t.state.turn == 0


def test_ROG_SETUP_9_first_die_roll() -> None:
    faces = {p.die for s in range(6) for p in table(4, seed=s).state.players}
    assert faces <= set(range(1, 7)) and len(faces) > 3
    assert t_awaits_seat_zero()


def t_awaits_seat_zero() -> bool:
    t = table(2)
    return list(t.awaiting()) == [0] and t.awaiting()[0].kind == "action"


def test_ROG_HIDDEN_1_hands_deck_and_stacks_are_hidden() -> None:
    t = table(3)
    view = t.view(1)
    assert view.players[1].hand == t.state.players[1].hand
    assert set(view.players[0].hand) == {"?"} and set(view.deck) == {"?"}
    assert set(view.era1) == {"?"} and set(view.era2) == {"?"}
    text = msgspec.json.encode(t.view(None)).decode()
    for token in t.rules.hidden(t.state, None):
        assert token not in text
    for event in t.events[1:]:
        shown = t.rules.redact(event, 1)
        if isinstance(event, (StacksDealt, DeckShuffled)):
            assert msgspec.json.encode(shown).count(b"bldg-") == 0
            assert b"cust-" not in msgspec.json.encode(shown)
        if isinstance(event, CustomersDrawn) and event.seat != 1:
            assert shown.cards == () and shown.count == 2
    assert set(t.rules.hidden(t.state, 1)) >= set(t.state.players[0].hand)
    assert not set(t.rules.hidden(t.state, 1)) & set(t.state.players[1].hand)
