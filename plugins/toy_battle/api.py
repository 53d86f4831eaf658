"""The public extension API of Toy Battle: everything an expansion may use.

Stability: the names below are kept from one minor version of the game to the next; fields
may be added to the Structs (with defaults), never removed or renamed, and the helpers keep
their signatures. An expansion imports only this module (and ``gamehall.core``), never the
game's other modules.

What an expansion can do through the game's hooks (:class:`ToyBattleSpecs`, in ``hooks.py``):

- add troop kinds to both armies (``toy_battle_troop_kinds``: a :class:`TroopKind` with its
  name, strength, copies, effect, map code and description), terrains the ``terrain``
  option may name (``toy_battle_terrains``: a :class:`Terrain` of :class:`Spot` and
  :class:`Region`), and effects that troop kinds and special bases trigger
  (``toy_battle_effects``: an :class:`Effect` subclass); a later item with the same key (an
  effect: the same ``name``) replaces the box's own in its place.

An :class:`Effect` offers commands (``options``) and applies one (``apply``): it checks the
command, raising ``IllegalCommand`` with its rule id, and appends events through the core's
:class:`~gamehall.core.Emitter` it is given (``emitter.emit``; ``emitter.state`` is the state
after every event so far). Randomness comes only from ``ctx.rng`` and lands in an event.
"""

from __future__ import annotations

from gamehall.core import Emitter, hookimpl

from .commands import (
    DRAW,
    SKIP,
    USE,
    ChooseTarget,
    DrawTroops,
    MoveTroop,
    PlaceTroop,
    SkipEffect,
    UseEffect,
)
from .effects import Draw, Effect, default_effects
from .events import (
    EffectFinished,
    TroopDiscarded,
    TroopMoved,
    TroopPlaced,
    TroopRecovered,
    TroopReturned,
    TroopsDrawn,
    TroopSnatched,
    TroopTurnedDown,
)
from .hooks import ToyBattleSpecs
from .placement import RACK_LIMIT, draw_count, seat_of
from .rules import ToyBattle
from .state import Options, State, WaitingEffect
from .terrain import Region, Spot, Terrain, load_terrains
from .troops import KINDS, TroopKind
from .view import View

__all__ = [
    "DRAW",
    "KINDS",
    "RACK_LIMIT",
    "SKIP",
    "USE",
    "ChooseTarget",
    "Draw",
    "DrawTroops",
    "Effect",
    "EffectFinished",
    "Emitter",
    "MoveTroop",
    "Options",
    "PlaceTroop",
    "Region",
    "SkipEffect",
    "Spot",
    "State",
    "Terrain",
    "ToyBattle",
    "ToyBattleSpecs",
    "TroopDiscarded",
    "TroopKind",
    "TroopMoved",
    "TroopPlaced",
    "TroopRecovered",
    "TroopReturned",
    "TroopSnatched",
    "TroopTurnedDown",
    "TroopsDrawn",
    "UseEffect",
    "View",
    "WaitingEffect",
    "default_effects",
    "draw_count",
    "hookimpl",
    "load_terrains",
    "seat_of",
]
