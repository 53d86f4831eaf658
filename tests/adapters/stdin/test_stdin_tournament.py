"""``gamehall tournament``: the standings table, the score grid and the chart."""

from __future__ import annotations

import builtins
from pathlib import Path
from typing import Any

import pytest
from gamehall.adapters.cli import main


@pytest.fixture(autouse=True)
def _keep_logging_as_it_is(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("gamehall.adapters.cli.configure", lambda **_: None)


def test_the_tournament_prints_standings_and_draws_a_chart(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    pytest.importorskip("matplotlib")
    chart = tmp_path / "ttt.png"
    argv = ["tournament", "tictactoe", "--bots", "random,mcts:100", "--games", "6",
            "--seed", "2", "--chart", str(chart)]  # fmt: skip
    assert main(argv) == 0
    out = capsys.readouterr().out
    lines = out.splitlines()
    assert lines[0].startswith("round robin of tictactoe: 2 bots, 6 matches per pair (seed 2)")
    assert lines[1].split() == ["BOT", "GAMES", "WINS", "DRAWS", "LOSSES", "SCORE", "ELO", "95%"]
    assert lines[2].startswith("mcts:100") and lines[3].startswith("random")
    assert "score of each row against each column:" in out
    assert f"chart: {chart}" in out
    assert chart.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_without_matplotlib_the_tournament_says_how_to_get_a_chart(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    real = builtins.__import__

    def no_matplotlib(name: str, *args: Any, **kwargs: Any) -> Any:
        if name.startswith("matplotlib"):
            raise ImportError(name)
        return real(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_matplotlib)
    monkeypatch.chdir(tmp_path)
    assert main(["tournament", "tictactoe", "--bots", "random,random", "--games", "2"]) == 0
    out = capsys.readouterr().out
    assert "no chart: install the plots extra" in out and not list(tmp_path.iterdir())


def test_a_tournament_says_what_is_wrong(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["tournament", "toy-battle", "--bots", "random,mcts:10", "--no-chart"]) == 1
    assert "use ismcts" in capsys.readouterr().err
    assert main(["tournament", "tictactoe", "--bots", "random", "--no-chart"]) == 1
    assert "at least two bots" in capsys.readouterr().err
