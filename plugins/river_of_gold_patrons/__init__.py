"""River of Gold's Clan Patrons: an expansion that only implements the base game's hooks.

It uses nothing of River of Gold but its public API (``gamehall.plugins.river_of_gold.api``),
as an outside author's expansion would: events, commands, components, its own typed state,
the hooks and the words each have their module.
"""

from __future__ import annotations

from gamehall.core import ExpansionSpec, hookimpl

from .commands import COMMANDS
from .components import ID, PatronOptions
from .draw import PatronDrawing
from .events import EVENTS
from .hooks import PatronHooks
from .words import PatronWords

EXPANSION = ExpansionSpec(
    id=ID,
    name="Clan Patrons",
    version="1.0.0",
    game="river-of-gold",
    options=PatronOptions,
    hookimpls=(PatronHooks(), PatronWords(), PatronDrawing()),
    test_options=({"setup": "draft"}, {"setup": "alternative"}),
    description="Each clan plays with a patron: a draft, or a random clan and one of its two.",
    rules_doc="docs/rules/river-of-gold.md",
)


@hookimpl
def gamehall_expansions() -> list[ExpansionSpec]:
    """Register the Clan Patrons expansion."""
    return [EXPANSION]


@hookimpl
def gamehall_event_types() -> list[type]:
    """Declare the patrons' events."""
    return list(EVENTS)


@hookimpl
def gamehall_command_types() -> list[type]:
    """Declare the patrons' commands."""
    return list(COMMANDS)
