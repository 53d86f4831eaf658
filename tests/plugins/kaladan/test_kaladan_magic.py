"""Magic declarations, what the cards do, and what stays hidden (KAL-MAGIC, KAL-CARD, KAL-HIDDEN)."""

from __future__ import annotations

import pytest
from gamehall.core import NotAwaited
from gamehall.plugins.kaladan.commands import (
    AssassinateUnit,
    Attack,
    BuyMagic,
    DeclareMagic,
    FinishMagic,
    LevyUnit,
    RestoreUnit,
    ShiftUnit,
    SwapMagic,
)
from gamehall.plugins.kaladan.events import (
    BattleEnded,
    BattleJoined,
    CrownFell,
    DiceCompared,
    DiceRolled,
    EventDeckShuffled,
    MagicBought,
    MagicDealt,
    MagicDeclared,
    MagicRevealed,
    MagicSwapped,
    TilesShuffled,
    UnitAssassinated,
)
from gamehall.plugins.kaladan.render import render
from gamehall.plugins.kaladan.state import Options
from kaladan_helpers import RULESET, battle_of, make, of, refused, send, unit

RULES = RULESET.rules
DAWN, HARMONY, KEEP, LEVIES = (
    "khalisia/dawns-sword",
    "khalisia/harmony-of-the-sun",
    "khalisia/keep-of-khalisia",
    "khalisia/foundry-levies",
)
PINES, SNARE = "verdance/whispering-pines", "verdance/root-snare"
CROWNS = {4: (0, ["crown"]), 6: (1, ["crown"])}


def armed(
    attack: list[str], defence: list[str], hands: dict[int, list[str]], **kw: object
) -> object:
    state = make(units={1: (0, attack), 2: (1, defence), **CROWNS}, hands=hands, **kw)  # type: ignore[arg-type]
    _, declaring = send(state, 0, Attack(origin=1, target=2))  # type: ignore[arg-type]
    return declaring


def test_KAL_MAGIC_1_only_the_two_generals_of_the_battle_declare() -> None:
    state = make(3, units={1: (0, ["sword"]), 2: (1, ["shield"]), 4: (2, ["crown"])},
                 hands={0: [DAWN], 1: [PINES], 2: ["highcrag/avalanche"]})  # fmt: skip
    _, declaring = send(state, 0, Attack(origin=1, target=2))
    assert set(RULES.awaiting(declaring)) == {0}
    with pytest.raises(NotAwaited):
        send(declaring, 2, DeclareMagic(card="highcrag/avalanche"))


def test_KAL_MAGIC_2_the_attacker_declares_first_then_the_defender() -> None:
    declaring = armed(["sword"], ["shield"], {0: [DAWN], 1: [PINES]})
    assert set(RULES.awaiting(declaring)) == {0}
    refused(declaring, 1, DeclareMagic(card=PINES), "KAL-MAGIC-2")  # type: ignore[arg-type]
    _, after = send(declaring, 0, DeclareMagic(card=DAWN))  # type: ignore[arg-type]
    assert set(RULES.awaiting(after)) == {1}
    both = armed(
        ["sword"], ["shield"], {0: [DAWN], 1: [PINES]}, options=Options(magic_order="simultaneous")
    )
    assert set(RULES.awaiting(both)) == {0, 1}
    _, after = send(both, 1, DeclareMagic(card=""))  # type: ignore[arg-type]
    assert set(RULES.awaiting(after)) == {0}


def test_KAL_MAGIC_3_each_plays_a_card_or_passes() -> None:
    declaring = armed(["sword"], ["shield"], {0: [DAWN]})
    assert set(RULES.legal(declaring, 0)) == {DeclareMagic(card=""), DeclareMagic(card=DAWN)}  # type: ignore[arg-type]
    refused(declaring, 0, DeclareMagic(card=HARMONY), "KAL-MAGIC-3")  # type: ignore[arg-type]
    events, _ = send(declaring, 0, DeclareMagic(card=""), rolls=[3, 3])  # type: ignore[arg-type]
    passes = of(events, MagicDeclared)
    assert [(d.seat, d.uses) for d in passes] == [(0, False), (1, False)]  # seat 1 has no card


