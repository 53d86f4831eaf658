"""The eight terrains as data: spots, paths, regions with medals, special bases, targets.

Each terrain is a TOML file in ``data/`` decoded into :class:`Terrain`; :class:`Board` adds the
lookups the rules need on every move (adjacency, regions through a base, who owns which
headquarters), computed once per terrain.
"""

from __future__ import annotations

import msgspec
from gamehall.core import load_data

COLOURS = ("blue", "red")


class Spot(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """A base or a headquarters; ``owner`` is set for headquarters only."""

    id: int
    adjacent: tuple[int, ...]
    left: float
    top: float
    owner: str | None = None
    allowed: tuple[int, ...] = ()


class Region(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """A closed area: the bases around it, its medals, the headquarters on its rim if any."""

    bases: tuple[int, ...]
    medals: int
    rim_headquarters: tuple[int, ...] = ()


class Terrain(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """One side of a board as printed (see the data file for its source)."""

    key: str
    name: str
    name_nl: str
    source: str
    medal_target: int
    special_effect: str
    special_bases: tuple[int, ...]
    muted_bases: tuple[int, ...]
    spots: tuple[Spot, ...]
    regions: tuple[Region, ...]


class Board:
    """A terrain with the lookups the rules use on every move."""

    __slots__ = (
        "adjacent",
        "bases",
        "effect_at",
        "headquarters",
        "hq_owner",
        "key",
        "allowed",
        "muted",
        "regions_at",
        "spot_ids",
        "terrain",
    )

    def __init__(self, terrain: Terrain) -> None:
        self.terrain = terrain
        self.key = terrain.key
        self.spot_ids = tuple(spot.id for spot in terrain.spots)
        self.adjacent = {spot.id: spot.adjacent for spot in terrain.spots}
        self.bases = tuple(spot.id for spot in terrain.spots if spot.owner is None)
        self.hq_owner = {spot.id: spot.owner for spot in terrain.spots if spot.owner}
        self.headquarters = {
            colour: tuple(s for s, owner in self.hq_owner.items() if owner == colour)
            for colour in COLOURS
        }
        self.allowed = {spot.id: spot.allowed for spot in terrain.spots if spot.allowed}
        self.muted = frozenset(terrain.muted_bases)
        self.effect_at = {base: terrain.special_effect for base in terrain.special_bases}
        self.regions_at = {
            base: tuple(i for i, r in enumerate(terrain.regions) if base in r.bases)
            for base in self.bases
        }

    @property
    def name(self) -> str:
        """Return the terrain's English name."""
        return self.terrain.name


ALIASES = {
    "kasteelland": "castle",
    "castle-field": "castle",
    "tropisch-zwembad": "pool",
    "wolkenstad": "clouds",
    "vulkanische-jungle": "jungle",
    "behekste-begraafplaats": "cemetery",
    "caribische-zee": "caribbean",
    "carribean": "caribbean",
    "station": "metal-x",
    "slagveld": "battlefield",
}


def terrain_name(name: str) -> str:
    """Return a terrain name as it is looked up: lower case, words joined by ``-``."""
    return "-".join(name.lower().replace("_", " ").replace("-", " ").split())


BOXED = ("castle", "pool", "clouds", "jungle", "cemetery", "caribbean", "metal-x", "battlefield")


def load_terrains() -> list[Terrain]:
    """Decode the eight boxed terrains from the package's data files."""
    return [load_data(__package__, f"{key}.toml", Terrain) for key in BOXED]
