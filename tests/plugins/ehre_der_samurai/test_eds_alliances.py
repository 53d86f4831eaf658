"""Alliances, leaving them, how they end early, and the Ninja thieves and assassins."""

from __future__ import annotations

import msgspec
from eds_helpers import RULES, kinds, make, player, refused, send
from gamehall.plugins.ehre_der_samurai.commands import (
    Ally,
    Attack,
    EndTurn,
    LeaveAlliance,
    LeaveCastle,
    Pass,
    PayHonour,
    Play,
    PlayDishonour,
    SaveFace,
    SendAssassin,
    SendThief,
)
from gamehall.plugins.ehre_der_samurai.events import AllianceEnded, FightRolled
from gamehall.plugins.ehre_der_samurai.state import State

STRONG = ("warrior-41", "warrior-42", "warrior-43", "warrior-44", "warrior-45")


def allied(**options: object) -> State:
    """Return Owari, a Ronin, allied with Kai; Echigo plays; hands hold the Ninja and more."""
    return make(
        player(0, None, samurai_house=("okugata-1",), hand=("assassin-1", "thief-1"), ally=1),
        player(1, "daimyo-oda", daimyo_house=("castle-himeji", "warrior-22"),
               samurai_house=("daisho",), ally=0),
        player(2, hand=("dishonour-1", "assassin-2", "save-face-1")),
        turn=2,
        **options,  # type: ignore[arg-type]
    )  # fmt: skip


def ended(events: list[object]) -> list[str]:
    """Return the reasons of the alliances ended among some events."""
    return [e.reason for e in events if isinstance(e, AllianceEnded)]


def test_EDS_ALLY_1_only_a_ronin_without_an_ally_declares_an_alliance() -> None:
    state = make(player(0), player(1), player(2))
    refused(state, Ally(target=1), "EDS-ALLY-1")
    taken = make(player(0, None, ally=1), player(1, ally=0), player(2))
    refused(taken, Ally(target=2), "EDS-ALLY-1")


def test_EDS_ALLY_2_with_another_player_who_has_a_daimyo_and_no_ally() -> None:
    state = make(player(0, None), player(1, None), player(2, ally=3), player(3, None, ally=2))
    refused(state, Ally(target=1), "EDS-ALLY-2")
    refused(state, Ally(target=2), "EDS-ALLY-2")
    refused(state, Ally(target=0), "EDS-ALLY-2")
    assert not [c for c in RULES.legal(state, 0) if isinstance(c, Ally)]


def test_EDS_ALLY_3_the_partner_must_accept_and_the_ronin_takes_honour() -> None:
    state = make(player(0, None), player(1, "daimyo-oda"), player(2))
    assert {Ally(target=1), Ally(target=2)} <= set(RULES.legal(state, 0))
    events, after = send(state, Ally(target=1))
    assert kinds(events) == ["AllianceFormed"] and list(RULES.awaiting(after)) == [0]
    assert after.players[0].ally == 1 and after.players[1].ally == 0
    for _ in range(3):
        events, after = send(after, EndTurn())
    assert events[2].source == "alliance" and events[2].honour == 15  # (0 + 30) / 2


def test_EDS_ALLY_4_allies_play_into_each_others_houses() -> None:
    state = make(
        player(0, None, hand=("warrior-1", "okugata-2"), ally=1),
        player(1, "daimyo-oda", ally=0),
        player(2),
    )
    legal = RULES.legal(state, 0)
    assert Play(card="warrior-1", owner=1, house="daimyo") in legal
    assert Play(card="warrior-1", owner=2, house="daimyo") not in legal
    _, after = send(state, Play(card="okugata-2", owner=1, house="samurai"))
    assert after.players[1].samurai_house == ("okugata-2",)
    refused(state, Play(card="warrior-1", owner=2, house="samurai"), "EDS-ALLY-4")


def test_EDS_ALLY_5_card_actions_count_only_the_own_houses() -> None:
    state = make(
        player(0, None, hand=("warrior-1", "warrior-2", "warrior-3"), ally=1),
        player(1, "daimyo-chosokabe", daimyo_house=("okugata-9",), ally=0),
        player(2),
    )
    _, state = send(state, Play(card="warrior-1", owner=1, house="daimyo"))
    _, state = send(state, Play(card="warrior-2", owner=1, house="daimyo"))
    refused(state, Play(card="warrior-3", owner=0, house="samurai"), "EDS-ACTION-1")


