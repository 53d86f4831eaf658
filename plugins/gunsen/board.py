"""The two board sides as hex maps, with the lookups movement and setup use.

A side is a TOML file (``data/board-*.toml``) listing one entry per hex in axial coordinates;
two spaces are adjacent when their hexes touch. :class:`Board` numbers the spaces in file
order and computes adjacency, distances and the kinds of space once per side.
"""

from __future__ import annotations

from collections import deque
from typing import Literal

import msgspec
from gamehall.core import load_data

Kind = Literal["plain", "toshi_ranbo", "fort", "watchtower", "shrine", "village"]
DIRECTIONS = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))


class Space(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """One hex of a board side; ``fort`` numbers the forts clockwise around the table."""

    id: str
    q: int
    r: int
    kind: Kind = "plain"
    fort: int = -1


class Side(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """A board side as printed: its spaces, and which forts the seats take per player count."""

    key: str
    name: str
    players: tuple[int, int]
    radius: int
    forts: dict[str, tuple[int, ...]]
    spaces: tuple[Space, ...]


class Board:
    """A side with its lookups; spaces are numbered in file order."""

    __slots__ = (
        "by_id",
        "forts",
        "key",
        "kinds",
        "labels",
        "name",
        "neighbours",
        "players",
        "radius",
        "shrines",
        "side",
        "spaces",
        "toshi_ranbo",
        "villages",
        "watchtowers",
    )

    def __init__(self, side: Side) -> None:
        self.side = side
        self.key = side.key
        self.name = side.name
        self.players = side.players
        self.radius = side.radius
        self.spaces = side.spaces
        self.by_id = {space.id: index for index, space in enumerate(side.spaces)}
        self.labels = tuple(space.id for space in side.spaces)
        self.kinds = tuple(space.kind for space in side.spaces)
        where = {(s.q, s.r): i for i, s in enumerate(side.spaces)}
        self.neighbours = tuple(
            tuple(
                where[(s.q + dq, s.r + dr)]
                for dq, dr in DIRECTIONS
                if (s.q + dq, s.r + dr) in where
            )
            for s in side.spaces
        )
        forts = sorted((s.fort, i) for i, s in enumerate(side.spaces) if s.kind == "fort")
        self.forts = tuple(i for _, i in forts)
        self.toshi_ranbo = self._only("toshi_ranbo")
        self.watchtowers = self._all("watchtower")
        self.shrines = self._all("shrine")
        self.villages = self._all("village")

    def _all(self, kind: str) -> tuple[int, ...]:
        return tuple(i for i, k in enumerate(self.kinds) if k == kind)

    def _only(self, kind: str) -> int:
        found = self._all(kind)
        if len(found) != 1:
            raise ValueError(f"board {self.key} has {len(found)} spaces of kind {kind}")
        return found[0]

    def seat_forts(self, players: int) -> tuple[int, ...]:
        """Return the fort space of each seat, seat 0 first, for a player count."""
        return tuple(self.forts[f] for f in self.side.forts[str(players)])

    def distances(self, start: int, blocked: frozenset[int] = frozenset()) -> list[int]:
        """Return the number of steps from ``start`` to every space (-1: unreachable)."""
        dist = [-1] * len(self.spaces)
        dist[start] = 0
        queue = deque([start])
        while queue:
            here = queue.popleft()
            for there in self.neighbours[here]:
                if dist[there] < 0 and there not in blocked:
                    dist[there] = dist[here] + 1
                    queue.append(there)
        return dist

    def hex_distance(self, a: int, b: int) -> int:
        """Return the distance of two spaces on the hex grid."""
        sa, sb = self.spaces[a], self.spaces[b]
        dq, dr = sa.q - sb.q, sa.r - sb.r
        return max(abs(dq), abs(dr), abs(dq + dr))


def load_side(name: str) -> Side:
    """Return a board side from ``data/board-<name>.toml``."""
    return load_data(__package__, f"board-{name}.toml", Side)


def load_sides() -> list[Side]:
    """Return both sides of the board of the box."""
    return [load_side("small"), load_side("large")]
