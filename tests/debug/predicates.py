"""Predicates for ``gamehall shrink --until module:function`` in the tests."""

from __future__ import annotations

from typing import Any


def raises(state: Any, events: list[Any]) -> bool:
    """A predicate with a bug of its own."""
    raise ValueError("no such field")


def koku_negative(state: Any, events: list[Any]) -> bool:
    """Some clan holds less than no koku."""
    return any(player.koku < 0 for player in state.players)
