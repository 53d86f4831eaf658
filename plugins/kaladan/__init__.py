"""Generals of Kaladan: realms fight tile against tile with dice pools until one Crown stands.

Rules: docs/rules/kaladan.md (rule ids ``KAL-…``); components: ``data/*.toml``.
"""

from __future__ import annotations

from gamehall.core import GameSpec, hookimpl

from .commands import COMMANDS
from .events import EVENTS
from .hooks import Defaults, KaladanSpecs
from .rules import Kaladan
from .state import Options, State

GAME = GameSpec(
    id="kaladan",
    name="Generals of Kaladan",
    version="1.0.0",
    rules=Kaladan,
    state=State,
    min_players=2,
    max_players=6,
    options=Options,
    hookspecs=(KaladanSpecs,),
    hookimpls=(Defaults(),),
    hidden_information=True,
    description="Realms fight tile against tile with dice pools until one Crown stands.",
    rules_doc="docs/rules/kaladan.md",
)


@hookimpl
def gamehall_games() -> list[GameSpec]:
    """Register Generals of Kaladan."""
    return [GAME]


@hookimpl
def gamehall_event_types() -> list[type]:
    """Declare the game's events."""
    return list(EVENTS)


@hookimpl
def gamehall_command_types() -> list[type]:
    """Declare the game's commands."""
    return list(COMMANDS)
