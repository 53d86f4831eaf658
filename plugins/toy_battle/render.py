"""Draw a Toy Battle view as plain text: the terrain as a map with a legend, then the rest."""

from __future__ import annotations

from collections.abc import Iterable

from gamehall.core.words import listed, plural

from . import words
from .terrain import COLOURS, Board
from .troops import Army
from .view import PlayerView, View

WIDTH, HEIGHT = 64, 25


def _code(army: Army, kind_key: str) -> str:
    kind = army.by_key.get(kind_key)
    return kind.code if kind is not None else kind_key[:1].upper()


def _short(army: Army, troop: str) -> str:
    kind = army.kind.get(troop)
    return troop[:1].upper() + (_code(army, kind.key) if kind else "?")


def _line(grid: list[list[str]], a: tuple[int, int], b: tuple[int, int]) -> None:
    steps = max(abs(b[0] - a[0]), abs(b[1] - a[1]), 1)
    for i in range(1, steps):
        x = round(a[0] + (b[0] - a[0]) * i / steps)
        y = round(a[1] + (b[1] - a[1]) * i / steps)
        if grid[y][x] == " ":
            grid[y][x] = "."


def _special(view: View, board: Board, spot: int) -> bool:
    if not view.special_bases:
        return False
    return spot in board.effect_at or spot in board.muted or spot in board.allowed


