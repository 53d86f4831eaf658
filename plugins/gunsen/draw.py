"""Draw a Gunsen view as a picture: the hex map with forts, shrines, villages and armies, the
order row and each clan's board (columns of cards, resources, heroes).

A hex takes every command aimed at it (recruit, select, move, build, retreat), an order card
of the row is taken by a click; other commands are listed beside the board.
"""

from __future__ import annotations

from collections.abc import Sequence

from gamehall.core import Command
from gamehall.core.drawing import Drawing, Shape, canvas, group, hex_centre, hexagon, label, shape
from gamehall.core.words import plural

from .components import COLUMN_NAMES
from .names import box, card_text, seat_name, space_name
from .state import HIDDEN, State

WIDTH, HEX = 1100.0, 38.0
INK = ("#1f5fa8", "#c0392b", "#2e7d32", "#8e44ad", "#d35400")
TERRAIN = {
    "plain": "#e8e0c0", "fort": "#b0a090", "watchtower": "#c8b88a", "shrine": "#e7b8b0",
    "village": "#cfe0a8", "toshi_ranbo": "#f1c40f",
}  # fmt: skip
MARK = {
    "fort": "fort",
    "watchtower": "tower",
    "shrine": "shrine",
    "village": "village",
    "toshi_ranbo": "★",
}
CARD_FILL = {
    "blue": "#5d8fd1", "brown": "#a0764a", "red": "#d0605e", "green": "#6aa56a", "purple": "#8e6bb8",
}  # fmt: skip


def _centre(q: int, r: int, top: float) -> tuple[float, float]:
    x, y = hex_centre(q, r, HEX)
    return 300 + x, top + y


def _aimed(legal: Sequence[Command], space: int) -> list[Command]:
    return [
        c for c in legal if getattr(c, "space", None) == space or getattr(c, "to", None) == space
    ]


def _hex(view: State, index: int, x: float, y: float, legal: Sequence[Command]) -> Shape:
    board = box().boards[view.side]
    kind = board.kinds[index]
    aimed = _aimed(legal, index)
    parts: list[Shape | None] = [
        shape("polygon", points=hexagon(x, y, HEX - 1), fill=TERRAIN.get(kind, "#e8e0c0"),
              stroke="#f4a100" if aimed else "#8a7f60", stroke_width=4 if aimed else 1.5),
        label(x, y - HEX * 0.55, board.labels[index], 9, fill="#5a5038"),
    ]  # fmt: skip
    mark = MARK.get(kind)
    if kind == "village" and not dict(view.villages).get(index):
        mark = None
    if mark:
        parts.append(label(x, y - 6, mark, 16 if mark == "★" else 9, fill="#3d3420"))
    armies = [(s, row[index]) for s, row in enumerate(view.troops) if row[index]]
    for n, (seat, troops) in enumerate(armies):
        hero = any(w == index for _, w in view.players[seat].heroes)
        cx = x - 10 * (len(armies) - 1) + n * 20
        parts.append(shape("circle", cx=cx, cy=y + 10, r=11, fill=INK[seat % len(INK)],
                           stroke="#f1c40f" if hero else "#fff", stroke_width=3 if hero else 1.5))  # fmt: skip
        parts.append(label(cx, y + 10, str(troops), 11, font_weight="bold", fill="#fff"))
    parts.append(shape("title", text=space_name(view, index)))
    return group(*parts, commands=aimed, label=space_name(view, index))


