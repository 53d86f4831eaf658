"""Store URLs: which backend a ``--db`` value names, and where.

``postgresql://user@host:port/database?schema=name`` (or ``postgres://``) is a PostgreSQL
store, optionally in its own schema, with ``pool_max`` (the reader connections a node may open,
10 by default) and ``pool_timeout`` (seconds a read waits for one of them, 5 by default);
``sqlite:///path`` and a bare path are SQLite files, as
``--db gamehall.db`` always was; ``memory:`` keeps events in the process only.
"""

from __future__ import annotations

import re
from urllib.parse import parse_qsl, unquote, urlencode, urlsplit, urlunsplit

import msgspec

from ..errors import GamehallError

SCHEMA_NAME = re.compile(r"^[a-z_][a-z0-9_]{0,62}$")
POSTGRES_SCHEMES = ("postgresql", "postgres")
POOL_MAX = 10  # reader connections of one node, at most
POOL_TIMEOUT = 5.0  # seconds a read waits for a reader connection before it is refused
POOL_MAX_LIMIT = 1000
POOL_TIMEOUT_LIMIT = 600.0


class BadStoreURL(GamehallError):
    """A ``--db`` value that names no store gamehall can open."""

    code = "bad_store_url"
    exit_code = 2


class StoreURL(msgspec.Struct, frozen=True):
    """A parsed store URL: the backend, and where its data lives."""

    backend: str  # "sqlite", "postgresql" or "memory"
    path: str = ""  # the SQLite file
    conninfo: str = ""  # the PostgreSQL connection URL, without gamehall's own parameters
    schema: str = "public"  # the PostgreSQL schema holding gamehall's tables
    pool_max: int = POOL_MAX  # the reader connections a node may hold at once
    pool_timeout: float = POOL_TIMEOUT  # seconds a read waits for one before it is refused

    def __str__(self) -> str:
        """Return the URL as it may be shown: without a password."""
        if self.backend == "sqlite":
            return self.path
        if self.backend == "memory":
            return "memory:"
        parts = urlsplit(self.conninfo)
        host = parts.hostname or ""
        netloc = (f"{parts.username}@" if parts.username else "") + host
        if parts.port:
            netloc += f":{parts.port}"
        query = "" if self.schema == "public" else f"?schema={self.schema}"
        return urlunsplit((parts.scheme, netloc, parts.path, "", "")) + query


def parse_store_url(text: str) -> StoreURL:
    """Read a ``--db`` value; raise :class:`BadStoreURL` naming what is wrong."""
    if not text:
        raise BadStoreURL("the store is empty: give a file path, sqlite:///PATH or postgresql://…")
    scheme, sep, rest = text.partition("://")
    if not sep or "/" in scheme or "\\" in scheme:
        if text == "memory:":
            return StoreURL("memory")
        return StoreURL("sqlite", path=text)  # a bare path, as --db always took
    scheme = scheme.lower()
    if scheme == "sqlite":
        path = unquote(rest[1:] if rest.startswith("/") else rest)
        if not path:
            raise BadStoreURL(f"{text!r} names no file: write sqlite:///PATH (three slashes)")
        return StoreURL("sqlite", path=path)
    if scheme in POSTGRES_SCHEMES:
        return _postgres(text)
    raise BadStoreURL(
        f"{text!r}: unknown store scheme {scheme!r} (use postgresql://…, sqlite:///PATH or a path)"
    )


def _postgres(text: str) -> StoreURL:
    try:
        parts = urlsplit(text)
        parts.port  # noqa: B018 - a port that is not a number raises here
    except ValueError as exc:
        raise BadStoreURL(f"{_hide_password(text)!r} is not a valid URL: {exc}") from None
    query = parse_qsl(parts.query, keep_blank_values=True)
    schema = "public"
    pool_max, pool_timeout = POOL_MAX, POOL_TIMEOUT
    kept = []
    for key, value in query:
        if key == "schema":
            schema = value
        elif key == "pool_max":
            pool_max = _pool_max(value)
        elif key == "pool_timeout":
            pool_timeout = _pool_timeout(value)
        else:
            kept.append((key, value))
    if not SCHEMA_NAME.fullmatch(schema):
        raise BadStoreURL(
            f"schema {schema!r} is not a plain PostgreSQL name (lower-case letters, digits, '_')"
        )
    conninfo = urlunsplit(("postgresql", parts.netloc, parts.path, urlencode(kept), ""))
    return StoreURL(
        "postgresql", conninfo=conninfo, schema=schema, pool_max=pool_max,
        pool_timeout=pool_timeout,
    )  # fmt: skip


def _pool_max(value: str) -> int:
    try:
        number = int(value)
    except ValueError:
        number = 0
    if not 1 <= number <= POOL_MAX_LIMIT:
        raise BadStoreURL(
            f"pool_max={value!r} must be a whole number of connections from 1 to {POOL_MAX_LIMIT}"
        )
    return number


def _pool_timeout(value: str) -> float:
    try:
        seconds = float(value)
    except ValueError:
        seconds = -1.0
    if not 0 < seconds <= POOL_TIMEOUT_LIMIT:  # also refuses nan
        raise BadStoreURL(
            f"pool_timeout={value!r} must be a number of seconds above 0, at most "
            f"{POOL_TIMEOUT_LIMIT:g}"
        )
    return seconds


def _hide_password(text: str) -> str:
    return re.sub(r"(://[^:/@]*:)[^@/]*@", r"\1***@", text)
