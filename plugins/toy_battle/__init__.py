"""Toy Battle: a two-player duel of toy armies with hidden racks and several-step turns.

Rules: docs/rules/toy-battle.md (rule ids ``TB-…``); terrains: ``data/*.toml``.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from gamehall.core import Command, GameSpec, Invariant, hookimpl

from .commands import (
    COMMANDS,
    ChooseTarget,
    DrawTroops,
    MoveTroop,
    PlaceTroop,
    SkipEffect,
    UseEffect,
)
from .effects import default_effects
from .events import EVENTS
from .hooks import Defaults, ToyBattleSpecs
from .placement import RACK_LIMIT, seat_of
from .render import render
from .rules import ToyBattle
from .state import Options, State
from .terrain import BOXED, Board, load_terrains
from .troops import KINDS, Army, TroopKind
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
                places.setdefault(troop, []).append(f"seat {seat}'s {name}")
    for troop, where in places.items():
        if len(where) > 1:
            return f"{troop} is in two places at once: {' and '.join(where)}"
    return None


def racks_hold_own_troops(state: State) -> str | None:
    """Check rack limits, colours on racks and supplies, and face-down troops on racks."""
    for seat in (0, 1):
        if len(state.racks[seat]) > RACK_LIMIT:
            return f"seat {seat} has {len(state.racks[seat])} troops on its rack"
        if any(seat_of(state, t) != seat for t in (*state.racks[seat], *state.supply[seat])):
            return f"seat {seat} holds a troop of the other colour"
        if not set(state.face_down[seat]) <= set(state.racks[seat]):
            return f"a face-down troop of seat {seat} is not on its rack"
    return None


def medals_match_regions(state: State) -> str | None:
    """Check that medals are those of the regions taken, and no region was taken twice."""
    regions = [region for region, _ in state.taken]
    if len(regions) != len(set(regions)):
        return "a region was taken twice"
    board = _components()[1].get(state.terrain)
    if board is None:
        return None  # a terrain from an expansion: its regions are not in the box
    for seat in (0, 1):
        earned = sum(board.terrain.regions[r].medals for r, s in state.taken if s == seat)
        if state.medals[seat] != earned:
            return f"seat {seat} has {state.medals[seat]} medals but took regions worth {earned}"
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
def _components() -> tuple[Army, dict[str, Board], dict[str, str]]:
    boards = {t.key: Board(t) for t in load_terrains()}
    prompts = {e.name: e.prompt for e in default_effects()}
    return Army(list(KINDS)), boards, prompts


@cache
def _army(added: tuple[TroopKind, ...]) -> Army:
    """Return the box's army with the kinds an expansion added (they come in the view)."""
    return Army([*KINDS, *added]) if added else _components()[0]


def _army_of(view: Any) -> Army:
    return _army(view.added_kinds if isinstance(view, View) else ())


@hookimpl
def gamehall_render_text(view: Any, seat: int | None) -> str | None:
    """Draw the terrain, stacks, racks and medals as ``seat`` may see them."""
    if not isinstance(view, View):
        return None
    _, boards, prompts = _components()
    return render(view, _army_of(view), boards.get(view.terrain), prompts)


@hookimpl
def gamehall_describe_command(command: Command, view: Any, seat: int | None) -> str | None:
    """Describe a command in the rulebook's words."""
    army = _army_of(view)

    def name(troop: str) -> str:
        kind = army.kind.get(troop)
        return kind.label if kind else troop

    if isinstance(command, DrawTroops):
        return "draw 2 troops"
    if isinstance(command, PlaceTroop):
        return f"place {name(command.troop)} on spot {command.spot}"
    if isinstance(command, UseEffect):
        return "use the effect"
    if isinstance(command, ChooseTarget):
        return f"choose {name(command.troop)}"
    if isinstance(command, MoveTroop):
        return f"move {name(command.troop)} to spot {command.to}"
    if isinstance(command, SkipEffect):
        return "skip the effect"
    return None
