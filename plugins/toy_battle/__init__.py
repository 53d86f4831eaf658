"""Toy Battle: a two-player duel of toy armies with hidden racks and several-step turns.

Rules: docs/rules/toy-battle.md (rule ids ``TB-…``); terrains: ``data/*.toml``.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from gamehall.core import Command, Event, GameSpec, Invariant, hookimpl
from gamehall.core.drawing import Drawing
from gamehall.core.words import seat_label

from . import draw, words
from .commands import COMMANDS
from .effects import default_effects
from .events import EVENTS
from .hooks import Defaults, ToyBattleSpecs
from .placement import RACK_LIMIT, seat_of
from .render import render
from .rules import ToyBattle
from .state import Options, State
from .terrain import BOXED
from .view import View

GAME = GameSpec(
    id="toy-battle",
    name="Toy Battle",
    version="1.1.0",
    rules=ToyBattle,
    state=State,
    min_players=2,
    max_players=2,
    options=Options,
    hookspecs=(ToyBattleSpecs,),
    hookimpls=(Defaults(),),
    hidden_information=True,
    test_options=tuple({"terrain": key} for key in BOXED),
    description="Reach the enemy headquarters or the medal target with a rack of hidden toys.",
    rules_doc="docs/rules/toy-battle.md",
)


@hookimpl
def gamehall_games() -> list[GameSpec]:
    """Register Toy Battle."""
    return [GAME]


@hookimpl
def gamehall_event_types() -> list[type]:
    """Declare Toy Battle's events."""
    return list(EVENTS)


@hookimpl
def gamehall_command_types() -> list[type]:
    """Declare Toy Battle's commands."""
    return list(COMMANDS)


def no_troop_twice(state: State) -> str | None:
    """Check that every troop is in exactly one place, naming a troop found twice and where."""
    places: dict[str, list[str]] = {}
    for troop in state.discard:
        places.setdefault(troop, []).append("the discard pile")
    for spot, stack in sorted(state.stacks.items()):
        for troop in stack:
            places.setdefault(troop, []).append(f"spot {spot}")
    for name, pair in (("supply", state.supply), ("removed", state.removed), ("rack", state.racks)):
        for seat in (0, 1):
            for troop in pair[seat]:
                places.setdefault(troop, []).append(f"{seat_label(seat)}'s {name}")
    for troop, where in places.items():
        if len(where) > 1:
            return f"{troop} is in two places at once: {' and '.join(where)}"
    return None


def racks_hold_own_troops(state: State) -> str | None:
    """Check rack limits, colours on racks and supplies, and face-down troops on racks."""
    for seat in (0, 1):
        if len(state.racks[seat]) > RACK_LIMIT:
            return f"{seat_label(seat)} has {len(state.racks[seat])} troops on its rack"
        if any(seat_of(state, t) != seat for t in (*state.racks[seat], *state.supply[seat])):
            return f"{seat_label(seat)} holds a troop of the other colour"
        if not set(state.face_down[seat]) <= set(state.racks[seat]):
            return f"a face-down troop of {seat_label(seat)} is not on its rack"
    return None


def medals_match_regions(state: State) -> str | None:
    """Check that medals are those of the regions taken, and no region was taken twice."""
    regions = [region for region, _ in state.taken]
    if len(regions) != len(set(regions)):
        return "a region was taken twice"
    board = words.boards().get(state.terrain)
    if board is None:
        return None  # a terrain from an expansion: its regions are not in the box
    for seat in (0, 1):
        earned = sum(board.terrain.regions[r].medals for r, s in state.taken if s == seat)
        if state.medals[seat] != earned:
            return f"{seat_label(seat)} has {state.medals[seat]} medals but took regions worth {earned}"
    return None


@hookimpl
def gamehall_invariants() -> list[Invariant]:
    """Declare what must hold after every event."""
    return [
        Invariant("toy-battle-no-troop-twice", no_troop_twice),
        Invariant("toy-battle-racks", racks_hold_own_troops, "8 troops at most, own colour"),
        Invariant("toy-battle-medals", medals_match_regions),
    ]


@cache
def _prompts() -> dict[str, str]:
    return {e.name: e.prompt for e in default_effects()}


@hookimpl
def gamehall_render_text(view: Any, seat: int | None) -> str | None:
    """Draw the terrain with its legend, stacks, racks and medals as ``seat`` may see them."""
    if not isinstance(view, View):
        return None
    return render(view, words.army_of(view), words.board_of(view), _prompts())


@hookimpl
def gamehall_draw_board(view: Any, seat: int | None, legal: list[Command]) -> Drawing | None:
    """Draw the terrain, stacks, racks and supplies, with every legal command as a place."""
    return draw.draw(view, seat, legal) if isinstance(view, View) else None


@hookimpl
def gamehall_describe_command(command: Command, view: Any, seat: int | None) -> str | None:
    """Describe a command in the rulebook's words."""
    return words.describe_command(command, view, seat) if isinstance(view, View) else None


@hookimpl
def gamehall_describe_event(event: Event, view: Any, seat: int | None) -> str | None:
    """Tell an event in a sentence for the seat that reads it."""
    return words.describe_event(event, view, seat) if isinstance(view, View) else None


@hookimpl
def gamehall_seat_names(view: Any) -> list[str] | None:
    """Call the seats by their colours."""
    return words.seat_names(view) if isinstance(view, View) else None


@hookimpl
def gamehall_command_group(command: Command, view: Any, seat: int | None) -> str | None:
    """Head long menus by action and troop."""
    return words.command_group(command, view, seat) if isinstance(view, View) else None
