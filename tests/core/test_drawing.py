"""The drawing helpers games share."""

from __future__ import annotations

import math

from gamehall.core.drawing import hex_centre, hexagon


def test_a_hexagon_has_six_corners_at_its_size_from_the_centre() -> None:
    corners = [tuple(map(float, point.split(","))) for point in hexagon(10, 20, 5).split()]
    assert len(corners) == 6
    assert all(math.isclose(math.dist(corner, (10, 20)), 5, abs_tol=0.1) for corner in corners)
    assert (10.0, 15.0) in corners  # pointy-topped: a corner straight above the centre


def test_neighbouring_hex_centres_are_one_hexagon_width_apart() -> None:
    assert hex_centre(0, 0, 10) == (0.0, 0.0)
    width = 10 * math.sqrt(3)  # pointy-topped: flat sides left and right
    assert hex_centre(1, 0, 10) == (width, 0.0)
    assert hex_centre(0, 1, 10) == (width / 2, 15.0)  # the row below, half a hexagon right
    assert hex_centre(-1, 1, 10) == (-width / 2, 15.0)
    for q, r in ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1)):
        assert math.isclose(math.dist(hex_centre(q, r, 10), (0, 0)), width)
