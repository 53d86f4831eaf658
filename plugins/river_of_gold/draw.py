"""Draw a River of Gold view as a picture: the river with the clans' ships, the six regions of
the shore with their spaces and buildings, the row of tiles and each clan's holdings.

A space takes the builds that go there, a ship the sails it may make, a customer card in the
seat's hand its delivery; every other command is listed beside the board. An expansion adds
its own parts under the board by wrapping ``gamehall_draw_board`` (see ``drawing.extend``).
"""

from __future__ import annotations

from collections.abc import Sequence

from gamehall.core import Command
from gamehall.core.drawing import Drawing, Shape, canvas, group, label, shape

from .commands import Build, Deliver, DiscardCustomer, Sail
from .components import (
    COMPONENTS,
    CUSTOMERS,
    RIVER_LENGTH,
    SPACES,
    SPACES_BY_REGION,
    TILES,
    TOUCHES,
)
from .state import HIDDEN, Player, State
from .words import clan, customer_name, tile_kind

WIDTH = 1200.0
CLAN_INK = ("#1f5fa8", "#c0392b", "#2e7d32", "#8e44ad")
TYPE_FILL = {"port": "#5dade2", "market": "#f5b041", "manor": "#a569bd", "shrine": "#ec7063"}
GOODS = (("silk", "#d98cb3"), ("rice", "#e8dfc8"), ("porcelain", "#85c1e9"))
RIVER_TOP, SHORE_TOP, ROW_TOP, PLAYERS_TOP = 40.0, 150.0, 420.0, 560.0
PANEL = 200.0


def clan_ink(seat: int) -> str:
    """Return the colour a seat's clan is drawn in."""
    return CLAN_INK[seat % len(CLAN_INK)]


def _river(view: State, legal: Sequence[Command]) -> Shape:
    step = (WIDTH - 80) / RIVER_LENGTH
    cells: list[Shape | None] = [
        shape("rect", x=20, y=RIVER_TOP, width=WIDTH - 40, height=90, rx=40, fill="#7fb3d5"),
        label(40, RIVER_TOP - 14, "The river", 15, text_anchor="start", font_weight="bold",
              fill="#1b4f72"),
    ]  # fmt: skip
    for river in range(1, RIVER_LENGTH + 1):
        x = 40 + (river - 0.5) * step
        shore = ", ".join(map(str, TOUCHES[river]))
        cells.append(group(
            shape("circle", cx=x, cy=RIVER_TOP + 45, r=30, fill="#aed6f1", stroke="#fff",
                  stroke_width=2),
            label(x, RIVER_TOP + 22, str(river), 11, fill="#1b4f72"),
            shape("title", text=f"river space {river}, by shore spaces {shore}"),
        ))  # fmt: skip
    if view.started:
        for seat, player in enumerate(view.players):
            for ship, at in enumerate(player.ships):
                cells.append(_ship(view, seat, player, ship, at, step, legal))
    return group(*cells)


def _ship(
    view: State, seat: int, player: Player, ship: int, at: int, step: float,
    legal: Sequence[Command],
) -> Shape:  # fmt: skip
    x = 40 + (at - 0.5) * step + (seat - (len(view.players) - 1) / 2) * 12
    y = RIVER_TOP + 52 + ship * 4
    sails = (
        [c for c in legal if isinstance(c, Sail) and c.ship == ship] if seat == view.turn else []
    )
    royal = player.royal == ship
    hull = f"M{x - 14},{y} L{x + 14},{y} L{x + 9},{y + 9} L{x - 9},{y + 9} Z"
    kind = "imperial ship" if royal else "ship"
    return group(
        shape("path", d=hull, fill=clan_ink(seat), stroke="#fff", stroke_width=2),
        shape("path", d=f"M{x},{y - 2} L{x},{y - 20} L{x + 11},{y - 6} Z", fill="#fff",
              stroke=clan_ink(seat), stroke_width=2),
        label(x - 6, y - 12, "★", 10, fill="#f1c40f") if royal else None,
        shape("title", text=f"{clan(view, seat)}'s {kind} on river space {at}"),
        commands=sails, label=f"sail your {kind} from river space {at}",
    )  # fmt: skip


