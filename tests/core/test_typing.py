"""The whole package (engine, plugins and adapters) is ``mypy --strict`` clean."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def test_package_is_mypy_strict_clean(tmp_path: Path) -> None:
    pytest.importorskip("mypy", reason="mypy comes with the test extras (make test installs it)")
    # mypy needs the installed layout: gamehall/core, gamehall/plugins, gamehall/adapters.
    package = tmp_path / "gamehall"
    package.mkdir()
    for folder in ("core", "plugins", "adapters"):
        (package / folder).symlink_to(ROOT / folder, target_is_directory=True)
    cache = tmp_path / "cache"
    done = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--cache-dir", str(cache), "-p", "gamehall"],
        cwd=tmp_path, capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    shutil.rmtree(cache, ignore_errors=True)
    assert done.returncode == 0, done.stdout + done.stderr
