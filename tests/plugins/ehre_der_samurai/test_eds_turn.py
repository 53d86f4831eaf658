"""Phase 2's card actions, the house limits, one declaration, and phase 3."""

from __future__ import annotations

import pytest
from eds_helpers import RULES, kinds, make, player, refused, send
from gamehall.core import Context, IllegalCommand, NotAwaited
from gamehall.plugins.ehre_der_samurai.commands import (
    Ally,
    DeclareShogun,
    Discard,
    Draw,
    EndTurn,
    LeaveAlliance,
    Play,
)
from gamehall.plugins.ehre_der_samurai.events import CardDrawn, DeckRebuilt

WARRIORS = ("warrior-1", "warrior-2", "warrior-3", "warrior-4", "warrior-5")


def test_EDS_ACTION_1_ki_over_three_at_most_five_and_a_sixth_is_refused() -> None:
    # Samurai 6 ki: two card actions.
    state = make(player(0, hand=("warrior-5", "warrior-6", "warrior-7")), player(1), player(2))
    _, state = send(state, Play(card="warrior-5", owner=0, house="samurai"))
    _, state = send(state, Play(card="warrior-6", owner=0, house="samurai"))
    error = refused(state, Play(card="warrior-7", owner=0, house="samurai"), "EDS-ACTION-1")
    assert "2 card actions" in error.reason
    # Samurai 6 + Okugata 9 + Chosokabe 2 + Noh Theatre 3 + ... = 20 ki: still five at most.
    rich = make(
        player(0, "daimyo-chosokabe", daimyo_house=("okugata-9", "noh-theatre"),
               samurai_house=("okugata-8",), hand=("warrior-1",)),
        player(1), player(2), actions_used=5,
    )  # fmt: skip
    assert RULES.values.ki_of(rich.players[0]) == 6 + 2 + 9 + 3 + 6
    refused(rich, Discard(card="warrior-1"), "EDS-ACTION-1")
    assert not [c for c in RULES.legal(rich, 0) if isinstance(c, (Draw, Discard, Play))]


def test_EDS_ACTION_2_draw_the_top_card_and_rebuild_the_deck_when_empty() -> None:
    state = make(player(0), player(1), player(2), deck=("warrior-9", "warrior-8"))
    events, after = send(state, Draw())
    assert events == [CardDrawn(seat=0, card="warrior-9")] and after.players[0].hand == (
        "warrior-9",
    )
    empty = make(player(0), player(1), player(2), deck=(), discard=("thief-1", "thief-2"))
    events, after = send(empty, Draw(), seed=4)
    assert kinds(events) == ["DeckRebuilt", "CardDrawn"]
    rebuilt = events[0]
    assert isinstance(rebuilt, DeckRebuilt) and sorted(rebuilt.order or ()) == [
        "thief-1",
        "thief-2",
    ]
    assert RULES.redact(rebuilt, 0).order is None and after.discard == ()
    assert len(after.deck) == 1 and len(after.players[0].hand) == 1
    nothing = make(player(0), player(1), player(2), deck=(), discard=())
    refused(nothing, Draw(), "EDS-ACTION-2")


def test_EDS_ACTION_3_never_more_than_seven_in_hand() -> None:
    hand = ("warrior-1", "warrior-2", "warrior-3", "warrior-4", "warrior-5", "warrior-6")
    state = make(player(0, hand=hand), player(1), player(2))
    _, after = send(state, Draw())
    assert len(after.players[0].hand) == 7
    error = refused(after, Draw(), "EDS-ACTION-3")
    assert "7 cards" in error.reason


def test_EDS_ACTION_4_play_a_card_from_the_hand_under_its_conditions() -> None:
    state = make(player(0, hand=("okugata-1",)), player(1), player(2))
    events, after = send(state, Play(card="okugata-1", owner=0, house="daimyo"))
    assert kinds(events) == ["CardPlayed"] and after.players[0].daimyo_house == ("okugata-1",)
    assert after.players[0].hand == () and after.actions_used == 1
    refused(state, Play(card="okugata-2", owner=0, house="daimyo"), "EDS-ACTION-4")
    refused(state, Play(card="okugata-1", owner=1, house="daimyo"), "EDS-ALLY-4")


def test_EDS_ACTION_5_an_action_gained_mid_turn_is_used_at_once() -> None:
    # Six ki: two actions. The Okugata (ki 3) makes nine: a third action at once.
    state = make(player(0, hand=("okugata-1", "warrior-5", "warrior-6")), player(1), player(2))
    _, state = send(state, Play(card="okugata-1", owner=0, house="samurai"))
    _, state = send(state, Play(card="warrior-5", owner=0, house="samurai"))
    assert Play(card="warrior-6", owner=0, house="daimyo") in RULES.legal(state, 0)
    _, state = send(state, Play(card="warrior-6", owner=0, house="daimyo"))
    assert state.actions_used == 3
    refused(state, Draw(), "EDS-ACTION-1")


