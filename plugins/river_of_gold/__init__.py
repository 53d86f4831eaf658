"""River of Gold: merchants of a samurai clan build, sail and trade along a river (2-4 players)."""

from __future__ import annotations

from gamehall.core import GameSpec, hookimpl

GAME = GameSpec.from_package(
    __name__,
    id="river-of-gold",
    name="River of Gold",
    version="1.1.0",
    min_players=2,
    max_players=4,
    hidden_information=True,
    description="Build on the shore, sail the river and deliver to customers in Rokugan.",
    rules_doc="docs/rules/river-of-gold.md",
)


@hookimpl
def gamehall_games() -> list[GameSpec]:
    """Register River of Gold."""
    return [GAME]


__all__ = ["GAME", "gamehall_games"]
