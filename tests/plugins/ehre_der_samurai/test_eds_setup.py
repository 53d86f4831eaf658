"""The cards, setup, phase 1, the win, negative honour and what each seat sees."""

from __future__ import annotations

from collections import Counter

import msgspec
import pytest
from eds_helpers import RULES, kinds, make, player, send, three
from gamehall.core import InvalidOptions, Table
from gamehall.plugins.ehre_der_samurai.cards import box
from gamehall.plugins.ehre_der_samurai.commands import EndTurn, Play
from gamehall.plugins.ehre_der_samurai.events import (
    CardDrawn,
    DeckShuffled,
    HandDealt,
    HonourCollected,
    MatchWon,
)


def _table(players: int = 4, seed: int = 1, **options: object) -> Table:
    return Table.new("ehre-der-samurai", players, options=options, seed=seed)


def test_EDS_CARDS_1_cards_carry_honour_ki_and_strength() -> None:
    cards = {c.id: c for c in box()}
    assert (cards["daimyo-oda"].honour, cards["daimyo-oda"].ki, cards["daimyo-oda"].strength) == (
        30,
        1,
        4,
    )
    assert (cards["samurai-1"].honour, cards["samurai-1"].ki, cards["samurai-1"].strength) == (
        0,
        6,
        0,
    )
    assert cards["noh-theatre"].label == "Noh Theatre (honour 20, ki 3, strength 0)"


def test_EDS_CARDS_2_action_cards_have_no_values_and_go_to_the_discard_pile() -> None:
    actions = [c for c in box() if c.kind in ("thief", "assassin", "dishonour", "save-face")]
    assert len(actions) == 26
    assert all((c.honour, c.ki, c.strength) == (0, 0, 0) and c.is_action for c in actions)
    assert all(c.label == c.name for c in actions)


def test_EDS_CARDS_3_the_box_holds_110_cards_by_kind_with_their_sources() -> None:
    cards = box()
    assert len(cards) == 110 and len({c.id for c in cards}) == 110
    counts = Counter(c.kind for c in cards)
    assert counts == {
        "shogun": 1, "daimyo": 10, "okugata": 9, "samurai": 6, "warrior": 45, "bodyguard": 5,
        "thief": 8, "assassin": 5, "dishonour": 9, "save-face": 4, "possession": 5, "castle": 3,
    }  # fmt: skip
    by_id = {c.id: c for c in cards}
    starting = sorted((c.honour, c.ki, c.strength) for c in cards if c.starting)
    assert starting == [(5, 0, 1)] * 3 + [(10, 0, 2)] * 3
    assert by_id["firearms"].honour == -20 and "E1" in by_id["firearms"].source
    okugata = [c.honour + c.ki for c in cards if c.kind == "okugata"]
    assert sorted(okugata) == [9] * 5 + [13] * 4
    assert all(1 <= c.ki + c.strength <= 3 for c in cards if c.kind == "warrior")
    assert all("ours" in c.source for c in cards if c.kind in ("castle", "bodyguard", "shogun"))


def test_EDS_SETUP_1_a_starting_daimyo_and_a_samurai_per_player() -> None:
    table = _table(5)
    starting = {c.id for c in box() if c.starting}
    for p in table.state.players:
        assert p.daimyo in starting and p.samurai.startswith("samurai-")
        assert p.daimyo_house == () and p.samurai_house == ()
    assert len({p.daimyo for p in table.state.players}) == 5
    drawn = {Table.new("ehre-der-samurai", 3, seed=s).state.players[0].daimyo for s in range(30)}
    assert len(drawn) > 2, "the starting Daimyo are drawn at random"


def test_EDS_SETUP_2_the_rest_is_shuffled_except_samurai_and_shogun() -> None:
    table = _table(3)
    state = table.state
    assert state.reserve == ("samurai-4", "samurai-5", "samurai-6")
    everything = [*state.deck, *(c for p in state.players for c in p.hand)]
    assert "shogun" not in everything and state.shogun is None
    assert not [c for c in everything if c.startswith("samurai")]
    unused = {c.id for c in box() if c.starting} - {p.daimyo for p in state.players}
    assert unused <= set(everything) and len(everything) == 110 - 1 - 6 - 3
    shuffled = next(e for e in table.events if isinstance(e, DeckShuffled))
    assert RULES.redact(shuffled, 0).order is None and RULES.redact(shuffled, None).order is None


def test_EDS_SETUP_3_seven_cards_each() -> None:
    table = _table(6)
    assert [len(p.hand) for p in table.state.players] == [7] * 6
    dealt = [e for e in table.events if isinstance(e, HandDealt)]
    assert [e.size for e in dealt] == [7] * 6


def test_EDS_SETUP_4_honour_starts_at_zero() -> None:
    table = _table(3, start_seat=2)
    assert [p.honour for p in table.state.players[:2]] == [0, 0]
    first = next(e for e in table.events if isinstance(e, HonourCollected))
    assert first.seat == 2 and first.total == first.honour


def test_EDS_SETUP_5_the_start_seat_is_an_option() -> None:
    assert _table(4).state.turn == 0
    assert _table(4, start_seat=3).state.turn == 3
    with pytest.raises(InvalidOptions, match="the starting player is seat 5"):
        _table(4, start_seat=4)


def test_EDS_HONOUR_1_own_daimyo_takes_the_honour_of_both_houses() -> None:
    state = make(
        player(0, hand=()),
        player(1, "daimyo-oda", daimyo_house=("okugata-6",), samurai_house=("daisho",)),
        player(2),
    )
    events, after = send(state, EndTurn())
    collected = next(e for e in events if isinstance(e, HonourCollected))
    assert (collected.seat, collected.honour, collected.source) == (1, 30 + 10 + 10, "own")
    assert after.players[1].honour == 50


