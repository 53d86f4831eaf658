"""The declarations: Shogun and attack, and the fight with its dice, castle and Shogun."""

from __future__ import annotations

import pytest
from eds_helpers import RULES, awaited, kinds, make, player, refused, send
from gamehall.core import (
    Context,
    ExpansionSpec,
    IllegalCommand,
    NotAwaited,
    Registry,
    engine,
    hookimpl,
)
from gamehall.plugins.ehre_der_samurai.api import Numbers
from gamehall.plugins.ehre_der_samurai.commands import (
    Attack,
    DeclareShogun,
    Draw,
    EndTurn,
    LeaveCastle,
    Pass,
    Play,
    SaveFace,
    SendAssassin,
    TakeCastle,
)
from gamehall.plugins.ehre_der_samurai.events import AttackDeclared, FightRolled
from gamehall.plugins.ehre_der_samurai.state import State

STRONG = ("warrior-41", "warrior-42", "warrior-43", "warrior-44", "warrior-45")


def strong_attacker(**changes: object) -> State:
    """Return Owari (six dice) to attack Kai (one die, Castle Himeji), Echigo looking on."""
    return make(
        player(0, "daimyo-takeda", daimyo_house=STRONG, hand=("warrior-1",)),
        player(1, "daimyo-asai", daimyo_house=("castle-himeji",)),
        player(2, "daimyo-mori"),
        **changes,  # type: ignore[arg-type]
    )


def everyone_passes(state: State, seats: tuple[int, ...] = (0, 1, 2)) -> State:
    """Answer the open window with a pass from each seat."""
    for seat in seats:
        _, state = send(state, Pass(), seat)
    return state


def won(state: State, target: int, winner: int) -> tuple[list[object], State]:
    """Attack with the first seed that gives ``winner`` the fight."""
    for seed in range(50):
        events, after = send(state, Attack(target=target), seed=seed)
        rolled = next(e for e in events if isinstance(e, FightRolled))
        if rolled.winner == winner:
            return list(events), after
    raise AssertionError("no seed lets that side win")


def test_EDS_SHOGUN_1_only_while_nobody_holds_it_into_the_daimyo_house() -> None:
    state = make(player(0), player(1), player(2))
    events, after = send(state, DeclareShogun())
    assert kinds(events) == ["ShogunDeclared"] and after.shogun == 0
    assert "shogun" in after.players[0].daimyo_house
    held = make(player(0), player(1, "daimyo-oda"), player(2), shogun=1)
    refused(held, DeclareShogun(), "EDS-SHOGUN-1")


def test_EDS_SHOGUN_2_only_with_a_daimyo() -> None:
    refused(make(player(0, None), player(1), player(2)), DeclareShogun(), "EDS-SHOGUN-2")


def test_EDS_SHOGUN_3_a_duty_from_100_honour_unless_the_option_is_off() -> None:
    state = make(player(0, honour=100, hand=("warrior-1",)), player(1), player(2))
    assert RULES.legal(state, 0)[-1] == DeclareShogun() and EndTurn() not in RULES.legal(state, 0)
    refused(state, EndTurn(), "EDS-SHOGUN-3")
    refused(state, Attack(target=1), "EDS-SHOGUN-3")
    _, played = send(state, Play(card="warrior-1", owner=0, house="samurai"))
    assert "declare your Daimyo Shogun" in RULES.awaiting(played)[0].prompt
    _, declared = send(played, DeclareShogun())
    _, ended = send(declared, EndTurn())
    assert ended.turn == 1
    free = make(player(0, honour=250), player(1), player(2), shogun_obligation=False)
    _, ended = send(free, EndTurn())
    assert ended.turn == 1 and ended.shogun is None
    below = make(player(0, honour=99), player(1), player(2))
    assert EndTurn() in RULES.legal(below, 0)


def test_EDS_SHOGUN_4_the_shogun_counts_like_a_card_of_its_house() -> None:
    state = make(player(0), player(1, "daimyo-asai"), player(2), shogun=1)
    shogun = RULES.cards["shogun"]
    assert (shogun.honour, shogun.ki, shogun.strength) == (100, 0, 0)
    assert RULES.values.strength_of(state.players[1]) == 1 + shogun.strength
    events, _ = send(state, EndTurn())
    assert events[2].honour == 5 + 100


def test_EDS_SHOGUN_5_a_house_falling_outside_a_fight_returns_the_shogun() -> None:
    state = make(player(0, hand=("assassin-1",)), player(1, "daimyo-oda"), player(2), shogun=1)
    events, after = send(state, SendAssassin(card="assassin-1", owner=1, house="daimyo"))
    assert kinds(events) == ["AssassinSent", "ShogunReturned", "HouseDiscarded"]
    assert after.shogun is None and "shogun" not in after.discard
    assert DeclareShogun() in RULES.legal(after, 0)


