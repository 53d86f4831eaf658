"""The PostgreSQL store's reader connections: a pool with limits from the URL, a clear refusal
when it runs out, and a close that is safe while readers are inside statements."""

from __future__ import annotations

import threading
import time

import pytest
from gamehall.core import Registry
from gamehall.core.errors import StoreBusy, StoreClosed, StoreFailed
from gamehall.core.store.url import BadStoreURL, parse_store_url
from gamehall.plugins.tictactoe.events import MarkPlaced


def test_pool_limits_come_from_the_url() -> None:
    url = parse_store_url("postgresql://u@h/d?schema=s&pool_max=3&pool_timeout=0.25&sslmode=off")
    assert (url.pool_max, url.pool_timeout, url.schema) == (3, 0.25, "s")
    assert "pool" not in url.conninfo and "sslmode=off" in url.conninfo  # libpq never sees them
    default = parse_store_url("postgresql://u@h/d")
    assert (default.pool_max, default.pool_timeout) == (10, 5.0)


@pytest.mark.parametrize(
    ("query", "said"),
    [
        ("pool_max=0", "pool_max='0' must be a whole number of connections from 1 to 1000"),
        ("pool_max=many", "pool_max='many' must be a whole number"),
        ("pool_max=2.5", "pool_max='2.5' must be a whole number"),
        ("pool_max=1001", "from 1 to 1000"),
        ("pool_timeout=0", "pool_timeout='0' must be a number of seconds above 0"),
        ("pool_timeout=-1", "above 0, at most 600"),
        ("pool_timeout=nan", "pool_timeout='nan'"),
        ("pool_timeout=soon", "pool_timeout='soon'"),
        ("pool_timeout=", "pool_timeout=''"),
    ],
)
def test_a_wrong_pool_limit_names_the_problem(query: str, said: str) -> None:
    with pytest.raises(BadStoreURL, match=said.replace("(", r"\(").replace(")", r"\)")):
        parse_store_url(f"postgresql://u@h/d?{query}")


def _hold(store: object, seconds: float) -> tuple[threading.Thread, threading.Event]:
    """Have a thread hold one reader connection inside a statement for ``seconds``."""
    inside = threading.Event()
    errors: list[BaseException] = []

    def hold() -> None:
        try:
            with store.reading() as conn:  # type: ignore[attr-defined]
                inside.set()
                conn.execute("SELECT pg_sleep(%s)", (seconds,))
        except Exception as exc:  # noqa: BLE001 - the test may close the store under it
            errors.append(exc)
            inside.set()

    thread = threading.Thread(target=hold)
    thread.start()
    assert inside.wait(10)
    time.sleep(0.1)  # inside the statement
    return thread, inside


def test_an_exhausted_pool_refuses_a_read_after_its_timeout(
    pg_url: str, registry: Registry
) -> None:
    from gamehall.core.store.postgres import PostgresStore

    store = PostgresStore(f"{pg_url}&pool_max=1&pool_timeout=0.3", registry.codec)
    try:
        store.append("a", 0, [MarkPlaced(seat=0, cell=4)])
        thread, _ = _hold(store, 2.0)
        began = time.monotonic()
        with pytest.raises(StoreBusy, match=r"every reader connection .* \(1, pool_max\) was in"):
            store.version("a")
        waited = time.monotonic() - began
        assert 0.25 <= waited < 1.5, waited  # waited for the timeout, not for the statement
        assert isinstance(StoreBusy("x"), StoreFailed)  # answered as every store failure is
        thread.join(10)
        assert store.version("a") == 1  # the connection came back: reads go on
        assert store.append("a", 1, [MarkPlaced(seat=1, cell=0)])  # the writer is its own
    finally:
        store.close()


def test_a_read_waits_for_a_connection_that_comes_free_within_the_timeout(
    pg_url: str, registry: Registry
) -> None:
    from gamehall.core.store.postgres import PostgresStore

    store = PostgresStore(f"{pg_url}&pool_max=1&pool_timeout=5", registry.codec)
    try:
        store.append("a", 0, [MarkPlaced(seat=0, cell=4)])
        thread, _ = _hold(store, 0.5)
        began = time.monotonic()
        assert store.version("a") == 1
        assert 0.2 < time.monotonic() - began < 4
        thread.join(10)
    finally:
        store.close()


def test_readers_use_at_most_pool_max_connections(pg_url: str, registry: Registry) -> None:
    from gamehall.core.store.postgres import PostgresStore

    store = PostgresStore(f"{pg_url}&pool_max=2&pool_timeout=10", registry.codec)
    try:
        store.append("a", 0, [MarkPlaced(seat=0, cell=4)])
        barrier = threading.Barrier(8)
        seen: list[int] = []

        def read() -> None:
            barrier.wait()
            for _ in range(20):
                with store.reading() as conn:
                    seen.append(conn.info.backend_pid)
                    conn.execute("SELECT pg_sleep(0.002)")

        threads = [threading.Thread(target=read) for _ in range(8)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(30)
        assert len(seen) == 160
        assert 1 <= len(set(seen)) <= 2
    finally:
        store.close()


def test_closing_the_store_cancels_a_pooled_read_and_fails_those_waiting(
    pg_url: str, registry: Registry
) -> None:
    from gamehall.core.store.postgres import PostgresStore

    store = PostgresStore(f"{pg_url}&pool_max=1&pool_timeout=10", registry.codec)
    store.append("a", 0, [MarkPlaced(seat=0, cell=4)])
    thread, _ = _hold(store, 20)
    waiting: list[BaseException] = []

    def wait_for_one() -> None:
        try:
            store.version("a")
        except Exception as exc:  # noqa: BLE001 - asserted below
            waiting.append(exc)

    waiter = threading.Thread(target=wait_for_one)
    waiter.start()
    time.sleep(0.2)
    began = time.monotonic()
    store.close()
    thread.join(10)
    waiter.join(10)
    assert not thread.is_alive() and not waiter.is_alive()
    assert time.monotonic() - began < 5
    assert len(waiting) == 1 and isinstance(waiting[0], StoreClosed), waiting
    with pytest.raises(StoreClosed):
        store.version("a")
