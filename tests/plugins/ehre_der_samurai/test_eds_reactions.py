"""Answers out of turn: the Save Face windows after fights and Dishonour, and the timeout."""

from __future__ import annotations

import itertools

import msgspec
import pytest
from eds_helpers import RULES, RULESET, awaited, kinds, make, player, refused, send
from gamehall.core import (
    Command,
    Context,
    ExpansionSpec,
    IllegalCommand,
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
    PayHonour,
    Play,
    PlayDishonour,
    SaveFace,
    Seppuku,
)
from gamehall.plugins.ehre_der_samurai.events import Answered, FightRolled, WindowClosed
from gamehall.plugins.ehre_der_samurai.state import State

STRONG = ("warrior-41", "warrior-42", "warrior-43", "warrior-44", "warrior-45")


def four_player_fight(hands: dict[int, tuple[str, ...]]) -> State:
    """Return the window after Owari beat Echigo (who holds the Shogun), four players."""
    players = [
        player(0, "daimyo-takeda", daimyo_house=STRONG),
        player(1, "daimyo-hojo"),
        player(2, "daimyo-asai", daimyo_house=("okugata-1",)),
        player(3, "daimyo-mori"),
    ]
    players = [msgspec.structs.replace(p, hand=hands.get(s, ())) for s, p in enumerate(players)]
    state = make(*players, shogun=2)
    for seed in range(50):
        events, after = send(state, Attack(target=2), seed=seed)
        if next(e for e in events if isinstance(e, FightRolled)).winner == 0:
            return after
    raise AssertionError("Owari never wins")


def dishonoured(victim_hand: tuple[str, ...] = (), **options: object) -> State:
    """Return Owari's Dishonour on Kai waiting for its answers (three players)."""
    state = make(
        player(0, hand=("dishonour-1",)),
        player(1, "daimyo-oda", daimyo_house=("okugata-6",), samurai_house=("warrior-1",),
               hand=victim_hand, honour=20, ally=None),
        player(2, hand=("save-face-3",)),
        **options,  # type: ignore[arg-type]
    )  # fmt: skip
    _, after = send(state, PlayDishonour(card="dishonour-1", victim=1))
    return after


def test_EDS_SAVE_1_save_face_outside_its_window_is_refused_from_any_seat() -> None:
    state = make(player(0, hand=("save-face-1",)), player(1, hand=("save-face-2",)), player(2))
    refused(state, SaveFace(card="save-face-1"), "EDS-SAVE-1")
    refused(state, Play(card="save-face-1", owner=0, house="samurai"), "EDS-SAVE-1")
    # Kai is not asked: the engine still lets Save Face reach the rules, which name the rule.
    with pytest.raises(IllegalCommand) as caught:
        engine.decide(RULESET, state, 1, SaveFace(card="save-face-2"), Context(1, 5, 0))
    assert caught.value.rule == "EDS-SAVE-1"
    assert state.players[1].hand == ("save-face-2",)
    fight = four_player_fight({1: ("warrior-1",)})
    refused(fight, SaveFace(card="warrior-1"), "EDS-SAVE-1", seat=1)


def test_EDS_SAVE_2_after_a_fight_every_player_is_asked_alike() -> None:
    fight = four_player_fight({3: ("save-face-1",)})
    asked = RULES.awaiting(fight)
    assert sorted(asked) == [0, 1, 2, 3] and len(set(asked.values())) == 1
    assert asked[1].kind == "reaction" and "Echigo" in asked[1].prompt
    assert RULES.legal(fight, 1) == [Pass()]
    assert RULES.legal(fight, 3) == [SaveFace(card="save-face-1"), Pass()]


def test_EDS_SAVE_3_answers_in_any_order_nothing_else_until_all_are_in() -> None:
    fight = four_player_fight({})
    events, state = send(fight, Pass(), 3)
    assert kinds(events) == ["Answered"] and 3 not in RULES.awaiting(state)
    refused(state, Draw(), "EDS-SAVE-3", seat=0)
    refused(state, EndTurn(), "EDS-SAVE-3", seat=0)
    for seat in (1, 0):
        events, state = send(state, Pass(), seat)
        assert kinds(events) == ["Answered"]
    events, state = send(state, Pass(), 2)
    assert kinds(events)[:2] == ["Answered", "WindowClosed"] and state.fight is None


@pytest.mark.parametrize("order", list(itertools.permutations([0, 1, 2, 3])))
def test_EDS_SAVE_4_the_first_save_face_from_the_active_seat_saves(order: tuple[int, ...]) -> None:
    state = four_player_fight({1: ("save-face-1",), 3: ("save-face-3",), 2: ("save-face-2",)})
    answers: dict[int, Command] = {
        0: Pass(),
        1: SaveFace(card="save-face-1"),
        2: SaveFace(card="save-face-2"),
        3: SaveFace(card="save-face-3"),
    }
    closed: list[WindowClosed] = []
    for seat in order:
        events, state = send(state, answers[seat], seat)
        closed += [e for e in events if isinstance(e, WindowClosed)]
    assert closed == [WindowClosed(for_seat=2, saved_by=1, card="save-face-1")]
    assert state.players[2].hand == ("save-face-2",) and state.players[3].hand == ("save-face-3",)
    assert state.players[2].daimyo == "daimyo-asai" and state.shogun == 0
    assert state.discard[-1] == "save-face-1"


