"""docs/architecture.md's tree names every module and package of the core and every adapter,
and names nothing that is not there."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def tree() -> str:
    text = (ROOT / "docs" / "architecture.md").read_text()
    return text.split("## The tree", 1)[1].split("```", 2)[1]


def test_the_tree_names_every_module_of_the_core() -> None:
    block = tree()
    named = set(re.findall(r"(\w+\.py)", block)) | set(re.findall(r"(\w+)/", block))
    core = ROOT / "core"
    modules = {p.name for p in core.glob("*.py") if p.name != "__init__.py"}
    packages = {p.name for p in core.iterdir() if (p / "__init__.py").exists()}
    kernel = {p.name for p in (core / "kernel").glob("*.py") if p.name != "__init__.py"}
    assert not modules - named, f"core modules missing from the tree: {sorted(modules - named)}"
    assert not packages - named, f"core packages missing from the tree: {sorted(packages - named)}"
    assert not kernel - named, f"kernel modules missing from the tree: {sorted(kernel - named)}"


def test_the_tree_names_nothing_that_is_gone() -> None:
    block = tree()
    present = {p.name for p in (ROOT / "core").rglob("*.py")}
    stale = [name for name in re.findall(r"(\w+\.py)", block) if name not in present]
    assert not stale, f"the tree names modules that do not exist: {stale}"


def test_the_tree_names_every_adapter() -> None:
    line = next(line for line in tree().splitlines() if line.startswith("adapters/"))
    adapters = {p.name for p in (ROOT / "adapters").iterdir() if (p / "__init__.py").exists()}
    missing = [name for name in adapters if not re.search(rf"\b{name}\b", line)]
    assert not missing, f"adapters missing from the tree: {missing}"
