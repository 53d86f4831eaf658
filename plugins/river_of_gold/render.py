"""Draw a River of Gold board as plain text from a seat's view, every component in words.

Only what setup has done is shown: no ships before they are launched and no die before it is
rolled. An expansion adds its own lines by wrapping ``gamehall_render_text``.
"""

from __future__ import annotations

from gamehall.core.words import plural

from .components import COMPONENTS, SCORE_TILES, SPACES, SPACES_BY_REGION, TOUCHES
from .legal import phase
from .rules import PROMPTS
from .scoring import mastery_points
from .state import HIDDEN, Player, State
from .words import (
    clan,
    customer_name,
    customer_words,
    listed,
    mastery_words,
    request_words,
    tile_kind,
    tile_words,
)

TRACK = (
    "Influence tracks run 0-18 and pay at step 2 the region's track good, 5: 2 koku, "
    "9: 1 favour, 13: 3 points, 18: 3 points and a good of your choice; 11 is the flower.\n"
    f"A clan holds at most {COMPONENTS.setup.koku_cap} koku, {COMPONENTS.setup.goods_cap} of each good, and favour "
    f"up to its cap (which monks raise to {COMPONENTS.setup.favour_cap_max}); whatever passes is lost."
)


def die_unrolled(view: State, seat: int) -> bool:
    """Tell whether a seat's die is still to be rolled for its first turn.

    Dice are rolled at the end of setup; an expansion that lets a seat settle its opening die
    later lists the seat in ``State.dice_owed`` until then.
    """
    return not view.started or seat in view.dice_owed


def _space(view: State, space: int) -> str:
    tile = view.tiles[space - 1]
    if tile is None:
        return f"{space}: {SPACES[space].cost}k"
    owners = [clan(view, s) for s in view.markers[space - 1]]
    return f"{space}: {tile_kind(tile)}" + (f" [{', '.join(owners)}]" if owners else "")


def _regions(view: State) -> list[str]:
    lines = []
    for region in COMPONENTS.regions:
        values = ""
        if view.score_tiles:
            tile = SCORE_TILES[view.score_tiles[region.id - 1]]
            values = "; tile " + "/".join(map(str, tile.two if view.count == 2 else tile.more))
        spaces = "  ".join(_space(view, s) for s in SPACES_BY_REGION[region.id])
        lines.append(f"  {region.id} {region.name} ({region.track_good}{values}):  {spaces}")
    return lines


def _buildings(view: State) -> list[str]:
    lines = []
    for space, tile in enumerate(view.tiles, start=1):
        if tile is not None:
            lines.append(f"    space {space}: {tile_words(tile, SPACES[space].region)}")
    return ["  Buildings on the shore:", *lines] if lines else []


def _river(view: State) -> list[str]:
    cells = [f"{river}: {' '.join(map(str, shore))}" for river, shore in TOUCHES.items()]
    lines = ["  River spaces, each with the shore spaces it touches:"]
    for start in range(0, len(cells), 7):
        lines.append("    " + " | ".join(cells[start : start + 7]))
    return lines


def _ships(view: State) -> str:
    if not view.started:
        return ""
    fleets = []
    for seat, p in enumerate(view.players):
        spaces = [f"{at}{'*' if p.royal == i else ''}" for i, at in enumerate(p.ships)]
        fleets.append(f"{clan(view, seat)} {' and '.join(spaces)}")
    return f" Ships on river spaces (* imperial): {'; '.join(fleets)}."


def _row(view: State) -> list[str]:
    if not view.row:
        return ["Row: empty."]
    lines = []
    first = COMPONENTS.setup.row - len(view.row) + 1
    for offset, tile in enumerate(view.row):
        slot = first + offset
        end = " (the end slot: 1 favour)" if slot == COMPONENTS.setup.row else ""
        lines.append(f"Row slot {slot}{end}: {tile_words(tile)}")
    return lines


def _supplies(view: State) -> list[str]:
    stacks = f"tiles {len(view.era1)}/{len(view.era2)}, customers {len(view.deck)}"
    lines = [f"River of Gold, era {view.era} of 2 (left: {stacks}).{_ships(view)}"]
    if view.discard:
        lines.append(f"Discarded customers: {listed([customer_name(c) for c in view.discard])}.")
    return lines


