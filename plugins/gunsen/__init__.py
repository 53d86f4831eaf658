"""Gunsen: The Battle for Toshi Ranbo — seven clans fight for a city (2-6 players)."""

from __future__ import annotations

from gamehall.core import GameSpec, hookimpl

GAME = GameSpec.from_package(
    __name__,
    id="gunsen",
    name="Gunsen: The Battle for Toshi Ranbo",
    version="1.0.0",
    min_players=2,
    max_players=6,
    hidden_information=True,
    description="Lead a clan's armies to Toshi Ranbo: the first to seven achievements wins.",
    rules_doc="docs/rules/gunsen.md",
)


@hookimpl
def gamehall_games() -> list[GameSpec]:
    """Register Gunsen."""
    return [GAME]
