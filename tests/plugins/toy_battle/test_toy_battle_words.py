"""Toy Battle speaks in words: every command and event of seeded playouts, menus, boards, ends."""

from __future__ import annotations

import re
from collections import defaultdict
from typing import Any

import pytest
from gamehall.core import Command, RandomBot, Table, words
from gamehall.core.narration import Narrator
from gamehall.plugins.toy_battle.commands import COMMANDS, DRAW, ChooseTarget, MoveTroop, PlaceTroop
from gamehall.plugins.toy_battle.events import EVENTS, TroopsDrawn
from gamehall.plugins.toy_battle.terrain import BOXED
from gamehall.plugins.toy_battle.troops import KINDS
from toy_battle_helpers import RULES, RULESET, B, R, make, send

TOKEN = re.compile(r"\b(blue|red)-[a-z0-9]+-\d\b")
INTERNAL = re.compile(r"[{}_]|toy_battle|\bcapn\b|\bxb42\b")


def _kind(troop: str) -> str:
    return "-".join(troop.split("-")[:2])


def _effect(view: Any, command: Command) -> tuple[object, ...]:
    """Return what a command does, with troops by kind: identical troops do the same."""
    tops = {stack[-1]: spot for spot, stack in view.stacks.items() if stack}
    if isinstance(command, PlaceTroop):
        return ("place", _kind(command.troop), command.spot)
    if isinstance(command, ChooseTarget):
        return ("target", _kind(command.troop), tops.get(command.troop))
    if isinstance(command, MoveTroop):
        return ("move", _kind(command.troop), tops.get(command.troop), command.to)
    return (type(command).__name__,)


def _clean(text: str) -> None:
    assert text and not TOKEN.search(text) and not INTERNAL.search(text), text


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


def playout_words(terrain: str, seed: int) -> tuple[dict[str, set[str]], dict[str, set[str]]]:
    """Play a seeded random match; check and return every command's and event's words by type."""
    table = Table.new("toy-battle", options={"terrain": terrain}, seed=seed)
    hook = table.ruleset.hook
    narrators: dict[int | None, Narrator] = {s: Narrator(table.ruleset, s) for s in (0, 1, None)}
    commands: dict[str, set[str]] = defaultdict(set)
    events = _tell(narrators, table.records())
    bot = RandomBot(seed)
    while table.awaiting():
        seat = next(iter(table.awaiting()))
        legal, view = table.legal(seat), table.view(seat)
        by_text: dict[str, set[tuple[object, ...]]] = defaultdict(set)
        for command in legal:
            text = hook.gamehall_describe_command(command=command, view=view, seat=seat)
            assert text is not None, command
            _clean(text)
            by_text[text].add(_effect(view, command))
            commands[type(command).__name__].add(text)
            assert hook.gamehall_command_group(command=command, view=view, seat=seat)
        assert all(len(effects) == 1 for effects in by_text.values()), by_text
        menu = words.menu(table.ruleset, legal, view, seat)
        assert all(words.find(menu, entry.text) is entry for entry in menu)
        told = table.seq
        table.send(seat, bot.choose(seat, legal, lambda: None))
        for name, texts in _tell(narrators, table.records()[told:]).items():
            events[name] |= texts
    outcome = table.outcome()
    assert outcome is not None and outcome.reason and not INTERNAL.search(outcome.reason)
    assert sum(sum(line.points) for line in outcome.breakdown) == sum(outcome.scores or ())
    for seat in (0, 1, None):
        _clean(table.render(seat))
    return commands, events


def test_every_command_and_event_of_seeded_playouts_has_clean_distinct_words() -> None:
    commands: dict[str, set[str]] = defaultdict(set)
    events: dict[str, set[str]] = defaultdict(set)
    for terrain in BOXED:
        for seed in (1, 2):
            more_commands, more_events = playout_words(terrain, seed)
            for name, texts in more_commands.items():
                commands[name] |= texts
            for name, texts in more_events.items():
                events[name] |= texts
    assert set(commands) == {c.__name__ for c in COMMANDS}
    assert set(events) == {e.__name__ for e in EVENTS}


