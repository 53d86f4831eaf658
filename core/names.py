"""Display names people can tell apart: no blank names, no stacked marks, no look-alikes.

A name is checked after NFKC normalisation (so full-width and other compatibility forms count
as what they show). It must show something: at least one letter, digit, punctuation mark or
symbol that is not a filler drawn as blank (the Hangul fillers, the blank Braille pattern).
It may not stack more than two combining marks on one letter (counted decomposed: ``ệ``
has two). Two names whose *skeletons*
are equal look alike: the skeleton folds case, drops marks, spaces and joiners, and maps the
Cyrillic and Greek letters that are drawn like Latin ones (and ``0``/``1`` to ``o``/``l``),
a small, common part of Unicode's confusables table (UTS #39).
"""

from __future__ import annotations

import unicodedata

from .errors import InvalidOptions

MAX_MARKS = 2
# Characters that are letters to Unicode but drawn as nothing at all.
BLANKS = frozenset("\u115f\u1160\u3164\uffa0\u2800\u17b4\u17b5")
# Letters drawn like Latin ones: Cyrillic, Greek, and the digits read as letters.
LOOKALIKES = str.maketrans(
    {
        "а": "a", "в": "b", "е": "e", "ё": "e", "һ": "h", "і": "i", "ї": "i", "ј": "j",
        "к": "k", "м": "m", "н": "h", "о": "o", "р": "p", "с": "c", "т": "t", "у": "y",
        "х": "x", "ѕ": "s", "ԁ": "d", "ԛ": "q", "ԝ": "w", "ɡ": "g", "ı": "i",
        "α": "a", "β": "b", "ε": "e", "η": "n", "ι": "i", "κ": "k", "ν": "v", "ο": "o",
        "ρ": "p", "τ": "t", "υ": "u", "χ": "x", "ω": "w", "ϲ": "c", "ϳ": "j",
        "0": "o", "1": "l", "|": "l",
    }
)  # fmt: skip


class NameProblem(ValueError):
    """Why a display name cannot be used, in words."""


class LookAlikeName(InvalidOptions):
    """A name that looks like that of another seat's holder in a match the player sits in."""

    code = "look_alike_name"


def check_shows(name: str) -> str:
    """Return the NFKC form of a name, or raise :class:`NameProblem` when it would render
    blank or stacks marks."""
    shown = unicodedata.normalize("NFKC", name)
    if not any(_visible(c) for c in shown):
        raise NameProblem("a name needs at least one letter or digit that shows")
    run = 0
    for c in unicodedata.normalize("NFD", shown):  # the marks of a letter, precomposed or not
        run = run + 1 if unicodedata.combining(c) or _mark(c) else 0
        if run > MAX_MARKS:
            raise NameProblem(f"a name may not stack more than {MAX_MARKS} marks on one letter")
    return shown


def skeleton(name: str) -> str:
    """Return what a name looks like: two names with one skeleton are look-alikes."""
    folded = unicodedata.normalize("NFKC", name).casefold()
    bare = "".join(c for c in unicodedata.normalize("NFD", folded) if not _mark(c) and _visible(c))
    out = bare.translate(LOOKALIKES)
    return out.replace("rn", "m").replace("vv", "w")


def look_alike(name: str, others: list[str]) -> str | None:
    """Return the first of ``others`` that looks like ``name`` but is not the same text."""
    mine = skeleton(name)
    for other in others:
        if other != name and skeleton(other) == mine:
            return other
    return None


def _mark(c: str) -> bool:
    return unicodedata.category(c) in ("Mn", "Me")


def _visible(c: str) -> bool:
    if c in BLANKS:
        return False
    return unicodedata.category(c)[0] in "LNPS"
