"""Gunsen's components as data: cards, heroes, buildings, pieces, decoded from ``data/*.toml``.

Every file in ``data/`` says in its header which parts are published facts and which are the
project's own design. :class:`Components` gathers them (with what expansions add through the
``gunsen_*`` component hooks) into the lookups the rules use.
"""

from __future__ import annotations

from typing import Literal

import msgspec
from gamehall.core import load_data

COLOURS = ("blue", "yellow", "purple", "brown")
COLUMN_NAMES = ("Armory", "Recruit", "Influence", "Expand")
RESOURCES = ("koku", "wood", "influence")
SYMBOLS = ("strength", "blood", "armour", "throw", "reroll", "keep")
Resource = Literal["koku", "wood", "influence"]


class Symbols(msgspec.Struct, frozen=True, forbid_unknown_fields=True, gc=False):
    """Combat symbols (red background): they count only in a combat."""

    strength: int = 0
    blood: int = 0
    armour: int = 0
    throw: int = 0
    reroll: int = 0
    keep: int = 0

    def __add__(self, other: Symbols) -> Symbols:
        return Symbols(*(a + b for a, b in zip(_tuple(self), _tuple(other), strict=True)))

    def __bool__(self) -> bool:
        return any(_tuple(self))


def _tuple(symbols: Symbols) -> tuple[int, ...]:
    return msgspec.structs.astuple(symbols)


NO_SYMBOLS = Symbols()


class Action(msgspec.Struct, frozen=True, forbid_unknown_fields=True, gc=False):
    """What a card or printed box does when its column is activated."""

    kind: Literal[
        "koku", "wood", "influence", "wood_or_koku", "recruit", "move", "buy_move", "build",
        "tactics",
    ]  # fmt: skip
    amount: int = 1
    resource: str = ""


class Printed(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """A printed box of a clan-board column, or an upgrade tile covering the top box."""

    actions: tuple[Action, ...] = ()
    symbols: Symbols = NO_SYMBOLS


class Column(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """One column of the clan board: the top box (covered by the upgrade) and the rest."""

    colour: str
    name: str
    top: Printed
    rest: tuple[Printed, ...]
    upgrade: Printed


class OrderCard(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """An order card (``players`` 5 marks the 5/6 cards) or, with ``clan``, a special order."""

    id: str
    colour: str = ""
    actions: tuple[Action, ...] = ()
    symbols: Symbols = NO_SYMBOLS
    price: Literal["", "influence", "wood"] = ""
    players: int = 2
    name: str = ""
    colours: tuple[str, ...] = ()
    one_shot: bool = False

    @property
    def colour_set(self) -> tuple[str, ...]:
        """Return the colours of columns the card may lie in."""
        return self.colours or (self.colour,)


class Hero(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """A clan hero or a mercenary hero; ``ability`` names an effect of GUN-HERO-*."""

    id: str
    name: str
    symbols: Symbols = NO_SYMBOLS
    ability: str = ""


class Tactic(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """A tactic card: koku cost, combat symbols, and an effect when bought."""

    id: str
    name: str
    cost: int
    symbols: Symbols = NO_SYMBOLS
    effect: Literal["", "hero", "mercenary", "innovation"] = ""
    hero: str = ""


class Objective(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """A clan objective: a condition (GUN-OBJ-*) with its amount."""

    id: str
    name: str
    condition: str
    amount: int = 1
    column: str = ""
    small: int = 0  # the amount on the side for 2-3 players, when it differs

    def amount_on(self, side: str) -> int:
        """Return how much the objective asks on a board side."""
        return self.small if side == "small" and self.small else self.amount


class Building(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """A clan building card: the unique building or the camp."""

    id: str
    name: str
    kind: Literal["unique", "camp"]
    cost: int
    symbols: Symbols = NO_SYMBOLS
    income: str = ""


class Clan(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """A clan with its twelve clan cards."""

    id: str
    name: str
    heroes: tuple[Hero, ...]
    tactics: tuple[Tactic, ...]
    objectives: tuple[Objective, ...]
    specials: tuple[OrderCard, ...]
    buildings: tuple[Building, ...]


class Token(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """A village token: a troop or one resource."""

    id: str
    reward: Literal["troop", "koku", "wood", "influence"]


class Face(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """A face of the combat die."""

    id: str
    symbols: Symbols = NO_SYMBOLS


class Box(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """An achievement box; ``places`` markers of one clan fit in it."""

    id: str
    name: str
    places: int = 1
    on_tile: bool = False


class ShrineTile(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """A shrine tile; its upgrade tile has the same colour."""

    colour: str
    name: str


class Limits(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """The numbers the rules fix (and the tribute, which is ours)."""

    troops: int
    army: int
    markers: int
    tactics: int
    dice: int
    refill: int
    tokens: int
    row: int
    tribute: int


class Setup(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """Starting resources and troops by turn order, and the pieces used per board side."""

    start: tuple[tuple[int, int, int, int], ...]
    watchtowers: dict[str, int]
    shrines: dict[str, int]
    villages: dict[str, int]
    neutral_tactics: int


class Pieces(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """The contents of ``pieces.toml``."""

    limits: Limits
    setup: Setup
    columns: tuple[Column, ...]
    shrines: tuple[ShrineTile, ...]
    tokens: tuple[Token, ...]
    faces: tuple[Face, ...]
    boxes: tuple[Box, ...]


class Neutral(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """The contents of ``neutral.toml``."""

    mercenaries: tuple[Hero, ...]
    tactics: tuple[Tactic, ...]


def load_clans() -> list[Clan]:
    """Return the seven clans of the box."""
    return list(load_data(__package__, "clans.toml", dict[str, tuple[Clan, ...]])["clans"])


def load_orders() -> list[OrderCard]:
    """Return the order deck of the box, the 5/6 cards included."""
    return list(load_data(__package__, "orders.toml", dict[str, tuple[OrderCard, ...]])["cards"])


def load_neutral() -> Neutral:
    """Return the mercenary heroes and the neutral tactics of the box."""
    return load_data(__package__, "neutral.toml", Neutral)


def load_pieces() -> Pieces:
    """Return the clan board, tiles, tokens, die faces, boxes and setup numbers."""
    return load_data(__package__, "pieces.toml", Pieces)
