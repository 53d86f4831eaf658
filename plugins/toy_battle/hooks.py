"""Toy Battle's own hooks, and the default implementation of each.

They are called once, when a ruleset builds its rules, so an expansion can add a troop kind, a
terrain or an effect while every move still runs on plain dictionaries.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from gamehall.core import hookimpl, hookspec

from .effects import default_effects
from .terrain import load_terrains
from .troops import KINDS

if TYPE_CHECKING:
    from .effects import Effect
    from .terrain import Terrain
    from .troops import TroopKind


class ToyBattleSpecs:
    """Hooks an expansion of Toy Battle may implement."""

    # -- components ------------------------------------------------------------------------

    @hookspec
    def toy_battle_troop_kinds(self) -> list[TroopKind]:  # type: ignore[empty-body]
        """Return troop kinds for every army of the match.

        Fires once when the rules are built; every list is used, and a later kind with the
        same ``key`` replaces an earlier one. Each kind adds ``copies`` troops per colour.
        """

    @hookspec
    def toy_battle_terrains(self) -> list[Terrain]:  # type: ignore[empty-body]
        """Return terrains that the ``terrain`` option may name.

        Fires once when the rules are built; every list is used, a later terrain with the same
        ``key`` replaces an earlier one.
        """

    # -- effects ---------------------------------------------------------------------------

    @hookspec
    def toy_battle_effects(self) -> list[Effect]:  # type: ignore[empty-body]
        """Return effects, by name, that troop kinds and special bases may trigger.

        Fires once when the rules are built; every list is used, a later effect with the same
        ``name`` replaces an earlier one. See ``effects.Effect`` for what an effect provides.
        """


class Defaults:
    """The rulebook's answer to every Toy Battle hook."""

    @hookimpl(trylast=True)
    def toy_battle_troop_kinds(self) -> list[TroopKind]:
        """Return the eight kinds of the box, three of each per colour (TB-SETUP-4)."""
        return list(KINDS)

    @hookimpl(trylast=True)
    def toy_battle_terrains(self) -> list[Terrain]:
        """Return the eight terrains of the box (TB-SETUP-1)."""
        return load_terrains()

    @hookimpl(trylast=True)
    def toy_battle_effects(self) -> list[Effect]:
        """Return the troop and special-base effects of the rulebook."""
        return default_effects()