def _row(view: State, top: float, legal: Sequence[Command]) -> Shape:
    cards: list[Shape | None] = [label(640, top, "Order row", 15, text_anchor="start",
                                       font_weight="bold", fill="#4a4030")]  # fmt: skip
    for index, card in enumerate(view.row):
        x, y = 640 + (index % 3) * 150, top + 18 + (index // 3) * 110
        colour = box().cards[card].colour if card in box().cards else "blue"
        taking = [
            c for c in legal if getattr(c, "card", None) == card and type(c).__name__ == "TakeCard"
        ]
        text = card_text(card)
        cards.append(group(
            shape("rect", x=x, y=y, width=140, height=100, rx=8, fill=CARD_FILL.get(colour, "#999"),
                  stroke="#f4a100" if taking else "#fff", stroke_width=4 if taking else 2),
            *[label(x + 70, y + 18 + i * 15, line, 10, fill="#fff")
              for i, line in enumerate(_wrap(text, 24)[:6])],
            shape("title", text=text), commands=taking, label=f"take {text}",
        ))  # fmt: skip
    cards.append(label(640, top + 250, f"deck {len(view.deck)} · discard {len(view.discard)}", 12,
                       text_anchor="start", fill="#4a4030"))  # fmt: skip
    return group(*cards)


def _wrap(text: str, width: int) -> list[str]:
    lines, line = [], ""
    for word in text.split():
        if line and len(line) + len(word) + 1 > width:
            lines.append(line)
            line = word
        else:
            line = f"{line} {word}".strip()
    return [*lines, line] if line else lines


def _clan(view: State, seat: int, x: float, y: float, asking: int | None) -> Shape:
    player = view.players[seat]
    ink = INK[seat % len(INK)]
    you = " (you)" if seat == asking else ""
    active = seat == view.turn and view.winner < 0
    columns = []
    for col, name in enumerate(COLUMN_NAMES):
        cx = x + 10 + col * 62
        stack = player.columns[col] if col < len(player.columns) else ()
        columns.append(group(
            shape("rect", x=cx, y=y + 58, width=56, height=60, rx=5, fill="#fff", stroke="#aaa"),
            label(cx + 28, y + 70, name, 9, fill="#555"),
            label(cx + 28, y + 96, str(len(stack)), 20, font_weight="bold", fill=ink),
        ))  # fmt: skip
    hand = len(player.hand)
    hidden = hand and player.hand[0] == HIDDEN
    return group(
        shape("rect", x=x, y=y, width=260, height=150, rx=10, fill="#fbfaf6", stroke=ink,
              stroke_width=5 if active else 2),
        label(x + 10, y + 16, seat_name(view, seat) + you, 15, text_anchor="start",
              font_weight="bold", fill=ink),
        label(x + 10, y + 34, f"{player.koku} koku · {player.wood} wood · {player.influence} "
              "influence", 11, text_anchor="start", fill="#333"),
        label(x + 10, y + 50, f"{player.supply} in supply", 11, text_anchor="start", fill="#333"),
        *columns,
        label(x + 10, y + 135, f"{plural(hand, 'tactic')} in hand"
              + (" (hidden)" if hidden else "")
              + f" · {plural(len(player.heroes), 'hero', 'heroes')}", 11,
              text_anchor="start", fill="#333"),
    )  # fmt: skip


def draw(view: State, seat: int | None, legal: Sequence[Command]) -> Drawing | None:
    """Return the picture of a seat's view, or ``None`` before the board side is known."""
    board = box().boards.get(view.side)
    if board is None:
        return None
    rows = [s.r for s in board.spaces]
    top = 80 + HEX * 1.5 * -min(rows)
    height_map = top + HEX * 1.5 * max(rows) + 60
    hexes = [_hex(view, i, *_centre(s.q, s.r, top), legal) for i, s in enumerate(board.spaces)]
    clans_top = max(height_map, 330)
    per_row = 4
    clans = [
        _clan(view, s, 20 + (s % per_row) * 270, clans_top + (s // per_row) * 160, seat)
        for s in range(view.count)
    ]
    height = clans_top + 160 * -(-max(view.count, 1) // per_row) + 10
    root = canvas(
        WIDTH, height,
        shape("rect", width=WIDTH, height=height, fill="#f3eee0"),
        label(20, 24, f"Gunsen · {board.name}", 17, text_anchor="start", font_weight="bold",
              fill="#4a4030"),
        *hexes, _row(view, 30, legal), *clans, title="Gunsen",
    )  # fmt: skip
    return Drawing(
        root,
        "★ is Toshi Ranbo; a village is marked while its face-down token lies there; discs are armies with their troops (gold rim: with a hero).",
    )
