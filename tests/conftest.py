"""Fixtures shared by the whole suite."""

from __future__ import annotations

from typing import Any

import pytest
from gamehall.core import Registry
from gamehall.core.registry import builtin_registry

from tests import log_capture
from tests.outside import OutsideEnv
from tests.postgres import pg_url  # noqa: F401 - a fixture for every test module

# The outside package's own suite runs in its own venv (tests/core/test_outside_plugins.py).
collect_ignore = ["outside_plugin"]


@pytest.fixture(scope="session")
def registry() -> Registry:
    """Return the registry of gamehall's own plugins (whatever else is installed beside it)."""
    return builtin_registry()


@pytest.fixture
def anyio_backend() -> str:
    """Run async tests on asyncio."""
    return "asyncio"


@pytest.fixture(scope="session")
def outside_env(tmp_path_factory: pytest.TempPathFactory) -> OutsideEnv:
    """Return a fresh venv with gamehall and the outside plugin package of tests/ installed."""
    return OutsideEnv.build(tmp_path_factory.mktemp("outside"))


def pytest_configure(config: pytest.Config) -> None:
    """Keep every log line of the session, to search them for tokens at the end."""
    log_capture.start(config)


@pytest.hookimpl(optionalhook=True)
def pytest_configure_node(node: Any) -> None:
    """Give each xdist worker the folder of the session's log lines."""
    log_capture.share(node)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Run the tests marked ``early`` first (the longest of the long run)."""
    items.sort(key=lambda item: item.get_closest_marker("early") is None)


def pytest_sessionfinish(session: pytest.Session) -> None:
    """Fail the run if any log line holds a token the suite issued."""
    log_capture.finish(session)
