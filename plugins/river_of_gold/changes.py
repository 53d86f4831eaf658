"""Pure helpers of the ``@evolves`` methods in ``rules.py``: a copy of the state with one part
changed."""

from __future__ import annotations

from typing import Any

from .state import Player


def at(items: tuple[Any, ...], index: int, value: Any) -> tuple[Any, ...]:
    """Return ``items`` with the one at ``index`` replaced."""
    return items[:index] + (value,) + items[index + 1 :]


def hand_decks(player: Player, deck: int, change: int) -> tuple[int, ...]:
    """Return a clan's count of hand cards per deck, ``change`` added to ``deck``'s."""
    counts = list(player.hand_decks) + [0] * (deck + 1 - len(player.hand_decks))
    counts[deck] = max(0, counts[deck] + change)
    return tuple(counts)


def new_player(koku: int) -> Player:
    """Return a clan as personal setup leaves it (ROG-SETUP-8)."""
    return Player(koku=koku)
