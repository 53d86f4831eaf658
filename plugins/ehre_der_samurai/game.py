"""What the rule modules read of the rules object: its cards, numbers, values and hooks.

:class:`~gamehall.plugins.ehre_der_samurai.rules.EhreDerSamurai` provides it; the modules that
decide (actions, declarations, reactions, legal moves, the turn) take it as this protocol, so
none of them imports the rules class that dispatches to them.
"""

from __future__ import annotations

from typing import Any, Protocol

from .cards import Catalogue
from .houses import Numbers, Values


class Game(Protocol):
    """The ruleset's parts: the cards (with an expansion's), the numbers and the values."""

    cards: Catalogue
    numbers: Numbers
    values: Values
    hook: Any
