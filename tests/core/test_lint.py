"""The whole tree is ``ruff check`` and ``ruff format --check`` clean (rules in pyproject.toml)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("command", [["check"], ["format", "--check"]], ids=" ".join)
def test_the_tree_is_ruff_clean(command: list[str]) -> None:
    pytest.importorskip("ruff", reason="ruff comes with the test extras (make test installs it)")
    done = subprocess.run(
        [sys.executable, "-m", "ruff", *command, "--no-cache", "."],
        cwd=ROOT, capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert done.returncode == 0, done.stdout[-6000:] + done.stderr[-2000:]
