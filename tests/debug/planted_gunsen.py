"""War Tax: a Gunsen expansion with a planted bug (WT-1, tests/debug/planted-rules.md).

Loaded only by the debugging tests. ``BUGGY`` switches the bug off.
"""

from __future__ import annotations

import sys

from gamehall.core import ExpansionSpec, RandomBot, Recorded, Registry, Table, hookimpl
from gamehall.plugins.gunsen.api import Play
from gamehall.plugins.gunsen.api import hookimpl as gunsen_hookimpl
from gamehall.plugins.gunsen.events import TroopAdded

BUGGY = True


class WarTax:
    """The expansion's one hook."""

    @gunsen_hookimpl
    def gunsen_turn_ended(self, play: Play, seat: int) -> None:
        """Give a broke clan a conscript on its fort (WT-1)."""
        player = play.state.players[seat]
        if player.koku or player.wood or player.influence or not player.supply:
            return
        fort = play.state.forts[(seat + 1) % play.state.count] if BUGGY else play.state.forts[seat]
        play.emit(TroopAdded(seat=seat, space=fort, hero=""), rule="WT-1")


EXPANSION = ExpansionSpec(
    id="test-war-tax",
    name="War Tax",
    version="1.0.0",
    game="gunsen",
    hookimpls=(WarTax(),),
    description="A clan with nothing left gets a conscript at the end of its turn (test only).",
    rules_doc="tests/debug/planted-rules.md",
)


@hookimpl
def gamehall_expansions() -> list[ExpansionSpec]:
    """Register War Tax."""
    return [EXPANSION]


def registry() -> Registry:
    """Return a registry of the installed plugins with War Tax added."""
    return Registry([sys.modules[__name__]])


def failing_records(registry: Registry, seed: int) -> list[Recorded]:
    """Play a seeded random two-player match with War Tax: its full log."""
    ruleset = registry.ruleset("gunsen", [EXPANSION.id])
    table = Table(ruleset, ruleset.started(2, seed=seed), stream="wartax")
    table.play(RandomBot(seed))
    return table.records()