def _space(view: State, space: int, x: float, y: float, legal: Sequence[Command]) -> Shape:
    tile = view.tiles[space - 1]
    builds = [c for c in legal if isinstance(c, Build) and c.space == space]
    cost = SPACES[space].cost
    parts: list[Shape | None] = []
    if tile is None:
        parts.append(shape("rect", x=x, y=y, width=80, height=40, rx=6, fill="#fdfefe",
                           stroke="#f4a100" if builds else "#a9a18c",
                           stroke_width=4 if builds else 1.5))  # fmt: skip
        parts.append(label(x + 40, y + 20, f"{space} · {cost} koku", 12, fill="#5d5340"))
        name = f"space {space}, empty, costs {cost} koku"
    else:
        kind = TILES[tile].type
        parts.append(shape("rect", x=x, y=y, width=80, height=40, rx=6,
                           fill=TYPE_FILL.get(kind, "#ccc"), stroke="#5d5340"))  # fmt: skip
        words = tile_kind(tile)
        if len(words) > 11:  # "imperial market" on two lines, within the tile
            first, _, second = words.partition(" ")
            parts.append(label(x + 40, y + 8, first, 9.5, font_weight="bold", fill="#222"))
            parts.append(label(x + 40, y + 18, second, 9.5, font_weight="bold", fill="#222"))
        else:
            parts.append(label(x + 40, y + 14, words, 11, font_weight="bold", fill="#222"))
        for index, owner in enumerate(view.markers[space - 1]):
            parts.append(shape("circle", cx=x + 12 + index * 14, cy=y + 30, r=6, fill=clan_ink(owner),
                               stroke="#fff", stroke_width=1.5))  # fmt: skip
        owners = ", ".join(clan(view, s) for s in view.markers[space - 1]) or "no one"
        name = f"space {space}: a {tile_kind(tile)} of {owners}"
    parts.append(shape("title", text=name))
    return group(*parts, commands=builds, label=f"build on space {space}")


def _shore(view: State, legal: Sequence[Command]) -> Shape:
    columns = []
    width = (WIDTH - 40) / len(COMPONENTS.regions)
    for index, region in enumerate(COMPONENTS.regions):
        x = 20 + index * width
        spaces = [
            _space(view, space, x + (width - 80) / 2, SHORE_TOP + 36 + row * 46, legal)
            for row, space in enumerate(SPACES_BY_REGION[region.id])
        ]
        columns.append(group(
            shape("rect", x=x + 3, y=SHORE_TOP, width=width - 6, height=262, rx=10,
                  fill="#e9f0d8", stroke="#b7c49a"),
            label(x + width / 2, SHORE_TOP + 16, f"{region.id} {region.name}", 12,
                  font_weight="bold", fill="#4d5a2b"),
            *spaces,
        ))  # fmt: skip
    return group(*columns)


def _row(view: State) -> Shape:
    first = COMPONENTS.setup.row - len(view.row) + 1
    tiles: list[Shape | None] = [
        label(30, ROW_TOP + 10, "The row of buildings", 15, text_anchor="start",
              font_weight="bold", fill="#5d5340"),
        label(WIDTH - 30, ROW_TOP + 10,
              f"era {view.era} of 2 · stacks {len(view.era1)} and {len(view.era2)} tiles · "
              f"customer deck {len(view.deck)}", 13, text_anchor="end", fill="#5d5340"),
    ]  # fmt: skip
    for offset, tile in enumerate(view.row):
        slot = first + offset
        x = 30 + (slot - 1) * 150
        kind = TILES[tile].type
        tiles.append(group(
            shape("rect", x=x, y=ROW_TOP + 28, width=140, height=90, rx=8,
                  fill=TYPE_FILL.get(kind, "#ccc"), stroke="#5d5340"),
            label(x + 70, ROW_TOP + 60, tile_kind(tile), 14, font_weight="bold", fill="#222"),
            label(x + 70, ROW_TOP + 90, f"slot {slot}", 12, fill="#222"),
        ))  # fmt: skip
    return group(*tiles)


