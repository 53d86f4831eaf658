"""bench/bench_http.py runs (quick sizes) and reports its figures."""

from __future__ import annotations

import importlib.util
from pathlib import Path

BENCH = Path(__file__).resolve().parents[3] / "bench" / "bench_http.py"


def test_the_http_benchmark_runs_quick() -> None:
    spec = importlib.util.spec_from_file_location("bench_http_quick", BENCH)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    figures = module.run(quick=True)
    assert set(figures) >= {"http.vs_bare", "http.p99_ms"}
    assert all(value > 0 for value in figures.values())
    assert figures["http.commands_per_s"] > 10 and figures["http.bare_per_s"] > 10
