"""Run the benchmark modules, print every figure with its spread and target, write results.

Each ``bench/bench_*.py`` module defines ``run(quick: bool) -> dict[str, float]`` (values may be
:class:`bench.Figure`, which carry their rounds) and may define ``TARGETS``; ``quick`` shrinks
every size so the test suite can check that the benchmarks work. A new module is found by its
name: nothing else to register.

``--curves`` also measures the cost curves (:mod:`bench.curves`, a few minutes) and draws
them as ``bench/curves-*.png``; ``python -m bench curves`` measures only the curves.

``bench/results.json`` holds ``figures`` (name: median), ``rounds`` (name: every round's
value), ``targets`` (name: op, bound, holds), ``machine`` (load while it ran) and, after
``--curves``, ``curves`` (with ``curves_machine``). A run replaces the sections it measured
and keeps the others.
"""

from __future__ import annotations

import argparse
import importlib
import json
import os
import pkgutil
import sys
import time
from pathlib import Path
from typing import Any

from . import Figure, Target, describe, holds

HERE = Path(__file__).parent


def machine() -> dict[str, Any]:
    """Return how busy the machine was: load averages and cores (figures are relative)."""
    one, five, fifteen = os.getloadavg()
    return {"cpus": os.cpu_count(), "load_1m": one, "load_5m": five, "load_15m": fifteen}


def run_modules(modules: list[str], quick: bool) -> dict[str, Any]:
    """Run modules; print each figure as it comes; return the sections of results.json."""
    figures: dict[str, float] = {}
    rounds: dict[str, list[float]] = {}
    targets: dict[str, dict[str, Any]] = {}
    for name in modules:
        started = time.perf_counter()
        module = importlib.import_module(f"bench.{name}")
        declared: dict[str, Target] = getattr(module, "TARGETS", {})
        for key, value in module.run(quick).items():
            target = declared.get(key) or getattr(value, "target", None)
            print(describe(key, value, target), flush=True)
            figures[key] = float(value)
            if isinstance(value, Figure):
                rounds[key] = list(value.samples)
            if target is not None:
                op, bound = target
                targets[key] = {"op": op, "target": bound, "holds": holds(float(value), target)}
        print(f"  ({name} took {time.perf_counter() - started:.1f} s)", file=sys.stderr)
    return {"figures": figures, "rounds": rounds, "targets": targets}


def main(argv: list[str] | None = None) -> int:
    """Run the benchmarks named on the command line (all by default)."""
    parser = argparse.ArgumentParser(prog="python -m bench")
    parser.add_argument("names", nargs="*", help="module names without bench_ (default: all)")
    parser.add_argument("--quick", action="store_true", help="tiny sizes, for the test suite")
    parser.add_argument(
        "--curves", action="store_true", help="also measure the cost curves and draw them (minutes)"
    )
    parser.add_argument("-o", "--output", default=str(HERE / "results.json"))
    args = parser.parse_args(argv)
    modules = sorted(
        m.name for m in pkgutil.iter_modules([str(HERE)]) if m.name.startswith("bench_")
    )
    curves = args.curves or "curves" in args.names
    if args.names == ["curves"]:
        modules = []
    elif args.names:
        unknown = sorted(set(args.names) - {m.removeprefix("bench_") for m in modules} - {"curves"})
        if unknown:
            parser.error(f"no benchmark module named {', '.join(unknown)}")
        modules = [m for m in modules if m.removeprefix("bench_") in args.names]
    output = Path(args.output)
    output.parent.mkdir(parents=True, exist_ok=True)
    results: dict[str, Any] = {}
    if output.exists():
        try:
            results = json.loads(output.read_text())
        except ValueError:
            results = {}
        if "figures" not in results:  # the flat form of older runs
            results = {}
    load = machine()
    print(f"machine: {load['cpus']} cores, load {load['load_1m']:.2f} (1 min)", file=sys.stderr)
    if modules:
        results.update(run_modules(modules, args.quick))
        results["machine"] = {**load, "finished_load_1m": os.getloadavg()[0]}
    if curves:
        from . import curves as cost

        started, load = time.perf_counter(), machine()
        results["curves"] = cost.run(args.quick)
        results["curves_machine"] = {**load, "finished_load_1m": os.getloadavg()[0]}
        for path in cost.draw(results["curves"], output.parent, load["load_1m"]):
            print(f"drew {path}")
        print(f"  (curves took {time.perf_counter() - started:.1f} s)", file=sys.stderr)
    results.setdefault("targets", {})
    held = [k for k, t in results["targets"].items() if t["holds"]]
    missed = [k for k, t in results["targets"].items() if not t["holds"]]
    print(f"targets held: {len(held)} of {len(held) + len(missed)}")
    for key in missed:
        print(f"  NOT held: {key}")
    output.write_text(json.dumps(results, indent=2, sort_keys=True) + "\n")
    print(f"wrote {output}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
