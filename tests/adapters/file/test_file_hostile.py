"""Import refuses what it cannot trust: unknown keys, a header that lies, bad ids, deep nesting."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import msgspec
import pytest
from gamehall.adapters.cli import main
from gamehall.core import Registry
from gamehall.core.store import SQLiteStore

ROOT = Path(__file__).resolve().parents[3]


@pytest.fixture(autouse=True)
def _keep_logging_as_it_is(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("gamehall.adapters.cli.configure", lambda **_: None)


@pytest.fixture
def log_lines(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> list[dict[str, Any]]:
    """Return the lines of a full log of a finished tic-tac-toe match (header first)."""
    commands = tmp_path / "c.jsonl"
    lines = [{"game": "tictactoe", "seed": 5, "match": "m"}] + [
        {"seat": n % 2, "command": {"type": "tictactoe.PlaceMark", "cell": c}, "id": f"c{n}"}
        for n, c in enumerate([4, 0, 2, 6, 3, 1, 5])
    ]
    commands.write_text("".join(json.dumps(line) + "\n" for line in lines))
    assert main(["run", str(commands), "-o", str(tmp_path / "run.jsonl")]) == 0
    capsys.readouterr()
    return [json.loads(line) for line in (tmp_path / "run.jsonl").read_text().splitlines()]


def gamehall(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "gamehall.adapters.cli", *args],
        cwd=ROOT, capture_output=True, text=True, timeout=60, check=False,
    )  # fmt: skip


def write(path: Path, lines: list[Any]) -> Path:
    path.write_text("".join((x if isinstance(x, str) else json.dumps(x)) + "\n" for x in lines))
    return path


def refused(tmp_path: Path, log: Path, *words: str, extra: tuple[str, ...] = ()) -> None:
    db = tmp_path / "into.db"
    done = gamehall("import", str(log), "--db", str(db), *extra)
    assert done.returncode == 1, done.stdout
    assert "Traceback" not in done.stderr and len(done.stderr.strip().splitlines()) <= 3
    for word in words:
        assert word in done.stderr, done.stderr
    if db.exists():
        store = SQLiteStore(db, Registry([]).codec)
        try:
            assert store.streams() == []  # nothing was stored
        finally:
            store.close()


@pytest.mark.parametrize(
    ("where", "key"),
    [("meta", "seet"), ("meta", "comand"), ("line", "mata"), ("event", "cel"), ("header", "evnts")],
)
def test_a_misspelled_key_anywhere_is_refused(
    tmp_path: Path, log_lines: list[dict[str, Any]], where: str, key: str
) -> None:
    lines = [dict(line) for line in log_lines]
    line = lines[0] if where == "header" else lines[2]
    if where == "meta":
        meta = dict(line["meta"])
        meta[key] = meta.pop("seat" if key == "seet" else "command")
        line["meta"] = meta
    elif where == "line":
        line[key] = line.pop("meta")
    elif where == "event":
        line["event"] = {**line["event"], key: 1}
    else:
        line[key] = line["events"]
    refused(tmp_path, write(tmp_path / "typo.jsonl", lines), key)


def test_the_header_must_name_the_game_of_the_events(
    tmp_path: Path, log_lines: list[dict[str, Any]]
) -> None:
    lines = [{**log_lines[0], "game": "toy-battle"}, *log_lines[1:]]
    refused(tmp_path, write(tmp_path / "lies.jsonl", lines), "toy-battle", "tictactoe")


@pytest.mark.parametrize("match", ["../../x", "x" * 100_000, "nul\u0000byte", "with space"])
def test_a_match_id_breaking_the_rule_is_refused(
    tmp_path: Path, log_lines: list[dict[str, Any]], match: str
) -> None:
    lines = [{**log_lines[0], "match": match}] + [
        {**line, "stream": match} for line in log_lines[1:]
    ]
    refused(tmp_path, write(tmp_path / "id.jsonl", lines), "is not valid")
    if "\u0000" not in match:  # a command line cannot carry a NUL at all
        good = write(tmp_path / "good.jsonl", log_lines)
        refused(tmp_path, good, "--as", extra=("--as", match))


def test_deep_nesting_is_refused_without_a_traceback(
    tmp_path: Path, log_lines: list[dict[str, Any]]
) -> None:
    deep = json.dumps(log_lines[2])[:-1] + ', "x": ' + "[" * 1000 + "]" * 1000 + "}"
    lines: list[Any] = [log_lines[0], log_lines[1], deep, *log_lines[3:]]
    refused(tmp_path, write(tmp_path / "deep.jsonl", lines), "deeper than 32")
    packed = tmp_path / "deep.msgpack"
    line = msgspec.msgpack.encode({**log_lines[2], "x": 0})
    assert line.endswith(b"\xa1x\x00")
    deep_line = line[:-1] + b"\x91" * 2000 + b"\x90"  # "x": 2,000 arrays one in another
    encode = msgspec.msgpack.encode
    packed.write_bytes(b"".join([encode(log_lines[0]), encode(log_lines[1]), deep_line,
                                 *(encode(o) for o in log_lines[3:])]))  # fmt: skip
    refused(tmp_path, packed, "deeper than 32")
