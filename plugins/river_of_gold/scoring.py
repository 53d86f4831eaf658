"""Masteries during play and the final scoring (ROG-MASTERY-*, ROG-SCORE-*)."""

from __future__ import annotations

from collections import Counter
from typing import Any

from gamehall.core import ScoreLine

from .components import COMPONENTS, CUSTOMERS, MASTERIES, SCORE_TILES, SPACES, TILES, TYPES
from .events import MasteryClaimed
from .state import State

PLAY_POINTS = "during play"
MASTERY_POINTS = "masteries"
END_POINTS = "ending the game"
# Reasons of the base game's point gains; an expansion's reasons are kept as they are.
_BASE_REASONS = ("visit space", "owner of space", "influence track", "merchant", "imperial")


def play_category(reason: str) -> str:
    """Return the scoring category of points gained during play for ``reason``."""
    if reason.startswith("mastery "):
        return MASTERY_POINTS
    if reason == "end of the game":
        return END_POINTS
    if reason.startswith(_BASE_REASONS) or not reason:
        return PLAY_POINTS
    return reason


def _owned_types(state: State, seat: int) -> Counter[str]:
    spaces = [i for i, marks in enumerate(state.markers) if seat in marks]
    return Counter(TILES[state.tiles[i] or ""].type for i in spaces)


def goal_met(state: State, seat: int, goal: str) -> bool:
    """Tell whether ``seat`` meets a mastery's goal now (ROG-MASTERY-2)."""
    player = state.players[seat]
    kinds = Counter(CUSTOMERS[c].kind for c in player.delivered)
    if goal == "customer-kinds-3":
        return len(kinds) >= 3
    if goal == "customers-of-a-kind-2":
        return max(kinds.values(), default=0) >= 2
    if goal == "buildings-of-a-type-3":
        return max(_owned_types(state, seat).values(), default=0) >= 3
    if goal == "building-types-4":
        return len(_owned_types(state, seat)) >= len(TYPES)
    if goal == "flower":
        return max(player.influence) >= COMPONENTS.track.flower
    if goal == "influence-everywhere":
        return min(player.influence) >= 1
    raise ValueError(f"unknown mastery goal {goal!r}")


def mastery_points(state: State) -> tuple[int, ...]:
    """Return a mastery's rewards by claim order for the player count (ROG-MASTERY-1)."""
    rewards = COMPONENTS.mastery_rewards
    return rewards.two if state.count == 2 else rewards.more


def claimable_masteries(state: State, seat: int) -> list[tuple[MasteryClaimed, int]]:
    """Return the masteries ``seat`` claims now, each with its points (ROG-MASTERY-1)."""
    points = mastery_points(state)
    result = []
    for index, mastery in enumerate(state.masteries):
        claims = state.claims[index]
        if seat in claims or len(claims) >= len(points):
            continue
        if goal_met(state, seat, MASTERIES[mastery].goal):
            result.append((MasteryClaimed(seat=seat, mastery=mastery), points[len(claims)]))
    return result


def region_points(state: State, region: int) -> tuple[int, ...]:
    """Return each seat's points from a region's score tile (ROG-SCORE-1, -2, -3)."""
    tile = SCORE_TILES[state.score_tiles[region - 1]]
    values = tile.two if state.count == 2 else tile.more
    track = [p.influence[region - 1] for p in state.players]
    ranked = sorted({t for t in track if t > 0}, reverse=True)
    points = [0] * state.count
    position = 0
    for level in ranked:
        tied = [seat for seat, t in enumerate(track) if t == level]
        share = sum(values[position : position + len(tied)]) // len(tied)
        if (
            state.count == 2
            and position == 1
            and track_gap(track) > COMPONENTS.setup.two_player_second_gap
        ):
            share = 0
        for seat in tied:
            points[seat] = share
        position += len(tied)
    for seat, player in enumerate(state.players):
        if any(_is(c, "elder", region) for c in player.delivered):
            points[seat] *= 2
    return tuple(points)


def track_gap(track: list[int]) -> int:
    """Return how far second place stands behind first on a two-player track."""
    return max(track) - min(track)


def _is(card: str, kind: str, region: int) -> bool:
    return CUSTOMERS[card].kind == kind and CUSTOMERS[card].region == region


