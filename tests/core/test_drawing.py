"""The drawing helpers games share."""

from __future__ import annotations

import math

from gamehall.core.drawing import hexagon


def test_a_hexagon_has_six_corners_at_its_size_from_the_centre() -> None:
    corners = [tuple(map(float, point.split(","))) for point in hexagon(10, 20, 5).split()]
    assert len(corners) == 6
    assert all(math.isclose(math.dist(corner, (10, 20)), 5, abs_tol=0.1) for corner in corners)
    assert (10.0, 15.0) in corners  # pointy-topped: a corner straight above the centre
