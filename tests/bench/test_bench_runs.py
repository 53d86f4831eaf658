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
    "activation.cold_load_p99_ratio",
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
    figures = results["figures"]
    missing = [name for name in FIGURES if name not in figures]
    assert not missing, missing
    assert all(isinstance(v, (int, float)) and v > 0 for v in figures.values()), figures
    assert "playouts.vs_bare" in done.stdout  # the table is printed
    # Every target is printed with its verdict and recorded; rounds are kept for the spread.
    line = next(x for x in done.stdout.splitlines() if x.startswith("playouts.vs_bare"))
    assert "target <= 2" in line and ("holds" in line or "NOT held" in line)
    assert results["targets"]["durable.vs_raw"]["op"] == ">="
    assert len(results["rounds"]["replay.vs_raw"]) == 3
    assert results["machine"]["cpus"] >= 1 and results["machine"]["load_1m"] >= 0


def test_a_figure_is_its_median_and_keeps_its_rounds() -> None:
    sys.path.insert(0, str(ROOT))
    try:
        from bench import Figure, describe, interleaved, ratio
    finally:
        sys.path.remove(str(ROOT))
    figure = Figure([3.0, 1.0, 2.0], (">=", 2.5))
    assert figure == 2.0 and (figure.low, figure.high) == (1.0, 3.0) and figure.spread == 1.0
    assert "[1.000 .. 3.000; 3 rounds]  target >= 2.5: NOT held" in describe("x", figure, None)
    order: list[str] = []
    parts = {"a": lambda: order.append("a") or 4.0, "b": lambda: order.append("b") or 2.0}
    series = interleaved(parts, 2)
    assert order == ["a", "b", "a", "b"]  # rounds alternate the parts
    assert ratio(series["a"], series["b"]).samples == (2.0, 2.0)


def test_an_unknown_module_name_is_refused_by_name(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "bench", "no_such", "-o", str(tmp_path / "r.json")],
        cwd=ROOT, capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert done.returncode != 0 and "no benchmark module named no_such" in done.stderr


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
    results = json.loads(out.read_text())["figures"]
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
