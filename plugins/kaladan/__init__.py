"""Generals of Kaladan: realms fight tile against tile with dice pools until one Crown stands.

Rules: docs/rules/kaladan.md (rule ids ``KAL-…``); components: ``data/*.toml``.
"""

from __future__ import annotations

from typing import Any

from gamehall.core import GameSpec, hookimpl
from gamehall.core.calculators import Calculator
from gamehall.core.registry import Ruleset
from gamehall.core.rules import release

from . import odds
from .components import Catalogue
from .rules import Kaladan


def upcast_options(version: str, options: dict[str, Any]) -> dict[str, Any]:
    """Read the options of a match an older version recorded, keeping its old meaning.

    Before 1.1 a plain Forest held 3 (the compendium's figure) and the castle bonus die, when
    chosen, went only to a player defending its own Castle; neither had an option, so a match
    recorded then goes on as it began (docs/rules/kaladan.md, "Options").
    """
    if release(version) < (1, 1):
        options.setdefault("terrain_capacity", "compendium")
        options.setdefault("castle_die_defender", "owner")
        options.setdefault("castle_defence_die", 0)
    return options


GAME = GameSpec.from_package(
    __name__,
    id="kaladan",
    name="Generals of Kaladan",
    version="1.1.0",
    min_players=2,
    max_players=6,
    hidden_information=True,
    description="Realms fight tile against tile with dice pools until one Crown stands.",
    rules_doc="docs/rules/kaladan.md",
    upcast_options=upcast_options,
)


@hookimpl
def gamehall_games() -> list[GameSpec]:
    """Register Generals of Kaladan."""
    return [GAME]


def _catalogue(ruleset: Ruleset) -> Catalogue:
    rules = ruleset.rules
    assert isinstance(rules, Kaladan)
    return rules.catalogue


def _odds(request: odds.OddsRequest, ruleset: Ruleset) -> odds.OddsAnswer:
    return odds.calculate(request, _catalogue(ruleset))


ODDS = Calculator(
    game="kaladan",
    name="odds",
    description="Win, loss and casualty chances of one battle between two given armies.",
    request=odds.OddsRequest,
    answer=odds.OddsAnswer,
    run=_odds,
    text=odds.describe,
    values=lambda ruleset: odds.allowed_values(_catalogue(ruleset)),
    uses_ruleset=True,
)


@hookimpl
def gamehall_calculators() -> list[Calculator]:
    """Offer the battle odds calculator."""
    return [ODDS]
