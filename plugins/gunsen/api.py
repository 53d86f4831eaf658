"""Gunsen's public extension API: everything an expansion needs, and nothing else.

An expansion imports only from this module (and from ``gamehall.core``): the game's hookspecs
(:class:`GunsenSpecs`, each documented with its parameters and the rulebook's default), the
component and state types it reads or adds, the box's data loaders, and read-only questions
about a state.

Stability: stable for the game's major version 1. Names listed in ``__all__`` keep their
meaning; component and state types may gain fields (always with defaults), never lose or
rename one; hooks keep their names and arguments. Anything imported from another module of
the game is internal and may change without notice.
"""

from __future__ import annotations

from gamehall.core import hookimpl

from .board import Board, Side, Space, load_sides
from .components import (
    COLOURS,
    COLUMN_NAMES,
    RESOURCES,
    SYMBOLS,
    Action,
    Building,
    Clan,
    Hero,
    Objective,
    OrderCard,
    Symbols,
    Tactic,
    Token,
    load_clans,
    load_neutral,
    load_orders,
)
from .hooks import GunsenSpecs
from .names import box
from .play import Play
from .queries import (
    building_at,
    controller,
    controls_army,
    heroes_at,
    markers,
    occupants,
    on_board,
    troops_at,
)
from .state import HIDDEN, NOBODY, Activation, Combat, Options, Player, State, Step


def board_of(state: State) -> Board:
    """Return the board side a match is played on (of the box's two sides)."""
    return box().boards[state.side]


__all__ = [
    "COLOURS",
    "COLUMN_NAMES",
    "HIDDEN",
    "NOBODY",
    "RESOURCES",
    "SYMBOLS",
    "Action",
    "Activation",
    "Board",
    "Building",
    "Clan",
    "Combat",
    "GunsenSpecs",
    "Hero",
    "Objective",
    "Options",
    "OrderCard",
    "Play",
    "Player",
    "Side",
    "Space",
    "State",
    "Step",
    "Symbols",
    "Tactic",
    "Token",
    "board_of",
    "building_at",
    "controller",
    "controls_army",
    "heroes_at",
    "hookimpl",
    "load_clans",
    "load_neutral",
    "load_orders",
    "load_sides",
    "markers",
    "occupants",
    "on_board",
    "troops_at",
]
