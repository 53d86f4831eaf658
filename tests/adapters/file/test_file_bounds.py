"""The log reader checks counts and ids before anything is sized or stored by them.

A log whose first event names more players than the game takes (or none), a negative seed,
repeated JSON keys, or command ids that break the one rule of every adapter (or that two
commands share) is refused with the line named: by ``verify``, ``import`` and ``replay``.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from gamehall.adapters.cli import main
from gamehall.adapters.file.logfile import LogError, read_log
from gamehall.core import Registry

CELLS = [4, 0, 2, 6, 3, 1, 5]


def log_lines(tmp_path: Path) -> list[dict[str, Any]]:
    """Return a finished tic-tac-toe match's log lines, header first."""
    commands = tmp_path / "c.jsonl"
    lines = [{"game": "tictactoe", "seed": 5, "match": "m"}] + [
        {"seat": n % 2, "command": {"type": "tictactoe.PlaceMark", "cell": c}, "id": f"c{n}"}
        for n, c in enumerate(CELLS)
    ]
    write(commands, lines)
    assert main(["run", str(commands), "-o", str(tmp_path / "run.jsonl")]) == 0
    return [json.loads(line) for line in (tmp_path / "run.jsonl").read_text().splitlines()]


def write(path: Path, lines: list[Any]) -> Path:
    path.write_text("".join((x if isinstance(x, str) else json.dumps(x)) + "\n" for x in lines))
    return path


def refused(registry: Registry, path: Path, *words: str) -> None:
    with pytest.raises(LogError) as caught:
        read_log(path, registry)
    for word in words:
        assert word in str(caught.value), caught.value


@pytest.fixture(scope="module")
def made(tmp_path_factory: pytest.TempPathFactory) -> list[dict[str, Any]]:
    return log_lines(tmp_path_factory.mktemp("log"))


@pytest.fixture
def lines(tmp_path: Path, registry: Registry, made: list[dict[str, Any]]) -> list[dict[str, Any]]:
    read_log(write(tmp_path / "good.jsonl", made), registry)  # the unchanged log is good
    return [dict(line) for line in made]


def with_started(lines: list[dict[str, Any]], **changes: Any) -> list[dict[str, Any]]:
    out = [dict(line) for line in lines]
    out[1] = {**out[1], "event": {**out[1]["event"], **changes}}
    return out


@pytest.mark.parametrize("players", [0, 1, 3, 10**9, 2**63 - 1])
def test_a_player_count_the_game_does_not_take_is_refused(
    tmp_path: Path, registry: Registry, lines: list[dict[str, Any]], players: int
) -> None:
    path = write(tmp_path / "players.jsonl", with_started(lines, players=players))
    refused(registry, path, "players", "line 2")


def test_a_negative_seed_is_refused(
    tmp_path: Path, registry: Registry, lines: list[dict[str, Any]]
) -> None:
    refused(registry, write(tmp_path / "seed.jsonl", with_started(lines, seed=-1)), "seed")


def test_a_repeated_key_is_refused(
    tmp_path: Path, registry: Registry, lines: list[dict[str, Any]]
) -> None:
    text = json.dumps(lines[3])
    twice = text[:-1] + ', "seq": 4}'
    refused(registry, write(tmp_path / "twice.jsonl", [*lines[:3], twice, *lines[4:]]), "twice")


@pytest.mark.parametrize("command_id", ["", "x" * 1_000_000, "nul\u0000", "rtl\u202e", "a\nb"])
def test_a_command_id_breaking_the_rule_is_refused(
    tmp_path: Path, registry: Registry, lines: list[dict[str, Any]], command_id: str
) -> None:
    lines[3] = {**lines[3], "meta": {**lines[3]["meta"], "command_id": command_id}}
    refused(registry, write(tmp_path / "cid.jsonl", lines), "command id", "line 4")


def test_two_commands_with_one_command_id_are_refused(
    tmp_path: Path, registry: Registry, lines: list[dict[str, Any]]
) -> None:
    lines[3] = {**lines[3], "meta": {**lines[3]["meta"], "command_id": "c0"}}
    refused(registry, write(tmp_path / "dup.jsonl", lines), "already used", "seq 2")


def test_verify_import_and_replay_refuse_a_huge_player_count_in_words(
    tmp_path: Path,
    lines: list[dict[str, Any]],
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr("gamehall.adapters.cli.configure", lambda **_: None)
    path = write(tmp_path / "huge.jsonl", with_started(lines, players=10**9))
    for args in (
        ["verify", str(path)],
        ["import", str(path), "--db", str(tmp_path / "into.db")],
        ["replay", str(path)],
    ):
        assert main(args) != 0, args
        err = capsys.readouterr().err
        assert "Traceback" not in err and "MemoryError" not in err, err
        assert "players" in err, (args, err)
