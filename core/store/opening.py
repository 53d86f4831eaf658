"""Open the store a ``--db`` value names: memory, a SQLite file or PostgreSQL."""

from __future__ import annotations

from ..codec import Codec
from .base import Store
from .url import BadStoreURL, parse_store_url


def open_store_url(text: str, codec: Codec) -> Store:
    """Open (or create) the store a ``--db`` value names."""
    url = parse_store_url(text)
    if url.backend == "memory":
        from .memory import MemoryStore

        return MemoryStore(codec)
    if url.backend == "sqlite":
        from .sqlite import SQLiteStore

        return SQLiteStore(url.path, codec)
    try:
        from .postgres import PostgresStore
    except ImportError:
        raise BadStoreURL(
            "a PostgreSQL store needs the driver: pip install 'gamehall[postgres]'"
        ) from None
    return PostgresStore(url, codec)
