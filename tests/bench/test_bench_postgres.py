"""The PostgreSQL benchmark runs and reports its figures, at tiny sizes (no timings)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from tests.postgres import need_postgres

ROOT = Path(__file__).resolve().parents[2]
FIGURES = [
    "durable.postgres.one_node_commands_per_s",
    "durable.postgres.three_nodes_commands_per_s",
    "durable.postgres.raw_inserts_per_s",
    "durable.postgres.vs_raw",
    "durable.postgres.writers_8_vs_1",
    "durable.postgres.raw_writers_8_vs_1",
    "durable.postgres.nodes_3_vs_1",
    "lobby.cross_node_lag_ms",
]


def test_bench_postgres_quick_reports_every_figure(tmp_path: Path) -> None:
    need_postgres()
    out = tmp_path / "results.json"
    done = subprocess.run(
        [sys.executable, "-m", "bench", "postgres", "--quick", "-o", str(out)],
        cwd=ROOT, capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    results = json.loads(out.read_text())["figures"]
    assert [name for name in FIGURES if name not in results] == []
    assert all(v > 0 for v in results.values()), results
    try:
        import eventsourcing.postgres  # noqa: F401
    except ImportError:
        assert "durable.postgres.vs_eventsourcing" not in results
    else:
        assert results["durable.postgres.vs_eventsourcing"] > 0
