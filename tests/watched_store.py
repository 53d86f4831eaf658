"""An SQLite store that notes every read made on the event loop's thread (for the tests that
prove the hall and its adapters read the store off the loop)."""

from __future__ import annotations

import threading
from typing import Any

from gamehall.core.store import SQLiteStore

READS = (
    "read", "read_events", "load_stream", "read_all", "stream_info", "player",
    "player_by_digest", "seat_tokens", "streams", "find_matches", "version", "command_ids",
    "load_snapshot",
)  # fmt: skip


class WatchedStore(SQLiteStore):
    """An SQLite store that notes every read made on the event loop's thread.

    ``loop_thread`` is the ident of the loop's thread (``None``: nothing is noted); each read
    made there is noted in ``on_loop`` by its method's name."""

    loop_thread: int | None = None

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.on_loop: list[str] = []

    def watch_this_thread(self) -> None:
        """Note from now on every read made on the calling thread (the event loop's)."""
        self.loop_thread = threading.get_ident()

    def __getattribute__(self, name: str) -> Any:
        found = super().__getattribute__(name)
        if name not in READS:
            return found

        def called(*args: Any, **kwargs: Any) -> Any:
            if threading.get_ident() == self.loop_thread:
                self.on_loop.append(name)
            return found(*args, **kwargs)

        return called