def test_EDS_ALLY_6_a_dishonour_on_an_ally_ends_the_alliance_unless_saved() -> None:
    state = allied()
    _, insulted = send(state, PlayDishonour(card="dishonour-1", victim=1))
    _, paid = send(insulted, PayHonour(), 1)
    events, after = send(paid, Pass(), 0)  # Owari, a bystander, is asked too (EDS-DISHONOUR-4)
    assert ended(events) == ["dishonour"] and after.players[0].ally is None
    owari, kai, echigo = allied().players
    saved = make(owari, msgspec.structs.replace(kai, hand=("save-face-2",)), echigo, turn=2)
    _, insulted = send(saved, PlayDishonour(card="dishonour-1", victim=1))
    events, after = send(insulted, SaveFace(card="save-face-2"), 1)
    assert ended(events) == [] and after.players[1].ally == 0
    partner_only = allied(dishonour_ends_alliance="partner", bystander_save_face=False)
    _, insulted = send(partner_only, PlayDishonour(card="dishonour-1", victim=1))
    events, after = send(insulted, PayHonour(), 1)
    assert ended(events) == [] and after.players[1].ally == 0


def test_EDS_ALLY_6_the_ronin_partner_may_save_its_ally_from_a_dishonour() -> None:
    owari, kai, echigo = allied().players
    state = make(msgspec.structs.replace(owari, hand=("save-face-1",)), kai, echigo, turn=2)
    _, insulted = send(state, PlayDishonour(card="dishonour-1", victim=1))
    _, paid = send(insulted, PayHonour(), 1)
    events, after = send(paid, SaveFace(card="save-face-1"), 0)
    assert ended(events) == [] and after.players[1].ally == 0
    assert after.players[1].honour == kai.honour, "saved: nothing is paid"


def test_EDS_ALLY_7_an_assassination_of_the_daimyo_or_the_ronin_ends_it() -> None:
    events, after = send(allied(), SendAssassin(card="assassin-2", owner=1, house="daimyo"))
    assert ended(events) == ["assassination"] and after.players[1].is_ronin
    events, after = send(allied(), SendAssassin(card="assassin-2", owner=0, house="samurai"))
    assert ended(events) == ["assassination"] and after.players[0].samurai_house == ()
    events, after = send(allied(), SendAssassin(card="assassin-2", owner=1, house="samurai"))
    assert ended(events) == [] and after.players[1].ally == 0
    # Losing the Daimyo house in a fight ends it too.
    state = make(
        player(0, None, ally=1),
        player(1, "daimyo-asai", daimyo_house=("castle-himeji",), ally=0),
        player(2, "daimyo-takeda", daimyo_house=STRONG),
        turn=2,
    )
    for seed in range(30):
        events, fought = send(state, Attack(target=1), seed=seed)
        if next(e for e in events if isinstance(e, FightRolled)).winner == 2:
            break
    for seat in (0, 1):
        _, fought = send(fought, Pass(), seat)
    events, after = send(fought, Pass(), 2)
    events, after = send(after, LeaveCastle(), 2)
    assert ended(events) == ["fallen"] and after.players[0].ally is None


def test_EDS_ALLY_8_the_ronin_playing_a_new_daimyo_ends_it() -> None:
    state = make(player(0, None, hand=("daimyo-oda",), ally=1), player(1, ally=0), player(2))
    events, after = send(state, Play(card="daimyo-oda", owner=0, house="daimyo"))
    assert kinds(events) == ["AllianceEnded", "DaimyoRaised"] and ended(events) == ["new-daimyo"]
    assert after.players[0].daimyo == "daimyo-oda" and after.players[1].ally is None


def test_EDS_ALLY_9_a_ronin_assassinating_the_allied_samurai_takes_the_daimyo_house() -> None:
    state = make(*allied().players, shogun=1)
    assert RULES.legal(state, 0) and state.turn == 0
    events, after = send(state, SendAssassin(card="assassin-1", owner=1, house="samurai"))
    assert kinds(events) == ["AssassinSent", "HouseDiscarded", "AllianceEnded", "HouseTakenOver"]
    assert events[0].cost == 50 and after.players[0].honour == -50
    owari, kai = after.players[0], after.players[1]
    assert owari.daimyo == "daimyo-oda" and {"castle-himeji", "shogun"} <= set(owari.daimyo_house)
    assert kai.is_ronin and kai.samurai_house == () and after.shogun == 0
    assert ended(events) == ["takeover"]
    guarded = make(
        player(0, None, hand=("assassin-1",), ally=1),
        player(1, samurai_house=("bodyguard-1",), ally=0),
        player(2),
    )
    events, after = send(guarded, SendAssassin(card="assassin-1", owner=1, house="samurai"))
    assert kinds(events) == ["AssassinSent", "AssassinStopped"] and events[0].cost == 50
    assert after.players[0].is_ronin and after.players[0].ally == 1


def test_EDS_LEAVE_1_leaving_costs_25_honour_at_once() -> None:
    state = make(player(0, None, ally=1, honour=10), player(1, ally=0), player(2))
    events, after = send(state, LeaveAlliance())
    assert kinds(events) == ["AllianceLeaving"] and after.players[0].honour == -15
    assert after.players[0].leaving and after.players[0].ally == 1
    refused(make(player(0), player(1), player(2)), LeaveAlliance(), "EDS-LEAVE-1")
    partner = make(player(0, ally=1), player(1, None, ally=0, leaving=True), player(2))
    refused(partner, LeaveAlliance(), "EDS-LEAVE-1")


