"""PostgreSQL for tests: a schema of its own per test, dropped after.

Tests reach the server at 127.0.0.1:5432 (or ``GAMEHALL_TEST_POSTGRES``); without one they
skip, saying why, unless ``GAMEHALL_REQUIRE_POSTGRES=1`` (set by ``.ci/run``) makes that a
failure.
"""

from __future__ import annotations

import os
import re
import secrets
from collections.abc import Iterator
from urllib.parse import parse_qs, urlsplit

import pytest

BASE_URL = os.environ.get("GAMEHALL_TEST_POSTGRES", "postgresql://postgres@127.0.0.1:5432/test")


def reachable() -> str | None:
    """Return why PostgreSQL cannot be used for tests, or ``None`` when it can."""
    try:
        import psycopg
    except ImportError:
        return "psycopg is not installed (pip install -e '.[test]')"
    try:
        psycopg.connect(BASE_URL, connect_timeout=3).close()
    except psycopg.Error as exc:
        return f"no PostgreSQL answers at {BASE_URL}: {str(exc).splitlines()[0]}"
    return None


_REASON: list[str | None] = []


def need_postgres() -> None:
    """Skip (or fail, under GAMEHALL_REQUIRE_POSTGRES=1) when PostgreSQL is not there."""
    if not _REASON:
        _REASON.append(reachable())
    reason = _REASON[0]
    if reason is None:
        return
    if os.environ.get("GAMEHALL_REQUIRE_POSTGRES") == "1":
        pytest.fail(f"PostgreSQL is required here: {reason}")
    pytest.skip(reason)


def schema_url(schema: str) -> str:
    """Return the test database's URL for a schema."""
    return f"{BASE_URL}?schema={schema}"


def drop_schema(schema: str) -> None:
    """Remove a test schema and everything in it."""
    import psycopg

    with psycopg.connect(BASE_URL, autocommit=True) as conn:
        conn.execute(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE')


@pytest.fixture
def pg_url() -> Iterator[str]:
    """Yield the URL of a fresh schema on the test server; drop the schema after."""
    need_postgres()
    schema = f"test_{secrets.token_hex(6)}"
    try:
        yield schema_url(schema)
    finally:
        drop_schema(schema)


# The tables a stream's rows live in, as a distributed PostgreSQL would spread them by stream
# id: those of the store's own DDL with a ``stream`` column.
_CREATE = re.compile(r"CREATE TABLE IF NOT EXISTS (\w+) \(([^;]*?)\n\);")


def per_stream_tables() -> dict[str, str]:
    """Return the store's ``CREATE TABLE`` statement of each table keyed by stream id."""
    from gamehall.core.store.postgres import TABLES

    return {
        name: statement.group(0)
        for statement in _CREATE.finditer(TABLES)
        if re.search(r"^\s+stream\s", statement.group(2), re.M)
        for name in [statement.group(1)]
    }


def partition_by_stream(url: str, partitions: int = 4) -> list[str]:
    """Create the store's per-stream tables in the URL's schema partitioned by a hash of the
    stream id, before the store first opens it; return their names.

    The store's own DDL, with ``PARTITION BY HASH (stream)`` and ``partitions`` partitions
    each. Everything else is the store's migration, which finds ``events`` partitioned and
    makes ``events_position`` a plain index (hash partitioning forbids a unique index without
    the stream id; positions are unique by the sequence that gives them).
    """
    import psycopg

    schema = parse_qs(urlsplit(url).query)["schema"][0]
    tables = per_stream_tables()
    with psycopg.connect(BASE_URL, autocommit=True) as conn:
        conn.execute(f'CREATE SCHEMA "{schema}"')
        conn.execute(f'SET search_path = "{schema}"')
        for name, statement in tables.items():
            conn.execute(statement[:-1] + " PARTITION BY HASH (stream);")
            for part in range(partitions):
                conn.execute(
                    f"CREATE TABLE {name}_{part} PARTITION OF {name} "
                    f"FOR VALUES WITH (MODULUS {partitions}, REMAINDER {part})"
                )
    return list(tables)
