"""The layering holds: ``lint-imports`` keeps every contract of ``.importlinter``.

The core imports no adapter and no game; the kernel (``gamehall.core.kernel``) imports no
feature and not the Hall; no circle joins the core's modules, type-checking imports included;
no game imports another. An expansion, built-in or outside, imports only its game's ``api``.
"""

from __future__ import annotations

import ast
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


def _games_and_expansions() -> tuple[set[str], set[str]]:
    """Return the built-in plugin packages that register a game, and those that do not."""
    from gamehall.core.registry import builtin_registry

    registry = builtin_registry()
    games = {spec.rules.__module__ for spec in registry.games.values()}
    packages = {p.name for p in (ROOT / "plugins").iterdir() if (p / "__init__.py").exists()}
    game_packages = {m.split(".")[2] for m in games}
    return game_packages, packages - game_packages


def test_every_game_is_in_the_independence_contract() -> None:
    games, _ = _games_and_expansions()
    text = (ROOT / ".importlinter").read_text()
    contract = text.split("[importlinter:contract:games-independent]", 1)[1]
    assert {f"gamehall.plugins.{game}" for game in games} <= set(contract.split())


def _plugin_imports(path: Path) -> set[str]:
    found: set[str] = set()
    for file in path.rglob("*.py") if path.is_dir() else [path]:
        for node in ast.walk(ast.parse(file.read_text())):
            if isinstance(node, ast.ImportFrom) and node.module:
                if node.module.startswith("gamehall.plugins"):
                    # ``from gamehall.plugins.toy_battle import api`` names the api module
                    found |= {
                        f"{node.module}.{a.name}" if node.module.count(".") == 2 else node.module
                        for a in node.names
                    }
            elif isinstance(node, ast.Import):
                found |= {a.name for a in node.names if a.name.startswith("gamehall.plugins")}
    return found


@pytest.mark.parametrize(
    "expansion",
    [
        "plugins/river_of_gold_patrons",
        "plugins/tictactoe_misere",
        "tests/outside_plugin",
        "tests/plugins/toy_battle/toy_battle_drummers.py",
        "tests/plugins/kaladan/frostmark.py",
    ],
)
def test_an_expansion_imports_only_its_games_api(expansion: str) -> None:
    # An expansion (and the outside examples) reaches its game through the game's api module
    # and gamehall.core only, so the game may change everything else.
    imported = _plugin_imports(ROOT / expansion)
    past_the_api = sorted(m for m in imported if not m.endswith(".api"))
    assert not past_the_api, f"{expansion} imports past its game's api: {past_the_api}"
