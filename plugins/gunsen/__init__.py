"""Gunsen: The Battle for Toshi Ranbo — seven clans fight for a city (2-6 players)."""

from __future__ import annotations

from gamehall.core import GameSpec, hookimpl

from .commands import COMMANDS
from .events import EVENTS
from .hooks import Defaults, GunsenSpecs
from .invariants import invariants
from .presentation import GunsenPresentation
from .rules import Gunsen
from .state import Options, State

GAME = GameSpec(
    id="gunsen",
    name="Gunsen: The Battle for Toshi Ranbo",
    version="1.0.0",
    rules=Gunsen,
    state=State,
    min_players=2,
    max_players=6,
    options=Options,
    events=EVENTS,
    commands=COMMANDS,
    presentation=GunsenPresentation,
    invariants=invariants,
    hookspecs=(GunsenSpecs,),
    hookimpls=(Defaults(),),
    hidden_information=True,
    description="Lead a clan's armies to Toshi Ranbo: the first to seven achievements wins.",
    rules_doc="docs/rules/gunsen.md",
)


@hookimpl
def gamehall_games() -> list[GameSpec]:
    """Register Gunsen."""
    return [GAME]