def test_EDS_ATTACK_1_only_the_shogun_or_a_castle_holder_may_be_attacked() -> None:
    state = strong_attacker()
    refused(state, Attack(target=2), "EDS-ATTACK-1")
    refused(state, Attack(target=0), "EDS-ATTACK-1")
    assert Attack(target=1) in RULES.legal(state, 0)
    shogun = strong_attacker(shogun=2)
    assert {Attack(target=1), Attack(target=2)} <= set(RULES.legal(shogun, 0))


def test_EDS_ATTACK_2_a_ronin_may_not_attack() -> None:
    state = make(player(0, None, samurai_house=STRONG), player(1, "daimyo-oda"), player(2),
                 shogun=1)  # fmt: skip
    refused(state, Attack(target=1), "EDS-ATTACK-2")
    assert not [c for c in RULES.legal(state, 0) if isinstance(c, Attack)]


def test_EDS_ATTACK_3_one_die_per_three_strength_at_most_six_the_ally_added() -> None:
    state = make(
        player(0, "daimyo-takeda", daimyo_house=STRONG, samurai_house=("firearms",)),
        player(1, "daimyo-asai", daimyo_house=("castle-himeji",), ally=2),
        player(2, None, samurai_house=("warrior-22",), ally=1),
    )
    events, _ = send(state, Attack(target=1), seed=1)
    declared = next(e for e in events if isinstance(e, AttackDeclared))
    # Owari 5 + 15 + 9 = 29 (capped at six dice); Kai 1 + 3 and its ally Echigo 2: two dice.
    assert declared.strength == (29, 6) and declared.dice == (6, 2)
    rolled = next(e for e in events if isinstance(e, FightRolled))
    assert all(len(r) == 6 for r in rolled.attacker_rolls)
    assert all(len(r) == 2 for r in rolled.defender_rolls)


class FiveStrengthADie:
    """A test expansion: one die per five strength, so a weak defender rolls none."""

    @hookimpl
    def ehre_der_samurai_numbers(self) -> Numbers:
        return Numbers(strength_per_die=5)


class FiveStrengthPlugin:
    @hookimpl
    def gamehall_expansions(self) -> list[ExpansionSpec]:
        spec = ExpansionSpec("eds-five", "Five", "1.0.0", "ehre-der-samurai",
                             hookimpls=(FiveStrengthADie(),))  # fmt: skip
        return [spec]


def test_EDS_ATTACK_4_an_attacker_without_a_die_may_not_attack() -> None:
    # Owari: Hojo, strength 1; Kai: Asai 1 and Castle Himeji 3.
    state = make(player(0, "daimyo-hojo"), player(1, "daimyo-asai",
                 daimyo_house=("castle-himeji",)), player(2))  # fmt: skip
    error = refused(state, Attack(target=1), "EDS-ATTACK-4")
    assert "no die" in error.reason
    # A defender without a die rolls nothing: with one die per five strength, Kai has none.
    ruleset = Registry([FiveStrengthPlugin()]).ruleset("ehre-der-samurai", ["eds-five"])
    strong = strong_attacker()
    events, _ = engine.decide(ruleset, strong, 0, Attack(target=1), Context(0, 5, 0))
    declared = next(e for e in events if isinstance(e, AttackDeclared))
    rolled = next(e for e in events if isinstance(e, FightRolled))
    assert declared.dice == (4, 0) and rolled.defender_rolls == ((),) and rolled.winner == 0


def test_EDS_ATTACK_5_both_roll_the_higher_sum_wins_a_tie_rolls_again() -> None:
    state = make(
        player(0, "daimyo-date"),
        player(1, "daimyo-date", daimyo_house=("castle-himeji",)),
        player(2),
    )
    ties = None
    for seed in range(200):
        events, _ = send(state, Attack(target=1), seed=seed)
        rolled = next(e for e in events if isinstance(e, FightRolled))
        sums = [(sum(a), sum(d)) for a, d in zip(rolled.attacker_rolls, rolled.defender_rolls)]
        assert all(a == d for a, d in sums[:-1]) and sums[-1][0] != sums[-1][1]
        winner = 0 if sums[-1][0] > sums[-1][1] else 1
        assert rolled.winner == winner and rolled.loser == 1 - winner
        if len(sums) > 1:
            ties = rolled
            break
    assert ties is not None, "no seed gave a tie"
    assert all(len(r) == 1 for r in ties.attacker_rolls), "one die each: Date 4 strength"


