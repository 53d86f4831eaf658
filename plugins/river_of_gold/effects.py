"""Effects shared by every action: rewards, caps, influence, draws, the row and the river."""

from __future__ import annotations

from gamehall.core import Emitter, effect

from .components import COMPONENTS, CUSTOMERS, GOODS, MARKET_SPACES, SPACES, TILES, TOUCHES, Reward
from .events import (
    ChoiceOpened,
    CustomersDrawn,
    DeckShuffled,
    InfluenceMoved,
    ResourcesChanged,
    RowRefilled,
)
from .state import Choice, State

ANY_GOOD = ("silk", "rice", "porcelain")


Turn = Emitter[State]
"""The events of one command as they are decided, and the state after each of them: the core's
:class:`~gamehall.core.Emitter`, made with the command's context (``turn.rng``, ``turn.seat``).
The functions marked ``@effect`` below are the game's shared effects on it."""


@effect
def gain(turn: Turn, seat: int, reason: str = "", **amounts: int) -> None:
    """Add koku, favour, goods or points, losing whatever passes a cap (ROG-TRADE-3)."""
    player = turn.state.players[seat]
    caps = turn.rules.hook.river_of_gold_caps(state=turn.state, seat=seat)
    delta = {
        "koku": _capped(player.koku, amounts.get("koku", 0), caps.koku),
        "favour": _capped(player.favour, amounts.get("favour", 0), player.favour_cap),
        "points": amounts.get("points", 0),
    }
    for index, good in enumerate(GOODS):
        delta[good] = _capped(player.goods[index], amounts.get(good, 0), caps.goods)
    if any(delta.values()):
        turn.emit(ResourcesChanged(seat=seat, reason=reason, **delta))


@effect
def open_choice(
    turn: Turn, seat: int, kind: str, options: tuple[str, ...] = (), source: str = ""
) -> None:
    """Open a choice that ``seat`` makes before play goes on."""
    turn.emit(ChoiceOpened(Choice(seat, kind, options, source)))


@effect
def pay(turn: Turn, seat: int, reward: Reward, region: int, reason: str) -> None:
    """Pay a reward to a seat; influence goes to ``region`` (ROG-SAIL-4)."""
    koku = reward.koku + (owned_count(turn.state, seat, reward.koku_per) if reward.koku_per else 0)
    goods = {"silk": reward.silk, "rice": reward.rice, "porcelain": reward.porcelain}
    if reward.good:
        track_good = COMPONENTS.regions[region - 1].track_good
        goods[track_good] += reward.good
    gain(turn, seat, reason, koku=koku, favour=reward.favour, points=reward.points, **goods)
    if reward.influence:
        raise_influence(turn, seat, region, reward.influence, reason)
    for _ in range(reward.any_good):
        open_choice(turn, seat, "good", ANY_GOOD, reason)
    if reward.draw_discard:
        draw_customers(turn, seat, reward.draw_discard)
        for _ in range(min(reward.draw_discard, len(turn.state.players[seat].hand))):
            open_choice(turn, seat, "discard", (), reason)


@effect
def raise_influence(turn: Turn, seat: int, region: int, steps: int, reason: str) -> None:
    """Move up a region's track, paying every reward reached or passed (ROG-INFL-1, -2)."""
    before = turn.state.players[seat].influence[region - 1]
    after = turn.rules.hook.river_of_gold_influence_target(
        state=turn.state, seat=seat, region=region, steps=steps
    )
    if after <= before:
        return
    turn.emit(InfluenceMoved(seat=seat, region=region, to=after, reason=reason))
    for step in COMPONENTS.track.rewards:
        if before < step.step <= after:
            pay(turn, seat, step.reward, region, f"influence track {step.step}")
    turn.rules.hook.river_of_gold_influence_moved(
        turn=turn, seat=seat, region=region, before=before, after=after
    )


