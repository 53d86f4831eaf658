"""River of Gold's components, decoded from ``data/components.toml`` into msgspec Structs."""

from __future__ import annotations

from functools import cache
from typing import Literal

import msgspec
from gamehall.core import load_data

Good = Literal["silk", "rice", "porcelain"]
GOODS: tuple[Good, ...] = ("silk", "rice", "porcelain")
TYPES = ("port", "market", "manor", "shrine")
KINDS = ("artisan", "elder", "merchant", "monk", "noble")
REGIONS = (1, 2, 3, 4, 5, 6)


class Reward(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """What a tile, a track step or a journey pays; ``good`` is the region's track good."""

    koku: int = 0
    points: int = 0
    favour: int = 0
    influence: int = 0
    silk: int = 0
    rice: int = 0
    porcelain: int = 0
    good: int = 0
    any_good: int = 0
    koku_per: str | None = None
    draw_discard: int = 0


NOTHING = Reward()


class Region(msgspec.Struct, frozen=True):
    """One of the six regions along the river."""

    id: int
    name: str
    track_good: str


class TrackStep(msgspec.Struct, frozen=True):
    """A reward printed on every influence track."""

    step: int
    reward: Reward


class Track(msgspec.Struct, frozen=True):
    """The influence track shared by the six regions."""

    top: int
    flower: int
    rewards: tuple[TrackStep, ...]


class Space(msgspec.Struct, frozen=True):
    """A shore space: its region, its build cost and what setup puts there."""

    id: int
    region: int
    cost: int
    kind: str = ""


class River(msgspec.Struct, frozen=True):
    """The river: its start spaces and the shore spaces each river space touches."""

    starts: tuple[int, ...]
    touches: tuple[tuple[int, ...], ...]


class Tile(msgspec.Struct, frozen=True):
    """A building tile; era 0 is a start tile and era 3 an imperial market (never owned)."""

    id: str
    era: int
    type: str
    visitor: Reward
    bonus: int = 0
    owner: Reward = NOTHING


class Customer(msgspec.Struct, frozen=True):
    """A customer card: kind, region, the goods it asks for and its ability."""

    id: str
    kind: str
    region: int
    request: dict[str, int]
    ability: str = ""
    bonus: str = ""


class Mastery(msgspec.Struct, frozen=True):
    """A mastery card and the goal that claims it."""

    id: str
    name: str
    goal: str


class Rewards(msgspec.Struct, frozen=True):
    """Points by claim or rank order, with two players and with more."""

    two: tuple[int, ...]
    more: tuple[int, ...]


class ScoreTile(Rewards, frozen=True):
    """A region score tile: points for first, second and third place."""

    id: str = ""


class Setup(msgspec.Struct, frozen=True):
    """Numbers of the setup, the caps and the final scoring."""

    stacks_era1: dict[int, int]
    stacks_era2: dict[int, int]
    start_koku: tuple[int, ...]
    favour: int
    favour_cap: int
    favour_cap_max: int
    hand: int
    row: int
    koku_cap: int
    goods_cap: int
    customer_points: tuple[int, ...]
    end_bonus: int
    two_player_second_gap: int


class Components(msgspec.Struct, frozen=True):
    """Everything in the box."""

    regions: tuple[Region, ...]
    track: Track
    spaces: tuple[Space, ...]
    river: River
    tiles: tuple[Tile, ...]
    customers: tuple[Customer, ...]
    masteries: tuple[Mastery, ...]
    mastery_rewards: Rewards
    score_tiles: tuple[ScoreTile, ...]
    setup: Setup

    def tile(self, tile_id: str) -> Tile:
        """Return a building tile by id."""
        return TILES[tile_id]


@cache
def components() -> Components:
    """Return the components, decoded once per process."""
    return load_data(__package__, "components.toml", Components, strict=False)


COMPONENTS = components()
TILES = {tile.id: tile for tile in COMPONENTS.tiles}
CUSTOMERS = {card.id: card for card in COMPONENTS.customers}
MASTERIES = {m.id: m for m in COMPONENTS.masteries}
SCORE_TILES = {t.id: t for t in COMPONENTS.score_tiles}
SPACES = {space.id: space for space in COMPONENTS.spaces}
TOUCHES = {river: tuple(shore) for river, shore in enumerate(COMPONENTS.river.touches, start=1)}
RIVER_LENGTH = len(COMPONENTS.river.touches)
RIVERS_BY_SPACE = {
    space: tuple(r for r, shore in TOUCHES.items() if space in shore) for space in SPACES
}
SPACES_BY_REGION = {
    region: tuple(s.id for s in COMPONENTS.spaces if s.region == region) for region in REGIONS
}
MARKET_SPACES = tuple(s.id for s in COMPONENTS.spaces if s.kind == "market")
OWNABLE_ERAS = (1, 2)


def start_spaces(players: int) -> tuple[int, ...]:
    """Return the shore spaces that get a start tile with this many players."""
    kinds = {2: ("start2", "start23"), 3: ("start23",)}.get(players, ())
    return tuple(s.id for s in COMPONENTS.spaces if s.kind in kinds)


def request_of(card_id: str) -> tuple[int, int, int]:
    """Return the goods a customer asks for, as (silk, rice, porcelain)."""
    request = CUSTOMERS[card_id].request
    return (request.get("silk", 0), request.get("rice", 0), request.get("porcelain", 0))
