"""Boards as pictures: a small SVG tree a game builds from a seat's view, for the web page.

A game implements ``gamehall_draw_board`` and returns a :class:`Drawing` made with
:func:`shape`; the web adapter writes it as SVG, escaping every text and attribute, so a game
never writes markup itself and nothing a game or player supplies can become a script. A shape
given ``commands`` is a place a person can click (or reach with the keyboard) to send one of
them; a shape with several asks which.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from typing import Any

import msgspec

from .events import Command

# The elements and attributes a drawing may use: enough for boards, nothing that loads or runs.
ELEMENTS = frozenset(
    {
        "svg", "g", "rect", "circle", "ellipse", "line", "polyline", "polygon", "path",
        "text", "tspan", "title", "defs", "pattern", "linearGradient", "radialGradient",
        "stop", "clipPath",
    }
)  # fmt: skip
ATTRIBUTES = frozenset(
    {
        "x", "y", "x1", "y1", "x2", "y2", "cx", "cy", "r", "rx", "ry", "width", "height",
        "points", "d", "fill", "stroke", "stroke-width", "stroke-dasharray", "stroke-linecap",
        "stroke-linejoin", "opacity", "fill-opacity", "stroke-opacity", "transform",
        "font-size", "font-weight", "font-family", "font-style", "text-anchor",
        "dominant-baseline", "viewBox", "id", "class", "offset", "stop-color", "stop-opacity",
        "patternUnits", "gradientUnits", "clip-path", "rotate", "dx", "dy", "letter-spacing",
        "paint-order", "preserveAspectRatio",
    }
)  # fmt: skip


class Shape(msgspec.Struct, frozen=True, gc=False):
    """One SVG element: its tag, attributes, text, children and the commands it sends."""

    tag: str
    attrs: tuple[tuple[str, str], ...] = ()
    text: str = ""
    children: tuple[Shape, ...] = ()
    commands: tuple[Command, ...] = ()
    label: str = ""
    """What a clickable shape is, for the keyboard and screen readers ("spot 14")."""


class Drawing(msgspec.Struct, frozen=True, gc=False):
    """A board drawn for one seat: the SVG root and a caption in words."""

    root: Shape
    caption: str = ""


def _attr_name(name: str) -> str:
    name = name.rstrip("_").replace("_", "-")
    return "viewBox" if name == "viewbox" else name


def shape(
    tag: str,
    *children: Shape | None,
    text: str = "",
    commands: Iterable[Command] = (),
    label: str = "",
    **attrs: Any,
) -> Shape:
    """Return an SVG element; ``stroke_width=2`` is ``stroke-width``, ``class_`` is ``class``.

    ``None`` children are left out, so optional parts read inline; ``None`` attributes too.
    """
    if tag not in ELEMENTS:
        raise ValueError(f"a drawing may not use the element {tag!r}")
    pairs = []
    for key, value in attrs.items():
        if value is None:
            continue
        name = _attr_name(key)
        if name not in ATTRIBUTES:
            raise ValueError(f"a drawing may not use the attribute {name!r}")
        pairs.append((name, _number(value) if isinstance(value, float) else str(value)))
    kept = tuple(child for child in children if child is not None)
    return Shape(tag, tuple(pairs), text, kept, tuple(commands), label)


def _number(value: float) -> str:
    return f"{value:.2f}".rstrip("0").rstrip(".")


def group(*children: Shape | None, **attrs: Any) -> Shape:
    """Return a ``g`` element of the given children."""
    return shape("g", *children, **attrs)


def hexagon(x: float, y: float, size: float) -> str:
    """Return the ``points`` of a pointy-topped hexagon at ``(x, y)``, ``size`` to a corner."""
    corners = [
        (
            x + size * math.cos(math.radians(60 * i - 30)),
            y + size * math.sin(math.radians(60 * i - 30)),
        )
        for i in range(6)
    ]
    return " ".join(f"{a:.1f},{b:.1f}" for a, b in corners)


def hex_centre(q: int, r: int, size: float) -> tuple[float, float]:
    """Return the centre of the pointy-topped hexagon at axial ``(q, r)``, hex ``(0, 0)`` at the origin.

    ``size`` is the centre-to-corner distance, as for :func:`hexagon`, so neighbouring hexagons
    drawn at these centres share their edges; ``r`` grows downwards.
    """
    return size * math.sqrt(3) * (q + r / 2), size * 1.5 * r


def label(x: float, y: float, words: str, size: float = 12, **attrs: Any) -> Shape:
    """Return a centred text."""
    attrs.setdefault("text_anchor", "middle")
    attrs.setdefault("dominant_baseline", "central")
    return shape("text", text=words, x=x, y=y, font_size=size, **attrs)


def canvas(width: float, height: float, *children: Shape | None, title: str = "") -> Shape:
    """Return the root ``svg`` element of a board ``width`` by ``height`` units."""
    heading = shape("title", text=title) if title else None
    return shape("svg", heading, *children, viewBox=f"0 0 {_number(width)} {_number(height)}")


def size(root: Shape) -> tuple[float, float]:
    """Return the width and height of a drawing's root, from its ``viewBox``."""
    box = dict(root.attrs).get("viewBox", "0 0 0 0").split()
    return float(box[2]), float(box[3])


def extend(drawing: Drawing, height: float, *band: Shape | None, caption: str = "") -> Drawing:
    """Return a drawing ``height`` units taller, with ``band`` drawn in the new part below.

    An expansion that wraps a game's ``gamehall_draw_board`` uses it to add its own parts
    (cards, a track) under the game's board; ``band`` is placed as if its top were 0.
    """
    width, old = size(drawing.root)
    kept = [c for c in drawing.root.children if c.tag != "title"]
    titles = [c for c in drawing.root.children if c.tag == "title"]
    below = shape("g", *band, transform=f"translate(0 {_number(old)})")
    root = shape(
        "svg", *titles, *kept, below, viewBox=f"0 0 {_number(width)} {_number(old + height)}"
    )
    text = " ".join(t for t in (drawing.caption, caption) if t)
    return Drawing(root, text)


def mapped(root: Shape) -> list[Command]:
    """Return every command some shape of the drawing sends."""
    found: list[Command] = []
    stack = [root]
    while stack:
        node = stack.pop()
        found.extend(node.commands)
        stack.extend(node.children)
    return found


__all__ = ["Drawing", "Shape", "canvas", "extend", "group", "label", "mapped", "shape", "size"]
