"""Every built-in game speaks in words: each command and event its playouts produce has a
description of its own, readable by a person (no JSON, no internal key or raw id), seats have
names, endings say why, and one turn of the terminal looks as recorded.
"""

from __future__ import annotations

import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from gamehall.core import Context, RandomBot, Registry, engine
from gamehall.core.conformance import Case, cases, table_for
from gamehall.core.errors import NotAwaited
from gamehall.core.events import SeatGivenToBot, SeatTaken, tag_of
from gamehall.core.registry import builtin_registry
from gamehall.core.testing.words import counted_from_zero, one_of_many
from gamehall.core.words import describe_event, outcome_lines

ROOT = Path(__file__).resolve().parents[2]
SNAPSHOTS = ROOT / "tests" / "snapshots"
RAW_ID = re.compile(r"\b[a-z]+(?:-[a-z]+)*-\d+\b")  # cust-07, blue-roxy-1, bldg-41
CAMEL = re.compile(r"\b[A-Z][a-z]+[A-Z]\w*\b")  # PlaceTroop, TroopPlaced
SEEDS = 3


def _cases() -> list[Case]:
    registry = builtin_registry()
    chosen: dict[tuple[object, ...], Case] = {}
    for game in sorted(registry.games):
        for case in cases(registry, game):
            key = (case.game, case.expansions, case.players)
            chosen.setdefault(key, case)
    return list(chosen.values())


def unreadable(text: str, tags: set[str]) -> list[str]:
    """Return what in ``text`` a person should not have to read."""
    problems = []
    if not text.strip():
        problems.append("it is empty")
    if "{" in text or "}" in text:
        problems.append("it shows JSON")
    if any(tag in text for tag in tags):
        problems.append("it names an internal type")
    found = RAW_ID.search(text) or CAMEL.search(text)
    if found:
        problems.append(f"it shows the raw key {found.group()!r}")
    if re.search(r"\b[a-z]+_[a-z_]+\b", text):
        problems.append("it shows a snake_case key")
    problems += counted_from_zero(text) + one_of_many(text)
    return problems


def _words(registry: Registry, case: Case, seed: int) -> Iterator[tuple[str, str, str]]:
    """Yield (what, type, text) for every command offered and every event of a playout."""
    table = table_for(registry, case, seed)
    ruleset = table.ruleset
    hook = ruleset.hook
    bot = RandomBot(seed)
    state = table.state
    for _ in range(3000):
        asked = table.awaiting()
        if not asked:
            break
        for seat in range(case.players):
            view = table.view(seat)
            for command in table.legal(seat):
                text = hook.gamehall_describe_command(command=command, view=view, seat=seat)
                yield "command", tag_of(type(command)), text
        seat = sorted(asked)[seed % len(asked)]
        before = table.state
        first = len(table.events)
        table.send(seat, bot.choose(seat, table.legal(seat), lambda: None))
        state = before
        for event in table.events[first:]:
            for reader in [*range(case.players), None]:
                shown = ruleset.rules.redact(event, reader)
                if shown is not None:
                    view = ruleset.rules.view(state, reader)
                    text = hook.gamehall_describe_event(event=shown, view=view, seat=reader)
                    yield "event", tag_of(type(event)), text
            state = ruleset.rules.evolve(state, event)


@pytest.mark.parametrize("case", _cases(), ids=lambda c: c.name)
def test_every_command_and_event_has_words_of_its_game(case: Case) -> None:
    registry = builtin_registry()
    ruleset = registry.ruleset(case.game, case.expansions)
    tags = {tag_of(t) for t in ruleset.command_types} | {tag_of(t) for t in ruleset.event_types}
    seen: dict[str, int] = {}
    for seed in range(SEEDS):
        for what, tag, text in _words(registry, case, seed):
            assert text is not None, f"{case.name}: {what} {tag} has no description"
            problems = unreadable(text, tags)
            assert not problems, f"{case.name}: {what} {tag} reads {text!r}: {', '.join(problems)}"
            seen[tag] = seen.get(tag, 0) + 1
    assert seen, f"{case.name}: no command or event was described"


def _told_effect(table: Any, seat: int, command: Any) -> list[str]:
    """Return what a command would do, told to its seat, without changing the table."""
    ruleset = table.ruleset
    ctx = Context(seat, table.seq + 1, table.events[0].seed or 0)
    events, _ = engine.decide(ruleset, table.state, seat, command, ctx)
    state, told = table.state, []
    for event in events:
        shown = ruleset.rules.redact(event, seat)
        if shown is not None:
            view = ruleset.rules.view(state, seat)
            told.append(ruleset.describe_event(shown, view, seat))
        state = ruleset.rules.evolve(state, event)
    return told


