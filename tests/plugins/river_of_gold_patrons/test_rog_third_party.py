"""An outside author's expansion, installed through the ``gamehall`` entry-point group."""

from __future__ import annotations

import importlib
import sys
import textwrap
from pathlib import Path

import pytest
from gamehall.core import Registry, Table
from gamehall.plugins.river_of_gold.commands import Sail, TakeKoku

from tests.plugins.river_of_gold.rog_helpers import build_on, clean, player

MODULE = "rog_deep_coffers"
PLUGIN = '''
"""A tiny third-party River of Gold expansion: clans may hold 40 koku instead of 25."""

from gamehall.core import ExpansionSpec, hookimpl
from gamehall.plugins.river_of_gold.hooks import Caps

EXPANSION = ExpansionSpec(id="deep-coffers", name="Deep Coffers", version="0.1.0", game="river-of-gold")


@hookimpl
def gamehall_expansions():
    return [EXPANSION]


@hookimpl
def river_of_gold_caps(state, seat):
    return Caps(koku=40, goods=6, favour_cap=6)
'''


@pytest.fixture
def outside_registry(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Registry:
    """Install the plugin as a distribution on sys.path and load every entry point."""
    (tmp_path / f"{MODULE}.py").write_text(textwrap.dedent(PLUGIN))
    info = tmp_path / f"{MODULE}-0.1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text(
        "Metadata-Version: 2.1\nName: rog-deep-coffers\nVersion: 0.1.0\n"
    )
    (info / "entry_points.txt").write_text(f"[gamehall]\ndeep-coffers = {MODULE}\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    importlib.invalidate_caches()
    yield Registry()
    sys.modules.pop(MODULE, None)


def rich_sail(registry: Registry, expansions: tuple[str, ...]) -> int:
    """Sail from 24 koku past the end of the river; return the koku held after."""
    t = clean(Table.new("river-of-gold", 2, expansions=expansions, seed=2, registry=registry))
    build_on(t, 1, "bldg-41")
    player(t, 0, die=1, ships=(14, 9), koku=24)
    t.send(0, Sail(ship=0))  # 3 koku + 3 empty spaces, then 3 koku for the journey
    t.send(0, TakeKoku())
    return t.state.players[0].koku


def test_outside_expansion_changes_one_rule(outside_registry: Registry) -> None:
    assert "deep-coffers" in outside_registry.expansions
    assert rich_sail(outside_registry, ("deep-coffers",)) == 24 + 3 + 3 + 3
    assert rich_sail(outside_registry, ()) == 25