def test_EDS_SAVE_5_answers_are_hidden_until_the_window_resolves() -> None:
    state = four_player_fight({1: ("save-face-1",), 3: ("save-face-3",)})
    seen: dict[int | None, list[object]] = {s: [] for s in (0, 1, 2, 3, None)}
    for seat, command in ((3, SaveFace(card="save-face-3")), (1, SaveFace(card="save-face-1")),
                          (0, Pass()), (2, Pass())):  # fmt: skip
        events, state = send(state, command, seat)
        for reader in seen:
            seen[reader] += [RULES.redact(e, reader) for e in events]
        if seat == 3:
            assert RULES.view(state, 3).my_answer == "save-face-3"
            assert RULES.view(state, 1).my_answer is None
            assert RULES.view(state, 1).fight.answered == (False, False, False, True)
    for reader, events in seen.items():
        text = msgspec.json.encode(events).decode()
        assert ("save-face-3" in text) == (reader == 3), reader
        assert "save-face-1" in text  # the one that saved is shown to all when it closes
    own = next(e for e in seen[1] if isinstance(e, Answered) and e.seat == 1)
    other = next(e for e in seen[0] if isinstance(e, Answered) and e.seat == 1)
    assert own.answer == "save-face-1" and other.answer is None


def test_EDS_SAVE_6_a_player_out_of_time_passes() -> None:
    fight = four_player_fight({1: ("save-face-1",)})
    assert RULES.timeout(fight, 1) == Pass()
    state = fight
    for seat in (0, 1, 2, 3):
        _, state = send(state, RULES.timeout(state, seat), seat)
    assert state.fight is None and state.players[2].daimyo is None
    insult = dishonoured(("save-face-2",))
    assert RULES.timeout(insult, 1) == PayHonour()
    turn = make(player(0), player(1), player(2))
    assert RULES.timeout(turn, 0) == EndTurn()
    duty = make(player(0, honour=120), player(1), player(2))
    assert RULES.timeout(duty, 0) == DeclareShogun()
    castle = make(
        player(0, "daimyo-takeda", daimyo_house=STRONG),
        player(1, "daimyo-asai", daimyo_house=("castle-himeji",)),
        player(2),
    )
    for seed in range(20):
        _, fought = send(castle, Attack(target=1), seed=seed)
        if fought.fight and fought.fight.winner == 0:
            break
    for seat in (0, 1, 2):
        _, fought = send(fought, Pass(), seat)
    assert RULES.timeout(fought, 0) == LeaveCastle()


def test_EDS_DISHONOUR_1_one_card_action_on_another_player() -> None:
    state = make(player(0, hand=("dishonour-1", "warrior-1")), player(1), player(2))
    events, after = send(state, PlayDishonour(card="dishonour-1", victim=1))
    assert kinds(events) == ["DishonourPlayed"] and after.actions_used == 1
    assert awaited(after) == {1: "dishonour", 2: "reaction"}
    assert after.discard == ("dishonour-1",)
    refused(state, PlayDishonour(card="dishonour-1", victim=0), "EDS-DISHONOUR-1")
    one_left = msgspec.structs.replace(state, actions_used=1)
    play = PlayDishonour(card="dishonour-1", victim=1)
    assert play in RULES.legal(one_left, 0)
    _, after = send(one_left, play)
    assert after.actions_used == 2
    none_left = msgspec.structs.replace(state, actions_used=2)
    assert play not in RULES.legal(none_left, 0)
    refused(none_left, play, "EDS-DISHONOUR-1")
    words = RULESET.describe(play, RULES.view(state, 0), 0)
    assert words.endswith("(1 card action)"), words


def test_EDS_DISHONOUR_1_the_option_of_the_outside_summary_costs_two() -> None:
    state = make(player(0, hand=("dishonour-1", "warrior-1")), player(1), player(2),
                 dishonour_actions=2)  # fmt: skip
    play = PlayDishonour(card="dishonour-1", victim=1)
    _, after = send(state, play)
    assert after.actions_used == 2
    one_left = msgspec.structs.replace(state, actions_used=1)
    assert play not in RULES.legal(one_left, 0)
    error = refused(one_left, play, "EDS-DISHONOUR-1")
    assert "2 card actions" in error.reason
    words = RULESET.describe(play, RULES.view(state, 0), 0)
    assert words.endswith("(2 card actions)"), words