@pytest.mark.parametrize("case", _cases(), ids=lambda c: c.name)
def test_commands_that_read_the_same_do_the_same(case: Case) -> None:
    registry = builtin_registry()
    for seed in range(2):
        table = table_for(registry, case, seed)
        bot = RandomBot(seed)
        for _ in range(400):
            asked = table.awaiting()
            if not asked:
                break
            for seat in asked:
                view = table.view(seat)
                same: dict[str, list[Any]] = {}
                for command in table.legal(seat):
                    same.setdefault(table.ruleset.describe(command, view, seat), []).append(command)
                for text, commands in same.items():
                    if len(commands) > 1:
                        effects = {tuple(_told_effect(table, seat, c)) for c in commands}
                        assert len(effects) == 1, (
                            f"{case.name}: {text!r} names commands that do different things: "
                            f"{sorted(effects)[:2]}"
                        )
            seat = sorted(asked)[0]
            table.send(seat, bot.choose(seat, table.legal(seat), lambda: None))


@pytest.mark.parametrize("case", _cases(), ids=lambda c: c.name)
def test_seats_have_names_and_endings_say_why(case: Case) -> None:
    registry = builtin_registry()
    table = table_for(registry, case, 1)
    names = registry.ruleset(case.game, case.expansions).hook.gamehall_seat_names(
        view=table.view(None)
    )
    assert names is not None and len(names) == case.players, f"{case.name}: no seat names"
    assert len(set(names)) == case.players, f"{case.name}: two seats share a name: {names}"
    outcome = table.play(RandomBot(1))
    assert outcome is not None and outcome.reason, f"{case.name}: the ending gives no reason"
    tags = {tag_of(t) for t in table.ruleset.event_types}
    for line in outcome_lines(outcome, names):
        assert not unreadable(line, tags), line
    if outcome.scores is not None and len(outcome.breakdown) > 1:
        totals = [sum(line.points[s] for line in outcome.breakdown) for s in range(case.players)]
        assert totals == list(outcome.scores), f"{case.name}: the breakdown does not add up"


def _snapshot_games() -> list[str]:
    return sorted(builtin_registry().games)