@effect
def draw_customers(turn: Turn, seat: int, count: int) -> None:
    """Draw customers, shuffling the discards into a new deck when it runs out (ROG-DELIVER-4)."""
    deck = turn.state.deck
    if len(deck) < count and turn.state.discard:
        if deck:
            turn.emit(CustomersDrawn(seat=seat, cards=deck, count=len(deck)))
            count -= len(deck)
        order = list(turn.state.discard)
        turn.rng.shuffle(order)
        turn.emit(DeckShuffled(order=tuple(order), size=len(order)))
    cards = turn.state.deck[:count]
    if cards:
        turn.emit(CustomersDrawn(seat=seat, cards=cards, count=len(cards)))


@effect
def refill_row(turn: Turn) -> None:
    """Slide the row toward its end and fill the first slot from the era stack."""
    stack = turn.state.era1 or turn.state.era2
    if stack and len(turn.state.row) < COMPONENTS.setup.row:
        turn.emit(RowRefilled(tile=stack[0]))


def _capped(have: int, add: int, cap: int) -> int:
    if add <= 0:
        return add
    return max(0, min(cap, have + add) - have)


def owned_count(state: State, seat: int, what: str | None) -> int:
    """Return how many buildings of a type ``seat`` owns, or how many customers it served."""
    if what == "customer":
        return len(state.players[seat].delivered)
    return sum(
        1 for space in owned(state, seat) if TILES[state.tiles[space - 1] or ""].type == what
    )


def owned(state: State, seat: int) -> tuple[int, ...]:
    """Return the spaces of the buildings ``seat`` owns (a clan marker on them, ROG-MONK-3)."""
    return tuple(i + 1 for i, marks in enumerate(state.markers) if seat in marks)


def royal_abilities(state: State, seat: int) -> tuple[str, ...]:
    """Return the abilities the nobles a seat delivered to give its imperial ship."""
    cards = state.players[seat].delivered
    return tuple(CUSTOMERS[c].ability for c in cards if CUSTOMERS[c].kind == "noble")


def visitor_reward(state: State, space: int, royal: tuple[str, ...]) -> Reward:
    """Return what a visiting ship gets at a shore space (ROG-SAIL-2, ROG-NOBLE-3)."""
    tile = state.tiles[space - 1]
    if tile is None:
        return Reward(koku=1 + ("koku-per-empty" in royal))
    reward = TILES[tile].visitor
    if "market-any-good" in royal and TILES[tile].type == "market":
        named = reward.silk + reward.rice + reward.porcelain
        reward = Reward(
            favour=reward.favour, any_good=reward.any_good + named, draw_discard=reward.draw_discard
        )
    return reward


def is_ownable(state: State, space: int) -> bool:
    """Tell whether a building stands on ``space`` that clans can own (not start or market)."""
    tile = state.tiles[space - 1]
    return tile is not None and TILES[tile].era in (1, 2) and space not in MARKET_SPACES


def visit(turn: Turn, seat: int, river: int, royal: tuple[str, ...]) -> None:
    """Pay visitor rewards, then every owner's reward, at the four touching spaces (ROG-SAIL-2, -3)."""
    spaces = TOUCHES[river]
    for space in spaces:
        reward = visitor_reward(turn.state, space, royal)
        pay(turn, seat, reward, SPACES[space].region, f"visit space {space}")
    for space in spaces:
        pay_owners(turn, space, f"owner of space {space}")
    if "influence-per-region" in royal:
        for region in sorted({SPACES[s].region for s in spaces}):
            raise_influence(turn, seat, region, 1, "imperial ship")
    markers = [m for s in spaces for m in turn.state.markers[s - 1]]
    if "point-if-other" in royal and any(m != seat for m in markers):
        gain(turn, seat, "imperial ship", points=1)
    if "point-if-own" in royal and seat in markers:
        gain(turn, seat, "imperial ship", points=1)


def pay_owners(turn: Turn, space: int, reason: str) -> None:
    """Pay a building's owner reward once per clan marker on it (ROG-MONK-3)."""
    if not is_ownable(turn.state, space):
        return
    tile = TILES[turn.state.tiles[space - 1] or ""]
    for marker in turn.state.markers[space - 1]:
        pay(turn, marker, tile.owner, SPACES[space].region, reason)
