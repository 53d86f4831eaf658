"""Nim with a take limit: an expansion with options, written only against Nim's API (NIM-3).

It reads its own options from what the game hands its hook: ``options`` maps each enabled
expansion's id to its typed options Struct (the defaults when the match gave none).
"""

from __future__ import annotations

from typing import Any

import msgspec
from gamehall.core import ExpansionSpec
from outside_nim.api import hookimpl

ID = "outside-nim-limit"


class LimitOptions(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """How many stones one take may hold at most."""

    most: int = 2


class Limit:
    """The expansion's answer to Nim's hook."""

    @hookimpl
    def outside_nim_take_limit(self, options: Any) -> int | None:
        """Cap a take at the option's number (NIM-3)."""
        chosen = options.get(ID, LimitOptions()) if isinstance(options, dict) else LimitOptions()
        return chosen.most


EXPANSION = ExpansionSpec(
    id=ID,
    name="Take limit (outside)",
    version="0.1.0",
    game="outside-nim",
    options=LimitOptions,
    hookimpls=(Limit(),),
    test_options=({}, {"most": 1}),
    description="A take holds at most a few stones (the option 'most', default 2).",
    rules_doc="docs/rules.md",
)


@hookimpl
def gamehall_expansions() -> list[ExpansionSpec]:
    """Register the expansion."""
    return [EXPANSION]
