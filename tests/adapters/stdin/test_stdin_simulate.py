"""Simulations, the progress bar, and the parts of the human mode that need no process."""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

import anyio
import pytest
from gamehall.adapters.cli import main
from gamehall.adapters.cli.terminal import Progress
from gamehall.adapters.stdin.common import parse_options, parse_seats
from gamehall.adapters.stdin.human import HumanGame, Terminal
from gamehall.adapters.stdin.simulate import simulate, wilson
from gamehall.core import GamehallError, InvalidOptions, Registry
from gamehall.core.hall import Hall
from gamehall.core.replay import ruleset_for, verify
from gamehall.core.store import MemoryStore, SQLiteStore


@pytest.fixture(autouse=True)
def _keep_logging_as_it_is(monkeypatch: pytest.MonkeyPatch) -> None:
    """Stop ``main`` from pointing structlog at this test's captured stderr for later tests."""
    monkeypatch.setattr("gamehall.adapters.cli.configure", lambda **_: None)


def test_simulate_counts_every_match_once_and_repeats_with_a_seed(registry: Registry) -> None:
    one = simulate(registry, "tictactoe", 300, seed=11)
    two = simulate(registry, "tictactoe", 300, seed=11)
    assert sum(one.wins.values()) + one.draws + one.unfinished == 300
    assert (one.wins, one.draws, one.events) == (two.wins, two.draws, two.events)
    assert 6 * 300 <= one.events <= 10 * 300  # 5 to 9 marks, plus the start and the ending
    other = simulate(registry, "tictactoe", 300, seed=12)
    assert (other.wins, other.events) != (one.wins, one.events)
    misere = simulate(registry, "tictactoe", 300, seed=11, expansions=["tictactoe-misere"])
    assert misere.ruleset == "tictactoe+tictactoe-misere"
    assert misere.wins.get(1, 0) > one.wins.get(1, 0)  # completing a line loses


def test_simulate_stores_matches_that_verify(tmp_path: Path, registry: Registry) -> None:
    store = SQLiteStore(tmp_path / "s.db", registry.codec)
    try:
        summary = simulate(registry, "tictactoe", 5, seed=3, store=store)
        assert len(summary.stored) == 5 == len(store.streams())
        for match in summary.stored:
            records = store.read(match)
            assert verify(ruleset_for(registry, records), records) is None
        assert sum(store.version(m) for m in summary.stored) == summary.events
    finally:
        store.close()


def test_simulate_command_prints_the_summary(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "sim.db"
    assert main(["simulate", "tictactoe", "--games", "20", "--seed", "1", "--db", str(db)]) == 0
    out, err = capsys.readouterr()
    assert err == ""  # no progress bar when stderr is not a terminal
    lines = out.splitlines()
    assert lines[0] == "20 matches of tictactoe (2 players, seed 1)"
    assert lines[1].startswith("ended by: three in a row ")
    assert lines[2].startswith("wins by seat: seat 1 (X) ") and "95% " in lines[2]
    assert lines[-3].startswith("mean length: ") and lines[-2].endswith(" events/s")
    assert lines[-1] == f"stored 20 matches in {db}"
    assert main(["matches", "--db", str(db)]) == 0
    assert len(capsys.readouterr().out.splitlines()) == 21
    assert main(["simulate", "tictactoe", "--games", "0"]) == 1
    assert "--games must be at least 1" in capsys.readouterr().err


def test_progress_bar_draws_only_on_a_terminal() -> None:
    quiet = io.StringIO()
    with Progress("work", 10, stream=quiet) as bar:
        for _ in range(10):
            bar.advance()
    assert quiet.getvalue() == ""
    shown = io.StringIO()
    with Progress("work", 4, stream=shown, force=True) as bar:
        for _ in range(4):
            bar.advance()
    text = shown.getvalue()
    assert "work" in text and "4/4" in text and "\n" in text


def test_options_and_seats_parse_or_say_why() -> None:
    assert parse_options(["size=3", "name=bob", "x:flag=true"]) == (
        {"size": 3, "name": "bob"},
        {"x": {"flag": True}},
    )
    with pytest.raises(InvalidOptions, match="not KEY=VALUE"):
        parse_options(["oops"])
    assert parse_seats(["2=human", "1=bot"], 2) == {1: "human", 0: "bot"}
    with pytest.raises(InvalidOptions, match="seats are counted from 1 now"):
        parse_seats(["0=human"], 2)
    with pytest.raises(InvalidOptions, match="the seat must be a number"):
        parse_seats(["one=bot"], 2)


async def _hand_over(registry: Registry) -> str:
    out = io.StringIO()
    answers = io.StringIO("\n1\n\n1\nquit\n")
    async with Hall(MemoryStore(registry.codec), registry) as hall:
        match = await hall.create("tictactoe", seed=1)
        game = HumanGame(hall, match, {0: "human", 1: "human"}, Terminal(answers, out))
        game.handover = True  # what a game with hidden information gets with several people
        assert await game.run() == 0
    return out.getvalue()


def test_hot_seat_hands_the_terminal_over_before_each_board(registry: Registry) -> None:
    text = _run(_hand_over, registry)
    assert text.count("pass the terminal to seat 1, then press Enter") == 2  # before each turn
    assert text.count("pass the terminal to seat 2, then press Enter") == 1
    first_prompt = text.index("pass the terminal to seat 2")
    assert "(seat 2), place your mark" not in text[:first_prompt]


def test_choose_refuses_an_ambiguous_or_unknown_answer(registry: Registry) -> None:
    async def body(registry: Registry) -> None:
        async with Hall(MemoryStore(registry.codec), registry) as hall:
            match = await hall.create("tictactoe", seed=1)
            game = HumanGame(
                hall, match, {0: "human", 1: "bot"}, Terminal(io.StringIO(), io.StringIO())
            )
            seen = hall.view(match, 0)
            assert game.choose("3", 0, seen).cell == 2  # type: ignore[attr-defined]
            assert game.choose('{"type":"tictactoe.PlaceMark","cell":7}', 0, seen).cell == 7  # type: ignore[attr-defined]
            for bad in ("0", "10", "row 1", '{"type":"nope"}'):
                with pytest.raises(GamehallError):
                    game.choose(bad, 0, seen)

    _run(body, registry)


def _run(fn: Any, *args: Any) -> Any:
    return anyio.run(fn, *args)


def test_the_summary_tells_how_matches_ended_and_win_rates_with_intervals(
    registry: Registry,
) -> None:
    summary = simulate(registry, "tictactoe", 400, seed=5)
    text = "\n".join(summary.lines())
    assert summary.reasons.keys() == {"three in a row", "the board is full"}
    assert sum(summary.reasons.values()) == 400
    assert "wins by seat: seat 1 (X) " in text and "95% " in text
    low, high = wilson(summary.wins[0], 400)
    assert low < summary.wins[0] / 400 < high and high - low < 0.11
    assert summary.commands >= 5 * 400


def test_no_draws_line_when_no_match_was_drawn(registry: Registry) -> None:
    summary = simulate(registry, "toy-battle", 10, seed=1)
    assert summary.draws == 0 and not any("draws" in line for line in summary.lines())