@pytest.mark.long
@pytest.mark.parametrize("terrain", BOXED)
def test_many_playouts_have_words_for_everything(terrain: str) -> None:
    for seed in range(3, 23):
        playout_words(terrain, seed)


# -- specific sentences ------------------------------------------------------------------------


def describe(state: Any, command: Command, seat: int = 0) -> str:
    return RULESET.describe(command, RULES.view(state, seat), seat)


def test_place_names_the_troop_the_spot_and_what_it_covers() -> None:
    state = make(stacks={11: [B("roxy")], 13: [R("capn")]}, racks=((B("jumbo"),), ()))
    text = describe(state, PlaceTroop(troop=B("jumbo"), spot=13))
    assert text == "Place Jumbo (3) from your rack on spot 13, covering Red's Cap'n (2)"
    assert describe(state, PlaceTroop(troop=B("jumbo"), spot=11)) == (
        "Place Jumbo (3) from your rack on spot 11, on your Roxy (7)"
    )
    assert describe(state, PlaceTroop(troop=B("jumbo"), spot=13), seat=1) == (
        "Place Jumbo (3) from Blue's rack on spot 13, covering your Cap'n (2)"
    )


def _everywhere() -> dict[int, list[str]]:
    """Return a blue troop on every base of Castle Field, so every spot is connected."""
    tokens = [f"blue-{k.key}-{n}" for k in KINDS for n in (1, 2)]
    return {spot: [tokens[i]] for i, spot in enumerate(range(11, 26))}


def test_special_bases_and_headquarters_are_named_in_menus() -> None:
    castle = make(stacks={11: [B("roxy")], 13: [B("star")]}, racks=((B("hook"),), ()))
    assert describe(castle, PlaceTroop(troop=B("hook"), spot=15)).endswith("spot 15 (Castle base)")
    pool = make("pool", stacks={11: [B("roxy")]}, racks=((B("skully"),), ()))
    assert "spot 12 (values 1/2)" in describe(pool, PlaceTroop(troop=B("skully"), spot=12))
    hq = make(stacks=_everywhere(), racks=((B("star", 3),), ()))
    assert describe(hq, PlaceTroop(troop=B("star", 3), spot=41)) == (
        "Place Star (6) from your rack on Red's headquarters (spot 41) and win"
    )


def test_draw_label_counts_what_the_rack_takes() -> None:
    seven = make(racks=([B(k, n) for k in ("roxy", "star", "hook") for n in (1, 2, 3)][:7], ()))
    assert describe(seven, DRAW) == "Draw 1 troop"
    assert describe(make(racks=((B("roxy"),), ())), DRAW) == "Draw 2 troops"


def test_identical_troops_read_the_same_and_are_listed_once() -> None:
    state = make(racks=((B("roxy", 1), B("roxy", 2)), ()))
    legal = RULES.legal(state, 0)
    menu = words.menu(RULESET, legal, RULES.view(state, 0), 0)
    places = [c for c in legal if isinstance(c, PlaceTroop)]
    assert len(places) == 4 and len([e for e in menu if isinstance(e.command, PlaceTroop)]) == 2
    line = words.find(menu, "place roxy (7) from your rack on spot 11")
    assert line is not None and isinstance(line.command, PlaceTroop)
    assert [e.group for e in menu] == ["Draw", "Place Roxy (7)", "Place Roxy (7)"]


def test_a_hidden_draw_reads_as_a_count_for_the_other_seat() -> None:
    event = TroopsDrawn(seat=1, count=2, cause="draw", troops=(R("roxy"), R("star")))
    state = make()
    hidden = RULES.redact(event, 0)
    assert RULESET.describe_event(hidden, RULES.view(state, 0), 0) == "Red drew 2 troops."
    assert RULESET.describe_event(event, RULES.view(state, 1), 1) == (
        "Red drew Roxy (7) and Star (6)."
    )


