"""The debugging tools on a planted bug: Harbour Dues breaks an invariant after a rare combination."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest
from gamehall.adapters.cli import main
from gamehall.core import Registry, replay

from tests.debug import planted_rog

PLUGIN = "tests.debug.planted_rog"
SEED = 1


def failing_log(tmp_path: Path) -> tuple[Path, int]:
    path = tmp_path / "harbour.jsonl"
    count = planted_rog.write_failing_log(str(path), SEED)
    registry = planted_rog.registry()
    from gamehall.adapters.file.logfile import read_log

    log = read_log(str(path), registry)
    assert replay.bisect(log.ruleset, log.records) is not None
    return path, count


def test_shrink_why_whatif_and_to_test_on_the_planted_bug(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    log, before = failing_log(tmp_path)
    small = tmp_path / "small.jsonl"
    args = ["--plugin", PLUGIN]
    code = main(["shrink", str(log), "--until", "invariant-fails", "-o", str(small),
                 "--max-runs", "600", *args])  # fmt: skip
    out = capsys.readouterr().out
    assert code == 0, out
    after = int(out.split(" to ")[1].split()[0])
    assert before >= 150 and after <= before / 10, out

    registry = Registry([planted_rog])
    from gamehall.adapters.file.logfile import read_log

    shrunk = read_log(str(small), registry)
    violation = replay.bisect(shrunk.ruleset, shrunk.records)
    assert violation is not None
    assert main(["why", str(small), str(violation.seq), *args]) == 0
    explained = capsys.readouterr().out
    assert "test-harbour-dues" in explained and "river_of_gold_turn_ended" in explained
    assert "rule HD-1" in explained and "koku" in explained

    trigger = next(
        r.seq for r in reversed(shrunk.records) if r.meta.command and r.seq <= violation.seq
    )
    assert main(["whatif", str(small), "--at", str(trigger), "--drop", *args]) == 0
    assert "every invariant holds" in capsys.readouterr().out

    test_file = tmp_path / "test_harbour.py"
    assert (
        main(["to-test", str(small), "-o", str(test_file), "--until", "invariant-fails", *args])
        == 0
    )
    spec = importlib.util.spec_from_file_location("generated_harbour", test_file)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    with pytest.raises(AssertionError, match="rog-supplies-in-range"):
        module.test_harbour()
    monkeypatch.setattr(planted_rog, "BUGGY", False)
    module.test_harbour()


def test_bad_input_is_one_line_and_exit_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    log, _ = failing_log(tmp_path)
    args = ["--plugin", PLUGIN]
    out = tmp_path / "out.jsonl"
    cases = [
        ["why", str(log), "99999", *args],
        ["whatif", str(log), "--at", "99999", "--drop", *args],
        ["whatif", str(log), "--at", "30", "--replace", '{"type": "river_of_gold.EndTurn"}', *args],
        ["shrink", str(log), "--until", "outcome=draw", "-o", str(out), *args],
        ["shrink", str(log), "--until", "tests.debug.predicates:raises", "-o", str(out), *args],
    ]
    for argv in cases:
        assert main(argv) == 2, argv
        err = capsys.readouterr().err.strip()
        assert err.startswith("error: ") and "\n" not in err, (argv, err)
    assert not out.exists()
    lines = log.read_text().splitlines()
    lines[5] = (
        lines[5].replace('"koku":', '"koku":1+') if '"koku":' in lines[5] else lines[5][:-2] + "}"
    )
    tampered = tmp_path / "tampered.jsonl"
    tampered.write_text("\n".join(lines) + "\n")
    assert main(["why", str(tampered), "5", *args]) == 2
    assert capsys.readouterr().err.startswith("error: ")


def test_bench_debug_reports_its_figures(tmp_path: Path) -> None:
    import json
    import subprocess
    import sys

    root = Path(__file__).resolve().parents[2]
    out = tmp_path / "results.json"
    done = subprocess.run(
        [sys.executable, "-m", "bench", "debug", "--quick", "-o", str(out)],
        cwd=root, capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    figures = json.loads(out.read_text())["figures"]
    for name in ("provenance.durable_on_vs_off", "provenance.playouts_on_vs_off",
                 "shrink.planted.ratio", "shrink.planted.seconds"):  # fmt: skip
        assert figures[name] > 0, name
    assert figures["shrink.planted.ratio"] <= 0.1


@pytest.mark.long
@pytest.mark.parametrize("seed", [1, 15, 24, 25, 29, 39, 43])
def test_harbour_dues_shrinks_to_a_tenth_with_the_full_budget(seed: int) -> None:
    from gamehall.core.debug.shrink import Condition, shrink

    registry = planted_rog.registry()
    ruleset = registry.ruleset("river-of-gold", [planted_rog.EXPANSION.id])
    records = planted_rog.failing_records(registry, seed)
    assert replay.bisect(ruleset, records) is not None  # these seeds trip it late
    result = shrink(ruleset, records, Condition("invariant-fails"))
    assert result.stopped is None and result.after <= result.before / 10, result


@pytest.mark.long
@pytest.mark.parametrize("seed", [11, 13, 15])
def test_war_tax_every_tool_on_the_gunsen_planted_bug(
    seed: int, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from gamehall.adapters.file.logfile import read_log
    from gamehall.adapters.file.tools import write

    from tests.debug import planted_gunsen

    registry = planted_gunsen.registry()
    records = planted_gunsen.failing_records(registry, seed)
    log = tmp_path / "wartax.jsonl"
    write(str(log), records, None, registry)
    before = sum(1 for r in records if r.meta.command is not None)
    args = ["--plugin", "tests.debug.planted_gunsen"]
    small = tmp_path / "small.jsonl"
    assert main(["shrink", str(log), "--until", "invariant-fails", "-o", str(small), *args]) == 0
    out = capsys.readouterr().out
    after = int(out.split(" to ")[1].split()[0])
    assert before >= 250 and after <= before / 10, out
    shrunk = read_log(str(small), registry)
    violation = replay.bisect(shrunk.ruleset, shrunk.records)
    assert violation is not None and violation.invariant == "gunsen-one-clan-per-space"
    assert main(["why", str(small), str(violation.seq), *args]) == 0
    explained = capsys.readouterr().out
    assert "hook gunsen_turn_ended" in explained and "rule WT-1" in explained
    trigger = next(
        r.seq for r in reversed(shrunk.records) if r.meta.command and r.seq <= violation.seq
    )
    assert main(["whatif", str(small), "--at", str(trigger), "--drop", *args]) == 0
    assert "every invariant holds" in capsys.readouterr().out
    test_file = tmp_path / "test_wartax.py"
    assert (
        main(["to-test", str(small), "-o", str(test_file), "--until", "invariant-fails", *args])
        == 0
    )
    spec = importlib.util.spec_from_file_location(f"generated_wartax_{seed}", test_file)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    with pytest.raises(AssertionError, match="gunsen-one-clan-per-space"):
        module.test_wartax()
    monkeypatch.setattr(planted_gunsen, "BUGGY", False)
    module.test_wartax()


def test_to_test_passes_on_the_same_code_and_names_the_first_difference_otherwise(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    log, _ = failing_log(tmp_path)
    test_file = tmp_path / "test_recorded.py"
    assert main(["to-test", str(log), "-o", str(test_file), "--plugin", PLUGIN]) == 0
    text = test_file.read_text()
    assert "gamehall.core" in text and "gamehall.plugins" not in text  # public API only
    spec = importlib.util.spec_from_file_location("generated_recorded", test_file)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    module.test_recorded()  # the code the log came from
    monkeypatch.setattr(planted_rog, "BUGGY", False)
    with pytest.raises(AssertionError, match=r"command \d+ \(seat \d\).* differs|gave \d+ events"):
        module.test_recorded()


def test_a_budget_stops_shrink_with_the_best_so_far(tmp_path: Path) -> None:
    from gamehall.core.debug.shrink import Condition, shrink

    registry = planted_rog.registry()
    ruleset = registry.ruleset("river-of-gold", [planted_rog.EXPANSION.id])
    records = planted_rog.failing_records(registry, SEED)
    result = shrink(ruleset, records, Condition("invariant-fails"), max_runs=5)
    assert result.stopped == "the budget of 5 runs"
    assert result.after < result.before  # the best so far: the failure's prefix at least
    holds, kept = (
        __import__("gamehall.core.debug.shrink", fromlist=["Checker"])
        .Checker(ruleset, records, Condition("invariant-fails"))
        .run(result.moves)
    )
    assert holds and kept == result.moves  # it reproduces
