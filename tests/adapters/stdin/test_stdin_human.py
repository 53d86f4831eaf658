"""The human mode: a person plays through stdin (piped, and through a pseudo-terminal)."""

from __future__ import annotations

import io
import os
import pty
import select
import subprocess
import sys
import time
from pathlib import Path

import pytest
from gamehall.adapters.cli import main
from gamehall.adapters.stdin.human import HumanGame
from gamehall.core import default_registry
from gamehall.core.store import SQLiteStore

GAMEHALL = [sys.executable, "-m", "gamehall.adapters.cli"]


@pytest.fixture(autouse=True)
def _keep_logging_as_it_is(monkeypatch: pytest.MonkeyPatch) -> None:
    """Stop ``main`` from pointing structlog at this test's captured stderr for later tests."""
    monkeypatch.setattr("gamehall.adapters.cli.configure", lambda **_: None)


def play(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], answers: str, *argv: str
) -> tuple[int, str, str]:
    """Run a command in-process with ``answers`` on stdin; return the code, stdout and stderr."""
    monkeypatch.setattr(sys, "stdin", io.StringIO(answers))
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def commands_of(db: Path, match: str) -> list[tuple[int, str]]:
    """Return (seat, command id) of each command stored for a match."""
    store = SQLiteStore(db, default_registry().codec)
    try:
        return [(r.meta.seat, r.meta.command_id or "") for r in store.read(match) if r.meta.command]
    finally:
        store.close()