def _map(view: View, army: Army, board: Board) -> list[str]:
    grid = [[" "] * (WIDTH + 8) for _ in range(HEIGHT + 1)]
    hqs = board.hq_owner
    at = {
        s.id: (round(s.left * WIDTH / 100) + 3, round(s.top * HEIGHT / 100))
        for s in board.terrain.spots
    }
    for spot, others in board.adjacent.items():
        for other in others:
            if spot < other:
                _line(grid, at[spot], at[other])
    for spot, (x, y) in at.items():
        stack = view.stacks.get(spot)
        mark = _short(army, stack[-1]) if stack else ("HQ" if spot in hqs else "--")
        owner = hqs.get(spot)
        star = "*" if _special(view, board, spot) else ""
        label = f"{owner[0].upper() if owner else ''}{spot}{star}:{mark}"
        start = max(0, min(x - len(label) // 2, WIDTH + 8 - len(label)))
        grid[y][start : start + len(label)] = list(label)
    lines = ["".join(row).rstrip() for row in grid]
    while lines and not lines[-1]:
        lines.pop()
    return lines


def _legend(view: View, army: Army, board: Board) -> list[str]:
    hqs = {c: " and ".join(f"{c[0].upper()}{s}:HQ" for s in board.headquarters[c]) for c in COLOURS}
    lines = [
        f"Legend: each spot reads number:top troop; headquarters: Blue's {hqs['blue']},",
        f"  Red's {hqs['red']}; -- an empty base, '.' a path, * a special base (see below);",
        "  BK, R7 ... a Blue or Red troop on top, by code (and the troop's effect):",
    ]
    for kind in army.by_key.values():
        effect = words.TROOP_EFFECTS.get(kind.key) or kind.description
        lines.append(
            f"    {_code(army, kind.key)} {kind.label}" + (f": {effect}" if effect else "")
        )
    return lines + _special_lines(view, board)


def _special_lines(view: View, board: Board) -> list[str]:
    specials = bool(board.effect_at or board.muted or board.allowed)
    if not specials:
        return ["Special bases: none on this terrain."]
    if not view.special_bases:
        return ["Special bases: off in this match; every base is a plain base."]
    lines = ["Special bases:"]
    by_effect: dict[str, list[int]] = {}
    for spot, effect in board.effect_at.items():
        by_effect.setdefault(effect, []).append(spot)
    for effect, spots in by_effect.items():
        what = words.BASE_EFFECTS.get(effect, "an effect after placing")
        name = words.BASE_NAMES.get(effect, effect)
        lines.append(f"  {name} on spots {_spots(spots)}: after placing there, {what}.")
    if board.muted:
        lines.append(
            f"  Metal-X on spots {_spots(board.muted)}: troops placed there have no effect "
            "(and Hook needs a connection to get there)."
        )
    by_values: dict[tuple[int, ...], list[int]] = {}
    for spot, allowed in board.allowed.items():
        by_values.setdefault(allowed, []).append(spot)
    for allowed, spots in by_values.items():
        values = listed([str(v) for v in allowed], "or")
        kwak = " or Kwak" if view.kwak_on_restricted else ""
        lines.append(f"  Spots {_spots(spots)} take only troops of value {values}{kwak}.")
    return lines


def _spots(spots: Iterable[int]) -> str:
    return ", ".join(map(str, sorted(spots)))


def _rack(view: View, player: PlayerView) -> str:
    down = plural(player.face_down, "troop") + " face down" if player.face_down else ""
    if player.rack is None:
        known = [words.kind_label(view, t) for t in player.known]
        parts = [plural(player.rack_size, "troop")]
        parts += [down] if down else []
        parts += [f"known: {', '.join(known)}"] if known else []
        return ", ".join(parts)
    face_down = set(player.face_down_troops or ())
    names = [
        words.kind_label(view, t) + (" (face down)" if t in face_down else "") for t in player.rack
    ]
    return ", ".join(names) or "empty"


def _asked(view: View, prompts: dict[str, str]) -> str:
    mover = words.colour_name(view, view.turn)
    if view.queue:
        head = view.queue[0]
        prompt = view.prompt or prompts.get(head.effect, head.effect)
        return f"{mover} to decide: {prompt}"
    count = words.draw_count(view, view.turn, 2)
    draw = f"draw {plural(count, 'troop')} or " if count else ""
    return f"{mover} to move: {draw}place 1 troop"


def render(view: View, army: Army, board: Board | None, prompts: dict[str, str]) -> str:
    """Return the map with its legend, stacks, racks, regions, the discard pile and who acts."""
    lines = [f"Toy Battle on {view.terrain_name} - medal target {view.medal_target}"]
    if board is not None:
        lines += _map(view, army, board)
        lines += _legend(view, army, board)
    lines.append("Stacks (bottom to top):" if view.stacks else "Stacks: none yet.")
    for spot in sorted(view.stacks):
        names = " < ".join(words.troop_name(view, t) for t in view.stacks[spot])
        lines.append(f"  {words.spot_name(view, spot)}: {names}")
    for player in view.players:
        you = ", you" if player.seat == view.seat else ""
        lines.append(
            f"{words.colour_name(view, player.seat)} (seat {player.seat + 1}{you}): "
            f"{plural(player.medals, 'medal')}, supply {plural(player.supply, 'troop')}"
            f", rack: {_rack(view, player)}"
        )
    regions = []
    for index, region in enumerate(view.regions):
        spots = "+".join(map(str, region.bases))
        if region.taken_by is not None:
            worth = board.terrain.regions[index].medals if board is not None else 0
            medals = f" ({plural(worth, 'medal')})" if worth else ""
            taker = words.colour_name(view, region.taken_by)
            regions.append(f"{spots} taken by {taker}{medals}")
        else:
            regions.append(f"{spots} = {plural(region.medals, 'medal')}")
    lines.append("Regions (the bases around each, and its medals): " + "; ".join(regions))
    if view.discard:
        lines.append("Discard pile: " + ", ".join(words.troop_name(view, t) for t in view.discard))
    if view.over and view.winner is not None:
        why = words.ending(view, view.winner, view.reason, _medals(view), view.stuck, view.ended_by)
        lines.append(f"{words.colour_name(view, view.winner)} wins: {why}.")
    elif not view.over:
        lines.append(_asked(view, prompts))
    return "\n".join(lines)


def _medals(view: View) -> tuple[int, int]:
    return view.players[0].medals, view.players[1].medals
