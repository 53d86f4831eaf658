"""Draw a Generals of Kaladan view as a picture: the hex world with its terrain, castles and
armies, each realm's gold, reserve and hand, and the battle being fought.

A tile takes every command aimed at it (castle, spawn, move, attack, shift); other commands
are listed beside the board.
"""

from __future__ import annotations

import textwrap
from collections import Counter
from collections.abc import Sequence

from gamehall.core import Command
from gamehall.core.drawing import Drawing, Shape, canvas, group, hex_centre, hexagon, label, shape
from gamehall.core.words import plural

from .components import kind_of
from .state import NOBODY
from .view import View
from .words import catalogue, kind_name, seat_name
from .world import capacity

WIDTH, HEX = 1100.0, 70.0
INK = ("#1f5fa8", "#c0392b", "#2e7d32", "#8e44ad")
GROUND = {"field": "#e6d98c", "forest": "#7fae6a", "mountain": "#a9a39a"}
TILE_FIELDS = ("tile", "to", "target", "origin")


def _aimed(legal: Sequence[Command], tile: int) -> list[Command]:
    # A move or an attack is drawn on the tile it goes to; its origin is in the words.
    out = []
    for command in legal:
        target = next((getattr(command, f) for f in TILE_FIELDS[:3] if hasattr(command, f)), None)
        if target == tile:
            out.append(command)
    return out


def _tile(view: View, tile: int, x: float, y: float, legal: Sequence[Command]) -> Shape:
    state = view.state
    cat = catalogue()
    key = state.terrain[tile]
    terrain = cat.terrains.get(key)
    holder = state.holder[tile]
    aimed = _aimed(legal, tile)
    castle = state.castles.get(tile)
    parts: list[Shape | None] = [
        shape("polygon", points=hexagon(x, y, HEX - 2), fill=GROUND.get(key, "#ddd"),
              stroke="#f4a100" if aimed else (INK[holder % 4] if holder != NOBODY else "#6b6250"),
              stroke_width=6 if aimed or holder != NOBODY else 2),
        label(x, y - HEX * 0.62, f"{tile} · {terrain.name if terrain else key}", 12, fill="#2d2a20"),
        label(x, y + HEX * 0.78, f"{len(state.board[tile])}/{capacity(cat, state, tile)}", 10,
              fill="#2d2a20") if terrain else None,
    ]  # fmt: skip
    if castle is not None:
        parts.append(shape("path", d=f"M{x - 16},{y - 20} h32 v-14 h-6 v6 h-6 v-6 h-8 v6 h-6 v-6 h-6 z",
                           fill=INK[castle % 4], stroke="#fff", stroke_width=1.5))  # fmt: skip
    counts = Counter(kind_of(u) for u in state.board[tile])
    upgraded = set(state.upgraded)
    for n, (kind, number) in enumerate(sorted(counts.items())):
        cx, cy = x - 36 + (n % 3) * 36, y + 6 + (n // 3) * 30
        plus = any(u in upgraded for u in state.board[tile] if kind_of(u) == kind)
        parts.append(shape("circle", cx=cx, cy=cy, r=14, fill=INK[holder % 4] if holder != NOBODY else "#555",
                           stroke="#f1c40f" if plus else "#fff", stroke_width=3 if plus else 1.5))  # fmt: skip
        parts.append(
            label(cx, cy, kind_name(kind)[:2].capitalize(), 10, font_weight="bold", fill="#fff")
        )
        if number > 1:
            parts.append(label(cx + 12, cy - 12, f"×{number}", 10, font_weight="bold", fill="#111"))
    units = ", ".join(f"{n} {kind_name(k)}" for k, n in counts.items()) or "no units"
    who = seat_name(view, holder) if holder != NOBODY else "nobody"
    if terrain is not None:
        cap = capacity(cat, state, tile)
        units += f" ({len(state.board[tile])} of the {cap} units it holds)"
    parts.append(shape("title", text=f"tile {tile}, {key}, held by {who}: {units}"))
    return group(*parts, commands=aimed, label=f"tile {tile} ({key})")


def _realm(view: View, seat: int, x: float, y: float) -> Shape:
    state = view.state
    ink = INK[seat % 4]
    you = " (you)" if seat == view.seat else ""
    reserve = (
        Counter(kind_name(kind_of(u)) for u in state.reserve[seat])
        if seat < len(state.reserve)
        else Counter()
    )
    text = ", ".join(f"{n} {k}" for k, n in reserve.items()) or "none"
    alive = state.alive[seat] if seat < len(state.alive) else True
    hand = view.hand_sizes[seat] if seat < len(view.hand_sizes) else 0
    dead = len(state.graveyard[seat]) if seat < len(state.graveyard) else 0
    active = seat == state.turn
    return group(
        shape("rect", x=x, y=y, width=250, height=124, rx=10, fill="#fbfaf6", stroke=ink,
              stroke_width=5 if active else 2, opacity=1 if alive else 0.5),
        label(x + 10, y + 16, seat_name(view, seat) + you + ("" if alive else " · defeated"), 15,
              text_anchor="start", font_weight="bold", fill=ink),
        label(x + 10, y + 42, f"{state.gold[seat] if seat < len(state.gold) else 0} gold · "
              f"{hand} magic card{'s' if hand != 1 else ''}", 12, text_anchor="start", fill="#333"),
        *[label(x + 10, y + 62 + i * 14, line, 11, text_anchor="start", fill="#333")
          for i, line in enumerate(textwrap.wrap(f"reserve: {text}", 36))],
        label(x + 10, y + 110, f"graveyard: {plural(dead, 'unit')}", 11,
              text_anchor="start", fill="#333"),
    )  # fmt: skip


def draw(view: View, seat: int | None, legal: Sequence[Command]) -> Drawing | None:
    """Return the picture of a seat's view, or ``None`` before the world is laid."""
    state = view.state
    world = catalogue().worlds.get(state.players)
    if world is None or len(state.terrain) < len(world.cells):
        return None
    centres = [hex_centre(q, r, HEX) for q, r in (tuple(c) for c in world.cells)]
    left = min(x for x, _ in centres) - HEX
    top = min(y for _, y in centres) - HEX
    bottom = max(y for _, y in centres) + HEX
    shift = (WIDTH * 0.62 - (max(x for x, _ in centres) + HEX - left)) / 2
    tiles = [
        _tile(view, t, x - left + shift, y - top + 50, legal) for t, (x, y) in enumerate(centres)
    ]
    realms = [_realm(view, s, WIDTH - 280, 50 + s * 136) for s in range(state.players)]
    height = max(bottom - top + 80, 60 + state.players * 136)
    battle = None
    if state.battle is not None:
        a, b = state.battle.seats
        battle = label(20, height - 16, f"Battle: {seat_name(view, a)} attacks {seat_name(view, b)} "
                       f"(tile {state.battle.tiles[0]} → {state.battle.tiles[1]}), {state.battle.step}",
                       14, text_anchor="start", font_weight="bold", fill="#8b1a1a")  # fmt: skip
    root = canvas(
        WIDTH, height,
        shape("rect", width=WIDTH, height=height, fill="#eef0e4"),
        label(20, 24, f"Generals of Kaladan · round {state.round}", 17, text_anchor="start",
              font_weight="bold", fill="#3a3a2a"),
        *tiles, *realms, battle, title="Generals of Kaladan",
    )  # fmt: skip
    return Drawing(
        root,
        "Discs are units by kind (two letters), ×N how many; a gold rim marks an upgraded unit; a tile's rim is its holder's colour.",
    )
