"""Harbour Dues: a River of Gold expansion with a planted bug (HD-1, tests/debug/planted-rules.md).

Loaded only by the debugging tests. ``BUGGY`` switches the bug off, for a test that shows a
test written from a failing log passing once the bug is fixed.
"""

from __future__ import annotations

import sys

from gamehall.core import ExpansionSpec, RandomBot, Recorded, Registry, Table, hookimpl
from gamehall.plugins.river_of_gold.api import Turn
from gamehall.plugins.river_of_gold.api import hookimpl as rog_hookimpl
from gamehall.plugins.river_of_gold.events import ResourcesChanged

BUGGY = True
DUES = 2


class HarbourDues:
    """The expansion's one hook."""

    @rog_hookimpl
    def river_of_gold_turn_ended(self, turn: Turn, seat: int) -> None:
        """Charge harbour dues to a poor clan whose die shows 1 (HD-1)."""
        player = turn.state.players[seat]
        if player.koku > 1 or player.favour:
            return
        dues = DUES if BUGGY else min(DUES, player.koku)
        if dues:
            turn.emit(ResourcesChanged(seat=seat, koku=-dues, reason="harbour dues"), rule="HD-1")


EXPANSION = ExpansionSpec(
    id="test-harbour-dues",
    name="Harbour Dues",
    version="1.0.0",
    game="river-of-gold",
    hookimpls=(HarbourDues(),),
    description="A poor clan whose die shows 1 at the end of its turn pays dues (test only).",
    rules_doc="tests/debug/planted-rules.md",
)


@hookimpl
def gamehall_expansions() -> list[ExpansionSpec]:
    """Register Harbour Dues."""
    return [EXPANSION]


def registry() -> Registry:
    """Return a registry of the installed plugins with Harbour Dues added."""
    return Registry([sys.modules[__name__]])


def failing_records(registry: Registry, seed: int = 1) -> list[Recorded]:
    """Play a seeded random two-player match with Harbour Dues: its full log (the invariant
    breaks after its 67th command of 166)."""
    ruleset = registry.ruleset("river-of-gold", [EXPANSION.id])
    table = Table(ruleset, ruleset.started(2, seed=seed), stream="harbour")
    table.play(RandomBot(seed))
    return table.records()


def write_failing_log(path: str, seed: int = 1) -> int:
    """Write the failing log of :func:`failing_records`; return its number of commands."""
    from gamehall.adapters.file.tools import write

    made = registry()
    records = failing_records(made, seed)
    write(path, records, None, made)
    return sum(1 for r in records if r.meta.command is not None)


if __name__ == "__main__":
    count = write_failing_log(sys.argv[1])
    print(f"wrote {sys.argv[1]}: a random match of {count} commands")
