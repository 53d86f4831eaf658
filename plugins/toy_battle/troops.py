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
    short: str = ""
    """One character for the map (after the colour's initial); default: the key's first."""
    description: str = ""
    """What the troop does, in words, for boards and help (an expansion's kind sets it)."""

    @property
    def label(self) -> str:
        """Return the name with the strength, as printed on the tile."""
        return f"{self.name} ({'joker' if self.strength is None else self.strength})"

    @property
    def code(self) -> str:
        """Return the kind's code on the map."""
        return self.short or self.key[:1].upper()


KINDS = (
    TroopKind("kwak", "Kwak", None, short="K"),
    TroopKind("skully", "Skully", 1, effect="skully", short="1"),
    TroopKind("capn", "Cap'n", 2, effect="capn", short="2"),
    TroopKind("jumbo", "Jumbo", 3, effect="jumbo", short="3"),
    TroopKind("hook", "Hook", 4, ignores_connection=True, short="4"),
    TroopKind("xb42", "XB-42", 5, effect="xb42", short="5"),
    TroopKind("star", "Star", 6, effect="star", short="6"),
    TroopKind("roxy", "Roxy", 7, short="7"),
)
BOX_KEYS = frozenset(kind.key for kind in KINDS)


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
        # Tokens are looked up, never split: a kind's key may hold a "-" (``iron-titan``).
        for colour in COLOURS:
            own = [(token(colour, k, n), k) for k in kinds for n in range(1, k.copies + 1)]
            self.tokens[colour] = tuple(tok for tok, _ in own)
            for tok, kind in own:
                self.kind[tok] = kind
                self.colour[tok] = colour

    @property
    def added(self) -> tuple[TroopKind, ...]:
        """Return the kinds that are not in the box (added by expansions)."""
        return tuple(k for k in self.by_key.values() if k.key not in BOX_KEYS)

    def can_cover(self, troop: str, covered: str) -> bool:
        """Tell whether ``troop`` may be placed on an enemy ``covered`` (TB-PLACE-3, TB-KWAK-1)."""
        mine, theirs = self.kind[troop].strength, self.kind[covered].strength
        return mine is None or theirs is None or mine > theirs
