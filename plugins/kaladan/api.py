"""The public extension API of Generals of Kaladan: everything an expansion may use.

Stability: the names below are kept from one minor version of the game to the next; fields
may be added to the Structs (with defaults), never removed or renamed. An expansion imports
only this module, never the game's other modules.

What an expansion can do through the game's hooks (see :class:`KaladanSpecs`):

- add unit kinds to every army (``kaladan_unit_kinds``), terrains (``kaladan_terrains``),
  worlds for player counts (``kaladan_worlds``), realms with their special unit and magic
  deck (``kaladan_realms``) and event cards (``kaladan_event_cards``); a later item with the
  same key replaces the game's own;
- read any state through :class:`State` and a seat's :class:`View`, and keep its own typed
  state in ``State.ext`` with ``gamehall.core.extension_state``.

The dice helpers (:func:`pool`, :func:`compare`) are the ones the game and its odds calculator
use, so an expansion's components roll exactly as the game rolls them.
"""

from __future__ import annotations

from gamehall.core import extension_state, hookimpl, with_extension_state

from .components import (
    BASIC,
    Catalogue,
    Condition,
    EventCard,
    MagicCard,
    MagicEffect,
    Realm,
    Special,
    Terrain,
    UnitKind,
    World,
    kind_of,
    load_event_cards,
    load_realms,
    load_terrains,
    load_units,
    load_worlds,
    realm_of,
)
from .dice import SidePlan, compare, pool, sort_high
from .hooks import KaladanSpecs
from .state import NOBODY, Battle, Options, State
from .view import View

__all__ = [
    "BASIC",
    "NOBODY",
    "Battle",
    "Catalogue",
    "Condition",
    "EventCard",
    "KaladanSpecs",
    "MagicCard",
    "MagicEffect",
    "Options",
    "Realm",
    "SidePlan",
    "Special",
    "State",
    "Terrain",
    "UnitKind",
    "View",
    "World",
    "compare",
    "extension_state",
    "hookimpl",
    "kind_of",
    "load_event_cards",
    "load_realms",
    "load_terrains",
    "load_units",
    "load_worlds",
    "pool",
    "realm_of",
    "sort_high",
    "with_extension_state",
]
