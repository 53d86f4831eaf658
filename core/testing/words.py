"""Word checks a game's own tests (and gamehall's browser tests) run over text people read:
seats counted from 1, and a count of one never with a plural noun."""

from __future__ import annotations

import re

ONE_PLURAL = re.compile(r"(\S+ )?\b1 ([a-z]+s|dice|men)\b")
# Words after which "1" is a number of a thing, not a count: "seat 1 plays", "space 1 gains".
NUMBERED = {"seat", "space", "tile", "cell", "region", "level", "column", "row", "round", "spot",
            "step", "era", "slot", "ship", "track", "deck", "card", "action", "noble", "d",
            "player", "turn", "phase", "base", "line", "number", "no.", "of", "to", "and"}  # fmt: skip


def one_of_many(text: str) -> list[str]:
    """Return a problem for a count of one with a plural noun: "1 units", "(1 dice)"."""
    for found in ONE_PLURAL.finditer(text):
        before = (found.group(1) or "").strip(" (:,;").lower()
        if before not in NUMBERED:
            return [f"it says {found.group().strip()!r}"]
    return []


SEAT_ZERO = re.compile(r"\b(?:seat|player)s? 0\b", re.I)


def counted_from_zero(text: str) -> list[str]:
    """Return a problem when a text counts seats from 0: people count them from 1."""
    found = SEAT_ZERO.search(text)
    return [f"it counts seats from 0 ({found.group()!r})"] if found else []


__all__ = ["counted_from_zero", "one_of_many"]
