"""River of Gold speaks in words: every command and event of seeded playouts, boards, scoring."""

from __future__ import annotations

import re
from collections import defaultdict
from typing import Any

import pytest
from gamehall.core import Command, RandomBot, Table, words
from gamehall.core.narration import Narrator
from gamehall.plugins.river_of_gold.commands import (
    COMMANDS,
    Deliver,
    Sail,
    TakeKoku,
    TradeGoods,
    UpgradeShip,
)
from gamehall.plugins.river_of_gold.events import EVENTS
from gamehall.plugins.river_of_gold_patrons.commands import COMMANDS as PATRON_COMMANDS
from gamehall.plugins.river_of_gold_patrons.components import PATRONS
from gamehall.plugins.river_of_gold_patrons.events import EVENTS as PATRON_EVENTS
from rog_helpers import build_on, player, state, table

PATRONS_ID = "river-of-gold-patrons"
IDS = re.compile(
    r"cust-\d\d|bldg-\d\d|score-[a-f]\b|[{}_]|\b(patrons?|clan|opening)\.|river_of_gold|"
    + "|".join(rf"\b{p}\b" for p in PATRONS if "-" in p)
)
# What short random playouts rarely reach; test_monk_noble_and_merchant_sale_have_words has them.
RARE_COMMANDS = {"SellGood", "StopSelling", "UpgradeShip", "PlaceMarker"}
RARE_EVENTS = {"ShipUpgraded", "MarkerPlaced", "FavourCapRaised"}


def _effect(view: Any, seat: int, command: Command) -> object:
    """Return what a command does: two standard ships on one river space are alike."""
    p = view.players[seat]
    if isinstance(command, Sail):
        return ("sail", p.ships[command.ship], p.royal == command.ship, command.shift)
    if isinstance(command, UpgradeShip):
        return ("upgrade", p.ships[command.ship])
    return command


def _clean(text: str) -> None:
    assert text and not IDS.search(text), text


def _tell(narrators: dict[int | None, Narrator], records: Any) -> dict[str, set[str]]:
    said: dict[str, set[str]] = defaultdict(set)
    for record in records:
        for narrator in narrators.values():
            shown = narrator.tell(record)
            if shown is not None and record.seq > 1:
                _clean(shown.text)
                assert shown.text != words.plain(shown.record.event), shown.text
                said[type(record.event).__name__].add(shown.text)
    return said


def _check_menu(t: Table, seat: int, commands: dict[str, set[str]]) -> None:
    legal, view, hook = t.legal(seat), t.view(seat), t.ruleset.hook
    by_text: dict[str, set[object]] = defaultdict(set)
    for command in legal:
        text = hook.gamehall_describe_command(command=command, view=view, seat=seat)
        assert text is not None, command
        _clean(text)
        by_text[text].add(_effect(view, seat, command))
        commands[type(command).__name__].add(text)
        assert hook.gamehall_command_group(command=command, view=view, seat=seat)
    assert all(len(effects) == 1 for effects in by_text.values()), by_text
    menu = words.menu(t.ruleset, legal, view, seat)
    assert all(words.find(menu, entry.text) is entry for entry in menu)


def playout_words(
    players: int, seed: int, setup: str | None = None
) -> tuple[dict[str, set[str]], dict[str, set[str]]]:
    """Play a seeded random match; check and return every command's and event's words by type."""
    expansions = (PATRONS_ID,) if setup else ()
    options = {PATRONS_ID: {"setup": setup}} if setup else None
    t = Table.new(
        "river-of-gold", players, seed=seed, expansions=expansions, expansion_options=options
    )
    readers: list[int | None] = [*range(players), None]
    narrators = {s: Narrator(t.ruleset, s) for s in readers}
    commands: dict[str, set[str]] = defaultdict(set)
    events = _tell(narrators, t.records())
    bot = RandomBot(seed)
    while t.awaiting():
        seat = next(iter(t.awaiting()))
        _check_menu(t, seat, commands)
        told = t.seq
        t.send(seat, bot.choose(seat, t.legal(seat), lambda: None))
        for name, texts in _tell(narrators, t.records()[told:]).items():
            events[name] |= texts
    outcome = t.outcome()
    assert outcome is not None and outcome.scores is not None
    totals = tuple(sum(line.points[s] for line in outcome.breakdown) for s in range(players))
    assert totals == outcome.scores
    names = t.ruleset.seat_names(t.view(None), players)
    assert len(set(names)) == players and not any(n.startswith("Seat") for n in names)
    for line in words.outcome_lines(outcome, names):
        _clean(line)
    for seat in readers:
        _clean(t.render(seat))
    return commands, events


