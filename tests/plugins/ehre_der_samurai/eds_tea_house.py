"""A small expansion of Ehre der Samurai, written only against the game's public API.

It adds a possession, the Tea House (honour 15, ki 3, strength 0), and raises the hand limit
to eight: an outside author could have written it from ``api.py`` and ``gamehall.core``.
"""

from __future__ import annotations

import msgspec
from gamehall.core import ExpansionSpec, hookimpl
from gamehall.plugins.ehre_der_samurai.api import GAME_ID, Card, Numbers

TEA_HOUSE = Card("tea-house", "possession", "Tea House", 15, 3, 0, source="a test expansion")


class TeaHouseParts:
    """The hooks the expansion implements."""

    @hookimpl
    def ehre_der_samurai_cards(self) -> list[Card]:
        """Add the Tea House to the box."""
        return [TEA_HOUSE]

    @hookimpl
    def ehre_der_samurai_numbers(self) -> Numbers:
        """Let a hand hold eight cards."""
        return msgspec.structs.replace(Numbers(), hand_limit=8)


class TeaHousePlugin:
    """Registers the expansion (tests load it by hand, not through entry points)."""

    @hookimpl
    def gamehall_expansions(self) -> list[ExpansionSpec]:
        """Register the Tea House."""
        spec = ExpansionSpec("eds-tea-house", "Tea House", "1.0.0", GAME_ID,
                             hookimpls=(TeaHouseParts(),))  # fmt: skip
        return [spec]
