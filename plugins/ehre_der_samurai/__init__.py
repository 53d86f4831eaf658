"""Ehre der Samurai: houses, honour, alliances and betrayal for three to six players.

Rules: docs/rules/ehre-der-samurai.md (rule ids ``EDS-…``); cards: ``data/cards.toml``.
"""

from __future__ import annotations

from typing import Any

from gamehall.core import GameSpec, hookimpl
from gamehall.core.rules import release


def upcast_options(version: str, options: dict[str, Any]) -> dict[str, Any]:
    """Read the options of a match an older version recorded, keeping its old meaning.

    Before 1.1 a Dishonour cost two card actions and there was no option for it; a match
    recorded then goes on with two (docs/rules/ehre-der-samurai.md, "Options").
    """
    if release(version) < (1, 1):
        options.setdefault("dishonour_actions", 2)
        options.setdefault("bystander_save_face", False)
    return options


GAME = GameSpec.from_package(
    __name__,
    id="ehre-der-samurai",
    name="Ehre der Samurai",
    version="1.1.0",
    min_players=3,
    max_players=6,
    hidden_information=True,
    test_options=(
        {},
        {
            "bystander_save_face": False,
            "dishonour_actions": 2,
            "save_face_cancels_fight": True,
            "dishonour_ends_alliance": "partner",
            "shogun_obligation": False,
            "honour_target": 250,
            "start_seat": 2,
        },
    ),
    description="Gather honour with your Daimyo and Samurai houses; ally, betray, attack.",
    rules_doc="docs/rules/ehre-der-samurai.md",
    upcast_options=upcast_options,
)


@hookimpl
def gamehall_games() -> list[GameSpec]:
    """Register Ehre der Samurai."""
    return [GAME]
