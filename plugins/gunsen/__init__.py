"""Gunsen: The Battle for Toshi Ranbo — seven clans fight for a city (2-6 players)."""

from __future__ import annotations

from typing import Any

from gamehall.core import Command, Event, GameSpec, hookimpl

from .commands import COMMANDS
from .events import EVENTS
from .hooks import Defaults, GunsenSpecs
from .render import render
from .rules import Gunsen
from .state import Options, State
from .words import command_group, describe_command, describe_event, seat_names

GAME = GameSpec(
    id="gunsen",
    name="Gunsen: The Battle for Toshi Ranbo",
    version="1.0.0",
    rules=Gunsen,
    state=State,
    min_players=2,
    max_players=6,
    options=Options,
    hookspecs=(GunsenSpecs,),
    hookimpls=(Defaults(),),
    hidden_information=True,
    description="Order your clan's armies to take Toshi Ranbo: the first to seven achievements wins.",
    rules_doc="docs/rules/gunsen.md",
)


@hookimpl
def gamehall_games() -> list[GameSpec]:
    """Register Gunsen."""
    return [GAME]


@hookimpl
def gamehall_event_types() -> list[type]:
    """Declare Gunsen's events."""
    return list(EVENTS)


@hookimpl
def gamehall_command_types() -> list[type]:
    """Declare Gunsen's commands."""
    return list(COMMANDS)


@hookimpl
def gamehall_render_text(view: Any, seat: int | None) -> str | None:
    """Draw the map, the clan boards, the order row and the achievements."""
    return render(view) if isinstance(view, State) else None


@hookimpl
def gamehall_describe_command(command: Command, view: Any, seat: int | None) -> str | None:
    """Name a command in the rulebook's words."""
    return describe_command(command, view, seat) if isinstance(view, State) else None


@hookimpl
def gamehall_describe_event(event: Event, view: Any, seat: int | None) -> str | None:
    """Tell an event in a sentence."""
    return describe_event(event, view, seat) if isinstance(view, State) else None


@hookimpl
def gamehall_seat_names(view: Any) -> list[str] | None:
    """Name the seats by their clans."""
    return seat_names(view) if isinstance(view, State) else None


@hookimpl
def gamehall_command_group(command: Command, view: Any, seat: int | None) -> str | None:
    """Group long menus: moves by space, buildings, heroes, dice."""
    return command_group(command, view, seat) if isinstance(view, State) else None
