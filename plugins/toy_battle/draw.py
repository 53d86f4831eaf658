"""Draw a Toy Battle view as a picture: the terrain's spots and paths, regions with their
medals, the stacks' top troops, both racks (the other one face down) and the supplies.

Every legal command is a place on the board: a spot takes the troops that may be placed or
moved there, a troop on the board is the target of the waiting effect, the supply draws.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from gamehall.core import Command
from gamehall.core.drawing import Drawing, Shape, canvas, group, label, shape
from gamehall.core.words import plural

from . import words
from .commands import ChooseTarget, DrawTroops, MoveTroop, PlaceTroop
from .terrain import Board
from .troops import Army
from .view import PlayerView, View

WIDTH, MAP_TOP, MAP_HEIGHT, STRIP = 1000.0, 160.0, 620.0, 120.0
HEIGHT = MAP_TOP + MAP_HEIGHT + STRIP + 10
INK = {"blue": "#1f5fa8", "red": "#c0392b"}
PALE = {"blue": "#d6e6f7", "red": "#f7dcd8"}
GROUND = {
    "castle": "#e9e2c8", "pool": "#cfe8ee", "clouds": "#e4ecf5", "jungle": "#d5e6c8",
    "cemetery": "#dcd8e4", "caribbean": "#d2e9e3", "metal-x": "#dde0e3", "battlefield": "#eadccc",
}  # fmt: skip


def _at(board: Board) -> dict[int, tuple[float, float]]:
    return {
        s.id: (40 + s.left * (WIDTH - 80) / 100, MAP_TOP + 20 + s.top * (MAP_HEIGHT - 40) / 100)
        for s in board.terrain.spots
    }


def _hull(points: list[tuple[float, float]]) -> str:
    cx = sum(p[0] for p in points) / len(points)
    cy = sum(p[1] for p in points) / len(points)
    ordered = sorted(points, key=lambda p: math.atan2(p[1] - cy, p[0] - cx))
    return " ".join(f"{x:.1f},{y:.1f}" for x, y in ordered)


def _regions(view: View, board: Board, at: dict[int, tuple[float, float]]) -> Shape:
    parts = []
    for region, shown in zip(board.terrain.regions, view.regions, strict=False):
        points = [at[b] for b in region.bases if b in at]
        if len(points) < 3:
            continue
        cx = sum(p[0] for p in points) / len(points)
        cy = sum(p[1] for p in points) / len(points)
        taker = view.players[shown.taken_by].colour if shown.taken_by is not None else None
        fill = PALE[taker] if taker else "#fffdf4"
        text = (
            f"{words.colour_name(view, shown.taken_by)} ✓" if shown.taken_by is not None
            else plural(region.medals, "medal")
        )  # fmt: skip
        parts.append(group(
            shape("polygon", points=_hull(points), fill=fill, fill_opacity=0.75,
                  stroke="#b9ae8f", stroke_dasharray="6 4"),
            shape("circle", cx=cx, cy=cy, r=24, fill="#f2c14e" if not taker else INK[taker],
                  stroke="#8a6d1d"),
            label(cx, cy, str(region.medals) if not taker else "✓", 18, font_weight="bold",
                  fill="#3d2c00" if not taker else "#fff"),
            shape("title", text=f"region of bases {', '.join(map(str, region.bases))}: {text}"),
            class_="region",
        ))  # fmt: skip
    return group(*parts)


def _paths(board: Board, at: dict[int, tuple[float, float]]) -> Shape:
    lines = [
        shape("line", x1=at[a][0], y1=at[a][1], x2=at[b][0], y2=at[b][1], stroke="#8c8163",
              stroke_width=5, stroke_linecap="round")
        for a, others in board.adjacent.items() for b in others if a < b and a in at and b in at
    ]  # fmt: skip
    return group(*lines)


def _tile(view: View, army: Army, troop: str, x: float, y: float, size: float = 58) -> Shape:
    kind = army.kind.get(troop)
    colour = army.colour.get(troop, "blue")
    strength = "?" if kind is None else ("★" if kind.strength is None else str(kind.strength))
    name = kind.name if kind else "?"
    half = size / 2
    return group(
        shape("rect", x=x - half, y=y - half, width=size, height=size, rx=9, fill=INK[colour],
              stroke="#fff", stroke_width=3),
        label(x, y - 6, strength, size * 0.42, font_weight="bold", fill="#fff"),
        label(x, y + half * 0.62, name, size * 0.19, fill="#fff"),
        shape("title", text=words.troop_name(view, troop)),
        id=f"troop-{troop}", class_="troop",
    )  # fmt: skip


def _spot_commands(legal: Sequence[Command], spot: int) -> list[Command]:
    return [
        c for c in legal
        if (isinstance(c, PlaceTroop) and c.spot == spot) or (isinstance(c, MoveTroop) and c.to == spot)
    ]  # fmt: skip


def _spot(
    view: View,
    army: Army,
    board: Board,
    spot: int,
    xy: tuple[float, float],
    legal: Sequence[Command],
) -> Shape:
    x, y = xy
    owner = board.hq_owner.get(spot)
    stack = view.stacks.get(spot, ())
    commands = _spot_commands(legal, spot)
    special = view.special_bases and (
        spot in board.effect_at or spot in board.muted or spot in board.allowed
    )
    if owner:
        base = shape(
            "rect",
            x=x - 44,
            y=y - 34,
            width=88,
            height=68,
            rx=6,
            fill=PALE[owner],
            stroke=INK[owner],
            stroke_width=4,
        )
        tag = label(x, y + 44, "HQ", 13, font_weight="bold", fill=INK[owner])
    else:
        base = shape(
            "circle",
            cx=x,
            cy=y,
            r=38,
            fill="#fff",
            stroke="#6b5f45",
            stroke_width=5 if special else 3,
            stroke_dasharray="5 3" if special else None,
        )
        tag = label(x, y + 47, str(spot) + (" ★" if special else ""), 13, fill="#4a4030")
    top = _tile(view, army, stack[-1], x, y) if stack else None
    depth = (
        shape(
            "g",
            # A badge of its own, so that the count reads over the lines and stays in its box.
            shape(
                "rect",
                x=x + 16,
                y=y - 40,
                width=30,
                height=20,
                rx=10,
                fill="#fff",
                stroke="#222",
                stroke_width=1.5,
            ),
            label(x + 31, y - 30, f"×{len(stack)}", 13, font_weight="bold", fill="#222"),
        )
        if len(stack) > 1
        else None
    )
    ring = (
        shape(
            "circle",
            cx=x,
            cy=y,
            r=44,
            fill="none",
            stroke="#f4a100",
            stroke_width=5,
            stroke_dasharray="8 5",
        )
        if commands
        else None
    )
    return group(base, ring, top, depth, tag, shape("title", text=words.spot_name(view, spot)),
                 commands=commands, label=words.cap(words.spot_name(view, spot)))  # fmt: skip


def _targets(view: View, legal: Sequence[Command], at: dict[int, tuple[float, float]]) -> Shape:
    marks = []
    for spot, stack in view.stacks.items():
        if not stack or spot not in at:
            continue
        chosen = [
            c for c in legal if isinstance(c, (ChooseTarget, MoveTroop)) and c.troop == stack[-1]
        ]
        if chosen:
            x, y = at[spot]
            marks.append(shape("rect", x=x - 33, y=y - 33, width=66, height=66, rx=10,
                               fill="#f4a100", fill_opacity=0.25, stroke="#f4a100", stroke_width=4,
                               commands=chosen,
                               label=f"{words.troop_name(view, stack[-1])} on spot {spot}"))  # fmt: skip
    return group(*marks)


def _strip(view: View, army: Army, player: PlayerView, y: float, legal: Sequence[Command]) -> Shape:
    colour = player.colour
    you = " (you)" if player.seat == view.seat else ""
    name = words.colour_name(view, player.seat) + you
    head = f"{name} · {plural(player.medals, 'medal')} of {view.medal_target}"
    tiles: list[Shape | None] = []
    x = 250.0
    if player.rack is not None:
        down = set(player.face_down_troops or ())
        for troop in player.rack:
            placing = [c for c in legal if isinstance(c, PlaceTroop) and c.troop == troop]
            tile = _tile(view, army, troop, x, y + 62, 70)
            veil = (
                shape(
                    "rect",
                    x=x - 35,
                    y=y + 27,
                    width=70,
                    height=70,
                    rx=9,
                    fill="#000",
                    fill_opacity=0.35,
                )
                if troop in down
                else None
            )
            tiles.append(group(tile, veil, commands=placing,
                               label=f"your {words.kind_label(view, troop)}"))  # fmt: skip
            x += 80
    else:
        known = list(player.known)
        for index in range(player.rack_size):
            if index < len(known):
                tiles.append(_tile(view, army, known[index], x, y + 62, 70))
            else:
                tiles.append(group(
                    shape("rect", x=x - 35, y=y + 27, width=70, height=70, rx=9, fill=INK[colour],
                          fill_opacity=0.55, stroke="#fff", stroke_width=3),
                    label(x, y + 62, "?", 30, fill="#fff", font_weight="bold"),
                    shape("title", text="a hidden troop"), class_="hidden-troop",
                ))  # fmt: skip
            x += 80
    draw = [c for c in legal if isinstance(c, DrawTroops)] if player.seat == view.seat else []
    supply = group(
        shape("rect", x=30, y=y + 30, width=80, height=64, rx=8, fill=INK[colour], fill_opacity=0.3,
              stroke=INK[colour], stroke_width=3 if not draw else 5),
        label(70, y + 52, str(player.supply), 24, font_weight="bold", fill=INK[colour]),
        label(70, y + 80, "supply", 12, fill=INK[colour]),
        commands=draw, label="draw from your supply" if draw else "",
    )  # fmt: skip
    rack_words = (
        "rack" if player.rack is not None else f"rack · {plural(player.rack_size, 'troop')}, hidden"
    )
    return group(
        shape("rect", x=10, y=y, width=WIDTH - 20, height=STRIP - 6, rx=10, fill=PALE[colour],
              stroke=INK[colour], stroke_width=4 if view.turn == player.seat and not view.over else 1),
        label(130, y + 16, head, 16, text_anchor="start", font_weight="bold", fill=INK[colour]),
        label(WIDTH - 30, y + 16, rack_words, 13, text_anchor="end", fill=INK[colour]),
        supply, *tiles, class_=f"strip strip-{colour}",
    )  # fmt: skip


def draw(view: View, seat: int | None, legal: Sequence[Command]) -> Drawing | None:
    """Return the picture of a view, or ``None`` for a terrain not of the box."""
    board = words.board_of(view)
    if board is None:
        return None
    army = words.army_of(view)
    at = _at(board)
    top, bottom = sorted(view.players, key=lambda p: 0 if p.colour == "red" else 1)
    spots = [_spot(view, army, board, s, at[s], legal) for s in board.spot_ids if s in at]
    title = f"Toy Battle on {view.terrain_name}"
    root = canvas(
        WIDTH, HEIGHT,
        shape("rect", x=0, y=0, width=WIDTH, height=HEIGHT, fill="#faf7f0"),
        _strip(view, army, top, 4, legal),
        shape("rect", x=10, y=MAP_TOP, width=WIDTH - 20, height=MAP_HEIGHT, rx=14,
              fill=GROUND.get(view.terrain, "#e9e2c8"), stroke="#b9ae8f"),
        label(20, MAP_TOP - 18, title, 18, text_anchor="start", font_weight="bold", fill="#4a4030"),
        label(WIDTH - 20, MAP_TOP - 18, f"discard pile: {len(view.discard)}", 14,
              text_anchor="end", fill="#4a4030"),
        _regions(view, board, at), _paths(board, at), group(*spots), _targets(view, legal, at),
        _strip(view, army, bottom, MAP_TOP + MAP_HEIGHT + 6, legal),
        title=title,
    )  # fmt: skip
    return Drawing(root, caption=_caption(view, board))


def _caption(view: View, board: Board) -> str:
    specials = [f"{words.BASE_NAMES.get(e, e)} bases: {', '.join(map(str, sorted(s for s, x in board.effect_at.items() if x == e)))}"
                for e in sorted(set(board.effect_at.values()))]  # fmt: skip
    if not view.special_bases:
        specials = ["special bases are off in this match"]
    return f"Spots marked ★ are special. {'; '.join(specials)}." if specials else ""
