"""Draw a seat's view as text: the hex map, every tile with its units, the realms, the battle."""

from __future__ import annotations

from collections import Counter

from gamehall.core.words import plural

from .components import kind_of
from .state import NOBODY
from .view import View
from .words import card_name, catalogue, event_name, kind_name, seat_name
from .world import capacity

LEGEND = (
    "legend: F Field, W Forest, M Mountain; # a Castle; a letter after the tile is its holder's "
    "realm; + an upgraded unit; capacity is units on the tile / most it holds"
)


def _hex_map(view: View) -> list[str]:
    state = view.state
    world = catalogue().worlds.get(state.players)
    if world is None or len(state.terrain) < len(world.cells):
        return []
    letters = {t.key: t.letter for t in catalogue().terrains.values()}
    rows: dict[int, dict[int, str]] = {}
    for tile, (q, r) in enumerate(world.cells):
        holder = state.holder[tile]
        mark = "#" if tile in state.castles else " "
        who = seat_name(view, holder)[0] if holder != NOBODY else "."
        label = f"{tile:>2}{letters.get(state.terrain[tile], '?')}{mark}{who}"
        rows.setdefault(r, {})[2 * q + r] = label
    left = min(x for row in rows.values() for x in row)
    lines = []
    for r in sorted(rows):
        chars = [" "] * (4 * (max(rows[r]) - left) + 8)
        for x, label in rows[r].items():
            at = 4 * (x - left)
            chars[at : at + len(label)] = label
        lines.append("  " + "".join(chars).rstrip())
    return lines


def _unit_list(view: View, units: tuple[str, ...]) -> str:
    upgraded = set(view.state.upgraded)
    return ", ".join(kind_name(kind_of(u)) + ("+" if u in upgraded else "") for u in units)


def _counts(units: tuple[str, ...]) -> str:
    counts = Counter(kind_name(kind_of(u)) for u in units)
    return ", ".join(f"{n} {k}" for k, n in counts.items()) or "none"


def _tiles(view: View) -> list[str]:
    state, cat = view.state, catalogue()
    out = []
    for tile, units in enumerate(state.board):
        terrain = cat.terrains.get(state.terrain[tile])
        cap = capacity(cat, state, tile) if terrain else 0
        owner = state.castles.get(tile)
        castle = ""
        if owner is not None:
            castle = " free Castle" if owner == NOBODY else f" Castle of {seat_name(view, owner)}"
        army = f" {seat_name(view, state.holder[tile])}: {_unit_list(view, units)}" if units else ""
        name = terrain.name if terrain else state.terrain[tile]
        out.append(f"  tile {tile:>2} {name:<8} {len(units)}/{cap}{castle}{army}")
    return out


def _realms(view: View) -> list[str]:
    state = view.state
    out = []
    for seat in state.order or range(state.players):
        status = "" if state.alive[seat] else " (out)"
        cards = view.hand_sizes[seat]
        hand = (
            f"hand {', '.join(card_name(c) for c in state.hands[seat]) or 'empty'}"
            if seat == view.seat
            else f"{cards} magic card{'s' if cards != 1 else ''}"
        )
        out.append(f"  {seat_name(view, seat)}{status}: {state.gold[seat]} gold, {hand}")
        out.append(f"    reserve: {_counts(state.reserve[seat])}")
        if state.ready[seat]:
            out.append(f"    paid, to place: {_counts(state.ready[seat])}")
        out.append(f"    graveyard (units it defeated): {_counts(state.graveyard[seat])}")
    return out


def _battle(view: View) -> list[str]:
    battle = view.state.battle
    if battle is None:
        return []
    a, d = (seat_name(view, s) for s in battle.seats)
    lines = [f"battle: {a} from tile {battle.tiles[0]} against {d} on tile {battle.tiles[1]}"]
    for side, who in enumerate((a, d)):
        card = battle.cards[side]
        if card:
            lines.append(f"  {who} plays {card_name(card)}")
        elif view.uses[side]:
            lines.append(f"  {who} declared a hidden magic card")
    return lines


def render(view: View) -> str:
    """Return the board, the realms and the battle as ``view.seat`` may see them."""
    state = view.state
    head = f"Generals of Kaladan, round {state.round}"
    if state.turn != NOBODY:
        head += f": {seat_name(view, state.turn)}'s turn, {state.phase} phase"
    if state.event:
        head += f"; event: {event_name(state.event)}"
    lines = [head, *_hex_map(view), *_tiles(view), "realms:", *_realms(view), *_battle(view)]
    lines.append(f"event deck: {plural(view.deck_size, 'card')}; discard: {len(state.discard)}")
    if state.over:
        winners = " and ".join(seat_name(view, s) for s in state.winners) or "nobody"
        lines.append(f"over: {winners} won ({state.reason})")
    lines.append(LEGEND)
    return "\n".join(lines)
