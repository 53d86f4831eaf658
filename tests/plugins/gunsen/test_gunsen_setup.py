"""Setup, components and the terms of the rules (GUN-COMP, GUN-SETUP, GUN-CONTROL)."""

from __future__ import annotations

from collections import Counter

import pytest
from gamehall.core import Table
from gamehall.plugins.gunsen import commands as cmd
from gamehall.plugins.gunsen import events as ev
from gamehall.plugins.gunsen.activation import proceed
from gamehall.plugins.gunsen.movement import selections
from gamehall.plugins.gunsen.queries import controller
from gamehall.plugins.gunsen.state import BOX, NOBODY
from gunsen_helpers import (
    CAT,
    CLANS,
    RULES,
    acting,
    board,
    fort,
    ready,
    refused,
    run,
    sp,
    started,
    step,
    troops,
)
from msgspec.structs import replace


def test_GUN_COMP_2_seven_clans_with_twelve_cards_each() -> None:
    assert CAT.clan_ids == CLANS
    for clan in CAT.clans.values():
        cards = (*clan.heroes, *clan.tactics, *clan.objectives, *clan.specials, *clan.buildings)
        assert len(cards) == 12
        assert all(CAT.owner[c.id] == clan.id for c in cards if c not in clan.heroes)
        assert {b.kind for b in clan.buildings} == {"unique", "camp"}
        assert all(b.cost > 0 for b in clan.buildings)
        assert any(t.effect == "hero" for t in clan.tactics)
    named = {"bayushi-aramoro": "scorpion", "bayushi-kachiko": "scorpion", "daidoji-uji": "crane",
             "moto-chagatai": "unicorn", "togashi-yokuni": "dragon"}  # fmt: skip
    assert {h: CAT.hero_clan[h] for h in named} == named


def test_GUN_COMP_4_three_mercenaries_and_the_neutral_tactics() -> None:
    assert CAT.mercenaries == ("toturi-the-black", "yotsu-seiki", "kaneka")
    mercs = [CAT.tactics[t] for t in CAT.neutral if CAT.tactics[t].effect == "mercenary"]
    assert sorted(t.hero for t in mercs) == sorted(CAT.mercenaries)
    assert CAT.tactics["innovation"].effect == "innovation"
    assert len(CAT.neutral) == 16 and all(CAT.hero_clan[h] == "" for h in CAT.mercenaries)


def test_GUN_COMP_5_pieces_tokens_tiles_and_the_die() -> None:
    pieces = CAT.pieces
    assert Counter(t.reward for t in pieces.tokens) == {
        "troop": 3,
        "koku": 3,
        "wood": 3,
        "influence": 3,
    }
    assert [s.colour for s in pieces.shrines] == ["blue", "yellow", "purple"]
    assert [c.name for c in pieces.columns] == ["Armory", "Recruit", "Influence", "Expand"]
    assert CAT.die == ("blank", "strength", "strength", "blood", "armour", "fury")
    assert CAT.faces["fury"].strength == CAT.faces["fury"].blood == 1
    assert [b.id for b in pieces.boxes][-1] == "hold" and pieces.boxes[-1].on_tile


@pytest.mark.parametrize(
    ("players", "side"), [(2, "small"), (3, "small"), (4, "large"), (5, "large"), (6, "large")]
)
def test_GUN_SETUP_6_watchtowers_and_shrines_by_player_count(players: int, side: str) -> None:
    state = Table.new("gunsen", players, seed=players).state
    assert state.side == side
    assert len(state.towers) == (2 if players < 4 else 3)
    assert set(state.towers) == set(board(state).watchtowers)
    assert len(state.shrines) == (2 if players < 4 else 3)


def test_GUN_SETUP_4_resources_come_from_an_unlimited_supply() -> None:
    state = ready()
    state = replace(state, players=tuple(replace(p, wood=0) for p in state.players))
    state = acting(state, 0, [step("wood", 40)], column=3)
    play = run(state, proceed)
    assert play.state.players[0].wood == 40


def test_GUN_SETUP_5_toshi_ranbo_starts_unoccupied_with_the_expand_upgrade() -> None:
    state = Table.new("gunsen", 3, seed=1).state
    assert not state.taken and state.holder == NOBODY
    assert state.upgrades[3] == NOBODY


def test_GUN_SETUP_7_shrine_tiles_are_random_and_an_unused_one_is_boxed() -> None:
    seen = set()
    for seed in range(12):
        state = Table.new("gunsen", 2, seed=seed).state
        colours = [c for _, c in state.shrines]
        seen.add(tuple(colours))
        unused = {"blue", "yellow", "purple"} - set(colours)
        assert len(unused) == 1
        column = ("blue", "yellow", "purple").index(unused.pop())
        assert state.upgrades[column] == BOX
        assert [state.upgrades[("blue", "yellow", "purple").index(c)] for c in colours] == [
            NOBODY
        ] * 2
    assert len(seen) > 2


