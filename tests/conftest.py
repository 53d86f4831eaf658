"""Fixtures shared by the whole suite."""

from __future__ import annotations

import pytest

from gamehall.core import Registry, default_registry


@pytest.fixture(scope="session")
def registry() -> Registry:
    """Return the registry of every installed plugin."""
    return default_registry()


@pytest.fixture
def anyio_backend() -> str:
    """Run async tests on asyncio."""
    return "asyncio"
