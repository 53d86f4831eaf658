"""The patrons on River of Gold's board: each clan's patron, and the offer to choose from."""

from __future__ import annotations

import textwrap
from collections.abc import Sequence

from gamehall.core import Command, drawing
from gamehall.plugins.river_of_gold.api import State, clan_ink

from .commands import ChoosePatron
from .components import PATRONS
from .state import offered, patron_of

PER_ROW, CARD_W, CARD_H = 3, 370.0, 100.0


def _card(patron: str, x: float, y: float, ink: str, commands: Sequence[Command]) -> drawing.Shape:
    card = PATRONS.get(patron)
    name = f"{card.name} ({card.clan.capitalize()})" if card else patron
    ability = card.ability if card else ""
    lines = textwrap.wrap(ability, 60)[:4]
    return drawing.group(
        drawing.shape("rect", x=x, y=y, width=CARD_W - 12, height=CARD_H - 10, rx=8, fill="#fffaf0",
              stroke=ink, stroke_width=5 if commands else 2),
        drawing.label(x + 10, y + 16, name, 13, text_anchor="start", font_weight="bold", fill=ink),
        *[drawing.label(x + 10, y + 36 + i * 14, line, 10.5, text_anchor="start", fill="#333")
          for i, line in enumerate(lines)],
        drawing.shape("title", text=f"{name}: {ability}"),
        commands=commands, label=f"choose {name}",
    )  # fmt: skip


def cards(
    view: State, seat: int | None, legal: Sequence[Command]
) -> list[tuple[str, str, list[Command]]]:
    """Return the patrons to show: each clan's chosen one, then the asking seat's offer."""
    shown: list[tuple[str, str, list[Command]]] = []
    for other in range(len(view.players)):
        patron = patron_of(view, other)
        if patron is not None:
            shown.append((patron, clan_ink(other), []))
    if seat is not None and patron_of(view, seat) is None:
        for patron in offered(view, seat):
            choose: list[Command] = [
                c for c in legal if isinstance(c, ChoosePatron) and c.patron == patron
            ]
            shown.append((patron, clan_ink(seat), choose))
    return shown


def add_cards(
    board: drawing.Drawing, view: State, seat: int | None, legal: list[Command]
) -> drawing.Drawing:
    """Add a band of patron cards under River of Gold's board."""
    shown = cards(view, seat, legal)
    if not shown:
        return board
    laid = [
        _card(patron, 20 + (i % PER_ROW) * CARD_W, 30 + (i // PER_ROW) * CARD_H, ink, choose)
        for i, (patron, ink, choose) in enumerate(shown)
    ]
    rows = -(-len(shown) // PER_ROW)
    width, _ = drawing.size(board.root)
    ground = drawing.shape("rect", width=width, height=40 + rows * CARD_H, fill="#efe6cf")
    head = drawing.label(30, 14, "Patrons", 15, text_anchor="start", font_weight="bold")
    return drawing.extend(board, 40 + rows * CARD_H, ground, head, *laid)