def screen_of(game: str, db: Path) -> str:
    """Return the terminal text of a person's first turn (and a bot's answer) in a game."""
    done = subprocess.run(
        [sys.executable, "-m", "gamehall.adapters.cli", "play", game, "--seed", "1", "--match",
         "snapshot", "--db", str(db)],
        input="1\n\nquit\n", capture_output=True, text=True, check=False, timeout=120,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    return done.stdout


@pytest.mark.parametrize("game", _snapshot_games())
def test_one_turn_of_the_terminal_looks_as_recorded(game: str, tmp_path: Path) -> None:
    path = SNAPSHOTS / f"terminal-{game}.txt"
    screen = screen_of(game, tmp_path / "s.db")
    assert "Traceback" not in screen and '{"type"' not in screen
    assert not counted_from_zero(screen), f"the terminal counts seats from 0 in {game}"
    assert path.exists(), f"no snapshot {path.name}: run python -m tests.conformance.snapshots"
    assert screen == path.read_text(), (
        f"{path.name} differs: run python -m tests.conformance.snapshots"
    )


def test_the_raw_key_checks_catch_what_they_should() -> None:
    tags = {"toy_battle.PlaceTroop"}
    assert unreadable('place {"troop": 1}', tags) == ["it shows JSON"]
    assert unreadable("deliver to cust-07", tags) == ["it shows the raw key 'cust-07'"]
    assert unreadable("toy_battle.PlaceTroop", tags)
    assert unreadable("PlaceTroop on spot 3", set()) == ["it shows the raw key 'PlaceTroop'"]
    assert unreadable("Place Jumbo (3) on spot 14, covering Roxy (2)", tags) == []
    assert unreadable("X completes the line 2-4-6 and wins.", tags) == []
    assert unreadable("Seat 0 plays Blue", tags) == ["it counts seats from 0 ('Seat 0')"]
    assert unreadable("player 0 is the start player", tags)
    assert unreadable("Seat 1 plays Blue; 10 medals", tags) == []
    assert unreadable("Lion picked up 1 troops", tags) == ["it says 'up 1 troops'"]
    assert unreadable("strength 5 (1 dice) against 8 (2 dice)", tags) == ["it says '1 dice'"]
    assert unreadable("Crab gains 1 koku for visiting space 1; 2 units left", tags) == []


@pytest.mark.parametrize("case", _cases(), ids=lambda c: c.name)
def test_boards_and_endings_count_seats_from_one_and_say_1_thing(case: Case) -> None:
    """What a person reads beside the words of moves: every seat's board (and a spectator's)
    as the match goes, the seat names and the ending."""
    registry = builtin_registry()
    table = table_for(registry, case, 2)
    ruleset = table.ruleset
    bot = RandomBot(2)
    for step in range(3000):
        asked = table.awaiting()
        if step % 9 == 0 or not asked:
            for seat in (0, case.players - 1, None):
                board = ruleset.render(table.view(seat), seat)
                assert not counted_from_zero(board), f"{case.name}: the board reads {board!r}"
                assert not one_of_many(board), f"{case.name}: {one_of_many(board)} in {board!r}"
        if not asked:
            break
        seat = sorted(asked)[0]
        table.send(seat, bot.choose(seat, table.legal(seat), lambda: None))
    outcome = table.outcome()
    assert outcome is not None
    names = ruleset.seat_names(table.view(None), case.players)
    for line in [*names, *outcome_lines(outcome, names)]:
        assert not counted_from_zero(line), f"{case.name}: {line!r}"


@pytest.mark.parametrize("case", _cases(), ids=lambda c: c.name)
def test_engine_and_lobby_messages_count_seats_from_one(case: Case) -> None:
    """What the engine says to a person about seats (a command out of turn, a seat taken or
    given to a bot) counts them from 1, as the game's words do."""
    registry = builtin_registry()
    table = table_for(registry, case, 1)
    ruleset = table.ruleset
    bot = RandomBot(1)
    refusals = 0
    for _ in range(60):
        asked = table.awaiting()
        if not asked:
            break
        mover = sorted(asked)[0]
        command = bot.choose(mover, table.legal(mover), lambda: None)
        for seat in [s for s in range(case.players) if s not in asked] + [None]:
            if seat is not None and type(command) in ruleset.rules.free(table.state, seat):
                continue
            with pytest.raises(NotAwaited) as refused:
                engine.check(ruleset, table.state, seat, command)
            said = str(refused.value)
            assert not counted_from_zero(said), f"{case.name}: {said!r}"
            if 0 in asked:  # the first seat, awaited, is "seat 1"
                assert "waiting for seat 1:" in said, said
            refusals += 1
        table.send(mover, command)
    assert refusals, f"{case.name}: no command out of turn was tried"
    view = table.view(None)
    for event in (SeatTaken(seat=0, player="p"), SeatGivenToBot(seat=0, bot="random", seed=1)):
        for reader in (0, 1, None):
            said = describe_event(ruleset, event, view, reader)
            assert not counted_from_zero(said), f"{case.name}: {said!r}"
            assert "seat 1" in said.lower(), said


def _option_owners() -> list[tuple[str, Any]]:
    registry = builtin_registry()
    owners = [(game.id, game.options) for game in registry.games.values()]
    owners += [(e.id, e.options) for e in registry.expansions.values()]
    return sorted((name, schema) for name, schema in owners if schema is not None)


@pytest.mark.parametrize(("owner", "schema"), _option_owners(), ids=lambda o: str(o)[:30])
def test_every_option_has_a_label_and_help_in_words(owner: str, schema: Any) -> None:
    from gamehall.core.words import option_help

    helps = option_help(schema)
    assert helps, f"{owner}: an options Struct without options"
    for option in helps:
        assert option.label != option.name.replace("_", " "), f"{owner}: {option.name} no label"
        assert option.help and "\n" not in option.help, f"{owner}: {option.name} has no help"
        for text in (option.label, option.help, option.kind):
            assert not re.search(r"\b[a-z]+_[a-z_]+\b", text), f"{owner}: {text!r}"
            assert "Annotated" not in text and "typing" not in text and "Literal" not in text
        assert option.default is not None


@pytest.mark.parametrize("game", sorted(builtin_registry().games))
def test_no_option_is_free_text(game: str) -> None:
    """Every option of a built-in game (and its expansions) is a choice, a number with its
    range or a switch: a closed set of text values is one the ruleset lists, and each of
    them starts a match."""
    from gamehall.core.words import option_help

    registry = builtin_registry()
    ruleset = registry.ruleset(game)
    owners = [(registry.games[game].options, ruleset.rules.option_choices())]
    for expansion in registry.expansions_of(game):
        added = registry.ruleset(game, [expansion.id]).rules.option_choices()
        owners.append((expansion.options, added))
    for schema, choices in owners:
        for option in option_help(schema, choices):
            assert option.values or option.low is not None, f"{game}: {option.name} is free text"
    for name, values in ruleset.rules.option_choices().items():
        low = registry.games[game].min_players
        for value, shown in values:
            assert shown and not counted_from_zero(shown)
            players = max(low, value + 1) if name == "start_seat" else low
            table = table_for(registry, Case(game, (), players, {name: value}), 1)
            assert table.state is not None


def test_gamehall_games_prints_types_and_defaults_in_words() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "gamehall.adapters.cli", "games"],
        capture_output=True, text=True, check=True, timeout=60,
    )  # fmt: skip
    out = done.stdout
    for word in ("Annotated", "Literal", "typing", "<class", "NoneType"):
        assert word not in out
    assert "option honour_target (Honour to win): a whole number from 1; default 400" in out
    assert "option dishonour_ends_alliance (Dishonour that ends an alliance): one of: any, " in out
    assert "option river-of-gold-patrons:setup (How patrons are dealt): one of: draft, " in out
    assert "option terrain (Terrain): one of: castle = Castle Field / Kasteelland, pool = " in out
    assert "option start_seat (Starting player): one of: 0 = seat 1 (Owari), 1 = seat 2 " in out
    options = [line for line in out.splitlines() if line.strip().startswith("option ")]
    # Every option of every installed game and expansion (outside plugins included: the
    # command lists what is installed) has its line.
    from gamehall.core import default_registry

    installed = default_registry()
    schemas = [g.options for g in installed.games.values()]
    schemas += [e.options for e in installed.expansions.values()]
    assert len(options) == sum(len(msgspec_fields(s)) for s in schemas if s is not None)
    assert all("; default " in line for line in options)