def test_KAL_MAGIC_4_a_declaration_is_final() -> None:
    declaring = armed(["sword"], ["shield"], {0: [DAWN, HARMONY], 1: [PINES]})
    _, after = send(declaring, 0, DeclareMagic(card=DAWN))  # type: ignore[arg-type]
    refused(after, 0, DeclareMagic(card=HARMONY), "KAL-MAGIC-4")
    fighting = armed(["sword", "archer"], ["shield", "shield", "shield"], {0: [DAWN], 1: [PINES]})
    _, after = send(fighting, 0, DeclareMagic(card=DAWN))  # type: ignore[arg-type]
    _, after = send(after, 1, DeclareMagic(card=PINES), rolls=[12, 10, 1, 1, 1, 1])
    assert battle_of(after).step == "losses"
    refused(after, 1, DeclareMagic(card=""), "KAL-MAGIC-4")
    refused(after, 0, DeclareMagic(card=""), "KAL-MAGIC-4")


def test_KAL_MAGIC_5_cards_are_revealed_only_after_both_declared() -> None:
    declaring = armed(["sword"], ["shield"], {0: [DAWN], 1: [PINES]})
    events, after = send(declaring, 0, DeclareMagic(card=DAWN))  # type: ignore[arg-type]
    declared = events[0]
    assert RULES.redact(declared, 1).card is None and RULES.redact(declared, None).card is None
    assert RULES.redact(declared, 0).card == DAWN and RULES.redact(declared, 1).uses
    assert DAWN in RULES.hidden(after, 1) and DAWN not in RULES.hidden(after, 0)
    events, _ = send(after, 1, DeclareMagic(card=PINES), rolls=[5, 5, 5])
    revealed = of(events, MagicRevealed)[0]
    assert (revealed.attacker, revealed.defender) == (DAWN, PINES)
    assert RULES.redact(revealed, None) == revealed


def test_KAL_MAGIC_6_swap_a_card_for_2_gold() -> None:
    state = make(units=CROWNS, phase="purchase", hands={0: [DAWN]}, gold=[2, 0])
    events, after = send(state, 0, SwapMagic(card=DAWN))
    swapped = of(events, MagicSwapped)[0]
    assert swapped.returned == DAWN and swapped.drawn != DAWN and after.gold[0] == 0
    assert after.hands[0] == (swapped.drawn,) and DAWN in after.piles["khalisia"]
    assert RULES.redact(swapped, 1).drawn is None
    refused(after, 0, SwapMagic(card=after.hands[0][0]), "KAL-MAGIC-6")


def test_KAL_MAGIC_7_buy_an_extra_card_for_4_gold() -> None:
    state = make(units=CROWNS, phase="purchase", gold=[4, 3])
    events, after = send(state, 0, BuyMagic(realm="khalisia"))
    bought = of(events, MagicBought)[0]
    assert after.hands[0] == (bought.card,) and after.gold[0] == 0
    assert RULES.redact(bought, 1).card is None
    refused(after, 0, BuyMagic(realm="khalisia"), "KAL-MAGIC-7")
    refused(
        make(units=CROWNS, phase="purchase", gold=[9, 9]),
        0,
        BuyMagic(realm="verdance"),
        "KAL-MAGIC-7",
    )


# -- what the cards do ---------------------------------------------------------------------------


def test_KAL_CARD_1_a_revealed_card_is_spent_and_acts_at_its_timing() -> None:
    declaring = armed(["sword"], ["shield", "shield"], {0: [LEVIES]})
    _, after = send(declaring, 0, DeclareMagic(card=LEVIES))  # type: ignore[arg-type]
    assert LEVIES in after.spent and LEVIES not in after.hands[0]
    assert battle_of(after).step == "effect" and set(RULES.awaiting(after)) == {0}
    events, after = send(after, 0, FinishMagic(), rolls=[8, 1, 1])
    assert of(events, BattleJoined)[0].attackers == declaring.board[1]  # type: ignore[attr-defined]


