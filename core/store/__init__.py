"""Event stores side by side: the port in ``base`` (the small interfaces ``EventLog``,
``Snapshots``, ``LobbyReadModel``, ``Checks`` and ``Coordination``, together ``Store``), backends in ``memory``, ``sqlite`` and
``postgres`` (with the ``postgres`` extra; opened by URL through ``url``)."""

from .base import (
    AppendRequest,
    Checks,
    Coordination,
    Due,
    EventLog,
    LobbyReadModel,
    MatchPage,
    MatchQuery,
    PlayerRecord,
    Snapshot,
    Snapshots,
    Store,
    StreamInfo,
)
from .memory import MemoryStore
from .sqlite import SQLiteStore

__all__ = [
    "AppendRequest",
    "Checks",
    "Coordination",
    "Due",
    "EventLog",
    "LobbyReadModel",
    "MatchPage",
    "MatchQuery",
    "MemoryStore",
    "PlayerRecord",
    "SQLiteStore",
    "Snapshot",
    "Snapshots",
    "Store",
    "StreamInfo",
]