def test_every_command_and_event_of_seeded_playouts_has_clean_distinct_words() -> None:
    commands: dict[str, set[str]] = defaultdict(set)
    events: dict[str, set[str]] = defaultdict(set)
    for players, seed, setup in ((2, 1, None), (3, 7, None), (4, 3, None), (3, 4, "draft"),
                                 (2, 5, "alternative"), (4, 6, "draft")):  # fmt: skip
        more_commands, more_events = playout_words(players, seed, setup)
        for name, texts in more_commands.items():
            commands[name] |= texts
        for name, texts in more_events.items():
            events[name] |= texts
    every_command = {c.__name__ for c in (*COMMANDS, *PATRON_COMMANDS)}
    every_event = {e.__name__ for e in (*EVENTS, *PATRON_EVENTS)}
    assert every_command - RARE_COMMANDS <= set(commands) <= every_command
    assert every_event - RARE_EVENTS <= set(events) <= every_event


@pytest.mark.long
@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("setup", [None, "draft", "alternative"])
def test_many_playouts_have_words_for_everything(players: int, setup: str | None) -> None:
    for seed in range(10, 16):
        playout_words(players, seed, setup)


# -- positions random play rarely reaches ------------------------------------------------------


def scene(t: Table, *commands: Command) -> dict[str, set[str]]:
    """Send commands, checking every menu on the way and telling every event to every seat."""
    said: dict[str, set[str]] = defaultdict(set)
    rules = t.ruleset.rules
    for command in commands:
        seat = next(iter(t.awaiting()))
        _check_menu(t, seat, defaultdict(set))
        before = t.state
        for event in t.send(seat, command):
            for reader in (*range(t.state.count), None):
                shown = rules.redact(event, reader)
                text = t.ruleset.describe_event(shown, rules.view(before, reader), reader)
                _clean(text)
                assert text != words.plain(shown)
                said[type(event).__name__].add(text)
    return said


def delivering(card: str, die: int, **changes: Any) -> Table:
    t = table()
    player(t, 0, die=die, goods=(6, 6, 6), hand=(card, *t.state.players[0].hand), **changes)
    return t


def test_monk_noble_and_merchant_sale_have_words() -> None:
    monk = delivering("cust-19", 1)  # a monk of region 1: second marker on an own building
    build_on(monk, 8, "bldg-01", 0)
    said = scene(monk, Deliver(card="cust-19"))
    assert said["FavourCapRaised"] == {"Crab's favour cap rose to 4."}
    place = next(c for c in monk.legal(0) if type(c).__name__ == "PlaceMarker")
    text = monk.ruleset.describe(place, monk.view(0), 0)
    assert text.startswith("Put your second marker on the ") and "owned by Crab" in text
    assert "MarkerPlaced" in scene(monk, place)
    noble = delivering("cust-28", 4)
    scene(noble, Deliver(card="cust-28"))
    upgrade = noble.legal(0)[0]
    assert noble.ruleset.describe(upgrade, noble.view(0), 0).startswith("Replace your ship on ")
    assert scene(noble, upgrade)["ShipUpgraded"]
    seller = table()
    player(seller, 0, die=1, ships=(14, 9), delivered=("cust-16",), goods=(2, 0, 0))
    scene(seller, Sail(ship=0), TakeKoku())
    menu = [seller.ruleset.describe(c, seller.view(0), 0) for c in seller.legal(0)]
    assert "Sell 1 silk for 5 koku" in menu and "Stop selling goods" in menu