def test_EDS_LEAVE_2_the_alliance_ends_at_the_declarers_next_turn() -> None:
    state = make(player(0, None, ally=1), player(1, "daimyo-oda", ally=0), player(2))
    _, state = send(state, LeaveAlliance())
    for _ in range(2):
        events, state = send(state, EndTurn())
        assert ended(events) == [] and state.players[0].ally == 1
    events, state = send(state, EndTurn())
    assert ended(events) == ["left"] and kinds(events)[1] == "AllianceEnded"
    assert events[3].source == "ronin", "phase 1 follows the end: no alliance honour"


def test_EDS_NINJA_1_a_thief_steals_a_warrior_or_possession_into_an_own_house() -> None:
    state = make(
        player(0, hand=("thief-1",)),
        player(1, daimyo_house=("warrior-22", "okugata-1", "castle-himeji"),
               samurai_house=("masamune",)),
        player(2),
    )  # fmt: skip
    events, after = send(state, SendThief(card="thief-1", loot="masamune", to="daimyo"))
    assert kinds(events) == ["ThiefSent"] and "masamune" in after.players[0].daimyo_house
    assert after.players[1].samurai_house == () and after.discard == ("thief-1",)
    refused(state, SendThief(card="thief-1", loot="okugata-1", to="daimyo"), "EDS-NINJA-1")
    refused(state, SendThief(card="thief-1", loot="castle-himeji", to="daimyo"), "EDS-NINJA-1")
    legal = [c for c in RULES.legal(state, 0) if isinstance(c, SendThief)]
    assert {c.loot for c in legal} == {"warrior-22", "masamune"}
    full = make(player(0, samurai_house=STRONG, daimyo=None, hand=("thief-1",)),
                player(1, daimyo_house=("warrior-22",)), player(2))  # fmt: skip
    refused(full, SendThief(card="thief-1", loot="warrior-22", to="samurai"), "EDS-HOUSE-2")


def test_EDS_NINJA_2_a_thief_costs_10_honour() -> None:
    state = make(player(0, hand=("thief-1",), honour=4), player(1, daimyo_house=("daisho",)),
                 player(2))  # fmt: skip
    events, after = send(state, SendThief(card="thief-1", loot="daisho", to="samurai"))
    assert events[0].cost == 10 and after.players[0].honour == -6


def test_EDS_NINJA_3_an_assassin_empties_a_house() -> None:
    state = make(
        player(0, hand=("assassin-1", "assassin-2")),
        player(1, "daimyo-oda", daimyo_house=("okugata-6",), samurai_house=("warrior-1",)),
        player(2),
    )
    events, after = send(state, SendAssassin(card="assassin-1", owner=1, house="daimyo"))
    assert kinds(events) == ["AssassinSent", "HouseDiscarded"]
    assert after.players[1].is_ronin and after.players[1].samurai_house == ("warrior-1",)
    events, after = send(after, SendAssassin(card="assassin-2", owner=1, house="samurai"))
    assert after.players[1].samurai_house == () and after.players[1].samurai == "samurai-2"
    assert {"daimyo-oda", "okugata-6", "warrior-1", "assassin-1", "assassin-2"} <= set(
        after.discard
    )
    refused(after, SendAssassin(card="assassin-2", owner=1, house="daimyo"), "EDS-ACTION-1")


def test_EDS_NINJA_4_an_assassin_costs_25_honour_also_when_stopped() -> None:
    state = make(player(0, hand=("assassin-1",)), player(1, daimyo_house=("bodyguard-1",)),
                 player(2))  # fmt: skip
    events, after = send(state, SendAssassin(card="assassin-1", owner=1, house="daimyo"))
    assert events[0].cost == 25 and after.players[0].honour == -25


def test_EDS_NINJA_5_a_bodyguard_stops_the_assassin_both_are_discarded() -> None:
    state = make(player(0, hand=("assassin-1",)),
                 player(1, daimyo_house=("bodyguard-1", "warrior-1")), player(2))  # fmt: skip
    events, after = send(state, SendAssassin(card="assassin-1", owner=1, house="daimyo"))
    assert kinds(events) == ["AssassinSent", "AssassinStopped"]
    assert after.players[1].daimyo_house == ("warrior-1",)
    assert after.discard == ("assassin-1", "bodyguard-1")


def test_EDS_NINJA_6_ninja_cards_against_ones_own_houses() -> None:
    state = make(
        player(0, samurai_house=("masamune",), hand=("thief-1", "assassin-1")),
        player(1),
        player(2),
    )
    _, after = send(state, SendThief(card="thief-1", loot="masamune", to="daimyo"))
    assert after.players[0].daimyo_house == ("masamune",)
    _, after = send(after, SendAssassin(card="assassin-1", owner=0, house="daimyo"))
    assert after.players[0].is_ronin and "masamune" in after.discard
    refused(state, SendThief(card="thief-1", loot="masamune", to="samurai"), "EDS-NINJA-1")
