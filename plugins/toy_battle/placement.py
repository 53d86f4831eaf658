"""Where a troop may go, which regions are held, and who can still act (TB-PLACE, TB-REGION)."""

from __future__ import annotations

from collections.abc import Iterator

from .state import State
from .terrain import Board
from .troops import Army, TroopKind

RACK_LIMIT = 8
Refusal = tuple[str, str]


def seat_of(state: State, troop: str) -> int:
    """Return the seat that owns a troop (tokens start with their colour)."""
    return state.blue if troop[0] == "b" else 1 - state.blue


def reachable(board: Board, state: State, seat: int) -> set[int]:
    """Return the spots connected to the seat's headquarters by its own bases (TB-CONNECT-1)."""
    frontier = list(board.headquarters[state.colour(seat)])
    found: set[int] = set()
    stacks, hq_owner, adjacent = state.stacks, board.hq_owner, board.adjacent
    while frontier:
        for spot in adjacent[frontier.pop()]:
            if spot in found:
                continue
            found.add(spot)
            stack = stacks.get(spot)
            if stack and spot not in hq_owner and seat_of(state, stack[-1]) == seat:
                frontier.append(spot)
    return found


def covers(kind: TroopKind, other: TroopKind) -> bool:
    """Tell whether ``kind`` may cover an enemy ``other`` (TB-PLACE-3, TB-KWAK-1)."""
    if kind.strength is None or other.strength is None:
        return True
    return kind.strength > other.strength


def spot_refusal(
    board: Board, army: Army, state: State, seat: int, kind: TroopKind, spot: int, reach: set[int]
) -> Refusal | None:
    """Return why ``kind`` may not go on ``spot`` now, or ``None`` when it may."""
    owner = board.hq_owner.get(spot)
    if spot not in board.adjacent:
        return f"there is no spot {spot} on {board.name}", "TB-PLACE-1"
    if owner == state.colour(seat):
        return "you may never place a troop on your own headquarters", "TB-PLACE-4"
    specials = state.options.special_bases
    allowed = board.allowed.get(spot) if specials else None
    if allowed:
        if kind.strength is None and not state.options.kwak_on_restricted:
            return (
                "Kwak has no value, and this spot only takes the values printed on it",
                "TB-POOL-2",
            )
        if kind.strength is not None and kind.strength not in allowed:
            values = "/".join(map(str, allowed))
            return f"only troops of value {values} may be placed on spot {spot}", "TB-POOL-1"
    top = state.top(spot)
    if top is not None and seat_of(state, top) != seat and not covers(kind, army.kind[top]):
        return (
            f"{army.kind[top].label} on spot {spot} is not weaker than {kind.label}",
            "TB-PLACE-3",
        )
    if spot in reach:
        return None
    if owner is not None:
        if kind.ignores_connection:
            return "even Hook needs a connection to enter the enemy headquarters", "TB-HOOK-2"
        return "the enemy headquarters is not connected to yours", "TB-CONNECT-1"
    if kind.ignores_connection and not (specials and spot in board.muted):
        return None
    if kind.ignores_connection:
        return "troop effects do not work on this base, so Hook needs a connection", "TB-METALX-1"
    return f"spot {spot} is not connected to your headquarters by your own bases", "TB-CONNECT-1"


def placement_refusal(
    board: Board, army: Army, state: State, seat: int, troop: str, spot: int
) -> Refusal | None:
    """Return why ``seat`` may not place ``troop`` on ``spot``, or ``None`` when it may."""
    if troop not in state.racks[seat]:
        return f"{troop} is not on your rack", "TB-PLACE-1"
    if troop in state.face_down[seat]:
        return f"{troop} lies face down until the end of your turn", "TB-BATTLEFIELD-2"
    reach = reachable(board, state, seat)
    return spot_refusal(board, army, state, seat, army.kind[troop], spot, reach)


def placements(board: Board, army: Army, state: State, seat: int) -> Iterator[tuple[str, int]]:
    """Yield every (troop, spot) the seat may place now."""
    down = state.face_down[seat]
    by_kind: dict[str, list[str]] = {}
    for troop in state.racks[seat]:
        if troop not in down:
            by_kind.setdefault(army.kind[troop].key, []).append(troop)
    if not by_kind:
        return
    reach = reachable(board, state, seat)
    near = [spot for spot in board.spot_ids if spot in reach]
    for key, troops in by_kind.items():
        kind = army.by_key[key]
        # Only Hook can go beyond the connected spots, so the others skip the far ones.
        for spot in board.spot_ids if kind.ignores_connection else near:
            if spot_refusal(board, army, state, seat, kind, spot, reach) is None:
                for troop in troops:
                    yield troop, spot


def can_place(board: Board, army: Army, state: State, seat: int) -> bool:
    """Tell whether the seat has any legal placement."""
    return next(placements(board, army, state, seat), None) is not None


def draw_count(state: State, seat: int, wanted: int) -> int:
    """Return how many troops a draw of ``wanted`` takes: limited by supply and rack (TB-DRAW-3)."""
    return max(0, min(wanted, RACK_LIMIT - len(state.racks[seat]), len(state.supply[seat])))


def completed_regions(board: Board, state: State, first: int) -> list[tuple[int, int]]:
    """Return (seat, region) for every region now held whole and still holding medals."""
    taken = {region for region, _ in state.taken}
    found: list[tuple[int, int]] = []
    for index, region in enumerate(board.terrain.regions):
        if index in taken or not region.medals:
            continue
        owners = set()
        for base in region.bases:
            top = state.top(base)
            if top is None:
                break
            owners.add(seat_of(state, top))
        else:
            if len(owners) == 1:
                found.append((owners.pop(), index))
    found.sort(key=lambda pair: pair[0] != first)
    return found
