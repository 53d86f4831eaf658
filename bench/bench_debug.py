"""The debugging tools' figures: what provenance costs the hot paths, and shrinking a planted bug.

* ``provenance.durable_on_vs_off`` and ``provenance.playouts_on_vs_off``: Hall commands/s on
  SQLite (tic-tac-toe, as ``durable``) and River of Gold random playouts/s (a game that emits
  through ``Emitter``), with provenance as it ships ÷ with the emitter as it was before it
  took a rule id; interleaved rounds, medians. Provenance is recomputed on demand (``why``
  re-decides one command under a tracing emitter), so nothing is recorded on these paths: the
  target is a drop of at most 3% (ratio >= 0.97).
* ``provenance.why_ms``: one ``why`` answered on demand, on a River of Gold log (reported).
* ``shrink.planted.ratio`` and ``shrink.planted.seconds``: Harbour Dues (a River of Gold test
  expansion whose bug breaks an invariant after a rare combination) shrunk from a seeded
  random match's failing log: commands after ÷ before, and the seconds it takes (target <= 60);
  ``shrink.planted_gunsen.*`` the same for War Tax, the Gunsen one.
"""

from __future__ import annotations

import tempfile
import time
from pathlib import Path
from typing import Any

from gamehall.core import Event, RandomBot, Table, default_registry
from gamehall.core.rules import Emitter

from . import Figure, interleaved, ratio
from .bench_core import hall_commands

TARGETS = {
    "provenance.durable_on_vs_off": (">=", 0.97),
    "provenance.playouts_on_vs_off": (">=", 0.97),
    "shrink.planted.seconds": ("<=", 60.0),
    "shrink.planted_gunsen.seconds": ("<=", 60.0),
}


def _emit_before(self: Emitter[Any], *events: Event) -> None:
    """The emitter as it was before emits took a rule id."""
    evolve = self.rules.evolve
    for event in events:
        self.state = evolve(self.state, event)
        self.events.append(event)


def _with_emit(emit: Any, fn: Any) -> Any:
    def run() -> float:
        saved = Emitter.emit
        Emitter.emit = emit  # type: ignore[method-assign]
        try:
            return float(fn())
        finally:
            Emitter.emit = saved  # type: ignore[method-assign]

    return run


def rog_playouts(games: int) -> float:
    ruleset = default_registry().ruleset("river-of-gold")
    bot = RandomBot(1)
    started = time.perf_counter()
    for seed in range(games):
        Table(ruleset, ruleset.started(2, seed=seed), stream="b").play(bot)
    return games / (time.perf_counter() - started)


def run(quick: bool) -> dict[str, float]:
    rounds = 3 if quick else 15
    figures: dict[str, float] = {}
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        matches, batches = (5, 1) if quick else (100, 10)

        def durable() -> float:
            count, seconds = hall_commands(folder, matches, batches)
            return count / seconds

        shipped = Emitter.emit
        series = interleaved(
            {"on": _with_emit(shipped, durable), "off": _with_emit(_emit_before, durable)}, rounds
        )
        figures["provenance.durable_on_vs_off"] = ratio(series["on"], series["off"])
    games = 2 if quick else 20
    series = interleaved(
        {
            "on": _with_emit(shipped, lambda: rog_playouts(games)),
            "off": _with_emit(_emit_before, lambda: rog_playouts(games)),
        },
        rounds,
    )
    figures["provenance.playouts_on_vs_off"] = ratio(series["on"], series["off"])
    figures.update(_why_and_shrink(quick))
    return figures


def _why_and_shrink(quick: bool) -> dict[str, float]:
    from gamehall.core.debug.provenance import why
    from gamehall.core.debug.shrink import Condition, shrink

    ruleset = default_registry().ruleset("river-of-gold")
    table = Table(ruleset, ruleset.started(2, seed=1), stream="w")
    table.play(RandomBot(1), max_commands=40 if quick else 200)
    records = table.records()
    timings = []
    for _ in range(3):
        started = time.perf_counter()
        why(ruleset, records, records[-1].seq)
        timings.append((time.perf_counter() - started) * 1000)
    out: dict[str, float] = {"provenance.why_ms": Figure(timings)}

    from tests.debug import planted_rog

    registry = planted_rog.registry()
    planted = registry.ruleset("river-of-gold", [planted_rog.EXPANSION.id])
    records = planted_rog.failing_records(registry)
    started = time.perf_counter()
    result = shrink(planted, records, Condition("invariant-fails"))
    seconds = time.perf_counter() - started
    out["shrink.planted.ratio"] = result.after / result.before
    out["shrink.planted.seconds"] = seconds
    out["shrink.planted.before"] = float(result.before)
    out["shrink.planted.after"] = float(result.after)

    from tests.debug import planted_gunsen

    registry = planted_gunsen.registry()
    planted = registry.ruleset("gunsen", [planted_gunsen.EXPANSION.id])
    records = planted_gunsen.failing_records(registry, 11)
    started = time.perf_counter()
    result = shrink(planted, records, Condition("invariant-fails"))
    out["shrink.planted_gunsen.ratio"] = result.after / result.before
    out["shrink.planted_gunsen.seconds"] = time.perf_counter() - started
    return out