# -- specific sentences ------------------------------------------------------------------------


def test_trades_and_deliveries_name_goods_and_customers() -> None:
    t = delivering("cust-07", 1)
    view = t.view(0)
    assert t.ruleset.describe(TradeGoods(give="silk", take="rice"), view, 0) == (
        "Trade 2 silk for 1 rice"
    )
    assert t.ruleset.describe(Deliver(card="cust-07"), view, 0) == (
        "Deliver 2 silk, 1 rice and 2 porcelain to the elder of Spine of the World (1)"
        " (end: doubles your region score in Spine of the World)"
    )
    board = t.render(0)
    assert "the elder of Spine of the World (1), wanting 2 silk, 1 rice and 2 porcelain" in board
    other = t.render(1)
    assert "hand: 3 customers (hidden)" in other and "elder of Spine of the World" not in other


def test_ROG_SETUP_10_seats_are_clans() -> None:
    t = table(4)
    assert t.ruleset.seat_names(t.view(None), 4) == ["Crab", "Crane", "Scorpion", "Mantis"]


def test_ROG_PATRON_1_patrons_read_with_their_powers_and_clans_name_the_seats() -> None:
    t = table(3, expansions=(PATRONS_ID,))
    assert t.ruleset.seat_names(t.view(None), 3) == ["Seat 1", "Seat 2", "Seat 3"]
    board = t.render(2)
    assert "; die " not in board and "ship on river space" not in board  # not rolled nor launched
    assert "On offer in the draft:" in board and "Seat 3 chooses next." in board
    offer = t.legal(2)[0]
    card = PATRONS[offer.patron]
    assert t.ruleset.describe(offer, t.view(2), 2) == (
        f"Choose {card.name} ({card.clan.capitalize()}): {card.ability}"
    )
    t.send(2, offer)
    assert t.ruleset.seat_names(t.view(None), 3)[2] == card.clan.capitalize()


def test_ROG_PATRON_12_an_unrolled_opening_die_is_not_shown() -> None:
    t = table(2, expansions=(PATRONS_ID,))
    t.send(1, next(c for c in t.legal(1) if getattr(c, "patron", "") == "kakita-ryoku"))
    t.send(0, t.legal(0)[0])
    crane = next(
        line for line in t.render(None).splitlines() if line.lstrip(" >").startswith("Crane")
    )
    assert "die" not in crane and "still rolls or sets its opening die" in t.render(None)
    assert t.ruleset.describe(t.legal(1)[0], t.view(1), 1) == "Roll your opening die"


def test_ROG_SCORE_5_the_ending_breaks_the_score_down_in_the_rulebook_order() -> None:
    t = table(3)
    player(t, 0, points=10, earned={"during play": 3, "masteries": 7}, koku=11)
    player(t, 0, delivered=("cust-13", "cust-01"), goods=(3, 3, 0), influence=(5, 0, 0, 0, 0, 0))
    t.state = state(t, over=True, final=(0, 0, 0), winners=(0,))
    from gamehall.plugins.river_of_gold.scoring import final_scores, winners

    final = final_scores(t.state, t.ruleset.hook)
    t.state = state(t, final=final, winners=winners(t.state, final))
    outcome = t.outcome()
    assert outcome is not None
    assert [line.category for line in outcome.breakdown] == [
        "during play", "masteries", "ending the game", "region tiles", "customers",
        "merchants (koku)", "artisans (goods)", "nobles",
    ]  # fmt: skip
    by = {line.category: line.points[0] for line in outcome.breakdown}
    assert by["masteries"] == 7 and by["customers"] == 5 and by["merchants (koku)"] == 2
    assert by["artisans (goods)"] == 2 and sum(by.values()) == final[0]
    lines = words.outcome_lines(outcome, t.ruleset.seat_names(t.view(None), 3))
    assert lines[0] == "Crab wins: the most points." and "Crab" in lines[1]