def test_EDS_DISHONOUR_2_pay_75_save_face_or_seppuku_no_pass() -> None:
    state = dishonoured(("save-face-2",), bystander_save_face=False)  # the victim alone
    assert RULES.legal(state, 1) == [
        PayHonour(),
        SaveFace(card="save-face-2"),
        Seppuku(house="daimyo"),
        Seppuku(house="samurai"),
    ]
    refused(state, Pass(), "EDS-DISHONOUR-2", seat=1)
    events, paid = send(state, PayHonour(), 1)
    assert kinds(events) == ["Answered", "WindowClosed", "HonourPaid"]
    assert paid.players[1].honour == 20 - 75 and paid.insult is None and paid.turn == 0
    events, saved = send(state, SaveFace(card="save-face-2"), 1)
    assert events[1] == WindowClosed(for_seat=1, saved_by=1, card="save-face-2")
    assert saved.players[1].honour == 20 and saved.players[1].hand == ()


def test_EDS_DISHONOUR_3_seppuku_empties_a_house_and_costs_no_honour() -> None:
    state = dishonoured(bystander_save_face=False)  # the victim alone
    events, after = send(state, Seppuku(house="daimyo"), 1)
    assert kinds(events) == ["Answered", "WindowClosed", "SeppukuCommitted", "HouseDiscarded"]
    kai = after.players[1]
    assert kai.is_ronin and kai.honour == 20 and kai.samurai_house == ("warrior-1",)
    assert {"daimyo-oda", "okugata-6"} <= set(after.discard)
    _, after = send(state, Seppuku(house="samurai"), 1)
    kai = after.players[1]
    assert kai.samurai_house == () and kai.samurai == "samurai-2" and kai.daimyo == "daimyo-oda"
    ronin = make(player(0, hand=("dishonour-1",)), player(1, None), player(2))
    _, insulted = send(ronin, PlayDishonour(card="dishonour-1", victim=1))
    assert Seppuku(house="daimyo") not in RULES.legal(insulted, 1)
    refused(insulted, Seppuku(house="daimyo"), "EDS-DISHONOUR-3", seat=1)


def test_EDS_DISHONOUR_4_every_other_player_is_asked_unless_the_victim_alone() -> None:
    assert awaited(dishonoured(bystander_save_face=False)) == {1: "dishonour"}
    state = dishonoured()
    assert awaited(state) == {1: "dishonour", 2: "reaction"}
    assert RULES.legal(state, 2) == [SaveFace(card="save-face-3"), Pass()]
    _, state = send(state, PayHonour(), 1)
    assert RULES.view(state, 2).my_answer is None, "the victim's answer is hidden too"
    events, after = send(state, SaveFace(card="save-face-3"), 2)
    assert events[-1] == WindowClosed(for_seat=1, saved_by=2, card="save-face-3")
    assert after.players[1].honour == 20, "the Save Face comes first: nothing is paid"


def test_EDS_DISHONOUR_4_a_bystander_without_save_face_is_asked_too_revealing_nothing() -> None:
    state = make(
        player(0, hand=("dishonour-1",)),
        player(1, "daimyo-oda", hand=(), honour=20),
        player(2, hand=("save-face-3",)),
        player(3, hand=("warrior-1",)),
    )
    _, insulted = send(state, PlayDishonour(card="dishonour-1", victim=1))
    assert awaited(insulted) == {1: "dishonour", 2: "reaction", 3: "reaction"}
    assert RULES.legal(insulted, 3) == [Pass()]
    assert RULES.legal(insulted, 2) == [SaveFace(card="save-face-3"), Pass()]
    seen = RULES.view(insulted, 1)
    assert seen.insult.asked == (False, True, True, True)  # the same for a holder and not
    _, after = send(insulted, PayHonour(), 1)
    _, after = send(after, Pass(), 3)
    assert after.insult is not None, "the window waits for every answer"
    events, after = send(after, Pass(), 2)
    assert kinds(events)[-2:] == ["WindowClosed", "HonourPaid"] and after.insult is None
    assert after.players[1].honour == 20 - 75


class TwoActionDishonour:
    """A test expansion that sets the price of Dishonour for its whole ruleset."""

    @hookimpl
    def ehre_der_samurai_numbers(self) -> Numbers:
        return Numbers(dishonour_actions=2)


class TwoActionPlugin:
    @hookimpl
    def gamehall_expansions(self) -> list[ExpansionSpec]:
        spec = ExpansionSpec("eds-two", "Two", "1.0.0", "ehre-der-samurai",
                             hookimpls=(TwoActionDishonour(),))  # fmt: skip
        return [spec]


def test_EDS_DISHONOUR_1_an_expansions_number_overrides_the_option() -> None:
    ruleset = Registry([TwoActionPlugin()]).ruleset("ehre-der-samurai", ["eds-two"])
    play = PlayDishonour(card="dishonour-1", victim=1)
    for option in (1, 2):
        state = make(player(0, hand=("dishonour-1", "warrior-1")), player(1), player(2),
                     dishonour_actions=option)  # fmt: skip
        events, after = engine.decide(ruleset, state, 0, play, Context(0, 5, 0))
        assert after.actions_used == 2  # the option's 1 does not count
        one_left = msgspec.structs.replace(state, actions_used=1)
        assert play not in ruleset.rules.legal(one_left, 0)
