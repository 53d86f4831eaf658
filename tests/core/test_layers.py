"""The layering holds: ``lint-imports`` keeps every contract of ``.importlinter``.

The core imports no adapter and no game; the kernel (``gamehall.core.kernel``) imports no
feature and not the Hall; no circle joins the core's modules, type-checking imports included.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def test_the_import_contracts_are_kept() -> None:
    pytest.importorskip("importlinter", reason="import-linter comes with the test extras")
    lint = Path(sys.executable).with_name("lint-imports")
    done = subprocess.run(
        [str(lint), "--no-cache", "--no-logo", str(ROOT / ".importlinter")],
        cwd=ROOT, capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert done.returncode == 0, done.stdout[-8000:] + done.stderr[-2000:]
    assert "0 broken" in done.stdout, done.stdout[-8000:]


def test_the_contracts_name_the_kernel_and_count_annotations() -> None:
    text = (ROOT / ".importlinter").read_text()
    assert "exclude_type_checking_imports = False" in text
    for contract in ("gamehall.core.kernel", "acyclic_siblings", "gamehall.adapters"):
        assert contract in text
