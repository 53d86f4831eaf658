"""Golden replays are checked per plugin distribution: gamehall's own files here, whatever else
is installed beside it."""

from __future__ import annotations

from pathlib import Path

import pytest
from gamehall.core import Registry
from gamehall.core.golden import golden_cases, main, path_for, playthrough

GOLDEN = Path(__file__).resolve().parents[1] / "golden"


def test_every_builtin_combination_has_a_current_golden_replay(registry: Registry) -> None:
    cases = golden_cases(registry)
    assert {c.game for c in cases} == set(registry.games)
    for case in cases:
        path = path_for(GOLDEN, case)
        assert path.exists(), f"no golden replay {path.name}: run python -m gamehall.core.golden"
        assert path.read_text() == playthrough(registry, case), f"{path.name} is stale"
    names = {path_for(GOLDEN, c).name for c in cases}
    assert {p.name for p in GOLDEN.glob("*.txt")} == names, "golden files of no combination"


def test_the_check_says_missing_for_a_missing_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["--dir", str(tmp_path), "--game", "tictactoe", "--distribution", "gamehall"]) == 1
    err = capsys.readouterr().err
    assert "missing: " in err and "--update" in err and "differs" not in err
    (tmp_path / "tictactoe-2p.txt").write_text("old\n")
    assert main(["--dir", str(tmp_path), "--game", "tictactoe", "--distribution", "gamehall"]) == 1
    assert "differs: " in capsys.readouterr().err
