"""The public extension API of Ehre der Samurai: everything an expansion needs, and only that.

Stability: the names below keep their meaning within a major version of the game (the
``GameSpec.version``); fields may be added to the Structs, with defaults, but none is removed
or renamed. An expansion imports this module and ``gamehall.core``, never another module of
the game.

- :class:`EhreSpecs`: the game's hooks (``ehre_der_samurai_cards``, ``ehre_der_samurai_numbers``, ``ehre_der_samurai_fight_dice``),
  each documented with when it fires and how results combine.
- :class:`Card`, :data:`Kind`, :func:`box`: the cards and the 110 of the box; an expansion adds
  or replaces cards by returning them from ``ehre_der_samurai_cards``.
- :class:`Numbers`: every number of the rules (prices, limits, dice); return a changed copy
  from ``ehre_der_samurai_numbers``. ``Numbers.dishonour_actions`` is ``None`` unless an
  expansion sets it (since 1.1 the match's option decides); :func:`dishonour_cost` gives the
  price a match pays.
- :class:`State`, :class:`Player`, :class:`Fight`, :class:`Insult`, :class:`Options`,
  :data:`House`: the state an expansion's hooks are shown, and the view a seat gets
  (:class:`View`, :class:`PlayerView`); an expansion keeps state of its own in ``State.ext``
  through ``gamehall.core.extension_state``.
"""

from __future__ import annotations

from .cards import SHOGUN, Card, Kind, box
from .hooks import EhreSpecs
from .houses import Numbers, dishonour_cost
from .state import HOUSES, PROVINCES, Fight, House, Insult, Options, Player, State
from .view import FightView, InsultView, PlayerView, View

GAME_ID = "ehre-der-samurai"

__all__ = [
    "GAME_ID",
    "HOUSES",
    "PROVINCES",
    "SHOGUN",
    "Card",
    "EhreSpecs",
    "Fight",
    "FightView",
    "House",
    "Insult",
    "InsultView",
    "Kind",
    "Numbers",
    "Options",
    "Player",
    "PlayerView",
    "State",
    "View",
    "box",
    "dishonour_cost",
]
