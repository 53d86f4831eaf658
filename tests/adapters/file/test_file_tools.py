"""replay, verify, diff, bisect and run over log files."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from gamehall.adapters.cli import main
from gamehall.adapters.file.logfile import Tracked, read_log
from gamehall.core import Registry

MOVES = [4, 0, 2, 6, 3, 1, 5]  # X completes 3-4-5 with its fourth mark


@pytest.fixture(autouse=True)
def _keep_logging_as_it_is(monkeypatch: pytest.MonkeyPatch) -> None:
    """Stop ``main`` from pointing structlog at this test's captured stderr for later tests."""
    monkeypatch.setattr("gamehall.adapters.cli.configure", lambda **_: None)


def commands(*cells: int, header: dict[str, object] | None = None) -> str:
    lines = [header or {"game": "tictactoe", "seed": 9, "match": "r"}]
    lines += [
        {"seat": n % 2, "command": {"type": "tictactoe.PlaceMark", "cell": c}}
        for n, c in enumerate(cells)
    ]
    return "".join(json.dumps(line) + "\n" for line in lines)


@pytest.fixture
def log(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> Path:
    (tmp_path / "c.jsonl").write_text(commands(*MOVES))
    assert main(["run", str(tmp_path / "c.jsonl"), "-o", str(tmp_path / "r.jsonl")]) == 0
    assert (
        capsys.readouterr().out
        == f"ran 7 commands of match r (X wins: three in a row); wrote 9 events to {tmp_path / 'r.jsonl'}\n"
    )
    return tmp_path / "r.jsonl"


def out_of(capsys: pytest.CaptureFixture[str]) -> tuple[str, str]:
    captured = capsys.readouterr()
    return captured.out, captured.err


def test_run_is_deterministic_and_writes_either_format(
    log: Path, capsys: pytest.CaptureFixture[str], registry: Registry
) -> None:
    again = log.parent / "again.jsonl"
    assert main(["run", str(log.parent / "c.jsonl"), "-o", str(again)]) == 0
    assert again.read_bytes() == log.read_bytes()
    packed = log.parent / "r.msgpack"
    assert main(["run", str(log.parent / "c.jsonl"), "-o", str(packed)]) == 0
    assert read_log(packed, registry).records == read_log(log, registry).records
    first = json.loads(log.read_text().splitlines()[1])
    assert (first["time"], first["position"]) == (0.0, 1)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "the file is empty"),
        ("{oops\n", "line 1: invalid JSON"),
        ('{"game": "chess"}\n', "line 1: unknown game 'chess'"),
        (
            '{"game": "tictactoe", "colour": "red"}\n',
            "line 1: invalid MatchLine: Object contains unknown field `colour`",
        ),
        (commands(4, 4), "line 3: refused: TTT-2: cell 4 is already taken"),
        (
            commands(4) + '{"seat": 1}\n',
            "line 3: invalid CommandLine: Object missing required field `command`",
        ),
        (
            commands(4) + '{"seat": 1, "command": {"type": "tictactoe.Jump"}}\n',
            "line 3: refused: invalid command",
        ),
        (
            commands(4) + '{"seat": 7, "command": {"type": "tictactoe.PlaceMark", "cell": 1}}\n',
            "line 3: seat 7 does not exist",
        ),
        (commands(4, 0, 2, 6, 3, 1, 5, 8), "line 9: refused: the match is over"),
    ],
)
def test_run_refuses_a_bad_commands_file_and_writes_nothing(
    text: str, message: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source = tmp_path / "bad.jsonl"
    source.write_text(text)
    assert main(["run", str(source), "-o", str(tmp_path / "out.jsonl")]) == 1
    _, err = out_of(capsys)
    assert err.startswith(f"error: {source}") and message in err, err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["bad.jsonl"]


def test_replay_shows_a_seat_view_after_any_event(
    log: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["replay", str(log), "--to", "3", "--seat", "1"]) == 0
    out, _ = out_of(capsys)
    assert (
        out.splitlines()[0]
        == "after event 3 of 9, as seat 1 sees it: O marks cell 0 (row 1, column 1)."
    )
    assert main(["replay", str(log), "--to", "3", "--seat", "1", "--json"]) == 0
    out, _ = out_of(capsys)
    assert (
        out.splitlines()[0]
        == 'after event 3 of 9, as seat 1 sees it: {"type":"tictactoe.MarkPlaced","seat":1,"cell":0}'
    )
    assert "O | 1 | 2\n---------\n3 | X | 5" in out and out.rstrip().endswith(
        "waiting for X: place your mark in an empty cell"
    )
    assert main(["replay", str(log)]) == 0
    out, _ = out_of(capsys)
    assert "as a spectator sees it" in out and out.rstrip().endswith("over: X wins: three in a row")
    for argv, message in [
        (["--to", "10"], "--to 10 is outside the log (events 1 to 9)"),
        (["--to", "0"], "--to 0 is outside the log"),
        (["--seat", "3"], "seat 3 does not exist: seats are 1 to 2"),
    ]:
        assert main(["replay", str(log), *argv]) == 1
        assert message in out_of(capsys)[1]


def test_replay_of_a_seat_log_shows_only_that_seat(
    log: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = str(tmp_path / "d.db")
    assert main(["import", str(log), "--db", db]) == 0
    assert main(["export", "r", "--seat", "2", "-o", str(tmp_path / "s1.jsonl"), "--db", db]) == 0
    out_of(capsys)
    assert main(["replay", str(tmp_path / "s1.jsonl"), "--to", "2"]) == 0
    assert "as seat 2 sees it" in out_of(capsys)[0]
    assert main(["replay", str(tmp_path / "s1.jsonl"), "--seat", "1"]) == 1
    assert "holds seat 2's view: it cannot show seat 1's" in out_of(capsys)[1]


def test_verify_reports_the_first_difference(log: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["verify", str(log)]) == 0
    assert out_of(capsys)[0] == f"verified {log}: 9 events, 7 commands re-decided\n"
    lines = log.read_text().splitlines()
    # the ending is removed from the last command's events: re-deciding the command gives it back
    lines = [lines[0].replace('"events":9', '"events":8')] + lines[1:-1]
    edited = log.parent / "edited.jsonl"
    edited.write_text("\n".join(lines) + "\n")
    assert main(["verify", str(edited)]) == 1
    out, _ = out_of(capsys)
    assert (
        out.splitlines()[0] == f"{edited}, line 9: event 8: re-deciding gives other events (events)"
    )
    assert '  re-decided: {"type":"tictactoe.LineCompleted","line":[3,4,5],"winner":0}' in out


def test_diff_lists_changed_fields(log: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["diff", str(log), "2", "3"]) == 0
    assert out_of(capsys)[0] == "board[0]: 0 -> 2\nturn: 1 -> 0\n"
    assert main(["diff", str(log), "8", "9"]) == 0
    out, _ = out_of(capsys)
    assert "over: false -> true" in out and "winner: null -> 0" in out
    assert main(["diff", str(log), "4", "4"]) == 0
    assert "no difference" in out_of(capsys)[0]
    assert main(["diff", str(log), "1", "99"]) == 1
    assert "B = 99 is outside the log" in out_of(capsys)[1]


def test_bisect_finds_the_first_event_that_breaks_an_invariant(
    log: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["bisect", str(log)]) == 0
    assert "holds after each of the 9 events" in out_of(capsys)[0]
    lines = log.read_text().splitlines()
    lines[5] = lines[5].replace('"seat":1,"cell":6}', '"seat":0,"cell":6}', 1)  # event 5: X again
    broken = log.parent / "broken.jsonl"
    broken.write_text("\n".join(lines) + "\n")
    assert main(["bisect", str(broken), "--invariant", "marks-alternate"]) == 1
    out, _ = out_of(capsys)
    assert out.splitlines()[0] == (
        f"{broken}, line 6: invariant 'marks-alternate' fails first after event 5: X has 3 marks and O has 1"
    )
    assert main(["bisect", str(broken), "--invariant", "over-means-line-or-full"]) == 0
    out_of(capsys)
    assert main(["bisect", str(broken), "--invariant", "nope"]) == 1
    assert "unknown invariant 'nope'" in out_of(capsys)[1]


def test_tracked_records_report_progress(log: Path, registry: Registry) -> None:
    records = read_log(log, registry).records
    seen: list[int] = []
    by_slice = Tracked(records, seen.append, "slice")
    assert list(by_slice) == records and seen == []
    assert by_slice[2:5] == records[2:5] and seen == [5]
    seen.clear()
    assert list(Tracked(records, seen.append, "iter")) == records
    assert seen == list(range(1, len(records) + 1))
