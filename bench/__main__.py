"""Run every benchmark module, print a table and write ``bench/results.json``.

Each ``bench/bench_*.py`` module defines ``run(quick: bool) -> dict[str, float]``; ``quick``
shrinks every size so the test suite can check that the benchmarks work. Figures are flat
``name: number`` pairs; ratios are measured within one run, medians of at least 3 repeats.
"""

from __future__ import annotations

import argparse
import importlib
import json
import pkgutil
import sys
import time
from pathlib import Path

HERE = Path(__file__).parent


def main(argv: list[str] | None = None) -> int:
    """Run the benchmarks named on the command line (all by default)."""
    parser = argparse.ArgumentParser(prog="python -m bench")
    parser.add_argument("names", nargs="*", help="module names without bench_ (default: all)")
    parser.add_argument("--quick", action="store_true", help="tiny sizes, for the test suite")
    parser.add_argument("-o", "--output", default=str(HERE / "results.json"))
    args = parser.parse_args(argv)
    modules = sorted(
        m.name for m in pkgutil.iter_modules([str(HERE)]) if m.name.startswith("bench_")
    )
    if args.names:
        modules = [m for m in modules if m.removeprefix("bench_") in args.names]
    results: dict[str, float] = {}
    for name in modules:
        started = time.perf_counter()
        module = importlib.import_module(f"bench.{name}")
        figures = module.run(args.quick)
        results.update(figures)
        for key, value in figures.items():
            print(f"{key:<44} {value:>16,.3f}")
        print(f"  ({name} took {time.perf_counter() - started:.1f} s)", file=sys.stderr)
    Path(args.output).write_text(json.dumps(results, indent=2, sort_keys=True) + "\n")
    print(f"wrote {args.output}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
