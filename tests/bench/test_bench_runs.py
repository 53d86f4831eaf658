"""``make bench`` works: the runner, every module and every figure, at tiny sizes (no timings)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
FIGURES = [
    "playouts.vs_bare",
    "durable.vs_raw",
    "replay.vs_raw",
    "memory.active_match_bytes",
    "memory.idle_match_bytes",
    "playouts.toy_battle.games_per_s",
    "playouts.river_of_gold.games_per_s",
]


def test_bench_quick_writes_every_figure(tmp_path: Path) -> None:
    out = tmp_path / "results.json"
    names = ["core", "toy_battle", "river_of_gold"]
    done = subprocess.run(
        [sys.executable, "-m", "bench", *names, "--quick", "-o", str(out)],
        cwd=ROOT, capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    results = json.loads(out.read_text())
    missing = [name for name in FIGURES if name not in results]
    assert not missing, missing
    assert all(isinstance(v, (int, float)) and v > 0 for v in results.values()), results
    assert "playouts.vs_bare" in done.stdout  # the table is printed


def test_makefile_bench_target_runs_the_runner() -> None:
    makefile = (ROOT / "Makefile").read_text()
    assert "bench: $(VENV)/.bench" in makefile and "-m bench" in makefile


def test_bench_bots_reports_search_speed_and_the_openspiel_ratio_when_it_can(
    tmp_path: Path,
) -> None:
    out = tmp_path / "bots.json"
    done = subprocess.run(
        [sys.executable, "-m", "bench", "bots", "--quick", "-o", str(out)],
        cwd=ROOT, capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    results = json.loads(out.read_text())
    wanted = ["mcts.tictactoe.iterations_per_s", "ismcts.toy_battle.iterations_per_s",
              "ismcts.river_of_gold.iterations_per_s"]  # fmt: skip
    assert all(results.get(name, 0) > 0 for name in wanted), results
    try:
        import pyspiel  # noqa: F401
    except ImportError:
        assert "mcts.vs_openspiel" not in results  # reported only when it was measured
    else:
        assert (
            results["mcts.vs_openspiel"] > 0 and "openspiel.tictactoe.iterations_per_s" in results
        )