@pytest.mark.parametrize(("players", "count"), [(2, 7), (3, 7), (4, 10), (6, 10)])
def test_GUN_SETUP_8_village_tokens_lie_face_down_on_the_villages(players: int, count: int) -> None:
    table = Table.new("gunsen", players, seed=5)
    state = table.state
    assert len(state.villages) == count and all(t in CAT.tokens for _, t in state.villages)
    assert [s for s, _ in state.villages] == list(board(state).villages)
    dealt = next(e for e in table.events if isinstance(e, ev.VillagesDealt))
    assert table.rules.redact(dealt, 0).tokens == ("?",) * count


@pytest.mark.parametrize("players", [2, 4, 5, 6])
def test_GUN_SETUP_9_the_deck_without_5_6_cards_below_five_players(players: int) -> None:
    state = Table.new("gunsen", players, seed=2).state
    cards = [*state.deck, *state.row]
    marked = [c for c in cards if CAT.cards[c].players == 5]
    assert len(state.row) == 5
    assert bool(marked) == (players >= 5)
    assert sorted(cards) == sorted(CAT.deck_for(players))


def test_GUN_SETUP_10_random_start_player_and_clans_chosen_clockwise_from_it() -> None:
    starts = set()
    for seed in range(10):
        table = Table.new("gunsen", 4, seed=seed)
        start = table.state.start
        starts.add(start)
        order = []
        while table.state.phase == "clan":
            order.append(table.state.asked)
            table.send(table.state.asked, cmd.ChooseClan(clan=CLANS[len(order)]))
        assert order == [(start + i) % 4 for i in range(4)]
    assert len(starts) > 1
    table = Table.new("gunsen", 2, seed=0)
    table.send(table.state.asked, cmd.ChooseClan(clan="lion"))
    refused(table.state, cmd.ChooseClan(clan="lion"), "GUN-SETUP-10")
    refused(table.state, cmd.ChooseClan(clan="mantis"), "GUN-SETUP-10")


def test_GUN_SETUP_11_each_clan_has_fifteen_troops_and_its_pieces() -> None:
    state = started(3).state
    for seat, player in enumerate(state.players):
        assert sum(state.troops[seat]) + player.supply == 15
        assert player.achievements == () and len(CAT.clans[player.clan].heroes) == 3
    assert CAT.limits.markers == 7 and RULES.target == 7


def test_GUN_SETUP_12_starting_resources_and_troops_by_turn_order() -> None:
    table = started(6, seed=4)
    state = table.state
    expected = [(3, 1, 1, 3), (4, 1, 1, 3), (4, 1, 1, 4), (4, 2, 1, 4), (4, 2, 1, 5), (4, 2, 2, 5)]
    for position, want in enumerate(expected):
        seat = (state.start + position) % 6
        p = state.players[seat]
        assert (p.koku, p.wood, p.influence, state.troops[seat][fort(state, seat)]) == want


def test_GUN_SETUP_13_two_hidden_neutral_tactics_per_player_after_the_clans() -> None:
    table = started(4, seed=3)
    dealt = [e for e in table.events if isinstance(e, ev.TacticsDealt)]
    chosen = max(i for i, e in enumerate(table.events) if isinstance(e, ev.ClanChosen))
    assert len(dealt) == 4 and table.events.index(dealt[0]) > chosen
    hands = [p.hand for p in table.state.players]
    assert all(len(h) == 2 for h in hands) and len({t for h in hands for t in h}) == 8
    assert all(t in CAT.neutral for h in hands for t in h)
    assert table.rules.redact(dealt[0], dealt[0].seat) == dealt[0]
    assert table.rules.redact(dealt[0], (dealt[0].seat + 1) % 4).cards == ()


def test_GUN_SETUP_14_clan_cards_are_public() -> None:
    state = started(2).state
    shown = RULES.view(state, 1)
    assert shown.players[0].clan == state.players[0].clan
    assert shown.players[0].columns == state.players[0].columns
    assert shown.players[0].hand == ("?", "?")


def test_GUN_CONTROL_1_control_needs_the_only_army_or_an_own_empty_building() -> None:
    state = ready()
    here = sp(state, "C3")
    state = troops(state, 0, {here: 2})
    assert controller(state, here) == 0
    state = troops(state, 1, {here: 1})
    assert controller(state, here) == NOBODY
    state = troops(troops(state, 0, {}), 1, {})
    assert controller(state, here) == NOBODY
    state = replace(state, players=(replace(state.players[0], buildings=(("crab-camp", here),)),
                                    state.players[1]))  # fmt: skip
    assert controller(state, here) == 0
    state = troops(state, 1, {here: 1})
    assert controller(state, here) == 1


def test_GUN_CONTROL_2_an_army_is_the_troops_of_one_clan_on_a_space() -> None:
    state = ready()
    state = troops(state, 0, {fort(state, 0): 3, "C3": 2})
    picks = {(s.space, s.troops) for s in selections(CAT, state, 0, tower=False)}
    assert (sp(state, "C3"), 1) in picks and (sp(state, "C3"), 2) in picks
    assert not any(space == sp(state, "C3") and n > 2 for space, n in picks)
