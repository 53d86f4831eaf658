"""The suite passes with an outside plugin package installed beside gamehall, and that package
(a game, an expansion of it with options, a Toy Battle expansion) passes its own suite:
gamehall's conformance suite, its golden replays, its rules document and the game contract."""

from __future__ import annotations

import pytest

from tests.outside import ROOT, OutsideEnv

# The longest tests of the long run: they start first (each worker builds its own venv for
# them, a session fixture, in about half a minute).
pytestmark = pytest.mark.early


@pytest.mark.long
def test_the_host_suite_passes_with_an_outside_plugin_installed(outside_env: OutsideEnv) -> None:
    listed = outside_env.run("-m", "gamehall.adapters.cli", "games").stdout
    assert "outside-nim" in listed and "outside-titans" in listed  # both are loaded
    done = outside_env.run(
        "-m", "pytest", "-m", "not long", "-q", "-p", "no:cacheprovider", "-x", cwd=ROOT,
        check=False, timeout=1500,
    )  # fmt: skip
    assert done.returncode == 0, done.stdout[-8000:] + done.stderr[-3000:]


@pytest.mark.long
def test_the_outside_package_runs_its_own_suite_and_golden_replays(outside_env: OutsideEnv) -> None:
    package = outside_env.root / "outside_plugin"
    done = outside_env.run(
        "-m", "pytest", "-q", "-p", "no:cacheprovider", "tests", cwd=package, check=False,
        timeout=900,
    )  # fmt: skip
    assert done.returncode == 0, done.stdout[-6000:] + done.stderr[-3000:]
    assert " passed" in done.stdout and "failed" not in done.stdout
    own = ("--plugin", "outside-nim", "--plugin", "outside-nim-limit", "--plugin", "outside-titans")
    checked = outside_env.run("-m", "gamehall.core.golden", "--dir", "golden", *own, cwd=package)
    assert checked.returncode == 0 and not checked.stderr
