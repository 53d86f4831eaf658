"""Toy Battle: a two-player duel of toy armies with hidden racks and several-step turns.

Rules: docs/rules/toy-battle.md (rule ids ``TB-…``); terrains: ``data/*.toml``.
"""

from __future__ import annotations

from gamehall.core import GameSpec, hookimpl

from .terrain import BOXED

GAME = GameSpec.from_package(
    __name__,
    id="toy-battle",
    name="Toy Battle",
    version="1.1.0",
    min_players=2,
    max_players=2,
    hidden_information=True,
    test_options=tuple({"terrain": key} for key in BOXED),
    description="Reach the enemy headquarters or the medal target with a rack of hidden toys.",
    rules_doc="docs/rules/toy-battle.md",
)


@hookimpl
def gamehall_games() -> list[GameSpec]:
    """Register Toy Battle."""
    return [GAME]
