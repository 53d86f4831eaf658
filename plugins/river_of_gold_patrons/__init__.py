"""River of Gold's Clan Patrons: an expansion that only implements the base game's hooks.

It uses nothing of River of Gold but its public API (``gamehall.plugins.river_of_gold.api``),
as an outside author's expansion would: events, commands, components, its own typed state,
the hooks and the words each have their module.
"""

from __future__ import annotations

from gamehall.core import ExpansionSpec, hookimpl

from .commands import COMMANDS
from .components import ID, PatronOptions
from .events import EVENTS
from .hooks import PatronHooks
from .presentation import PatronPresentation
from .words import PatronWords

EXPANSION = ExpansionSpec(
    id=ID,
    name="Clan Patrons",
    version="1.0.0",
    game="river-of-gold",
    options=PatronOptions,
    events=EVENTS,
    commands=COMMANDS,
    presentation=PatronPresentation,
    hookimpls=(PatronHooks(), PatronWords()),
    test_options=({"setup": "draft"}, {"setup": "alternative"}),
    description="Each clan plays with a patron: a draft, or a random clan and one of its two.",
    rules_doc="docs/rules/river-of-gold.md",
)


@hookimpl
def gamehall_expansions() -> list[ExpansionSpec]:
    """Register the Clan Patrons expansion."""
    return [EXPANSION]
