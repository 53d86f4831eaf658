"""Draw a River of Gold board for a terminal, from a seat's view."""

from __future__ import annotations

from .components import CUSTOMERS, GOODS, SCORE_TILES, SPACES, TILES, TOUCHES, C
from .state import HIDDEN, Player, State

TYPE_MARK = {"port": "P", "market": "M", "manor": "H", "shrine": "S"}


def _tile(state: State, space: int) -> str:
    tile = state.tiles[space - 1]
    if tile is None:
        return f"{space:>2}:{SPACES[space].cost:>2}k  ."
    kind = TYPE_MARK[TILES[tile].type]
    owners = "".join(str(m) for m in state.markers[space - 1]) or "-"
    return f"{space:>2}:{SPACES[space].cost:>2}k {kind}{owners:<2}"


def _regions(state: State) -> list[str]:
    lines = []
    for region in C.regions:
        spaces = [s.id for s in C.spaces if s.region == region.id]
        tile = SCORE_TILES[state.score_tiles[region.id - 1]] if state.score_tiles else None
        values = (
            "" if tile is None else "/".join(map(str, tile.two if state.count == 2 else tile.more))
        )
        cells = " | ".join(_tile(state, s) for s in spaces)
        lines.append(f"R{region.id} {region.name:<25} [{values:>7}] {cells}")
    return lines


def _river(state: State) -> str:
    cells = []
    for river in TOUCHES:
        ships = "".join(
            f"{seat}{'*' if p.royal == i else ''}"
            for seat, p in enumerate(state.players)
            for i, pos in enumerate(p.ships)
            if pos == river
        )
        cells.append(f"{river}:{ships or '.'}")
    return "river " + " ".join(cells)


def _player(seat: int, p: Player, state: State) -> str:
    goods = " ".join(f"{g[0]}{n}" for g, n in zip(GOODS, p.goods, strict=True))
    hand = " ".join(p.hand) if p.hand and p.hand[0] != HIDDEN else f"{len(p.hand)} hidden"
    served = " ".join(f"{CUSTOMERS[c].kind[:3]}{CUSTOMERS[c].region}" for c in p.delivered)
    influence = " ".join(map(str, p.influence))
    mark = ">" if seat == state.turn and not state.over else " "
    return (
        f"{mark}seat {seat}: {p.points:>3} pts  {p.koku:>2} koku  favour {p.favour}/{p.favour_cap}"
        f"  {goods}  die {p.die}  influence {influence}\n"
        f"    hand: {hand}  served: {served or '-'}"
    )


def render(view: State) -> str:
    """Return the board, the row, the river and every clan as text."""
    row = " ".join(f"{t}({TYPE_MARK[TILES[t].type]}{TILES[t].bonus})" for t in view.row)
    lines = [
        *_regions(view),
        _river(view),
        (
            f"era {view.era}  row (entry -> end): {row}  stacks {len(view.era1)}/{len(view.era2)}"
            f"  deck {len(view.deck)}  masteries {', '.join(view.masteries)}"
        ),
    ]
    lines += [_player(seat, p, view) for seat, p in enumerate(view.players)]
    if view.choices:
        choice = view.choices[0]
        lines.append(f"seat {choice.seat} chooses: {choice.kind} {' '.join(choice.options)}")
    if view.ext:
        lines.append(
            "expansions: " + "; ".join(f"{k}={','.join(v)}" for k, v in sorted(view.ext.items()))
        )
    if view.over:
        scores = " ".join(f"seat {s}: {n}" for s, n in enumerate(view.final))
        lines.append(f"game over - {scores}; winners {', '.join(map(str, view.winners))}")
    return "\n".join(lines)
