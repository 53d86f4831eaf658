"""The cost curves: each measurement works at small sizes, and every chart is drawn."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
from bench import curves  # noqa: E402

sys.path.remove(str(ROOT))


def test_throughput_counts_every_acknowledged_command(tmp_path: Path) -> None:
    point = curves.throughput(tmp_path, 3, 40)
    assert point["commands"] >= 40 and point["matches"] == 3
    assert 0 < point["p50_ms"] <= point["p99_ms"] and point["commands_per_s"] > 0


def test_replay_reads_the_log_with_and_without_a_snapshot(tmp_path: Path) -> None:
    short = curves.replay(tmp_path, 50, 1)
    assert short["plain_s"] > 0 and "snapshot_s" not in short  # shorter than the interval
    long = curves.replay(tmp_path, 450, 1)
    assert long["plain_s"] > 0 and long["snapshot_s"] > 0


def test_every_curve_is_drawn(tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    data = {
        "throughput": [
            {"matches": n, "commands_per_s": 100.0 * n, "p99_ms": 2.0 * n} for n in (1, 10)
        ],
        "replay": [{"events": 10, "plain_s": 0.001}, {"events": 1000, "plain_s": 0.1,
                                                       "snapshot_s": 0.05}],
        "memory": [
            {"kind": "active", "matches": 10, "grown_mib": 1.0, "rss_mib": 40.0,
             "bytes_per_match": 1e5},
            {"kind": "passivated", "matches": 20, "grown_mib": 0.5, "rss_mib": 39.0,
             "bytes_per_match": 2.5e4},
        ],
        "http": [{"clients": c, "commands_per_s": 50.0, "p50_ms": 1.0, "p99_ms": 3.0}
                 for c in (1, 5)],
    }  # fmt: skip
    written = curves.draw(data, tmp_path, 1.5)
    names = sorted(p.name for p in written)
    assert names == [f"curves-{n}.png" for n in ("http", "memory", "replay", "throughput")]
    assert all(p.read_bytes().startswith(b"\x89PNG") for p in written)


@pytest.mark.long
def test_bench_curves_quick_writes_the_curves_and_keeps_the_figures(tmp_path: Path) -> None:
    out = tmp_path / "results.json"
    out.write_text(json.dumps({"figures": {"x": 1.0}, "targets": {}, "rounds": {}}))
    done = subprocess.run(
        [sys.executable, "-m", "bench", "curves", "--quick", "-o", str(out)],
        cwd=ROOT, capture_output=True, text=True, timeout=900,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    results = json.loads(out.read_text())
    assert results["figures"] == {"x": 1.0}  # a curves run keeps the figures of the last run
    assert {"throughput", "replay", "memory", "http"} <= set(results["curves"])
    assert [p["kind"] for p in results["curves"]["memory"]] == ["active", "passivated"]
    assert sorted(tmp_path.glob("curves-*.png"))
