"""The one log format: a header line, then one event line per recorded event.

Files (``gamehall export``, ``gamehall run``), the HTTP export (``GET /matches/{id}/log``),
the SSE stream's ``data`` and the stdio protocol's event objects are all this schema, and
``docs/events.md`` ("The log schema") defines it. Each change raises :data:`FORMAT_VERSION`;
every version in :data:`READABLE` is still read.
"""

from __future__ import annotations

from collections.abc import Sequence

import msgspec

from .codec import Codec
from .events import MatchStarted, Recorded

FORMAT = "gamehall-log"
FORMAT_VERSION = 4
READABLE = (1, 2, 3, 4)


class Header(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """The first line of a log: its format, its match, and whose view it holds.

    ``names`` (version 2) is optional: the players' names by seat, when an adapter knows them.
    """

    format: str
    version: int
    match: str
    seat: int | None = None
    game: str = ""
    expansions: list[str] = []
    events: int = 0
    names: list[str | None] | None = None


def header_for(
    match: str,
    seat: int | None,
    records: Sequence[Recorded],
    names: Sequence[str | None] | None = None,
) -> Header:
    """Return the header of a log of these records (with the players' names where known)."""
    started = records[0].event
    assert isinstance(started, MatchStarted)
    expansions = [e.id for e in started.expansions]
    shown = list(names) if names is not None and any(names) else None
    return Header(
        FORMAT, FORMAT_VERSION, match, seat, started.game, expansions, len(records), shown
    )


def encode_header(header: Header) -> bytes:
    """Return the header line (without the newline), leaving out optional fields not set."""
    fields = msgspec.to_builtins(header)
    if header.names is None:
        del fields["names"]
    line: bytes = msgspec.json.encode(fields)
    return line


def log_lines(codec: Codec, header: Header, records: Sequence[Recorded]) -> list[bytes]:
    """Return the lines of a whole log: the header, then one line per event."""
    return [encode_header(header), *(codec.record_to_json(r) for r in records)]


def version_refusal(version: int) -> str | None:
    """Return why a log of ``version`` cannot be read, or ``None`` when it can."""
    if version in READABLE:
        return None
    if version > FORMAT_VERSION:
        return (
            f"{FORMAT} version {version} is newer than this gamehall reads "
            f"(versions {READABLE[0]} to {READABLE[-1]}): install a newer gamehall"
        )
    known = f"{READABLE[0]} to {READABLE[-1]}"
    return f"{FORMAT} version {version} is unknown (this gamehall reads {known})"
