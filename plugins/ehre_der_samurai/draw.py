"""Draw an Ehre der Samurai view as a picture: each province's Daimyo and Samurai houses with
their cards, honour and hand, the Shogun, the fight or insult under way, and the seat's hand.

A card in the seat's hand takes the commands that play, discard or send it; a house takes the
cards that may be played into it; a province's name takes attacks and alliances against it.
"""

from __future__ import annotations

import textwrap
from collections.abc import Sequence

from gamehall.core import Command
from gamehall.core.drawing import Drawing, Shape, canvas, group, label, shape
from gamehall.core.words import plural

from .cards import card
from .naming import house_name, name, province
from .naming import label as card_label
from .view import PlayerView, View

WIDTH, BOARD_W, BOARD_H = 1100.0, 350.0, 250.0
INK = ("#1f5fa8", "#c0392b", "#2e7d32", "#8e44ad", "#d35400", "#16a085")
KIND_FILL = {"daimyo": "#f5d76e", "samurai": "#f0b27a", "okugata": "#f5b7b1", "warrior": "#d5dbdb",
             "castle": "#aeb6bf"}  # fmt: skip


def _name_lines(text: str, x: float, y: float, w: float) -> list[Shape]:
    """Return a card's whole name on up to three lines that fit the card's width."""
    big = w >= 90
    size = 10.5 if big else 8.0
    lines = textwrap.wrap(text, max(4, int((w - 6) / (size * (0.62 if big else 0.6))))) or [""]
    step = size + 1.5
    top = y + 20 - step * (len(lines) - 1) / 2 - (3 if len(lines) > 2 else 0)
    return [
        label(x, top + i * step, line, size, font_weight="bold" if big else None, fill="#2c2416")
        for i, line in enumerate(lines)
    ]


def _card(token: str, x: float, y: float, commands: Sequence[Command] = (), w: float = 96) -> Shape:
    found = card(token)
    kind = found.kind if found is not None else ""
    title = card_label(token)
    values = f"{found.honour}/{found.ki}/{found.strength}" if found is not None else ""
    return group(
        shape("rect", x=x, y=y, width=w, height=62, rx=6, fill=KIND_FILL.get(kind, "#e8daef"),
              stroke="#f4a100" if commands else "#5d4e37", stroke_width=4 if commands else 1.2),
        *_name_lines(name(token).replace("Daimyo ", ""), x + w / 2, y, w),
        label(x + w / 2, y + 48, values, 12, fill="#2c2416"),
        shape("title", text=title),
        commands=commands, label=title,
    )  # fmt: skip


def _house(
    view: View, p: PlayerView, house: str, x: float, y: float, legal: Sequence[Command]
) -> Shape:
    leader = p.daimyo if house == "daimyo" else p.samurai
    cards = (
        *((leader,) if leader else ()),
        *(p.daimyo_house if house == "daimyo" else p.samurai_house),
    )
    into = [
        c
        for c in legal
        if getattr(c, "owner", None) == p.seat and getattr(c, "house", None) == house
    ]
    shown = [_card(t, x + 8 + i * 54, y + 20, w=50) for i, t in enumerate(dict.fromkeys(cards[:6]))]
    return group(
        shape("rect", x=x, y=y, width=BOARD_W - 20, height=88, rx=8, fill="#fffdf7",
              stroke="#f4a100" if into else "#c9bfa6", stroke_width=4 if into else 1),
        label(x + 8, y + 10, f"{house.capitalize()} house", 10, text_anchor="start", fill="#6b5d40"),
        *shown,
        commands=into, label=house_name(p.seat, house, view.seat),  # type: ignore[arg-type]
    )  # fmt: skip


def _board(view: View, p: PlayerView, x: float, y: float, legal: Sequence[Command]) -> Shape:
    ink = INK[p.seat % len(INK)]
    you = " (you)" if p.seat == view.seat else ""
    shogun = " · Shogun" if view.shogun == p.seat else ""
    ally = f" · allied with {province(p.ally)}" if p.ally is not None else ""
    at_them = [
        c
        for c in legal
        if getattr(c, "target", None) == p.seat or getattr(c, "victim", None) == p.seat
    ]
    active = view.turn == p.seat and view.winner is None
    return group(
        shape("rect", x=x, y=y, width=BOARD_W, height=BOARD_H, rx=12, fill="#fbf7ee", stroke=ink,
              stroke_width=5 if active else 2),
        group(
            shape("rect", x=x + 8, y=y + 6, width=BOARD_W - 16, height=28, rx=6, fill=ink,
                  opacity=0.12 if not at_them else 0.3, stroke="#f4a100" if at_them else None,
                  stroke_width=3 if at_them else None),
            label(x + 16, y + 20, f"{province(p.seat)}{you}{shogun}", 15, text_anchor="start",
                  font_weight="bold", fill=ink),
            label(x + BOARD_W - 16, y + 20, f"{p.honour} honour", 14, text_anchor="end",
                  font_weight="bold", fill="#333"),
            commands=at_them, label=f"{province(p.seat)}: attack or ally",
        ),
        _house(view, p, "daimyo", x + 10, y + 42, legal),
        _house(view, p, "samurai", x + 10, y + 136, legal),
        label(x + 16, y + BOARD_H - 14, f"{plural(p.hand_size, 'card')} in hand{ally}", 11,
              text_anchor="start", fill="#555"),
    )  # fmt: skip


def _hand(view: View, y: float, legal: Sequence[Command]) -> Shape | None:
    if view.seat is None:
        return None
    me = view.players[view.seat]
    if me.hand is None:
        return None
    cards = [
        _card(t, 20 + i * 104, y + 24, [c for c in legal if getattr(c, "card", None) == t])
        for i, t in enumerate(me.hand[:10])
    ]
    return group(
        label(20, y + 10, "Your hand", 15, text_anchor="start", font_weight="bold"), *cards
    )


def draw(view: View, seat: int | None, legal: Sequence[Command]) -> Drawing:
    """Return the picture of a seat's view."""
    per_row = 3
    boards = [
        _board(
            view,
            p,
            20 + (i % per_row) * (BOARD_W + 10),
            50 + (i // per_row) * (BOARD_H + 12),
            legal,
        )
        for i, p in enumerate(view.players)
    ]
    rows = -(-len(view.players) // per_row)
    hand_top = 50 + rows * (BOARD_H + 12)
    hand = _hand(view, hand_top, legal)
    height = hand_top + (100 if hand is not None else 0)
    top = f"round {view.round} · deck {view.deck_size} · discard {len(view.discard)}"
    if view.fight is not None:
        top += f" · fight: {province(view.fight.attacker)} attacks {province(view.fight.defender)}"
    root = canvas(
        WIDTH, height,
        shape("rect", width=WIDTH, height=height, fill="#efe7d6"),
        label(20, 24, "Ehre der Samurai", 17, text_anchor="start", font_weight="bold", fill="#4a3b22"),
        label(WIDTH - 20, 24, top, 13, text_anchor="end", fill="#4a3b22"),
        *boards, hand, title="Ehre der Samurai",
    )  # fmt: skip
    return Drawing(root, "Card values read honour/ki/strength.")