def msgspec_fields(schema: Any) -> tuple[Any, ...]:
    import msgspec

    return msgspec.structs.fields(schema)


def _expansion_cases() -> list[Case]:
    return [case for case in _cases() if case.expansions]


@pytest.mark.parametrize("case", _expansion_cases(), ids=lambda c: c.name)
def test_an_expansion_that_changes_who_wins_says_why(case: Case) -> None:
    """The same moves played with and without the expansion: where the winners differ, the
    reasons differ too (the expansion that changed the result owns its reason)."""
    registry = builtin_registry()
    alone_case = Case(case.game, (), case.players, case.options)
    compared = 0
    for seed in range(SEEDS * 4):
        table = table_for(registry, case, seed)
        alone = table_for(registry, alone_case, seed)
        bot = RandomBot(seed)
        while table.awaiting() and alone.awaiting():
            seat = sorted(table.awaiting())[0]
            command = bot.choose(seat, table.legal(seat), lambda: None)
            if seat not in alone.awaiting() or command not in alone.legal(seat):
                break  # the expansion changed the play itself: no like-for-like ending
            table.send(seat, command)
            alone.send(seat, command)
        ended, base = table.outcome(), alone.outcome()
        if ended is None or base is None:
            continue
        compared += 1
        assert ended.reason, f"{case.name}: the ending gives no reason"
        if set(ended.winners) != set(base.winners):
            assert ended.reason != base.reason, (
                f"{case.name}: {ended.reason!r} is the game's reason for another result"
            )
    if case.game == "tictactoe":
        assert compared, "no ending played alike with and without the expansion"


def test_misere_says_who_completed_the_line_and_that_it_loses() -> None:
    from gamehall.core import Table

    table = Table.new("tictactoe", expansions=["tictactoe-misere"], seed=1)
    for cell in (0, 3, 1, 4, 2):  # X completes the top row
        table.send(table.state.turn, table.legal(table.state.turn)[0].__class__(cell=cell))
    outcome = table.outcome()
    assert outcome is not None and outcome.winners == (1,)
    lines = outcome_lines(outcome, ["X", "O"])
    assert lines[0] == "O wins: X completed the line 0-1-2, and completing a line loses."
    plain = Table.new("tictactoe", seed=1)
    for cell in (0, 3, 1, 4, 2):
        plain.send(plain.state.turn, plain.legal(plain.state.turn)[0].__class__(cell=cell))
    assert outcome_lines(plain.outcome(), ["X", "O"])[0] == "X wins: three in a row."


def test_a_take_back_names_seats_as_people_do() -> None:
    from gamehall.core.events import TakenBack
    from gamehall.core.words import describe_event

    registry = builtin_registry()
    ruleset = registry.ruleset("tictactoe")
    view = table_for(registry, Case("tictactoe", (), 2, {}), 1).view(None)
    back = TakenBack(first=3, last=4, seat=0, agreed=(1,))
    assert describe_event(ruleset, back, view, None) == (
        "X took back the last move with the consent of O."
    )
    mine = describe_event(ruleset, back, view, 0)
    assert mine.startswith("You took back") and not counted_from_zero(mine)
    gunsen = registry.ruleset("gunsen")
    early = table_for(registry, Case("gunsen", (), 2, {}), 1).view(None)
    alone = TakenBack(first=3, last=4, seat=0)
    plain = describe_event(gunsen, alone, early, None)
    assert not counted_from_zero(plain) and plain.endswith("took back the last move.")