def test_KAL_CARD_2_harmony_moves_units_between_own_adjacent_tiles() -> None:
    state = make(units={1: (0, ["sword"]), 0: (0, ["general", "archer"]), 2: (1, ["shield"]), **CROWNS},
                 hands={0: [HARMONY]})  # fmt: skip
    _, after = send(state, 0, Attack(origin=1, target=2))
    _, after = send(after, 0, DeclareMagic(card=HARMONY))
    choices = RULES.legal(after, 0)
    general = unit(state, 0, "general")
    assert ShiftUnit(unit=general, to=1) in choices
    assert not [c for c in choices if isinstance(c, ShiftUnit) and c.to == 2]
    refused(after, 0, ShiftUnit(unit=general, to=2), "KAL-CARD-2")
    _, after = send(after, 0, ShiftUnit(unit=general, to=1))
    events, after = send(after, 0, FinishMagic(), rolls=[8, 12, 1])
    assert general in of(events, BattleJoined)[0].attackers


def test_KAL_CARD_3_levies_bring_reserve_units_into_the_battle() -> None:
    declaring = armed(["sword"], ["shield", "shield"], {0: [LEVIES]})
    _, after = send(declaring, 0, DeclareMagic(card=LEVIES))  # type: ignore[arg-type]
    assert set(RULES.legal(after, 0)) == {
        LevyUnit(kind="sword"), LevyUnit(kind="shield"), LevyUnit(kind="archer"), FinishMagic()
    }  # fmt: skip
    refused(after, 0, LevyUnit(kind="catapult"), "KAL-CARD-3")
    _, after = send(after, 0, LevyUnit(kind="archer"))
    events, after = send(after, 0, LevyUnit(kind="shield"), rolls=[8, 10, 6, 1, 1])
    joined = of(events, BattleJoined)[0]
    assert len(joined.attackers) == 3  # two levied, and the card ended after two


def test_KAL_CARD_4_dawns_sword_makes_every_sword_roll_a_d12() -> None:
    declaring = armed(["sword", "sword", "archer"], ["shield"], {0: [DAWN]},
                      upgraded=("khalisia/sword-2",))  # fmt: skip
    events, _ = send(declaring, 0, DeclareMagic(card=DAWN), rolls=[12, 12, 10, 1])  # type: ignore[arg-type]
    sides = [d.sides for d in of(events, DiceRolled)[0].attack]
    assert sides == [12, 12, 10]


def _keep_state(keep_card: str = KEEP) -> object:
    return make(
        units={2: (0, ["crown", "shield"]), 1: (1, ["general", "sword"]), 6: (1, ["crown"])},
        castles={2: 0},
        hands={0: [keep_card]},
        turn=1,
    )


def test_KAL_CARD_5_keep_brings_killed_units_back_onto_the_castle() -> None:
    state = _keep_state()
    _, after = send(state, 1, Attack(origin=1, target=2))  # type: ignore[arg-type]
    assert set(RULES.awaiting(after)) == {0}  # the attacker had no card and passed
    events, after = send(after, 0, DeclareMagic(card=KEEP), rolls=[12, 8, 1, 1, 1])
    assert (
        of(events, DiceRolled)[0].defence[0].sides == 8
    )  # the Crown in its own Castle (then the castle die)
    assert battle_of(after).step == "keep" and not after.board[2]
    crown = unit(state, 2, "crown")  # type: ignore[arg-type]
    _, after = send(after, 0, RestoreUnit(unit=crown))
    events, after = send(after, 0, FinishMagic())
    assert not of(events, CrownFell) and after.alive[0] and after.board[2] == (crown,)
    assert of(events, BattleEnded)[0].result == "defender"
    elsewhere = make(
        units={1: (0, ["sword"]), 2: (1, ["shield"]), **CROWNS}, hands={1: ["highcrag/deep-halls"]}
    )
    _, after = send(elsewhere, 0, Attack(origin=1, target=2))
    refused(after, 1, DeclareMagic(card="highcrag/deep-halls"), "KAL-CARD-5")


