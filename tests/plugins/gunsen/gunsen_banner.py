"""A small Gunsen expansion written only against ``gamehall.plugins.gunsen.api``.

It adds a neutral tactic, the Imperial Banner (1 koku): a clan that bought it fights with
two extra strength on any village space. The tactic goes into the deal of neutral tactics, and
its effect comes through the game's combat-symbols hook.
"""

from __future__ import annotations

from typing import Any

from gamehall.core import ExpansionSpec
from gamehall.plugins.gunsen.api import Symbols, Tactic, board_of, hookimpl

BANNER = Tactic(id="imperial-banner", name="Imperial Banner", cost=1)


class BannerHooks:
    """The expansion's answers to Gunsen's hooks."""

    @hookimpl
    def gunsen_neutral_tactics(self) -> list[Tactic]:
        return [BANNER]

    @hookimpl
    def gunsen_combat_symbols(self, state: Any, seat: int, space: int) -> Symbols | None:
        if BANNER.id in state.players[seat].tactics and board_of(state).kinds[space] == "village":
            return Symbols(strength=2)
        return None


class BannerPlugin:
    """Registers the expansion (a third-party package would use the entry-point group)."""

    @hookimpl
    def gamehall_expansions(self) -> list[ExpansionSpec]:
        return [ExpansionSpec("gunsen-banner", "Imperial Banner", "1.0.0", "gunsen",
                              hookimpls=(BannerHooks(),))]  # fmt: skip
