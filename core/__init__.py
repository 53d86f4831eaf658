"""gamehall's engine: events, codec, rules protocol, hooks, actors, hall, stores and replay."""

from .bots import Bot, RandomBot
from .codec import Codec, Upcaster
from .errors import (
    ConcurrencyError,
    CorruptRecord,
    DuplicateMatch,
    GamehallError,
    IllegalCommand,
    InvalidCommand,
    InvalidOptions,
    MatchFailed,
    MatchOver,
    NotAwaited,
    PluginError,
    UnknownEventType,
    UnknownGame,
    UnknownMatch,
)
from .events import Command, Event, ExpansionRef, MatchStarted, Meta, Recorded, namespaced
from .hookspecs import hookimpl, hookspec
from .registry import Registry, Ruleset, default_registry
from .rules import (
    Context,
    Decision,
    ExpansionSpec,
    GameSpec,
    Invariant,
    MatchConfig,
    Outcome,
    Rules,
)
from .table import Table

__all__ = [
    "Bot",
    "Codec",
    "Command",
    "ConcurrencyError",
    "Context",
    "CorruptRecord",
    "Decision",
    "DuplicateMatch",
    "Event",
    "ExpansionRef",
    "ExpansionSpec",
    "GameSpec",
    "GamehallError",
    "IllegalCommand",
    "InvalidCommand",
    "InvalidOptions",
    "Invariant",
    "MatchConfig",
    "MatchFailed",
    "MatchOver",
    "MatchStarted",
    "Meta",
    "NotAwaited",
    "Outcome",
    "PluginError",
    "RandomBot",
    "Recorded",
    "Registry",
    "Rules",
    "Ruleset",
    "Table",
    "UnknownEventType",
    "UnknownGame",
    "UnknownMatch",
    "Upcaster",
    "default_registry",
    "hookimpl",
    "hookspec",
    "namespaced",
]