def test_KAL_CARD_6_an_assassin_kills_before_the_units_are_fixed() -> None:
    state = make(units={1: (1, ["sword"]), 2: (0, ["shield", "general"]), 4: (0, ["crown"]), 6: (1, ["crown"])},
                 hands={1: [SNARE]}, turn=1)  # fmt: skip
    _, after = send(state, 1, Attack(origin=1, target=2))
    _, after = send(after, 1, DeclareMagic(card=SNARE))
    assert RULES.legal(after, 1) == [AssassinateUnit(unit=unit(state, 2, "shield")), FinishMagic()]
    refused(after, 1, AssassinateUnit(unit=unit(state, 2, "general")), "KAL-CARD-6")
    events, after = send(after, 1, AssassinateUnit(unit=unit(state, 2, "shield")), rolls=[1, 1])
    assert of(events, UnitAssassinated)[0].owner == 0
    assert unit(state, 2, "shield") in after.graveyard[1]
    assert of(events, BattleJoined)[0].defenders == (unit(state, 2, "general"),)


def test_KAL_CARD_7_extra_dice_and_wards() -> None:
    state = make(units={1: (0, ["sword"]), 2: (1, ["shield"]), **CROWNS}, hands={1: [PINES]})
    _, after = send(state, 0, Attack(origin=1, target=2))
    events, _ = send(after, 1, DeclareMagic(card=PINES), rolls=[8, 1, 10])
    assert [(d.sides, d.source) for d in of(events, DiceRolled)[0].defence][-1] == (
        10,
        "whispering-pines",
    )
    tide = make(5, units={1: (0, ["sword", "sword"]), 2: (4, ["shield", "shield"]), 5: (0, ["crown"]), 9: (4, ["crown"])},
                hands={4: ["tidereach/sea-wall"]})  # fmt: skip
    _, after = send(tide, 0, Attack(origin=1, target=2))
    events, after = send(after, 4, DeclareMagic(card="tidereach/sea-wall"), rolls=[8, 8, 1, 1])
    compared = of(events, DiceCompared)[0]
    assert compared.defender_losses == 1 and compared.warded == (0, 1)


# -- hidden information -----------------------------------------------------------------------------


def test_KAL_HIDDEN_1_hands_and_other_piles_stay_secret() -> None:
    state = make(units=CROWNS, hands={0: [DAWN], 1: [PINES]})
    mine, theirs = RULES.view(state, 0), RULES.view(state, 1)
    assert mine.state.hands == ((DAWN,), ()) and theirs.state.hands == ((), (PINES,))
    assert mine.hand_sizes == (1, 1) and theirs.state.piles["khalisia"] == ()
    assert theirs.pile_sizes["khalisia"] == 3
    dealt = MagicDealt(seat=0, card=DAWN)
    assert RULES.redact(dealt, 1).card is None and RULES.redact(dealt, 0).card == DAWN
    assert {DAWN, "khalisia/keep-of-khalisia"} <= set(RULES.hidden(state, 1))


def test_KAL_HIDDEN_2_the_event_deck_order_is_seen_by_no_one() -> None:
    state = make(units=CROWNS)
    for seat in (0, 1, None):
        seen = RULES.view(state, seat)
        assert seen.state.deck == () and seen.deck_size == len(state.deck)
    shuffled = EventDeckShuffled(size=2, order=("training#1", "training#2"))
    assert all(RULES.redact(shuffled, s).order is None for s in (0, 1, None))
    assert "training#1" in RULES.hidden(state, 0)


def test_KAL_HIDDEN_3_the_tile_drawing_order_is_seen_by_no_one() -> None:
    shuffled = TilesShuffled(count=2, order=("forest", "field"))
    assert all(RULES.redact(shuffled, s).order is None for s in (0, 1, None))
    from gamehall.core import Table

    table = Table.new("kaladan", 2, seed=5)
    placed = [e for e in table.events if type(e).__name__ == "TilePlaced"]
    assert [e.tile for e in placed] == list(range(7))
    assert [e.seat for e in placed][:2] == [table.state.order[0], table.state.order[1]]


def test_KAL_HIDDEN_4_a_declared_card_is_hidden_that_one_is_used_is_not() -> None:
    declaring = armed(["sword"], ["shield"], {0: [DAWN], 1: [PINES]})
    _, after = send(declaring, 0, DeclareMagic(card=DAWN))  # type: ignore[arg-type]
    theirs = RULES.view(after, 1)
    assert theirs.uses == (True, False) and theirs.state.battle.cards == ("", "")
    assert "declared a hidden magic card" in render(theirs)
    assert "Dawn's Sword" in render(RULES.view(after, 0))
