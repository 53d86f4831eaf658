"""Draw a Toy Battle view for a terminal: the terrain as a map, then stacks, racks, medals."""

from __future__ import annotations

from .terrain import Board
from .troops import Army
from .view import PlayerView, View

WIDTH, HEIGHT = 64, 25


def _short(army: Army, troop: str) -> str:
    kind = army.kind.get(troop)
    return troop[:1].upper() + (kind.code if kind else "?")


def _name(army: Army, troop: str) -> str:
    kind = army.kind.get(troop)
    return troop if kind is None else f"{army.colour[troop]} {kind.label}"


def _line(grid: list[list[str]], a: tuple[int, int], b: tuple[int, int]) -> None:
    steps = max(abs(b[0] - a[0]), abs(b[1] - a[1]), 1)
    for i in range(1, steps):
        x = round(a[0] + (b[0] - a[0]) * i / steps)
        y = round(a[1] + (b[1] - a[1]) * i / steps)
        if grid[y][x] == " ":
            grid[y][x] = "."


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
        label = f"{'B' if hqs.get(spot) == 'blue' else 'R' if spot in hqs else ''}{spot}:{mark}"
        start = max(0, min(x - len(label) // 2, WIDTH + 8 - len(label)))
        grid[y][start : start + len(label)] = list(label)
    lines = ["".join(row).rstrip() for row in grid]
    while lines and not lines[-1]:
        lines.pop()
    return lines


def _rack(army: Army, player: PlayerView) -> str:
    if player.rack is None:
        known = (
            f" (known: {', '.join(_name(army, t) for t in player.known)})" if player.known else ""
        )
        return f"{player.rack_size} troops, {player.face_down} face down{known}"
    down = set(player.face_down_troops or ())
    names = [_name(army, t) + (" [face down]" if t in down else "") for t in player.rack]
    return ", ".join(names) or "empty"


def render(view: View, army: Army, board: Board | None, prompts: dict[str, str]) -> str:
    """Return the terrain map, the stacks, the racks the seat may see, medals and who is asked."""
    lines = [f"Toy Battle on {view.terrain_name} - medal target {view.medal_target}"]
    if board is not None:
        lines += _map(view, army, board)
    lines.append("Stacks (bottom to top):")
    for spot in sorted(view.stacks):
        lines.append(f"  {spot}: " + " < ".join(_name(army, t) for t in view.stacks[spot]))
    for player in view.players:
        you = " (you)" if player.seat == view.seat else ""
        lines.append(
            f"Seat {player.seat}{you} {player.colour}: {player.medals} medals, "
            f"supply {player.supply}, rack: {_rack(army, player)}"
        )
    lines.append(
        "Regions: "
        + " ".join(
            f"{'+'.join(map(str, r.bases))}={r.medals}"
            + (f"(seat {r.taken_by})" if r.taken_by is not None else "")
            for r in view.regions
        )
    )
    if view.discard:
        lines.append("Discard: " + ", ".join(_name(army, t) for t in view.discard))
    for kind in view.added_kinds:
        about = f": {kind.description}" if kind.description else ""
        lines.append(f"Added troop {kind.code} = {kind.label}{about}")
    if view.over:
        lines.append(f"Seat {view.winner} wins ({view.reason})")
    elif view.queue:
        head = view.queue[0]
        prompt = view.prompt or prompts.get(head.effect, head.effect)
        lines.append(f"Seat {view.turn} to decide: {prompt}")
    else:
        lines.append(f"Seat {view.turn} to move: draw 2 troops or place 1 troop")
    return "\n".join(lines)
