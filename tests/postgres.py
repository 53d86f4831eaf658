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


class Link:
    """A TCP relay to the test server that a test can cut: a node connected through it loses
    its connections (their backends are ended with ``pg_terminate_backend``) and can open no
    new one until the link is mended."""

    def __init__(self) -> None:
        import socket
        import threading

        upstream = urlsplit(BASE_URL)
        self.upstream = (upstream.hostname or "127.0.0.1", upstream.port or 5432)
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = self.listener.getsockname()[1]
        self.down = False
        self.ports: set[int] = set()  # the relay's own ports towards the server
        self.lock = threading.Lock()
        threading.Thread(target=self._accept, daemon=True).start()

    def url(self, url: str) -> str:
        """Return ``url`` going through the link."""
        parts = urlsplit(url)
        netloc = parts.netloc.rpartition("@")[0] + "@" if "@" in parts.netloc else ""
        return parts._replace(netloc=f"{netloc}127.0.0.1:{self.port}").geturl()

    def _accept(self) -> None:
        import socket
        import threading

        while True:
            try:
                client, _ = self.listener.accept()
            except OSError:
                return
            if self.down:
                client.close()
                continue
            server = socket.create_connection(self.upstream)
            with self.lock:
                self.ports.add(server.getsockname()[1])
            for a, b in ((client, server), (server, client)):
                threading.Thread(target=self._pump, args=(a, b), daemon=True).start()

    @staticmethod
    def _pump(source: object, sink: object) -> None:
        import socket

        assert isinstance(source, socket.socket) and isinstance(sink, socket.socket)
        try:
            while data := source.recv(65536):
                sink.sendall(data)
        except OSError:
            pass
        for end in (source, sink):  # the other direction's thread finds them closed
            try:
                end.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
            end.close()

    def cut(self) -> int:
        """End the backends of every connection made through the link and refuse new ones;
        return how many were ended."""
        import psycopg

        self.down = True
        with self.lock:
            ports = sorted(self.ports)
        with psycopg.connect(BASE_URL, autocommit=True) as conn:
            ended = conn.execute(
                "SELECT count(*) FILTER (WHERE pg_terminate_backend(pid)) FROM pg_stat_activity "
                "WHERE client_port = ANY(%s) AND pid <> pg_backend_pid()",
                (ports,),
            ).fetchone()
        return int(ended[0]) if ended else 0

    def mend(self) -> None:
        """Let connections through again."""
        self.down = False

    def close(self) -> None:
        """Stop relaying."""
        self.listener.close()
