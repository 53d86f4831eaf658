"""PostgreSQL for tests: a schema of its own per test, dropped after.

Tests reach the server at 127.0.0.1:5432 (or ``GAMEHALL_TEST_POSTGRES``); without one they
skip, saying why, unless ``GAMEHALL_REQUIRE_POSTGRES=1`` (set by ``.ci/run``) makes that a
failure.
"""

from __future__ import annotations

import os
import secrets
from collections.abc import Iterator

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
