"""The Clan Patrons expansion: setup modes and each patron (ROG-PATRON-1..10)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
from gamehall.core import IllegalCommand, InvalidCommand, with_extension_state
from gamehall.plugins.river_of_gold.api import extension
from gamehall.plugins.river_of_gold.commands import Build, Deliver, EndTurn, Sail
from gamehall.plugins.river_of_gold.events import DieRolled
from gamehall.plugins.river_of_gold_patrons.commands import ChoosePatron, RollDie, SetDie
from gamehall.plugins.river_of_gold_patrons.components import ID, PATRONS
from gamehall.plugins.river_of_gold_patrons.state import Patrons

from tests.plugins.river_of_gold.rog_helpers import build_on, clean, player, state, table

EXP = ("river-of-gold-patrons",)


def drafting(players: int = 2, seed: int = 1, mode: str = "draft"):  # type: ignore[no-untyped-def]
    return table(players, seed=seed, expansions=EXP, setup=mode)


def with_patrons(*patrons: str):  # type: ignore[no-untyped-def]
    """Return a clean 2-player position where seat i plays ``patrons[i]``."""
    t = clean(drafting())
    state(t, ext=with_extension_state({}, ID, Patrons(patrons=patrons)))
    return t


def test_ROG_PATRON_1_draft_from_the_last_player_counter_clockwise() -> None:
    t = drafting(3, seed=2)
    assert list(t.awaiting()) == [2] and t.awaiting()[2].kind == "patron"
    # personal setup waits for the draft: no hands, ships on the start spaces, no first roll
    assert [(p.hand, p.ships) for p in t.state.players] == [((), (1, 8))] * 3
    assert not t.state.started
    offer = [c.patron for c in t.legal(2)]
    assert sorted(PATRONS[p].clan for p in offer) == ["crab", "crane", "mantis", "scorpion"]
    with pytest.raises(IllegalCommand):
        t.send(2, Sail(ship=0))  # no turn before the draft is done
    t.send(2, ChoosePatron(patron=offer[0]))
    assert list(t.awaiting()) == [1] and offer[0] not in [c.patron for c in t.legal(1)]
    t.send(1, ChoosePatron(patron=offer[1]))
    with pytest.raises(IllegalCommand):
        t.send(0, ChoosePatron(patron=offer[0]))
    t.send(0, ChoosePatron(patron=offer[2]))
    assert t.awaiting()[0].kind == "action"
    assert t.state.started and [len(p.hand) for p in t.state.players] == [2, 2, 2]
    assert all(p.ships[0] > 1 and p.ships[1] > 8 for p in t.state.players)
    clans = [PATRONS[p].clan.capitalize() for p in offer]
    assert extension(t.state, ID, Patrons) == Patrons(patrons=(offer[2], offer[1], offer[0]))
    assert t.state.clans == (clans[2], clans[1], clans[0])


def test_ROG_PATRON_1_four_players_last_seat_takes_the_last_patron() -> None:
    t = drafting(4, seed=2)
    for seat in (3, 2, 1):
        t.send(seat, ChoosePatron(patron=t.legal(seat)[0].patron))
    assert list(t.awaiting()) == [0] and len(t.legal(0)) == 1
    t.send(0, t.legal(0)[0])
    assert sorted(
        PATRONS[extension(t.state, ID, Patrons).patrons[s]].clan for s in range(4)
    ) == sorted(["crab", "crane", "mantis", "scorpion"])


def test_ROG_PATRON_2_alternative_random_clan_then_one_of_two() -> None:
    t = drafting(4, mode="alternative")
    clans = []
    for seat in (3, 2, 1, 0):
        assert list(t.awaiting()) == [seat]
        offer = [c.patron for c in t.legal(seat)]
        assert len(offer) == 2 and len({PATRONS[p].clan for p in offer}) == 1
        clans.append(PATRONS[offer[0]].clan)
        t.send(seat, ChoosePatron(patron=offer[-1]))
    assert len(set(clans)) == 4


def choose_in_draft(patron: str):  # type: ignore[no-untyped-def]
    t = drafting()
    drafted = Patrons(patrons=("", ""), offers=((patron,), ()), order=(0,))
    state(t, ext=with_extension_state({}, ID, drafted))
    return t


def test_ROG_PATRON_3_kaiu_shihobu_koku_and_any_region() -> None:
    t = choose_in_draft("kaiu-shihobu")
    koku = t.state.players[0].koku
    t.send(0, ChoosePatron(patron="kaiu-shihobu"))
    assert t.state.players[0].koku == koku + 10
    clean(t)
    player(t, 0, die=2)
    assert Build(space=1, slot=0) in t.legal(0)
    koku = t.state.players[0].koku
    t.send(0, Build(space=30, slot=0))
    assert t.state.markers[29] == (0,)
    assert t.state.players[0].koku == koku - 5  # the space's cost still applies


def test_ROG_PATRON_4_yasuki_taka_points_per_touching_river_space() -> None:
    t = with_patrons("yasuki-taka", "kudaka")
    player(t, 0, die=1, koku=20)
    t.send(0, Build(space=4, slot=0))  # rivers 1, 2 and 3 touch space 4
    assert t.state.players[0].points == 3


def test_ROG_PATRON_5_yoritomo_three_customers_any_region() -> None:
    t = choose_in_draft("yoritomo")
    t.send(0, ChoosePatron(patron="yoritomo"))
    assert len(t.state.players[0].hand) == 3
    player(t, 0, die=1, goods=(6, 6, 6), hand=("cust-06",))
    t.send(0, Deliver(card="cust-06"))  # region 6 on a 1
    assert t.state.players[0].delivered == ("cust-06",)


def test_ROG_PATRON_6_kudaka_first_customer_of_a_region() -> None:
    t = with_patrons("kudaka", "yoritomo")
    player(t, 0, die=3, goods=(6, 6, 6), hand=("cust-03", "cust-09"))
    t.send(0, Deliver(card="cust-03"))
    assert t.state.players[0].points == 3
    player(t, 0, delivered=("cust-03",), points=0)
    state(t, acted=False, choices=())
    t.send(0, Deliver(card="cust-09"))
    assert t.state.players[0].points == 0


def test_ROG_PATRON_7_daidoji_uji_visiting_another_clan() -> None:
    t = with_patrons("daidoji-uji", "kudaka")
    player(t, 0, die=1, ships=(5, 9))
    build_on(t, 12, "bldg-05", 1)
    t.send(0, Sail(ship=0))  # river 6: spaces 11, 12, 13, 15
    assert t.state.players[0].points == 2
    t = with_patrons("daidoji-uji", "kudaka")
    player(t, 0, die=1, ships=(5, 9))
    build_on(t, 12, "bldg-05", 0)
    t.send(0, Sail(ship=0))
    assert t.state.players[0].points == 1  # only the own shrine's owner point
    # his own building with another clan's monk marker counts as that clan's building too
    t = with_patrons("daidoji-uji", "kudaka")
    player(t, 0, die=1, ships=(5, 9))
    build_on(t, 12, "bldg-05", 0, 1)
    build_on(t, 11, "bldg-05", 1)
    t.send(0, Sail(ship=0))
    assert t.state.players[0].points == 1 + 2  # owner point, and 2 once per sail


def test_ROG_PATRON_8_kakita_ryoku_sets_the_die() -> None:
    t = with_patrons("kakita-ryoku", "kudaka")
    player(t, 0, die=1, ships=(5, 9), favour=1)
    assert not any(isinstance(c, SetDie) for c in t.legal(0))  # only after the action
    t.send(0, Sail(ship=0))
    assert SetDie(face=4) in t.legal(0) and EndTurn() in t.legal(0)
    t.send(0, SetDie(face=4))
    assert (t.state.players[0].die, t.state.players[0].favour, t.state.turn) == (4, 0, 1)
    player(t, 1, die=1, ships=(5, 9), favour=3)
    t.send(1, Sail(ship=0))
    with pytest.raises(IllegalCommand) as info:
        t.send(1, SetDie(face=2))
    assert info.value.rule == "ROG-PATRON-8"


def kakita_drafted(seat: int):  # type: ignore[no-untyped-def]
    """Return a 3-player draft (seed 1 offers Kakita Ryoku) where ``seat`` takes her."""
    t = drafting(3, seed=1)
    for chooser in (2, 1, 0):
        offer = [c.patron for c in t.legal(chooser)]
        pick = "kakita-ryoku" if chooser == seat else next(p for p in offer if p != "kakita-ryoku")
        t.send(chooser, ChoosePatron(patron=pick))
    return t


def test_ROG_PATRON_12_kakita_ryoku_skips_the_opening_roll() -> None:
    t = kakita_drafted(1)
    rolled = [e.seat for e in t.events if isinstance(e, DieRolled)]
    assert rolled == [0, 2]  # everyone else rolled; seat 1 did not
    assert t.state.started and [len(p.hand) for p in t.state.players] == [2, 2, 2]
    assert list(t.awaiting()) == [1] and t.awaiting()[1].kind == "opening-die"
    assert RollDie() in t.legal(1) and SetDie(face=6) in t.legal(1)
    with pytest.raises(IllegalCommand):
        t.send(0, Build(space=1, slot=0))  # the first turn waits for her die
    favour = t.state.players[1].favour
    t.send(1, SetDie(face=6))
    assert (t.state.players[1].die, t.state.players[1].favour) == (6, favour - 1)
    assert list(t.awaiting()) == [0] and t.awaiting()[0].kind == "action"
    assert t.state.dice_owed == ()
    with pytest.raises(IllegalCommand):
        t.send(0, SetDie(face=2))  # seat 0 is no Kakita Ryoku
    # or she rolls after all, for free
    t = kakita_drafted(0)
    favour = t.state.players[0].favour
    t.send(0, RollDie())
    assert t.state.players[0].favour == favour and isinstance(t.events[-2], DieRolled)
    assert t.awaiting()[0].kind == "action"
    # without favour only the roll is left
    t = kakita_drafted(2)
    player(t, 2, favour=0)
    assert t.legal(2) == [RollDie()]
    with pytest.raises(IllegalCommand) as info:
        t.send(2, SetDie(face=3))
    assert info.value.rule == "ROG-PATRON-12"


def test_ROG_PATRON_9_shosuro_hyobu_when_passed() -> None:
    t = with_patrons("kudaka", "shosuro-hyobu")
    player(t, 0, die=2, koku=10, influence=(0, 1, 0, 0, 0, 0))
    player(t, 1, influence=(0, 3, 0, 0, 0, 0))
    state(t, row=("bldg-13", "bldg-01", "bldg-07", "bldg-03"))
    t.send(0, Build(space=8, slot=2))  # 1 -> 5 passes step 3
    assert t.state.players[1].points == 3
    t = with_patrons("kudaka", "shosuro-hyobu")
    player(t, 0, die=2, koku=10, influence=(0, 1, 0, 0, 0, 0))
    player(t, 1, influence=(0, 6, 0, 0, 0, 0))
    state(t, row=("bldg-13", "bldg-01", "bldg-07", "bldg-03"))
    t.send(0, Build(space=8, slot=2))  # 1 -> 5 stays behind
    assert t.state.players[1].points == 0
    for hers, points in ((1, 3), (5, 0), (4, 3)):  # from her step; onto it; over it
        t = with_patrons("kudaka", "shosuro-hyobu")
        player(t, 0, die=2, koku=10, influence=(0, 1, 0, 0, 0, 0))
        player(t, 1, influence=(0, hers, 0, 0, 0, 0))
        state(t, row=("bldg-13", "bldg-01", "bldg-07", "bldg-03"))
        t.send(0, Build(space=8, slot=2))  # 1 -> 5
        assert t.state.players[1].points == points, hers


def test_ROG_PATRON_10_bayushi_kachiko_jumps_markers() -> None:
    t = with_patrons("bayushi-kachiko", "kudaka")
    player(t, 0, die=2, koku=10, influence=(0, 1, 0, 0, 0, 0), goods=(0, 0, 0))
    player(t, 1, influence=(0, 2, 0, 0, 0, 0))
    state(t, row=("bldg-13", "bldg-01", "bldg-07", "bldg-03"))
    t.send(0, Build(space=8, slot=1))  # bldg-01, bonus 1: jumps 2, lands on 3
    assert t.state.players[0].influence[1] == 3
    assert t.state.players[0].goods == (0, 1, 0)  # step 2's rice, passed over
    # she never ends on a marker: 16 + 1 over 17 lands on 18, the top ends the track
    t = with_patrons("bayushi-kachiko", "kudaka")
    player(t, 0, die=2, koku=10, influence=(0, 16, 0, 0, 0, 0))
    player(t, 1, influence=(0, 17, 0, 0, 0, 0))
    state(t, row=("bldg-13", "bldg-01", "bldg-07", "bldg-03"))
    t.send(0, Build(space=8, slot=1))
    assert t.state.players[0].influence[1] == 18
    t = with_patrons("bayushi-kachiko", "kudaka")
    player(t, 0, die=2, koku=10, influence=(0, 16, 0, 0, 0, 0))
    player(t, 1, influence=(0, 18, 0, 0, 0, 0))
    state(t, row=("bldg-13", "bldg-01", "bldg-07", "bldg-03"))
    t.send(0, Build(space=8, slot=2))  # bldg-07, bonus 4: 17, then the top with its marker
    assert t.state.players[0].influence[1] == 18


def test_ROG_PATRON_11_base_game_knows_no_patron() -> None:
    base = Path(__file__).resolve().parents[3] / "plugins" / "river_of_gold"
    words = [w for p in PATRONS for w in p.split("-")] + ["patron"]
    for path in base.rglob("*"):
        if path.is_file() and path.suffix in {".py", ".toml", ".json"}:
            text = path.read_text("utf-8").lower()
            assert not [w for w in words if w in text], path
    plain = table(2)
    with pytest.raises(InvalidCommand):
        plain.send(0, SetDie(face=3))


def test_the_expansion_imports_only_river_of_golds_public_api() -> None:
    package = Path(__file__).resolve().parents[3] / "plugins" / "river_of_gold_patrons"
    modules = sorted(p.stem for p in package.glob("*.py"))
    assert modules == [
        "__init__",
        "commands",
        "components",
        "draw",
        "events",
        "hooks",
        "presentation",
        "state",
        "words",
    ]
    for path in package.glob("*.py"):
        tree = ast.parse(path.read_text("utf-8"))
        imported = {n.module for n in ast.walk(tree) if isinstance(n, ast.ImportFrom) and n.module}
        imported |= {a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names}
        game = {m for m in imported if m.startswith("gamehall.plugins.")}
        assert game <= {"gamehall.plugins.river_of_gold.api"}, (path.name, game)
        assert not {m for m in imported if m.startswith("gamehall.") and m not in game} - {
            "gamehall.core"
        }, path.name
