"""The stable surface for services that embed gamehall: a hall, its answers and its stores.

``from gamehall.core.embed import Hall, SQLiteStore`` is all the README's embedding example
needs. Every name here is stable in the sense of docs/api.md: it changes only with a
deprecation in CHANGELOG.md and a release of warnings first. Everything a plugin author uses
is in :mod:`gamehall.core`, re-exported here only where an embedder needs it too.
"""

from __future__ import annotations

from .clock import ClockView
from .errors import (
    ConcurrencyError,
    DuplicateMatch,
    GamehallError,
    IllegalCommand,
    InvalidCommand,
    MatchOver,
    MatchQuarantined,
    NotAwaited,
    StoreFailed,
    UnknownGame,
    UnknownMatch,
)
from .events import Command, Event, MatchStarted, Recorded
from .hall import Hall, MatchInfo, SeatView, Turn
from .kernel.actor import Ack
from .lobby import Forbidden, LobbyEntry, LobbyPage, Player, SeatEntry, Spectator
from .registry import Registry, Ruleset, default_registry
from .seating import NoFreeSeat, SeatAlreadyTaken
from .store import MemoryStore, SQLiteStore, Store
from .store.opening import open_store_url
from .store.url import BadStoreURL
from .undo import UndoRefused, UndoStatus

__all__ = [
    "Ack",
    "BadStoreURL",
    "ClockView",
    "Command",
    "ConcurrencyError",
    "DuplicateMatch",
    "Event",
    "Forbidden",
    "GamehallError",
    "Hall",
    "IllegalCommand",
    "InvalidCommand",
    "LobbyEntry",
    "LobbyPage",
    "MatchInfo",
    "MatchOver",
    "MatchQuarantined",
    "MatchStarted",
    "MemoryStore",
    "NoFreeSeat",
    "NotAwaited",
    "Player",
    "Recorded",
    "Registry",
    "Ruleset",
    "SQLiteStore",
    "SeatAlreadyTaken",
    "SeatEntry",
    "SeatView",
    "Spectator",
    "Store",
    "StoreFailed",
    "Turn",
    "UndoRefused",
    "UndoStatus",
    "UnknownGame",
    "UnknownMatch",
    "default_registry",
    "open_store_url",
]