def test_number_text_and_json_answers_then_quit_and_resume(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    db = str(tmp_path / "g.db")
    answers = "".join(f"{answer}\n" for answer in [
        "5",                                          # by number: cell 4
        "99",                                         # not in the list
        "teleport",                                   # not a command
        '{"type": "tictactoe.PlaceMark", "cell": 4}',  # taken: the rules refuse it
        "help",
        "Cell 2 (ROW 1, column 3)",                   # by text, any case
        '{"type": "tictactoe.PlaceMark", "cell": 0}',  # by JSON
        "quit",
    ])  # fmt: skip
    code, out, err = play(
        monkeypatch, capsys, answers, "play", "tictactoe", "--seed", "3", "--match", "m", "--db", db
    )
    assert code == 0 and err == ""
    assert (
        "   1. cell 0 (row 1, column 1)" in out
        and "X (seat 1), place your mark in an empty cell:" in out
    )
    assert "refused: 99 is not in the list (1 to 7)" in out
    assert "refused: 'teleport' is neither a number from the list nor a command's text" in out
    assert "refused: TTT-2: cell 4 is already taken" in out
    assert "answer with a number from the list" in out
    assert out.count("O (seat 2, bot): ") == 3
    assert out.rstrip().endswith("match m saved: continue with 'gamehall resume m'")
    stored = commands_of(tmp_path / "g.db", "m")
    assert [seat for seat, _ in stored] == [0, 1, 0, 1, 0, 1]
    assert all(cid.startswith("human-0-" if seat == 0 else "bot-1-") for seat, cid in stored)
    cells = [line for line in out.splitlines() if line.startswith("seat 1> ")]
    assert cells[0] == "seat 1> 5"  # piped answers are echoed, so the transcript reads well

    code, out, _ = play(monkeypatch, capsys, "1\n" * 9, "resume", "m", "--db", db)
    assert code == 0
    assert out.startswith("match m (tictactoe; X (seat 1, human), O (seat 2, bot))")
    assert out.rstrip().splitlines()[-1] in {
        "X wins: three in a row.",
        "O wins: three in a row.",
        "The match is a draw: the board is full.",
    }
    code, out, _ = play(monkeypatch, capsys, "", "matches", "--db", db)
    assert "m  " in out and "waiting" not in out


def test_end_of_input_saves_the_match(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    db = str(tmp_path / "g.db")
    code, out, _ = play(
        monkeypatch, capsys, "1\n", "play", "tictactoe", "--seed", "1", "--match", "e", "--db", db
    )
    assert code == 0 and "match e saved" in out
    code, out, _ = play(monkeypatch, capsys, "", "matches", "--db", db)
    assert "waiting for X" in out


def test_hot_seat_two_people_and_a_bot_only_match(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    db = str(tmp_path / "g.db")
    code, out, _ = play(
        monkeypatch,
        capsys,
        "1\n" * 9,
        "play",
        "tictactoe",
        "--seat",
        "2=human",
        "--seed",
        "4",
        "--match",
        "h",
        "--db",
        db,
    )
    assert code == 0 and "seat 2> 1" in out and "(bot)" not in out
    assert {cid.split("-")[0] for _, cid in commands_of(tmp_path / "g.db", "h")} == {"human"}
    code, out, _ = play(
        monkeypatch,
        capsys,
        "",
        "play",
        "tictactoe",
        "--seat",
        "1=bot",
        "--seed",
        "4",
        "--match",
        "b",
        "--db",
        db,
    )
    assert code == 0 and "X (seat 1, bot)" in out and "seat 1>" not in out
    # resume takes the roles from the log, and --seat changes them
    code, out, _ = play(
        monkeypatch,
        capsys,
        "quit\n",
        "play",
        "tictactoe",
        "--seat",
        "2=human",
        "--seat",
        "1=bot",
        "--seed",
        "2",
        "--match",
        "r",
        "--db",
        db,
    )
    code, out, _ = play(monkeypatch, capsys, "quit\n", "resume", "r", "--db", db)
    assert out.startswith("match r (tictactoe; X (seat 1, bot), O (seat 2, human))")
    code, out, _ = play(
        monkeypatch, capsys, "quit\n", "resume", "r", "--seat", "1=human", "--db", db
    )
    assert out.startswith("match r (tictactoe; X (seat 1, human), O (seat 2, human))")


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["play", "no-such-game"], "error: unknown game 'no-such-game'"),
        (
            ["play", "tictactoe", "--seat", "3=bot"],
            "error: --seat '3=bot': this match has seats 1 to 2",
        ),
        (
            ["play", "tictactoe", "--seat", "0=human"],
            "error: --seat '0=human': seats are counted from 1 now (the first seat is --seat 1=human)",
        ),
        (
            ["play", "tictactoe", "--seat", "0=wizard"],
            "error: --seat '0=wizard': expected SEAT=human or SEAT=bot",
        ),
        (
            ["play", "tictactoe", "--players", "3"],
            "error: tictactoe plays with 2 players, not 3",
        ),
        (
            ["play", "tictactoe", "--option", "size=4"],
            "error: tictactoe takes no options, got ['size']",
        ),
        (["play", "tictactoe", "--expansion", "nope"], "error: unknown expansion 'nope'"),
        (["resume", "ghost"], "error: unknown match 'ghost'"),
    ],
)
def test_bad_arguments_are_one_clear_line(
    argv: list[str],
    message: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.chdir(tmp_path)
    code, _, err = play(monkeypatch, capsys, "", *argv)
    assert code == 1 and err.startswith(message) and len(err.splitlines()) == 1
    if argv[0] == "play":
        assert not (tmp_path / "gamehall.db").exists()  # nothing written


def test_games_lists_ids_players_and_expansions(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["games"]) == 0
    out = capsys.readouterr().out
    assert "tictactoe  Tic-tac-toe 1.0.0  2 players" in out
    assert "  + tictactoe-misere  Misère 1.0.0" in out
    for game in default_registry().games.values():
        assert out.count(f"{game.id}  {game.name} {game.version}") == 1


class Pty:
    """A child process on a pseudo-terminal, read like ``expect``."""

    def __init__(self, argv: list[str], cwd: Path) -> None:
        self.master, slave = pty.openpty()
        self.proc = subprocess.Popen(
            argv, stdin=slave, stdout=slave, stderr=slave, cwd=cwd, close_fds=True
        )
        os.close(slave)
        self.seen = ""

    def expect(self, text: str, timeout: float = 20) -> str:
        deadline = time.monotonic() + timeout
        while text not in self.seen:
            left = deadline - time.monotonic()
            assert left > 0, f"{text!r} never came; got:\n{self.seen}"
            ready, _, _ = select.select([self.master], [], [], left)
            if ready:
                try:
                    chunk = os.read(self.master, 4096)
                except OSError:
                    chunk = b""
                assert chunk, f"the program ended before {text!r}; got:\n{self.seen}"
                self.seen += chunk.decode(errors="replace").replace("\r\n", "\n")
        before, _, self.seen = self.seen.partition(text)
        return before + text

    def expect_either(self, *texts: str) -> str:
        """Wait for the first of some texts; return it."""
        deadline = time.monotonic() + 20
        while True:
            found = [(self.seen.find(t), t) for t in texts if t in self.seen]
            if found:
                _, text = min(found)
                self.expect(text)
                return text
            assert time.monotonic() < deadline, f"none of {texts} came; got:\n{self.seen}"
            ready, _, _ = select.select([self.master], [], [], 1)
            if ready:
                try:
                    chunk = os.read(self.master, 4096)
                except OSError:  # the child closed the terminal
                    chunk = b""
                assert chunk, f"the program ended before any of {texts}; got:\n{self.seen}"
                self.seen += chunk.decode(errors="replace").replace("\r\n", "\n")

    def send(self, line: str) -> None:
        os.write(self.master, line.encode() + b"\n")

    def close(self) -> int:
        code = self.proc.wait(timeout=20)
        os.close(self.master)
        return code


def test_a_whole_match_through_a_pseudo_terminal(tmp_path: Path) -> None:
    term = Pty([*GAMEHALL, "play", "tictactoe", "--seed", "5", "--match", "t"], tmp_path)
    screen = term.expect("seat 1> ")
    assert "0 | 1 | 2" in screen and "   9. cell 8 (row 3, column 3)" in screen
    term.send("cell 4 (row 2, column 2)")
    screen = term.expect("seat 1> ")
    assert "cell 4 (row 2, column 2)\n" in screen  # echoed by the terminal, not by gamehall
    assert "seat 2, bot)" in screen and "X" in screen
    for _ in range(4):
        term.send("1")
        if term.expect_either("seat 1> ", ": three in a row.", "a draw") != "seat 1> ":
            break
    assert term.close() == 0
    store = SQLiteStore(tmp_path / "gamehall.db", default_registry().codec)
    try:
        assert store.version("t") >= 6
    finally:
        store.close()


def test_free_actions_out_of_turn_are_offered_on_request_and_bots_keep_their_moves(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "r.db"
    argv = ("play", "river-of-gold", "--seed", "1", "--seat", "1=bot", "--seat", "2=human")
    # Unasked, the bot that starts moves at once: the person is told once how to ask.
    code, out, _ = play(monkeypatch, capsys, "quit\n", *argv, "--db", str(db), "--match", "q")
    assert code == 0 and "out of turn before" not in out
    assert out.count("type 'free' at your prompt") == 1
    assert "Crab (seat 1, bot): " in out and "(seat 2, human): " not in out
    # Asked ("free" at the prompt, here from the start): before the bot moves, the person may
    # buy favour (a trade, allowed at any moment); Enter lets the bot go on, quit leaves.
    monkeypatch.setattr(HumanGame, "ask_free", True)
    code, out, _ = play(monkeypatch, capsys, "1\n\nquit\n", *argv, "--db", str(db), "--match", "r")
    assert code == 0
    assert "seat 2, you may act out of turn before Crab goes on:" in out
    assert "buy" in out.lower() and "favour" in out.lower()
    commands = commands_of(db, "r")
    assert commands[0][0] == 1 and commands[0][1].startswith("human-1-"), commands
    assert any(seat == 0 for seat, _ in commands[1:]), "the bot moved after the trade"
    # The bot's moves are the bot's: none is told as the person's.
    assert "Crab (seat 1, bot): " in out and "(seat 2, human): " not in out


def test_matches_lists_with_filters_and_pages(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    db = str(tmp_path / "g.db")
    for name in ("a", "b", "c"):
        code, _, _ = play(
            monkeypatch, capsys, "", "play", "tictactoe", "--seed", "1", "--match", name,
            "--db", db,
        )  # fmt: skip
        assert code == 0
    code, out, _ = play(
        monkeypatch, capsys, "", "play", "tictactoe", "--seed", "2", "--match", "done",
        "--seat", "1=bot", "--seat", "2=bot", "--db", db,
    )  # fmt: skip
    assert code == 0
    code, out, _ = play(monkeypatch, capsys, "", "matches", "--db", db, "--state", "finished")
    lines = out.splitlines()
    assert len(lines) == 2 and lines[1].startswith("done ")
    code, out, _ = play(monkeypatch, capsys, "", "matches", "--db", db, "--state", "running")
    assert [line.split()[0] for line in out.splitlines()[1:]] == ["c", "b", "a"]
    code, out, _ = play(monkeypatch, capsys, "", "matches", "--db", db, "--limit", "2")
    lines = out.splitlines()
    assert [line.split()[0] for line in lines[1:3]] == ["done", "c"]
    assert lines[-1].startswith("2 of 4 shown; the next page: --cursor ")
    cursor = lines[-1].rsplit(" ", 1)[1]
    code, out, _ = play(monkeypatch, capsys, "", "matches", "--db", db, "--limit", "2",
                        "--cursor", cursor)  # fmt: skip
    assert [line.split()[0] for line in out.splitlines()[1:]] == ["b", "a"]
    code, out, _ = play(monkeypatch, capsys, "", "matches", "--db", db, "--game", "gunsen")
    assert "pass these filters" in out
    code, _, err = play(monkeypatch, capsys, "", "matches", "--db", db, "--limit", "0")
    assert code == 2 and "limit" in err


def _screens(game: str, answers: str, person: int = 0) -> list[str]:
    """Return each screen a person sees on a 120x40 terminal (colours removed)."""
    import re

    import anyio
    from gamehall.adapters.stdin.human import CLEAR, Terminal
    from gamehall.core.hall import Hall
    from gamehall.core.store import MemoryStore

    registry = default_registry()

    async def main() -> str:
        out = io.StringIO()
        async with Hall(MemoryStore(registry.codec), registry) as hall:
            bot = 1 - person
            match = await hall.create(game, seed=1, bots={bot: "random"}, bot_seed=1)
            term = Terminal(io.StringIO(answers), out, tty=True, width=120, height=40)
            roles = {person: "human", bot: "bot"}
            assert await HumanGame(hall, match, roles, term).run() == 0
        return out.getvalue()

    text = re.sub(r"\x1b\[[0-9;]*m", "", anyio.run(main).replace(CLEAR, "\f"))
    return text.split("\f")[1:]


@pytest.mark.parametrize("game", ["toy-battle", "river-of-gold"])
def test_a_terminal_redraws_in_place_and_keeps_the_bots_move_and_the_question_in_sight(
    game: str,
) -> None:
    person = 0 if game == "toy-battle" else 1  # the bot starts
    screens = _screens(game, "1\n\nquit\n", person)
    assert len(screens) >= 3  # one screen a question, drawn from the top; Enter redraws it
    for number, screen in enumerate(screens):
        lines = screen.splitlines()
        in_sight = "\n".join(lines[-40:])  # what a 40-line terminal shows at the prompt
        assert f"(seat {person + 1}), " in in_sight and "   1. " in in_sight, in_sight
        if number == 0 or game == "toy-battle":  # the bot's move (in Toy Battle every time)
            assert ", bot): " in in_sight, "the bot's move scrolled away"
        assert "Legend:" not in screen
    if game == "river-of-gold":
        # The board is short (the legend folded): the shore, ships, row, masteries and clans
        # in at most 20 rows of 120 columns, so that on a 40-line terminal it stays in sight
        # with the bot's move, the question and a turn's usual menu (66 lines before).
        for screen in screens:
            lines = screen.splitlines()
            board = lines[: next(i for i, line in enumerate(lines) if " to act: " in line) + 1]
            assert sum(-(-len(line) // 120) or 1 for line in board) <= 20, "\n".join(board)
            assert "visitors get" not in "\n".join(lines[len(board) :])  # details on the row
        first = screens[0].splitlines()
        assert sum(-(-len(line) // 120) or 1 for line in first) <= 42
    # Toy Battle fits its first question on one screen: board beside the menu.
    if game == "toy-battle":
        first = screens[0].splitlines()
        assert len(first) <= 40 and "R41:HQ" in first[1]


def test_the_legend_is_shown_on_request() -> None:
    screens = _screens("toy-battle", "legend\nquit\n")
    assert "Legend:" not in screens[0] and "Legend:" in screens[1]
