"""docs/api.md lists the stable surface: every name there exists, and each module's
``__all__`` lists exactly the names the page gives it."""

from __future__ import annotations

import importlib
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PAGE = (ROOT / "docs" / "api.md").read_text()


def section(title: str) -> str:
    start = PAGE.index(f"## {title}")
    end = PAGE.find("\n## ", start + 1)
    return PAGE[start : end if end > 0 else None]


def tables(text: str) -> list[list[str]]:
    """Return the first column of every table of a section, one list per table."""
    found: list[list[str]] = []
    current: list[str] | None = None
    for line in text.splitlines():
        if line.startswith("|---"):
            continue
        if line.startswith("|"):
            cell = line.split("|")[1]
            if current is None:
                current = []  # the header row
                found.append(current)
            else:
                current.append(cell)
        else:
            current = None
    return found


def names(cells: list[str]) -> set[str]:
    return {name for cell in cells for name in re.findall(r"`([\w.]+)`", cell)}


@pytest.mark.parametrize(
    ("title", "module"),
    [("For plugin authors", "gamehall.core"), ("For embedders", "gamehall.core.embed")],
)
def test_each_modules_all_is_the_pages_list(title: str, module: str) -> None:
    listed = names(tables(section(title))[0])
    exported = set(importlib.import_module(module).__all__)
    assert listed == exported, (
        f"in {module} but not on the page: {sorted(exported - listed)}; "
        f"on the page but not in {module}: {sorted(listed - exported)}"
    )
    for name in exported:
        assert hasattr(importlib.import_module(module), name), name


def test_the_stable_modules_and_hall_methods_exist() -> None:
    from gamehall.core.embed import Hall

    for module in names(tables(section("For plugin authors"))[1]):
        importlib.import_module(module)
    methods = names(tables(section("For embedders"))[1])
    assert {"create", "send", "view", "lobby"} <= methods
    for method in methods - {"lobby"}:
        assert callable(getattr(Hall, method, None)) or isinstance(
            getattr(Hall, method, None), property
        ), f"Hall.{method} is on the page but not on Hall"


def test_the_readme_embeds_through_the_stable_module() -> None:
    readme = (ROOT / "README.md").read_text()
    example = readme[readme.index("## Embedding") :].split("```python", 1)[1].split("```", 1)[0]
    imports = re.findall(r"^from (gamehall\.[\w.]+) import", example, re.M)
    assert imports and set(imports) <= {"gamehall.core", "gamehall.core.embed"}
