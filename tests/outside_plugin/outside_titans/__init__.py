"""The Iron Titan: a Toy Battle expansion from outside gamehall that adds one troop kind.

Its key holds a ``-`` (``iron-titan``), so its troops are tokens such as
``blue-iron-titan-1``; its name, short code and description come from its ``TroopKind``.
"""

from __future__ import annotations

from gamehall.core import ExpansionSpec, hookimpl
from gamehall.plugins.toy_battle.api import TroopKind

TITAN = TroopKind(
    "iron-titan",
    "Iron Titan",
    8,
    copies=1,
    short="T",
    description="strength 8, no effect: stronger than every troop of the box",
)


class Parts:
    """The expansion's answers to Toy Battle's hooks."""

    @hookimpl
    def toy_battle_troop_kinds(self) -> list[TroopKind]:
        """Add one Iron Titan per colour (TITAN-1)."""
        return [TITAN]


EXPANSION = ExpansionSpec(
    id="outside-titans",
    name="Iron Titans (outside)",
    version="0.1.0",
    game="toy-battle",
    hookimpls=(Parts(),),
    description="Adds the Iron Titan (8) to both armies.",
    rules_doc="docs/rules.md",
)


@hookimpl
def gamehall_expansions() -> list[ExpansionSpec]:
    """Register the expansion."""
    return [EXPANSION]
