"""The garbage collector policy a server applies: parsed from words, applied, overridable."""

from __future__ import annotations

import gc
import subprocess
import sys
from collections.abc import Iterator
from functools import partial
from pathlib import Path

import pytest
from gamehall.core.runtime import (
    PYTHON_THRESHOLDS,
    SERVER_THRESHOLDS,
    apply_gc_policy,
    gc_policy_from_env,
    loop_options,
    parse_gc_policy,
)


@pytest.fixture
def restored_gc() -> Iterator[None]:
    before = gc.get_threshold()
    try:
        yield
    finally:
        gc.unfreeze()
        gc.set_threshold(*before)


def test_server_is_the_default_and_freezes_start_up() -> None:
    policy = parse_gc_policy(None)
    assert (policy.name, policy.thresholds, policy.freeze) == ("server", SERVER_THRESHOLDS, True)
    assert parse_gc_policy("python").thresholds == PYTHON_THRESHOLDS
    assert not parse_gc_policy("python").freeze


def test_thresholds_in_numbers_keep_the_others() -> None:
    policy = parse_gc_policy("20000")
    assert policy.thresholds == (20000, *gc.get_threshold()[1:]) and policy.freeze
    assert parse_gc_policy(" 1000,5,5 ").thresholds == (1000, 5, 5)


@pytest.mark.parametrize("text", ["fast", "1,2,3,4", "0", "-5", "1e4", ""])
def test_a_bad_policy_is_refused_by_name(text: str) -> None:
    if text == "":
        assert parse_gc_policy(text).name == "server"  # empty means the default
        return
    with pytest.raises(ValueError, match="garbage collector"):
        parse_gc_policy(text)


def test_the_environment_overrides_the_default_and_an_option_overrides_both(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("GAMEHALL_GC", "python")
    assert gc_policy_from_env(None).name == "python"
    assert gc_policy_from_env("server").name == "server"


def test_applying_sets_thresholds_and_freezes(restored_gc: None) -> None:
    kept = [object() for _ in range(10)]
    apply_gc_policy(parse_gc_policy("server"))
    assert gc.get_threshold() == SERVER_THRESHOLDS
    assert gc.get_freeze_count() >= len(kept)
    gc.unfreeze()
    apply_gc_policy(parse_gc_policy("python"))
    assert gc.get_threshold() == PYTHON_THRESHOLDS and gc.get_freeze_count() == 0


def test_serve_refuses_a_bad_policy_in_words() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "gamehall.adapters.cli", "serve", "--port", "0", "--gc", "fast"],
        capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert done.returncode != 0
    assert "garbage collector policy 'fast'" in done.stderr and "Traceback" not in done.stderr


def test_the_event_loop_is_asyncio_unless_uvloop_is_asked_for(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delenv("GAMEHALL_LOOP", raising=False)
    assert loop_options(None) == {"backend": "asyncio"}
    with pytest.raises(ValueError, match="event loop 'tokio' is not one of asyncio, uvloop"):
        loop_options("tokio")
    try:
        import uvloop  # noqa: F401
    except ImportError:
        with pytest.raises(ValueError, match="uvloop extra"):
            loop_options("uvloop")
    else:
        monkeypatch.setenv("GAMEHALL_LOOP", "uvloop")
        assert loop_options(None)["backend_options"] == {"use_uvloop": True}


def test_memory_is_given_back_once_many_matches_have_rested() -> None:
    import anyio
    from gamehall.core.runtime import give_back_rested_memory, malloc_trim

    active = [5_000]
    trims: list[int] = []
    compacted: list[int] = []
    seen: list[int] = []

    async def go() -> None:
        async with anyio.create_task_group() as tg:
            tg.start_soon(
                partial(
                    give_back_rested_memory, lambda: active[0], 0.001, 1_000, trims.append,
                    lambda: compacted.append(len(trims)),
                    collect=lambda: compacted.append(-1),
                )
            )  # fmt: skip
            for count in (5_500, 4_800, 4_600, 4_700, 3_000, 3_000, 9_000, 7_999):
                active[0] = count
                await anyio.sleep(0.02)
                seen.append(len(trims))
            tg.cancel_scope.cancel()

    anyio.run(go)
    # peak 5,500: 4,600 is not 1,000 below it, 3,000 is; then peak 9,000: 7,999 is
    assert seen == [0, 0, 0, 0, 1, 1, 1, 2] and trims == [0, 0]
    assert compacted == [-1, 0, -1, 1]  # collected and compacted before each trim
    if sys.platform == "linux":
        assert malloc_trim() is not None


def test_the_store_releases_its_caches_before_the_trim_and_a_failure_stops_nothing() -> None:
    import anyio
    from gamehall.core.runtime import give_back_rested_memory

    active = [5_000]
    order: list[str] = []

    def release() -> None:
        order.append("release")
        if order.count("release") == 1:
            raise OSError("the store is closing")

    async def go() -> None:
        async with anyio.create_task_group() as tg:
            tg.start_soon(
                partial(
                    give_back_rested_memory, lambda: active[0], 0.001, 1_000,
                    lambda _: order.append("trim"), release=release,
                    collect=lambda: order.append("collect"),
                )
            )  # fmt: skip
            for count in (5_000, 3_000, 3_000, 9_000, 9_000, 7_000, 7_000):
                active[0] = count
                await anyio.sleep(0.1)
            tg.cancel_scope.cancel()

    anyio.run(go)
    assert order == ["collect", "release", "trim", "collect", "release", "trim"]


def test_an_sqlite_store_gives_back_its_writer_cache(tmp_path: Path) -> None:
    import ctypes

    from gamehall.core import Meta, default_registry
    from gamehall.core.store import AppendRequest, SQLiteStore

    try:
        lib = ctypes.CDLL("libsqlite3.so.0")
    except OSError:
        pytest.skip("SQLite's own library is not at hand to ask its memory")
    lib.sqlite3_memory_used.restype = ctypes.c_int64
    registry = default_registry()
    ruleset = registry.ruleset("tictactoe")
    started = ruleset.started(None, None, None, 1)
    store = SQLiteStore(tmp_path / "cache.db", registry.codec, synchronous="OFF")
    try:
        before = lib.sqlite3_memory_used()
        for part in range(10):  # about 6 MB of pages, all through the writer's cache
            store.append_many(
                [
                    AppendRequest(f"m{part}-{i}", 0, [started], [Meta(versions=ruleset.versions)])
                    for i in range(2_000)
                ]
            )
        filled = lib.sqlite3_memory_used()
        store.release_memory()
        released = lib.sqlite3_memory_used()
    finally:
        store.close()
    assert filled - before > 2_000_000, (before, filled)
    assert released - before < (filled - before) / 4, (before, filled, released)
