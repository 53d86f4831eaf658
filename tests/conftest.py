"""Fixtures shared by the whole suite."""

from __future__ import annotations

import pytest

from gamehall.core import Registry
from gamehall.core.registry import builtin_registry

from tests.outside import OutsideEnv


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
