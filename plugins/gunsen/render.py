"""Draw a seat's view of a Gunsen match as text: the hex map, clan boards, row, achievements."""

from __future__ import annotations

from gamehall.core.words import plural

from .components import COLUMN_NAMES
from .names import (
    PROMPTS,
    box,
    card_text,
    column_text,
    hero_text,
    name,
    seat_name,
    space_name,
    tactic_text,
)
from .state import HIDDEN, NOBODY, State

KIND = {"toshi_ranbo": "T", "fort": "F", "watchtower": "W", "shrine": "S", "village": "v"}
LETTERS = "abcdef"
WIDTH = 6


def _cell(view: State, space: int) -> str:
    board = box().boards[view.side]
    kind = board.kinds[space]
    mark = KIND.get(kind, ".")
    if kind == "fort" and space not in view.forts:
        mark = "x"
    if kind == "watchtower" and space not in view.towers:
        mark = "."
    if kind == "village" and dict(view.villages).get(space):
        mark = "V"
    for player in view.players:
        for building, where in player.buildings:
            if where == space:
                card = box().buildings.get(building)
                mark = "c" if card is not None and card.kind == "camp" else "u"
    text = mark
    for seat, row in enumerate(view.troops):
        if row[space]:
            hero = "*" if any(w == space for _, w in view.players[seat].heroes) else ""
            text += f"{row[space]}{LETTERS[seat]}{hero}"
    return text.ljust(WIDTH - 1)[: WIDTH - 1] + " "


def map_lines(view: State) -> list[str]:
    """Return the hex map: for each row, a line of labels and a line of contents."""
    board = box().boards[view.side]
    rows: dict[int, list[int]] = {}
    for index, space in enumerate(board.spaces):
        rows.setdefault(space.r, []).append(index)
    lines = []
    for r in sorted(rows):
        indent = " " * (abs(r) * WIDTH // 2)
        spaces = sorted(rows[r], key=lambda i: board.spaces[i].q)
        lines.append(indent + "".join(board.labels[i].ljust(WIDTH) for i in spaces).rstrip())
        lines.append(indent + "".join(_cell(view, i) for i in spaces).rstrip())
    return lines


def legend(view: State) -> list[str]:
    """Return what the map's letters mean and where the special pieces stand."""
    seats = ", ".join(f"{LETTERS[s]} = {seat_name(view, s)}" for s in range(view.count))
    out = [
        (
            f"Legend: {seats}; 3a = three troops of a, * = with a hero; T Toshi Ranbo, F fort, "
            "x unused fort, W watchtower, S shrine, V village with a face-down token, v village "
            "without, u unique building, c camp, . plain."
        ),
    ]
    shrines = ", ".join(space_name(view, s) for s, _ in view.shrines)
    toshi = "taken" if view.taken else "never entered"
    holder = seat_name(view, view.holder) if view.holder != NOBODY else "nobody"
    out.append(f"  Shrines: {shrines}. Toshi Ranbo: {toshi}, held by {holder}.")
    upgrades = []
    for column, owner in enumerate(view.upgrades):
        where = {NOBODY: "on the board", -2: "in the box"}.get(owner) or seat_name(view, owner)
        upgrades.append(f"{COLUMN_NAMES[column]} {where}")
    out.append("  Upgrade tiles: " + ", ".join(upgrades) + ".")
    return out


def clan_lines(view: State, seat: int) -> list[str]:
    """Return one clan's board: resources, columns, noble actions, cards and pieces."""
    player = view.players[seat]
    marks = list(player.achievements) + (["hold"] if view.holder == seat else [])
    head = (
        f"{seat_name(view, seat)} ({LETTERS[seat]}): {player.koku} koku, {player.wood} wood, "
        f"{player.influence} influence; {plural(player.supply, 'troop')} on the clan board; "
        f"markers {len(marks)}: {', '.join(marks) or 'none'}"
    )
    out = [head]
    for column, cards in enumerate(player.columns):
        upgraded = " (upgraded)" if view.upgrades[column] == seat else ""
        if cards:
            out.append(f"  {COLUMN_NAMES[column]}{upgraded}: {column_text(cards)}")
    noble = ", ".join(str(k + 1) for k, c in enumerate(player.noble) if c) or "none"
    tactics = ", ".join(name(t) for t in player.tactics) or "none"
    hidden = sum(1 for t in player.hand if t == HIDDEN)
    hand = (
        f"{hidden} hidden" if hidden else ", ".join(tactic_text(t) for t in player.hand) or "none"
    )
    out.append(f"  Noble actions used: {noble}. Tactics: {tactics}. In hand: {hand}.")
    heroes = ", ".join(f"{hero_text(h)} at {space_name(view, s)}" for h, s in player.heroes)
    buildings = ", ".join(f"{name(b)} at {space_name(view, s)}" for b, s in player.buildings)
    tokens = ", ".join(box().tokens[t].reward if t in box().tokens else t for t in player.tokens)
    objectives = ", ".join(name(o) for o in player.objectives)
    extras = [
        f"heroes {heroes}" * bool(heroes),
        f"buildings {buildings}" * bool(buildings),
        f"village tokens {tokens}" * bool(tokens),
        f"objectives {objectives}" * bool(objectives),
    ]
    if any(extras):
        out.append("  " + "; ".join(e for e in extras if e) + ".")
    return out


def status(view: State) -> str:
    """Return whose decision it is, or who won."""
    if view.phase == "over":
        return f"{seat_name(view, view.winner)} placed its last achievement marker and won."
    if view.phase == "clan":
        return f"{seat_name(view, view.asked)} chooses a clan."
    who = seat_name(view, view.asked)
    return f"Turn {view.turns}, {seat_name(view, view.turn)}: {who} to {PROMPTS[view.phase]}."


def combat_line(view: State) -> list[str]:
    """Return the combat in progress, if any."""
    combat = view.combat
    if combat is None:
        return []
    a, d = seat_name(view, combat.attacker), seat_name(view, combat.defender)
    kept = f"kept: {a} {', '.join(combat.kept[0]) or '-'}; {d} {', '.join(combat.kept[1]) or '-'}"
    dice = f"; on the table {', '.join(combat.dice)}" if combat.dice else ""
    return [f"Combat at {space_name(view, combat.space)}: {a} attacks {d}; {kept}{dice}."]


def render(view: State) -> str:
    """Return the whole view as text."""
    if not view.side:
        return "Gunsen: the board is not set up yet."
    lines = [status(view), *combat_line(view), "", *map_lines(view), "", *legend(view), ""]
    row = "; ".join(card_text(c) for c in view.row) or "empty"
    lines.append(
        f"Order row: {row}. Deck: {plural(len(view.deck), 'card')}, discard: {len(view.discard)}."
    )
    for seat in range(view.count):
        if view.players[seat].clan:
            lines.extend(clan_lines(view, seat))
    return "\n".join(lines)
