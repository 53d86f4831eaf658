"""The public extension API of River of Gold: everything an expansion may use.

Stability: the names below are kept from one minor version of the game to the next; fields
may be added to the Structs (with defaults), never removed or renamed, and the helpers keep
their signatures. An expansion imports only this module (and ``gamehall.core``), never the
game's other modules: the project's own expansion of River of Gold is written that way, and a
test checks it.

What an expansion can do through the game's hooks (:class:`RiverOfGoldSpecs`, documented in
``hooks.py``):

- add setup (``river_of_gold_setup``), a decision before the base game's (a draft:
  ``river_of_gold_decision``), commands (``river_of_gold_extra_commands``, decided in
  ``river_of_gold_decide``) and events (applied in ``river_of_gold_evolve``);
- change costs, regions, caps and the end bonus, move influence markers otherwise, react to
  builds, sails, deliveries and the end of a turn, add final points;
- keep hidden parts of its own state (``river_of_gold_view`` / ``river_of_gold_sample``).

A :class:`Turn` is the command being decided (the core's ``Emitter``): read ``turn.state``,
append events with ``turn.emit`` (each applied at once, so the next step sees it), pay with
:func:`gain`, draw with :func:`draw_customers`, open a choice with :func:`open_choice`, move
influence with :func:`raise_influence`; roll only with ``turn.rng`` and write the face into
an event.

An expansion keeps its own typed state in the match, under its id, with :func:`extension` and
:func:`with_extension` (a msgspec Struct with defaults; never string keys in a shared dict).
Two fields of :class:`State` are the game's own hooks into the board and the words:
``State.clans`` (a seat's clan when an expansion deals clans) and ``State.dice_owed`` (seats
whose opening die is not rolled yet).
"""

from __future__ import annotations

from typing import Any, TypeVar

import msgspec
from gamehall.core import extension_state, hookimpl, with_extension_state

from .actions import end_turn, wrap_die
from .components import (
    COMPONENTS,
    CUSTOMERS,
    REGIONS,
    RIVERS_BY_SPACE,
    SPACES,
    TILES,
    TOUCHES,
    Components,
    Customer,
    Tile,
)
from .draw import clan_ink
from .effects import Turn, draw_customers, gain, open_choice, raise_influence
from .events import DieRolled, RogEvent
from .hooks import Caps, RiverOfGoldSpecs
from .legal import phase
from .state import HIDDEN, Choice, Options, Player, State
from .words import clan, listed

T = TypeVar("T", bound=msgspec.Struct)


def extension(state: State, expansion: str, kind: type[T]) -> T:
    """Return an expansion's own state in a match (``kind()`` before it wrote any)."""
    return extension_state(state.ext, expansion, kind)


def with_extension(state: State, expansion: str, value: msgspec.Struct) -> State:
    """Return the match state with an expansion's own state replaced by ``value``."""
    return msgspec.structs.replace(state, ext=with_extension_state(state.ext, expansion, value))


def extension_entry(expansion: str, value: msgspec.Struct) -> dict[str, Any]:
    """Return what ``river_of_gold_view`` and ``river_of_gold_sample`` give back for ``value``."""
    return with_extension_state({}, expansion, value)


__all__ = [
    "COMPONENTS",
    "CUSTOMERS",
    "HIDDEN",
    "REGIONS",
    "RIVERS_BY_SPACE",
    "SPACES",
    "TILES",
    "TOUCHES",
    "Caps",
    "Choice",
    "Components",
    "Customer",
    "DieRolled",
    "Options",
    "Player",
    "RiverOfGoldSpecs",
    "RogEvent",
    "State",
    "Tile",
    "Turn",
    "clan",
    "clan_ink",
    "draw_customers",
    "end_turn",
    "extension",
    "extension_entry",
    "gain",
    "hookimpl",
    "listed",
    "open_choice",
    "phase",
    "raise_influence",
    "wrap_die",
    "with_extension",
]