def _player(
    view: State, seat: int, player: Player, x: float, legal: Sequence[Command], asking: int | None
) -> Shape:
    you = " (you)" if seat == asking else ""
    width = (WIDTH - 40) / len(view.players) - 10
    active = seat == view.turn and not view.over
    parts: list[Shape | None] = [
        shape("rect", x=x, y=PLAYERS_TOP, width=width, height=PANEL, rx=10, fill="#fbfaf6",
              stroke=clan_ink(seat), stroke_width=5 if active else 2),
        label(x + 12, PLAYERS_TOP + 18, f"{clan(view, seat)}{you}", 16, text_anchor="start",
              font_weight="bold", fill=clan_ink(seat)),
        label(x + width - 12, PLAYERS_TOP + 18, f"{player.points} point{'' if player.points == 1 else 's'}", 15,
              text_anchor="end", font_weight="bold", fill="#333"),
        label(x + 12, PLAYERS_TOP + 44, f"{player.koku} koku · favour {player.favour}/"
              f"{player.favour_cap} · die {player.die if view.started else '–'}", 13,
              text_anchor="start", fill="#333"),
    ]  # fmt: skip
    for index, (good, fill) in enumerate(GOODS):
        gx = x + 12 + index * 72
        parts.append(shape("rect", x=gx, y=PLAYERS_TOP + 58, width=64, height=22, rx=4, fill=fill,
                           stroke="#777"))  # fmt: skip
        parts.append(label(gx + 32, PLAYERS_TOP + 69, f"{player.goods[index]} {good}", 11))
    for region, amount in enumerate(player.influence):
        bx = x + 12 + region * 24
        parts.append(shape("rect", x=bx, y=PLAYERS_TOP + 130 - amount * 2.5, width=18,
                           height=max(amount * 2.5, 1), fill=clan_ink(seat), opacity=0.7))  # fmt: skip
        parts.append(label(bx + 9, PLAYERS_TOP + 138, str(region + 1), 9, fill="#555"))
    parts.append(label(x + 160, PLAYERS_TOP + 112, "influence by region", 10, fill="#555",
                       text_anchor="start"))  # fmt: skip
    parts.append(_hand(view, seat, player, x, width, legal))
    return group(*parts, class_=f"clan clan-{seat}")


def _hand(
    view: State, seat: int, player: Player, x: float, width: float, legal: Sequence[Command]
) -> Shape:
    cards: list[Shape | None] = []
    y = PLAYERS_TOP + 146
    hidden = bool(player.hand) and player.hand[0] == HIDDEN
    for index, card in enumerate(player.hand):
        cx = x + 12 + index * 50
        if hidden:
            cards.append(group(
                shape("rect", x=cx, y=y, width=44, height=44, rx=4, fill="#5d6d7e", stroke="#fff"),
                label(cx + 22, y + 22, "?", 16, fill="#fff"),
                shape("title", text="a hidden customer"), class_="hidden-card",
            ))  # fmt: skip
            continue
        deliveries = [
            c for c in legal if isinstance(c, (Deliver, DiscardCustomer)) and c.card == card
        ]
        cards.append(group(
            shape("rect", x=cx, y=y, width=44, height=44, rx=4, fill="#fef9e7",
                  stroke="#f4a100" if deliveries else "#a08c5b", stroke_width=3 if deliveries else 1),
            label(cx + 22, y + 14, CUSTOMERS[card].kind, 10 if len(CUSTOMERS[card].kind) < 7
                  else 8.5, fill="#333"),
            label(cx + 22, y + 32, str(CUSTOMERS[card].region), 14, font_weight="bold", fill="#333"),
            shape("title", text=customer_name(card)),
            commands=deliveries, label=customer_name(card),
        ))  # fmt: skip
    told = f"{len(player.delivered)} delivered"
    cards.append(label(x + width - 12, y + 20, told, 11, text_anchor="end", fill="#555"))
    return group(*cards)


def draw(view: State, seat: int | None, legal: Sequence[Command]) -> Drawing:
    """Return the picture of a seat's view."""
    count = len(view.players)
    width = (WIDTH - 40) / count
    players = [_player(view, s, p, 20 + s * width, legal, seat) for s, p in enumerate(view.players)]
    root = canvas(
        WIDTH, PLAYERS_TOP + PANEL + 20,
        shape("rect", width=WIDTH, height=PLAYERS_TOP + PANEL + 20, fill="#f6f1e3"),
        _river(view, legal), _shore(view, legal), _row(view), *players,
        title="River of Gold",
    )  # fmt: skip
    return Drawing(
        root, "Spaces show their cost in koku until built; a building's dots are its owners."
    )
