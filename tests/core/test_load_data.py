"""``load_data`` reads a plugin package's ``data/<name>`` TOML file into a type."""

from __future__ import annotations

import importlib
import sys
from collections.abc import Iterator
from pathlib import Path

import msgspec
import pytest
from gamehall.core import load_data

PACKAGE = "load_data_sample_game"


class Card(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    id: str
    name: str
    cost: int = 0


class Box(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    cards: tuple[Card, ...]


@pytest.fixture
def package(tmp_path: Path) -> Iterator[str]:
    root = tmp_path / PACKAGE
    (root / "data").mkdir(parents=True)
    (root / "__init__.py").write_text("")
    (root / "cards.toml").write_text('[[cards]]\nid = "wrong"\nname = "not in data/"\n')
    (root / "data" / "cards.toml").write_text(
        '[[cards]]\nid = "a"\nname = "Ōkami"\ncost = 3\n\n[[cards]]\nid = "b"\nname = "Kitsune"\n',
        encoding="utf-8",
    )
    (root / "data" / "lax.toml").write_text('[[cards]]\nid = "c"\nname = "Tanuki"\ncost = "2"\n')
    sys.path.insert(0, str(tmp_path))
    importlib.invalidate_caches()
    try:
        yield PACKAGE
    finally:
        sys.path.remove(str(tmp_path))
        sys.modules.pop(PACKAGE, None)


def test_a_file_of_the_data_folder_decodes_into_a_struct(package: str) -> None:
    box = load_data(package, "cards.toml", Box)
    assert box == Box((Card("a", "Ōkami", 3), Card("b", "Kitsune")))


def test_a_file_decodes_into_any_type_msgspec_converts_to(package: str) -> None:
    tables = load_data(package, "cards.toml", dict[str, tuple[Card, ...]])
    assert [card.id for card in tables["cards"]] == ["a", "b"]


def test_strict_refuses_a_number_written_as_a_string_and_lax_converts_it(package: str) -> None:
    with pytest.raises(msgspec.ValidationError, match="cost"):
        load_data(package, "lax.toml", Box)
    assert load_data(package, "lax.toml", Box, strict=False).cards == (Card("c", "Tanuki", 2),)


def test_a_missing_file_raises(package: str) -> None:
    with pytest.raises(FileNotFoundError):
        load_data(package, "nowhere.toml", Box)
