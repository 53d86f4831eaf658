"""Golden replays are checked per plugin distribution: gamehall's own files here, whatever else
is installed beside it; every file is diffed, and the record is one compact line a step."""

from __future__ import annotations

from pathlib import Path

import pytest
from gamehall.core import Registry
from gamehall.core.golden import check, golden_cases, main, path_for, playthrough, transcript

GOLDEN = Path(__file__).resolve().parents[1] / "golden"


def test_every_builtin_combination_has_a_current_golden_replay(registry: Registry) -> None:
    assert {c.game for c in golden_cases(registry)} == set(registry.games)
    assert {e for c in golden_cases(registry) for e in c.expansions} == set(registry.expansions)
    problems = check(registry, GOLDEN)
    assert not problems, "\n".join(problems)


def test_the_record_is_a_line_a_step_and_the_transcript_has_every_event(
    registry: Registry,
) -> None:
    case = next(c for c in golden_cases(registry) if c.game == "gunsen")
    record = playthrough(registry, case)
    steps = [line for line in record.splitlines() if not line.startswith("#")]
    assert len(record) < 60_000 and len(steps) > 100
    assert steps[0].split()[:3] == ["0", "-:", "6"] and steps[0].endswith("setup")
    full = transcript(registry, case)
    commands = [line for line in full.splitlines() if line.startswith("> seat ")]
    assert len(commands) == len(steps) - 1 and "Legend" in full
    assert record.splitlines()[-1].startswith(f"# {len(commands)} commands, ")


def test_the_check_says_missing_differs_and_unclaimed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    args = ["--dir", str(tmp_path), "--distribution", "gamehall"]
    assert main([*args, "--game", "tictactoe"]) == 1
    err = capsys.readouterr().err
    assert "missing: " in err and "--update" in err and "differs" not in err
    assert main([*args, "--game", "tictactoe", "--update"]) == 0
    assert main([*args, "--game", "tictactoe"]) == 0
    capsys.readouterr()
    path = tmp_path / "tictactoe-2p.txt"
    lines = path.read_text().splitlines()
    lines[5] = lines[5].replace("state ", "state 0")
    path.write_text("\n".join(lines) + "\n")
    assert main([*args, "--game", "tictactoe"]) == 1
    assert "differs: " in (err := capsys.readouterr().err) and "at line 6: " in err
    (tmp_path / "old-game-2p.txt").write_text("old\n")
    problems = check(Registry(distributions=["gamehall"]), tmp_path)
    assert any(p.startswith("unclaimed: ") and "old-game-2p.txt" in p for p in problems)


def test_full_prints_one_transcript_and_names_the_cases_it_knows(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["--distribution", "gamehall", "--full", "tictactoe-2p"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("# golden replay (full): tictactoe-2p") and "> seat 0: " in out
    assert main(["--distribution", "gamehall", "--full", "chess-2p"]) == 2
    assert "no golden case 'chess-2p'; the cases are: " in capsys.readouterr().err


def test_the_path_of_a_case_is_its_name(registry: Registry) -> None:
    case = golden_cases(registry)[0]
    assert path_for(GOLDEN, case).name == f"{case.name}.txt"
