"""The components as data: unit kinds, terrains, worlds, realms with their cards, event cards.

Each kind of component is a TOML file in ``data/`` (its header says which parts are published
facts and which are the project's own), decoded into the frozen Structs below. A
:class:`Catalogue` gathers what the game's hooks return, with the lookups the rules use.
"""

from __future__ import annotations

from functools import cache
from typing import Literal

import msgspec
from gamehall.core import load_data

UnitClass = Literal["basic", "advanced", "crown", "special"]
Condition = Literal[
    "from-forest",
    "defend-mountain",
    "defend-castle",
    "attack-field",
    "defend-field",
    "attack-mountain",
    "never",
]
MagicEffect = Literal["replace", "extra", "levy", "keep", "harmony", "assassinate", "ward"]
EventEffect = Literal["add-unit", "upgrade", "gold-if-on-board", "resurrect", "gold"]
BASIC = ("sword", "archer", "shield")


class UnitKind(msgspec.Struct, frozen=True, forbid_unknown_fields=True, rename={"cls": "class"}):
    """A kind of unit: its dice in attack and in defence, its cost and how many a realm has."""

    key: str
    name: str
    attack: tuple[int, ...]
    defence: tuple[int, ...]
    cost: int
    cls: UnitClass
    count: int = 1
    starting: int = 0
    returns: bool = True
    castle_die: int = 0
    condition: Condition = "never"
    boost: int = 12
    ours: bool = False


class Terrain(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """A terrain: how many units a tile holds and the die it adds in attack or defence."""

    key: str
    name: str
    letter: str
    capacity: int
    attack_die: int = 0
    defence_die: int = 0
    compendium_capacity: int | None = None
    """The public terrain list's capacity where the seed gives another (KAL-TERRAIN-2)."""


class World(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """The tiles of a world: hex cells in drawing order and the terrain mix."""

    players: tuple[int, ...]
    fields: int
    forests: int
    mountains: int
    cells: tuple[tuple[int, int], ...]

    def terrains(self) -> list[str]:
        """Return the terrain of every tile before the shuffle."""
        return ["field"] * self.fields + ["forest"] * self.forests + ["mountain"] * self.mountains

    def adjacency(self) -> tuple[tuple[int, ...], ...]:
        """Return, per tile, the tiles that share an edge with it."""
        index = {cell: i for i, cell in enumerate(self.cells)}
        steps = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))
        return tuple(
            tuple(index[(q + dq, r + dr)] for dq, dr in steps if (q + dq, r + dr) in index)
            for q, r in self.cells
        )


class MagicCard(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """A realm's magic card: its effect and the numbers the effect needs."""

    key: str
    name: str
    effect: MagicEffect
    count: int = 0
    unit: str = ""
    die: int = 0
    dice: tuple[int, ...] = ()
    units: tuple[str, ...] = ()
    ours: bool = False


class Special(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """A realm's special unit as the realm file names it."""

    key: str
    name: str
    condition: Condition
    ours: bool = False


class Realm(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """A realm: its special unit and its magic deck."""

    key: str
    name: str
    title: str
    special: Special
    cards: tuple[MagicCard, ...]
    ours: bool = False

    def special_kind(self) -> UnitKind:
        """Return the realm's special unit as a unit kind (D10/D10, 2 gold)."""
        s = self.special
        return UnitKind(s.key, s.name, (10,), (10,), 2, "special", condition=s.condition)


class EventCard(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """An event card: who it touches, what it does, and how many copies the deck holds."""

    key: str
    name: str
    scope: Literal["active", "all"]
    effect: EventEffect
    unit: str = ""
    gold: int = 0
    copies: int = 1
    ours: bool = False


class _Units(msgspec.Struct):
    kind: list[UnitKind]


class _Terrains(msgspec.Struct):
    terrain: list[Terrain]


class _Worlds(msgspec.Struct):
    world: list[World]


class _Realms(msgspec.Struct):
    realm: list[Realm]


class _Events(msgspec.Struct):
    card: list[EventCard]


@cache
def load_units() -> tuple[UnitKind, ...]:
    """Return the unit kinds of the box (without the special units)."""
    return tuple(load_data(__package__, "units.toml", _Units).kind)


@cache
def load_terrains() -> tuple[Terrain, ...]:
    """Return the three terrains."""
    return tuple(load_data(__package__, "terrains.toml", _Terrains).terrain)


@cache
def load_worlds() -> tuple[World, ...]:
    """Return the worlds by player count."""
    return tuple(load_data(__package__, "worlds.toml", _Worlds).world)


@cache
def load_realms() -> tuple[Realm, ...]:
    """Return the six realms."""
    return tuple(load_data(__package__, "realms.toml", _Realms).realm)


@cache
def load_event_cards() -> tuple[EventCard, ...]:
    """Return the event cards, once each (``copies`` says how many the deck holds)."""
    return tuple(load_data(__package__, "events.toml", _Events).card)


class Catalogue:
    """Every component of a ruleset, with the lookups the rules use on every move."""

    def __init__(
        self,
        units: list[UnitKind],
        terrains: list[Terrain],
        worlds: list[World],
        realms: list[Realm],
        events: list[EventCard],
    ) -> None:
        self.realms = {r.key: r for r in realms}
        self.units = {u.key: u for u in units}
        for realm in realms:
            self.units.setdefault(realm.special.key, realm.special_kind())
        self.terrains = {t.key: t for t in terrains}
        self.worlds = {n: w for w in worlds for n in w.players}
        self.events = {e.key: e for e in events}
        self.cards = {f"{r.key}/{c.key}": c for r in realms for c in r.cards}
        self.adjacency = {n: w.adjacency() for n, w in self.worlds.items()}

    def card(self, card_id: str) -> MagicCard:
        """Return a magic card by its id (``realm/card``)."""
        return self.cards[card_id]

    def realm_of_card(self, card_id: str) -> str:
        """Return the realm a magic card belongs to."""
        return card_id.split("/", 1)[0]

    def deck(self) -> list[str]:
        """Return the event deck's card ids before the shuffle (``key#copy``)."""
        return [f"{e.key}#{n}" for e in self.events.values() for n in range(1, e.copies + 1)]

    def event(self, card_id: str) -> EventCard:
        """Return an event card by its id in the deck."""
        return self.events[card_id.split("#", 1)[0]]

    def army(self, realm: str) -> list[str]:
        """Return the unit ids of a realm's full army, special unit included."""
        out = [
            f"{realm}/{u.key}-{n}"
            for u in self.units.values()
            if u.cls != "special"
            for n in range(1, u.count + 1)
        ]
        return [*out, f"{realm}/{self.realms[realm].special.key}"]


def kind_of(unit: str) -> str:
    """Return the kind of a unit id (``khalisia/sword-2`` is a ``sword``)."""
    name = unit.split("/", 1)[1]
    head, _, tail = name.rpartition("-")
    return head if tail.isdigit() else name


def realm_of(unit: str) -> str:
    """Return the realm a unit id belongs to."""
    return unit.split("/", 1)[0]