def _masteries(view: State) -> list[str]:
    if not view.masteries:
        return []
    points = "/".join(map(str, mastery_points(view)))
    shown = []
    for index, mastery in enumerate(view.masteries):
        claims = [clan(view, s) for s in view.claims[index]]
        named = mastery_words(mastery).removeprefix("Mastery of ")
        shown.append(named + (f", claimed by {listed(claims)}" if claims else ""))
    return [f"Masteries ({points}): {'; '.join(shown)}."]


def _player(view: State, seat: int, p: Player, asking: int | None) -> list[str]:
    mark = ">" if seat == view.turn and not view.over else " "
    goods = ", ".join(
        f"{n} {g}" for g, n in zip(("silk", "rice", "porcelain"), p.goods, strict=True)
    )
    die = (
        "" if die_unrolled(view, seat) else f"; die {p.die} ({COMPONENTS.regions[p.die - 1].name})"
    )
    you = ", you" if seat == asking else ""
    head = f"{mark} {clan(view, seat)} (seat {seat + 1}{you}): {plural(p.points, 'point')}"
    lines = [f"{head}, {p.koku} koku, favour {p.favour} (cap {p.favour_cap}), {goods}{die}"]
    influence = ", ".join(f"{r}: {n}" for r, n in enumerate(p.influence, start=1) if n)
    line = f"    influence by region: {influence or 'none yet'}"
    if p.hand and p.hand[0] == HIDDEN:
        line += f"; hand: {plural(len(p.hand), 'customer')} (hidden)"
    elif p.hand:
        lines.append(line + "; hand:")
        line = ""
        lines += [f"      {customer_name(c)}, wanting {request_words(c)}" for c in p.hand]
    if line:
        lines.append(line)
    if p.delivered:
        lines.append(f"    delivered to: {listed([customer_name(c) for c in p.delivered])}")
    return lines


def _legend(view: State, seat: int | None) -> list[str]:
    """Return what the board's short lines mean and what each building and customer pays."""
    lines = [
        "Legend:",
        "  Left: tiles in the era 1 and era 2 stacks, customers in the deck.",
        "  Shore, by region: its track good and score tile (points for 1st/2nd/3rd place), then",
        "  its spaces: Nk is empty, building there costs N koku; else its building [owners].",
        "  Masteries: points for the 1st/2nd/3rd clan to meet the goal. > marks the clan to play.",
    ]
    lines += [f"  {line}" for line in TRACK.splitlines()]
    lines += _buildings(view) + _river(view)
    hand = view.players[seat].hand if seat is not None and seat < len(view.players) else ()
    if hand and hand[0] != HIDDEN:
        lines.append("  Your customers:")
        lines += [f"    {customer_words(c, view)}" for c in hand]
    return lines


def _asked(view: State) -> str:
    if view.over:
        scores = listed([f"{clan(view, s)} {n}" for s, n in enumerate(view.final)])
        won = listed([clan(view, s) for s in view.winners])
        return f"Game over: {scores} points; {won} {'wins' if len(view.winners) == 1 else 'share the win'}."
    now = phase(view)
    if now == "choice":
        choice = view.choices[0]
        return f"{clan(view, choice.seat)} to choose: {PROMPTS.get(choice.kind, choice.kind)}."
    if not view.started:
        return "Setup is under way."
    return f"{clan(view, view.turn)} to act: {PROMPTS.get(now, now)}."


def render(view: State, seat: int | None = None) -> str:
    """Return the legend (what buildings and customers pay, the river's spaces, the tracks;
    a terminal folds it), then the board short: the shore, ships, row, masteries and clans."""
    lines = _legend(view, seat)
    lines += _supplies(view)
    lines += _regions(view)
    lines += _row(view)
    lines += _masteries(view)
    for index, player in enumerate(view.players):
        lines += _player(view, index, player, seat)
    lines.append(_asked(view))
    return "\n".join(lines)
