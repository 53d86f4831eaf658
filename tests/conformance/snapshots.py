"""Rewrite the terminal snapshots of tests/conformance/test_words.py: ``python -m
tests.conformance.snapshots`` (one person's first turn and a bot's answer, per built-in game)."""

from __future__ import annotations

import tempfile
from pathlib import Path

from gamehall.core.registry import builtin_registry

from tests.conformance.test_words import SNAPSHOTS, screen_of


def main() -> None:
    """Write one snapshot per built-in game."""
    SNAPSHOTS.mkdir(parents=True, exist_ok=True)
    for game in sorted(builtin_registry().games):
        with tempfile.TemporaryDirectory() as folder:
            text = screen_of(game, Path(folder) / "s.db")
        path = SNAPSHOTS / f"terminal-{game}.txt"
        path.write_text(text)
        print(f"wrote {path.name}")


if __name__ == "__main__":
    main()
