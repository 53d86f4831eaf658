"""The troop kinds and the physical troops: 24 per colour, each named by a unique token."""

from __future__ import annotations

import msgspec

from .terrain import COLOURS


class TroopKind(msgspec.Struct, frozen=True):
    """A kind of troop: its strength (``None`` for a joker), copies per colour, and effect.

    ``effect`` names the troop effect applied after placing (see ``effects.py``);
    ``ignores_connection`` lets it skip the connection rule when placed on a base (Hook).
    """

    key: str
    name: str
    strength: int | None
    copies: int = 3
    effect: str = ""
    ignores_connection: bool = False

    @property
    def label(self) -> str:
        """Return the name with the strength, as printed on the tile."""
        return f"{self.name} ({'joker' if self.strength is None else self.strength})"


KINDS = (
    TroopKind("kwak", "Kwak", None),
    TroopKind("skully", "Skully", 1, effect="skully"),
    TroopKind("capn", "Cap'n", 2, effect="capn"),
    TroopKind("jumbo", "Jumbo", 3, effect="jumbo"),
    TroopKind("hook", "Hook", 4, ignores_connection=True),
    TroopKind("xb42", "XB-42", 5, effect="xb42"),
    TroopKind("star", "Star", 6, effect="star"),
    TroopKind("roxy", "Roxy", 7),
)


def token(colour: str, kind: TroopKind, copy: int) -> str:
    """Return the token of one physical troop, e.g. ``blue-roxy-2``."""
    return f"{colour}-{kind.key}-{copy}"


class Army:
    """Every troop of the match's kinds in both colours, with lookups by token."""

    __slots__ = ("by_key", "colour", "kind", "tokens")

    def __init__(self, kinds: list[TroopKind]) -> None:
        self.by_key = {kind.key: kind for kind in kinds}
        self.tokens: dict[str, tuple[str, ...]] = {}
        self.kind: dict[str, TroopKind] = {}
        self.colour: dict[str, str] = {}
        for colour in COLOURS:
            own = [token(colour, k, n) for k in kinds for n in range(1, k.copies + 1)]
            self.tokens[colour] = tuple(own)
            for tok in own:
                self.kind[tok] = self.by_key[tok.split("-")[1]]
                self.colour[tok] = colour

    def can_cover(self, troop: str, covered: str) -> bool:
        """Tell whether ``troop`` may be placed on an enemy ``covered`` (TB-PLACE-3, TB-KWAK-1)."""
        mine, theirs = self.kind[troop].strength, self.kind[covered].strength
        return mine is None or theirs is None or mine > theirs