def test_effects_read_as_what_they_do() -> None:
    _, placed = send(
        make(stacks={11: [B("roxy")], 17: [R("capn")]}, racks=((B("jumbo"),), ())),
        PlaceTroop(troop=B("jumbo"), spot=13),
    )
    menu = [describe(placed, c) for c in RULES.legal(placed, 0)]
    assert menu == ["Jumbo: discard Red's Cap'n (2) on spot 17", "Skip Jumbo's effect"]
    _, placed = send(make(racks=((B("skully"),), ())), PlaceTroop(troop=B("skully"), spot=11))
    assert describe(placed, RULES.legal(placed, 0)[0]) == "Use Skully: draw 2 troops"


def test_board_has_a_legend_and_exact_counts() -> None:
    state = make(stacks={11: [B("kwak")]}, racks=((B("roxy"),), (R("star"),)))
    board = RULESET.render(RULES.view(state, 0), 0)
    assert "11:BK" in board and "B1:HQ" in board and "R41:HQ" in board
    assert "Legend:" in board and "K Kwak (joker)" in board and "-- an empty base" in board
    assert "15*:--" in board and "Castle on spots 15, 16, 20, 21" in board
    assert "Red (seat 2): 0 medals" in board and "rack: 1 troop" in board
    assert "rack: 1 troops" not in board and "Blue to move: draw 2 troops or place 1 troop" in board
    pool = RULESET.render(RULES.view(make("pool"), 0), 0)
    assert "Spots 12, 22 take only troops of value 1 or 2." in pool
    metal = RULESET.render(RULES.view(make("metal-x"), 0), 0)
    assert "Metal-X on spots 16, 17, 18: troops placed there have no effect" in metal
    plain = RULESET.render(RULES.view(make(special_bases=False), 0), 0)
    assert "Special bases: off in this match" in plain and "15*" not in plain


def test_seats_are_named_by_colour() -> None:
    red_first = Table.new("toy-battle", options={"colour": "red"}, seed=1)
    assert red_first.ruleset.seat_names(red_first.view(None), 2) == ["Red", "Blue"]


def test_TB_END_5_ending_names_the_player_who_is_stuck() -> None:
    state = make(racks=((B("roxy"),), ()), supply=((B("star"),), ()), medals=(1, 3))
    events, after = send(state, DRAW)
    assert RULES.outcome(after).reason == (
        "Red can neither draw nor place a troop, which ends the match, and Red has more medals"
    )
    said = RULESET.describe_event(events[-1], RULES.view(after, 0), 0)
    assert said.startswith("Red wins: Red can neither draw nor place a troop")
    tied = make(racks=((B("roxy"),), ()), supply=((B("star"),), ()), medals=(2, 2))
    _, after = send(tied, DRAW)
    assert RULES.outcome(after).reason.endswith("medals are tied, so Red, who ended it, loses")


def test_TB_END_5_ending_says_the_headquarters_was_reached() -> None:
    _, after = send(
        make(stacks=_everywhere(), racks=((B("star", 3),), ())),
        PlaceTroop(troop=B("star", 3), spot=41),
    )
    assert RULES.outcome(after).reason == "it placed a troop on Red's headquarters"


def test_TB_END_5_ending_gives_the_medals_by_region() -> None:
    bases = {11: [B("roxy", 1)], 12: [B("roxy", 2)], 13: [B("roxy", 3)], 14: [B("hook", 1)]}
    state = make(stacks=bases, racks=((B("star"),), ()), medals=(4, 0), taken=[(3, 0), (4, 0)])
    _, after = send(state, PlaceTroop(troop=B("star"), spot=18))
    outcome = RULES.outcome(after)
    assert outcome.reason == "it reached the medal target of 7"
    lines = words.outcome_lines(outcome, ["Blue", "Red"])
    assert lines[0] == "Blue wins: it reached the medal target of 7."
    assert [line.category for line in outcome.breakdown] == [
        "region 11+12+13+14+18",
        "region 13+17+18+22",
        "region 14+18+19+23",
    ]
    assert outcome.scores == (7, 0)
