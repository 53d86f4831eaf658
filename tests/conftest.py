"""Fixtures shared by the whole suite."""

from __future__ import annotations

from typing import Any

import pytest
from gamehall.core import Registry, default_registry

from tests import log_capture


@pytest.fixture(scope="session")
def registry() -> Registry:
    """Return the registry of every installed plugin."""
    return default_registry()


@pytest.fixture
def anyio_backend() -> str:
    """Run async tests on asyncio."""
    return "asyncio"


def pytest_configure(config: pytest.Config) -> None:
    """Keep every log line of the session, to search them for tokens at the end."""
    log_capture.start(config)


@pytest.hookimpl(optionalhook=True)
def pytest_configure_node(node: Any) -> None:
    """Give each xdist worker the folder of the session's log lines."""
    log_capture.share(node)


def pytest_sessionfinish(session: pytest.Session) -> None:
    """Fail the run if any log line holds a token the suite issued."""
    log_capture.finish(session)