def test_EDS_ATTACK_6_the_loser_discards_the_daimyo_house_and_becomes_ronin() -> None:
    _, fought = won(strong_attacker(), 1, 0)
    assert awaited(fought) == {0: "reaction", 1: "reaction", 2: "reaction"}
    after = everyone_passes(fought)
    assert awaited(after) == {0: "castle"}
    events, done = send(after, LeaveCastle(), 0)
    assert kinds(events) == ["CastleLeft", "HouseDiscarded", "FightEnded"]
    assert done.players[1].daimyo is None and done.players[1].is_ronin
    assert {"daimyo-asai", "castle-himeji"} <= set(done.discard)


def test_EDS_ATTACK_7_the_winner_takes_or_swaps_the_castle() -> None:
    _, fought = won(strong_attacker(), 1, 0)
    fought = everyone_passes(fought)
    assert RULES.legal(fought, 0) == [TakeCastle(), LeaveCastle()]
    with pytest.raises(NotAwaited):
        send(fought, TakeCastle(), 1)
    with pytest.raises(IllegalCommand, match="EDS-ATTACK-7"):
        RULES.decide(fought, TakeCastle(), Context(1, 9, 0))
    _, taken = send(fought, TakeCastle(), 0)
    assert "castle-himeji" in taken.players[0].daimyo_house
    swap = make(
        player(0, "daimyo-takeda", daimyo_house=(*STRONG, "castle-matsumoto")),
        player(1, "daimyo-asai", daimyo_house=("castle-himeji",)),
        player(2),
    )
    _, fought = won(swap, 1, 0)
    fought = everyone_passes(fought)
    events, swapped = send(fought, TakeCastle(), 0)
    assert events[0].swapped == "castle-matsumoto"
    assert "castle-himeji" in swapped.players[0].daimyo_house
    assert "castle-matsumoto" in swapped.discard, "it went to the loser's falling house"
    # The defender wins: the castle choice is the defender's, out of turn.
    weak = make(
        player(0, "daimyo-date", daimyo_house=("castle-kumamoto",)),
        player(1, "daimyo-takeda", daimyo_house=STRONG),
        player(2),
        shogun=1,
    )
    _, fought = won(weak, 1, 1)
    fought = everyone_passes(fought)
    assert awaited(fought) == {1: "castle"}
    _, done = send(fought, TakeCastle(), 1)
    assert done.turn == 0 and "castle-kumamoto" in done.players[1].daimyo_house
    assert done.players[0].daimyo is None


def test_EDS_ATTACK_8_save_face_keeps_the_house_the_spoils_still_go() -> None:
    state = strong_attacker(shogun=1)
    state = make(*state.players[:2], player(2, hand=("save-face-2",)), shogun=1)
    _, fought = won(state, 1, 0)
    _, fought = send(fought, SaveFace(card="save-face-2"), 2)
    fought = everyone_passes(fought, (0, 1))
    events, done = send(fought, TakeCastle(), 0)
    assert kinds(events) == ["CastleTaken", "ShogunPassed", "FightEnded"]
    assert done.players[1].daimyo == "daimyo-asai" and done.shogun == 0
    cancel = make(*state.players, shogun=1, save_face_cancels_fight=True)
    _, fought = won(cancel, 1, 0)
    _, fought = send(fought, SaveFace(card="save-face-2"), 2)
    events, done = send(everyone_passes(fought, (0,)), Pass(), 1)
    assert kinds(events)[-2:] == ["WindowClosed", "FightEnded"]
    assert done.shogun == 1 and "castle-himeji" in done.players[1].daimyo_house


def test_EDS_ATTACK_9_the_shogun_passes_to_the_winner() -> None:
    state = make(
        player(0, "daimyo-takeda", daimyo_house=STRONG),
        player(1, "daimyo-asai"),
        player(2),
        shogun=1,
    )
    _, fought = won(state, 1, 0)
    events, done = send(everyone_passes(fought, (0, 1)), Pass(), 2)
    assert "ShogunPassed" in kinds(events) and done.shogun == 0
    assert "shogun" in done.players[0].daimyo_house and "shogun" not in done.discard


def test_EDS_ATTACK_10_the_attackers_turn_goes_on_after_the_fight() -> None:
    _, fought = won(strong_attacker(), 1, 0)
    refused(fought, Draw(), "EDS-SAVE-3", seat=0)
    _, done = send(everyone_passes(fought), LeaveCastle(), 0)
    assert awaited(done) == {0: "turn"} and done.declared
    assert Play(card="warrior-1", owner=0, house="samurai") in RULES.legal(done, 0)
    assert not [c for c in RULES.legal(done, 0) if isinstance(c, Attack)]