def customer_bonus(state: State, seat: int) -> int:
    """Return the end-of-game bonuses of a seat's customers (ROG-SCORE-5)."""
    return sum(bonus_by_kind(state, seat).values())


def bonus_by_kind(state: State, seat: int) -> Counter[str]:
    """Return a seat's end-of-game customer bonuses by kind: merchant, artisan, noble."""
    player = state.players[seat]
    types = _owned_types(state, seat)
    total: Counter[str] = Counter()
    for card in player.delivered:
        customer = CUSTOMERS[card]
        if customer.kind == "merchant":
            total["merchant"] += player.koku // 5
        elif customer.kind == "artisan":
            total["artisan"] += sum(player.goods) // 3
        elif customer.kind == "noble":
            total["noble"] += noble_bonus(state, seat, customer.bonus, types)
    return total


def noble_bonus(state: State, seat: int, bonus: str, types: Counter[str]) -> int:
    """Return one noble's end bonus: 1 point per building owned of its type (ROG-NOBLE-4).

    The nobles of regions 5 and 6 show no single type: by the rulebook every building owned
    counts; option ``noble_bonus = "types-and-regions"`` scores them as the published card data
    does (per building type owned, per region with a building).
    """
    if bonus in ("types", "regions") and state.noble_bonus == "buildings":
        return sum(types.values())
    if bonus == "types":
        return len(types)
    if bonus == "regions":
        owned = [i + 1 for i, marks in enumerate(state.markers) if seat in marks]
        return len({SPACES[s].region for s in owned})
    return types[bonus]


def final_scores(state: State, hook: Any) -> tuple[int, ...]:
    """Return every seat's total: play, regions, customers, bonuses (ROG-SCORE-1..5)."""
    regions = [region_points(state, r) for r in range(1, 7)]
    table = COMPONENTS.setup.customer_points
    scores = []
    for seat, player in enumerate(state.players):
        total = player.points + sum(points[seat] for points in regions)
        total += table[min(len(player.delivered), len(table) - 1)]
        total += customer_bonus(state, seat)
        total += sum(hook.river_of_gold_final_points(state=state, seat=seat))
        scores.append(total)
    return tuple(scores)


def score_lines(state: State, hook: Any) -> tuple[ScoreLine, ...]:
    """Return the final scoring by category, in the rulebook's order, as ``final_scores`` adds it.

    Points scored during play come first (the score track, then masteries, the end bonus and
    whatever an expansion scored, under the category ``river_of_gold_score_category`` names), then the
    final scoring: region tiles, customers, and the customers' bonuses (ROG-SCORE-1..5).
    """
    seats = range(state.count)
    played: dict[str, list[int]] = {
        name: [0] * state.count for name in (PLAY_POINTS, MASTERY_POINTS, END_POINTS)
    }
    for seat, player in enumerate(state.players):
        for reason, points in player.earned.items():
            category = reason
            if reason not in played:
                category = hook.river_of_gold_score_category(reason=reason) or reason
            played.setdefault(category, [0] * state.count)[seat] += points
    regions = [region_points(state, r) for r in range(1, 7)]
    table = COMPONENTS.setup.customer_points
    bonuses = [bonus_by_kind(state, seat) for seat in seats]
    final = [sum(hook.river_of_gold_final_points(state=state, seat=seat)) for seat in seats]
    lines = [ScoreLine(category, tuple(points)) for category, points in played.items()]
    lines += [
        ScoreLine("region tiles", tuple(sum(p[seat] for p in regions) for seat in seats)),
        ScoreLine(
            "customers",
            tuple(table[min(len(p.delivered), len(table) - 1)] for p in state.players),
        ),
        ScoreLine("merchants (koku)", tuple(b["merchant"] for b in bonuses)),
        ScoreLine("artisans (goods)", tuple(b["artisan"] for b in bonuses)),
        ScoreLine("nobles", tuple(b["noble"] for b in bonuses)),
    ]
    if any(final):
        lines.append(ScoreLine("expansions at the end", tuple(final)))
    return tuple(lines)


def winners(state: State, scores: tuple[int, ...]) -> tuple[int, ...]:
    """Return the seats with the most points, then the most favour; ties share (ROG-SCORE-6)."""
    best = max(zip(scores, (p.favour for p in state.players), strict=True))
    return tuple(
        seat for seat, player in enumerate(state.players) if (scores[seat], player.favour) == best
    )
