"""Checks of the eight terrain data files: paths, regions, medals, targets and specials."""

from __future__ import annotations

from itertools import permutations

import pytest
from gamehall.plugins.toy_battle.terrain import BOXED, Board, Terrain, load_terrains

TERRAINS = {t.key: t for t in load_terrains()}
# Medal targets and medals on the board, from the component notes (part B, B3/B4).
TARGETS = {
    "castle": 7,
    "pool": 6,
    "clouds": 8,
    "jungle": 7,
    "cemetery": 7,
    "caribbean": 5,
    "metal-x": 7,
    "battlefield": 8,
}
MEDALS = {
    "castle": 14,
    "pool": 12,
    "clouds": 16,
    "jungle": 14,
    "cemetery": 14,
    "caribbean": 11,
    "metal-x": 14,
    "battlefield": 16,
}
HQS = {"pool": ((1, 2), (41, 42)), "caribbean": ((1, 2), (41,))}


def test_every_boxed_terrain_has_a_file_with_its_source() -> None:
    assert sorted(TERRAINS) == sorted(BOXED)
    for terrain in TERRAINS.values():
        assert "toybattle" in terrain.source and terrain.name and terrain.name_nl


@pytest.mark.parametrize("key", BOXED)
def test_paths_are_symmetric_and_connect_every_spot(key: str) -> None:
    board = Board(TERRAINS[key])
    ids = [spot.id for spot in TERRAINS[key].spots]
    assert len(ids) == len(set(ids))
    for spot, others in board.adjacent.items():
        for other in others:
            assert spot in board.adjacent[other], f"{key}: path {spot}-{other} is one-way"
            assert other != spot
    seen, frontier = {ids[0]}, [ids[0]]
    while frontier:
        for other in board.adjacent[frontier.pop()]:
            if other not in seen:
                seen.add(other)
                frontier.append(other)
    assert seen == set(ids)


def _closed(terrain: Terrain, loop: tuple[int, ...]) -> bool:
    adjacent = {spot.id: spot.adjacent for spot in terrain.spots}
    first, *rest = loop
    for order in permutations(rest):
        ring = (first, *order, first)
        if all(b in adjacent[a] for a, b in zip(ring, ring[1:], strict=False)):
            return True
    return False


@pytest.mark.parametrize("key", BOXED)
def test_regions_are_closed_loops_of_bases(key: str) -> None:
    terrain = TERRAINS[key]
    board = Board(terrain)
    for region in terrain.regions:
        assert all(base in board.bases for base in region.bases)
        assert all(hq in board.hq_owner for hq in region.rim_headquarters)
        assert _closed(terrain, region.bases + region.rim_headquarters), region


@pytest.mark.parametrize("key", BOXED)
def test_medal_totals_targets_and_headquarters(key: str) -> None:
    terrain = TERRAINS[key]
    board = Board(terrain)
    assert sum(r.medals for r in terrain.regions) == MEDALS[key]
    assert terrain.medal_target == TARGETS[key]
    assert (board.headquarters["blue"], board.headquarters["red"]) == HQS.get(key, ((1,), (41,)))


@pytest.mark.parametrize("key", BOXED)
def test_special_bases_are_bases_of_the_terrain(key: str) -> None:
    terrain = TERRAINS[key]
    board = Board(terrain)
    assert set(terrain.special_bases) | set(terrain.muted_bases) <= set(board.bases)
    assert bool(terrain.special_bases) == bool(terrain.special_effect)
    restricted = {s.id: s.allowed for s in terrain.spots if s.allowed}
    if key == "pool":
        assert restricted == {
            2: (6, 7),
            12: (1, 2),
            16: (3, 4, 5),
            17: (6, 7),
            18: (3, 4, 5),
            22: (1, 2),
            41: (6, 7),
        }
    else:
        assert not restricted
    assert bool(terrain.muted_bases) == (key == "metal-x")


def _mirror(terrain: Terrain) -> dict[int, int] | None:
    """Return a map of spots that swaps the two sides and keeps paths, regions and specials."""
    board = Board(terrain)
    ids = sorted(board.adjacent)
    special = set(terrain.special_bases) | set(terrain.muted_bases)
    allowed = {s.id: s.allowed for s in terrain.spots}
    regions = {(frozenset(r.bases), r.medals) for r in terrain.regions}

    def fits(a: int, b: int) -> bool:
        side = {"blue": "red", "red": "blue", None: None}
        return (
            side[board.hq_owner.get(a)] == board.hq_owner.get(b)
            and (a in special) == (b in special)
            and allowed[a] == allowed[b]
            and len(board.adjacent[a]) == len(board.adjacent[b])
        )

    def extend(image: dict[int, int]) -> dict[int, int] | None:
        if len(image) == len(ids):
            moved = {(frozenset(image[b] for b in bases), m) for bases, m in regions}
            return image if moved == regions else None
        spot = ids[len(image)]
        for b in ids:
            if b in image.values() or not fits(spot, b):
                continue
            if all((image[o] in board.adjacent[b]) == (o in board.adjacent[spot]) for o in image):
                found = extend({**image, spot: b})
                if found:
                    return found
        return None

    return extend({})


@pytest.mark.parametrize("key", [k for k in BOXED if k != "caribbean"])
def test_both_sides_mirror_each_other(key: str) -> None:
    assert _mirror(TERRAINS[key]) is not None


def test_caribbean_is_asymmetric() -> None:
    assert _mirror(TERRAINS["caribbean"]) is None
