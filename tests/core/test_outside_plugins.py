"""The suite passes with an outside plugin package installed beside gamehall."""

from __future__ import annotations

import pytest

from tests.outside import ROOT, OutsideEnv


@pytest.mark.long
def test_the_host_suite_passes_with_an_outside_plugin_installed(outside_env: OutsideEnv) -> None:
    listed = outside_env.run("-m", "gamehall.adapters.cli", "games").stdout
    assert "outside-nim" in listed and "outside-titans" in listed  # both are loaded
    done = outside_env.run(
        "-m", "pytest", "-m", "not long", "-q", "-p", "no:cacheprovider", "-x", cwd=ROOT,
        check=False, timeout=1500,
    )  # fmt: skip
    assert done.returncode == 0, done.stdout[-8000:] + done.stderr[-3000:]
