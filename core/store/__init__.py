"""Event stores side by side: the port in ``base``, backends in ``memory``, ``sqlite`` and
``postgres`` (with the ``postgres`` extra; opened by URL through ``url``)."""

from .base import (
    AppendRequest,
    MatchPage,
    MatchQuery,
    PlayerRecord,
    Snapshot,
    Store,
    StreamInfo,
)
from .memory import MemoryStore
from .sqlite import SQLiteStore

__all__ = [
    "AppendRequest",
    "MatchPage",
    "MatchQuery",
    "MemoryStore",
    "PlayerRecord",
    "SQLiteStore",
    "Snapshot",
    "Store",
    "StreamInfo",
]