def test_EDS_ACTION_6_discard_any_card_without_effect() -> None:
    state = make(player(0, hand=("save-face-1", "daimyo-oda")), player(1), player(2))
    events, after = send(state, Discard(card="daimyo-oda"))
    assert kinds(events) == ["CardDiscarded"] and after.discard == ("daimyo-oda",)
    assert after.players[0].daimyo == "daimyo-asai"
    _, after = send(after, Discard(card="save-face-1"))
    assert after.discard == ("daimyo-oda", "save-face-1")
    refused(after, Discard(card="save-face-1"), "EDS-ACTION-1")


def test_EDS_HOUSE_1_one_okugata_per_house() -> None:
    state = make(player(0, samurai_house=("okugata-1",), hand=("okugata-2",)), player(1), player(2))
    refused(state, Play(card="okugata-2", owner=0, house="samurai"), "EDS-HOUSE-1")
    _, after = send(state, Play(card="okugata-2", owner=0, house="daimyo"))
    assert after.players[0].daimyo_house == ("okugata-2",)


def test_EDS_HOUSE_2_five_warriors_per_house() -> None:
    state = make(player(0, samurai_house=WARRIORS, hand=("warrior-9",)), player(1), player(2))
    error = refused(state, Play(card="warrior-9", owner=0, house="samurai"), "EDS-HOUSE-2")
    assert "5 warriors" in error.reason
    _, after = send(state, Play(card="warrior-9", owner=0, house="daimyo"))
    assert after.players[0].daimyo_house == ("warrior-9",)


def test_EDS_HOUSE_3_a_castle_only_in_a_daimyo_house_one_each() -> None:
    state = make(player(0, hand=("castle-himeji", "castle-kumamoto")), player(1), player(2))
    refused(state, Play(card="castle-himeji", owner=0, house="samurai"), "EDS-HOUSE-3")
    _, after = send(state, Play(card="castle-himeji", owner=0, house="daimyo"))
    refused(after, Play(card="castle-kumamoto", owner=0, house="daimyo"), "EDS-HOUSE-3")
    ronin = make(player(0, None, hand=("castle-himeji",)), player(1), player(2))
    refused(ronin, Play(card="castle-himeji", owner=0, house="daimyo"), "EDS-ACTION-4")


def test_EDS_HOUSE_4_one_bodyguard_per_house_possessions_without_limit() -> None:
    state = make(
        player(0, daimyo_house=("bodyguard-1", "daisho", "no-dachi"),
               hand=("bodyguard-2", "masamune")),
        player(1), player(2),
    )  # fmt: skip
    refused(state, Play(card="bodyguard-2", owner=0, house="daimyo"), "EDS-HOUSE-4")
    _, after = send(state, Play(card="masamune", owner=0, house="daimyo"))
    assert after.players[0].daimyo_house[-1] == "masamune"
    _, after = send(after, Play(card="bodyguard-2", owner=0, house="samurai"))
    assert after.players[0].samurai_house == ("bodyguard-2",)


def test_EDS_HOUSE_5_a_daimyo_founds_a_house_only_for_a_player_without_one() -> None:
    state = make(player(0, hand=("daimyo-oda",)), player(1), player(2))
    refused(state, Play(card="daimyo-oda", owner=0, house="daimyo"), "EDS-HOUSE-5")
    ronin = make(player(0, None, hand=("daimyo-oda",)), player(1), player(2))
    refused(ronin, Play(card="daimyo-oda", owner=0, house="samurai"), "EDS-HOUSE-5")
    events, after = send(ronin, Play(card="daimyo-oda", owner=0, house="daimyo"))
    assert kinds(events) == ["DaimyoRaised"] and after.players[0].daimyo == "daimyo-oda"
    assert not after.players[0].is_ronin


def test_EDS_END_1_end_the_turn_and_the_left_neighbour_goes_next() -> None:
    state = make(player(0), player(1), player(2), player(3), turn=3)
    events, after = send(state, EndTurn())
    assert kinds(events)[:3] == ["TurnEnded", "TurnBegan", "HonourCollected"]
    assert after.turn == 0 and after.round == 2 and after.actions_used == 0
    with pytest.raises(NotAwaited):
        send(after, Draw(), seat=2)
    with pytest.raises(IllegalCommand) as caught:  # the rules refuse it too, engine aside
        RULES.decide(after, Draw(), Context(2, 9, 0))
    assert caught.value.rule == "EDS-END-1"
    _, again = send(after, EndTurn())
    assert again.turn == 1 and again.round == 2


def test_EDS_DECLARE_1_at_most_one_declaration_per_turn() -> None:
    state = make(player(0, None), player(1), player(2, hand=()))
    _, allied = send(state, Ally(target=1))
    assert allied.declared
    refused(allied, LeaveAlliance(), "EDS-DECLARE-1")
    refused(allied, DeclareShogun(), "EDS-DECLARE-1")
    assert EndTurn() in RULES.legal(allied, 0)
