"""River of Gold's Clan Patrons: an expansion that only implements the base game's hooks."""

from __future__ import annotations

from gamehall.core import ExpansionSpec, hookimpl

from .patrons import COMMANDS, EVENTS, ID, PatronOptions, Patrons
from .draw import PatronDrawing
from .words import PatronWords

EXPANSION = ExpansionSpec(
    id=ID,
    name="Clan Patrons",
    version="1.0.0",
    game="river-of-gold",
    options=PatronOptions,
    hookimpls=(Patrons(), PatronWords(), PatronDrawing()),
    test_options=({"setup": "draft"}, {"setup": "alternative"}),
    description="Each clan plays with a patron: a draft, or a random clan and one of its two.",
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