def test_EDS_HONOUR_2_an_allied_ronin_takes_half_rounded_up() -> None:
    state = make(
        player(0),
        player(1, None, samurai_house=("okugata-5",), ally=2, honour=4),
        player(2, "daimyo-mori", daimyo_house=("okugata-8",), samurai_house=("noh-theatre",),
               ally=1),
    )  # fmt: skip
    events, after = send(state, EndTurn())
    collected = next(e for e in events if isinstance(e, HonourCollected))
    # Own 9 plus the allied Daimyo house 10 + 7 (the Noh Theatre in its Samurai house is not).
    assert (collected.honour, collected.source) == (13, "alliance")
    assert after.players[1].honour == 17
    negative = make(
        player(0),
        player(1, None, samurai_house=("firearms",), ally=2),
        player(2, "daimyo-asai", ally=1),
    )
    events, _ = send(negative, EndTurn())
    assert next(e for e in events if isinstance(e, HonourCollected)).honour == -7  # -15 / 2


def test_EDS_HONOUR_3_a_ronin_without_an_ally_takes_nothing() -> None:
    state = make(player(0), player(1, None, samurai_house=("noh-theatre",)), player(2))
    events, after = send(state, EndTurn())
    collected = next(e for e in events if isinstance(e, HonourCollected))
    assert (collected.honour, collected.source) == (0, "ronin") and after.players[1].honour == 0


def test_EDS_HONOUR_4_the_shogun_counts_only_if_still_held_at_the_next_turn() -> None:
    from gamehall.plugins.ehre_der_samurai.commands import Attack, DeclareShogun, Pass

    warriors = ("warrior-41", "warrior-42", "warrior-43", "warrior-44", "warrior-45")
    state = make(
        player(0, "daimyo-asai"),
        player(1, "daimyo-takeda", daimyo_house=warriors, samurai_house=("firearms",)),
        player(2),
    )
    _, declared = send(state, DeclareShogun())
    _, ended = send(declared, EndTurn())
    assert ended.turn == 1 and ended.shogun == 0
    # Kai (strength 5 + 15 + 9 = 29, six dice) attacks Owari (1 + 3 for the Shogun: one die).
    _, fought = send(ended, Attack(target=0), seed=3)
    for seat in (1, 2, 0):
        _, fought = send(fought, Pass(), seat)
    assert fought.shogun == 1 and fought.players[0].daimyo is None
    _, later = send(fought, EndTurn())
    events, back = send(later, EndTurn())
    collected = next(e for e in events if isinstance(e, HonourCollected))
    assert collected.seat == 0 and collected.honour == 0, "Owari never takes the Shogun's honour"
    events, _ = send(back, EndTurn())
    collected = next(e for e in events if isinstance(e, HonourCollected))
    assert (collected.seat, collected.honour) == (1, 20 + 100 - 20), "Kai holds it: it counts"


def test_EDS_WIN_1_the_target_is_reached_at_the_end_of_phase_1() -> None:
    state = make(player(0), player(1, "daimyo-oda", honour=370), player(2), honour_target=400)
    events, after = send(state, EndTurn())
    assert kinds(events)[-1] == "MatchWon" and after.winner == 1
    outcome = RULES.outcome(after)
    assert outcome.winners == (1,) and "400 honour" in outcome.reason
    assert RULES.awaiting(after) == {} and RULES.legal(after, 1) == []
    short = make(player(0), player(1, "daimyo-asai", honour=40), player(2), honour_target=45)
    events, after = send(short, EndTurn())
    assert isinstance(events[-1], MatchWon) and events[-1].honour == 45


def test_EDS_NEG_1_honour_may_be_negative() -> None:
    state = make(player(0), player(1, "daimyo-asai", samurai_house=("firearms",), honour=3),
                 player(2))  # fmt: skip
    _, after = send(state, EndTurn())
    assert after.players[1].honour == 3 + 5 - 20 == -12


def test_EDS_HIDDEN_1_hands_are_hidden_but_their_sizes_are_not() -> None:
    table = _table(4, seed=5)
    for seat in range(4):
        view = table.view(seat)
        assert view.players[seat].hand == table.state.players[seat].hand
        assert all(p.hand is None for p in view.players if p.seat != seat)
        assert [p.hand_size for p in view.players] == [7, 7, 7, 7]
    assert all(p.hand is None for p in table.view(None).players)
    dealt = next(e for e in table.events if isinstance(e, HandDealt) and e.seat == 2)
    assert RULES.redact(dealt, 2) == dealt and RULES.redact(dealt, 1).cards is None
    drawn = CardDrawn(seat=2, card="warrior-1")
    assert RULES.redact(drawn, 0).card is None and RULES.redact(drawn, 2).card == "warrior-1"
    assert set(table.state.players[1].hand) <= set(RULES.hidden(table.state, 0))


def test_EDS_HIDDEN_2_the_deck_order_is_hidden_the_houses_are_face_up() -> None:
    state = three(discard=("dishonour-1",))
    state = msgspec.structs.replace(
        state, players=(msgspec.structs.replace(state.players[0], hand=("warrior-1",)),
                        *state.players[1:]),
    )  # fmt: skip
    _, after = send(state, Play(card="warrior-1", owner=0, house="samurai"))
    for seat in (0, 1, None):
        view = RULES.view(after, seat)
        assert view.deck_size == len(after.deck) and not hasattr(view, "deck")
        assert view.players[0].samurai_house == ("warrior-1",)
        assert view.discard == ("dishonour-1",) and view.reserve == after.reserve
    assert set(after.deck) <= set(RULES.hidden(after, 0))
