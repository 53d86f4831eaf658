"""Every legal command of a seat, built from the same checks ``decide`` uses."""

from __future__ import annotations

from gamehall.core import Command, Rules

from .actions import row_index
from .commands import (
    Build,
    BuyFavour,
    Deliver,
    DiscardCustomer,
    EndTurn,
    PlaceMarker,
    Sail,
    SellGood,
    ShiftDie,
    StopSelling,
    TakeGood,
    TakeKoku,
    TradeGoods,
    UpgradeShip,
)
from .components import CUSTOMERS, GOODS, SPACES_BY_REGION, request_of
from .effects import royal_abilities
from .state import Choice, State

SHIFTS = (ShiftDie(by=1), ShiftDie(by=-1))
# Keyed by plain names: a choice's options are strings, whatever the choice is about.
TAKE_GOOD: dict[str, TakeGood] = {good: TakeGood(good=good) for good in GOODS}
SELL = {good: SellGood(good=good) for good in GOODS}
TRADES = tuple(TradeGoods(give=a, take=b) for a in GOODS for b in GOODS if a != b)


def phase(state: State) -> str:
    """Return what the game waits for: ``over``, ``choice``, ``action`` or ``finish``."""
    if state.over:
        return "over"
    if state.choices:
        return "choice"
    return "finish" if state.acted else "action"


def choice_commands(state: State, choice: Choice) -> list[Command]:
    """Return the commands that answer an open choice."""
    player = state.players[choice.seat]
    if choice.kind == "good":
        return [TAKE_GOOD[g] for g in choice.options]
    if choice.kind == "journey":
        return [TakeKoku(), *(TAKE_GOOD[g] for g in GOODS)]
    if choice.kind == "discard":
        return [DiscardCustomer(card=c) for c in player.hand]
    if choice.kind == "marker":
        return [PlaceMarker(space=int(s)) for s in choice.options]
    if choice.kind == "upgrade":
        return [UpgradeShip(ship=int(s)) for s in choice.options]
    if choice.kind == "sell":
        return [*(SELL[g] for i, g in enumerate(GOODS) if player.goods[i] > 0), StopSelling()]
    return []


def trades(state: State, seat: int) -> list[Command]:
    """Return the trades ``seat`` can make now (ROG-TRADE-1, -2)."""
    player = state.players[seat]
    result: list[Command] = [t for t in TRADES if player.goods[GOODS.index(t.give)] >= 2]
    if player.koku >= 5:
        result.append(BuyFavour())
    return result


def actions(rules: Rules[State], state: State, seat: int) -> list[Command]:
    """Return every build, sail and delivery ``seat`` may choose (ROG-BUILD, -SAIL, -DELIVER)."""
    hook = rules.hook
    player = state.players[seat]
    result: list[Command] = []
    slots = [s for s in range(4) if row_index(state, s) is not None]
    for region in hook.river_of_gold_build_regions(state=state, seat=seat):
        for space in SPACES_BY_REGION[region]:
            if state.tiles[space - 1] is not None:
                continue
            if hook.river_of_gold_build_cost(state=state, seat=seat, space=space) <= player.koku:
                result.extend(Build(space=space, slot=s) for s in slots)
    royal = royal_abilities(state, seat) if player.royal is not None else ()
    for ship in range(len(player.ships)):
        result.append(Sail(ship=ship))
        if ship == player.royal and "free-shift" in royal:
            result.extend((Sail(ship=ship, shift=1), Sail(ship=ship, shift=-1)))
    regions = hook.river_of_gold_deliver_regions(state=state, seat=seat)
    for card in player.hand:
        needs = request_of(card)
        if CUSTOMERS[card].region in regions and all(
            have >= need for have, need in zip(player.goods, needs, strict=True)
        ):
            result.append(Deliver(card=card))
    return result


def legal(rules: Rules[State], state: State, seat: int) -> list[Command]:
    """Return every command ``seat`` may send now."""
    hook = rules.hook
    if state.over:
        return []
    ahead = hook.river_of_gold_decision(state=state)
    if ahead is not None:
        if ahead[0] != seat:
            return []
        return _flat(hook.river_of_gold_extra_commands(state=state, seat=seat, phase="expansion"))
    now = phase(state)
    if now == "choice":
        choice = state.choices[0]
        mine = choice_commands(state, choice) if choice.seat == seat else []
        return [*mine, *trades(state, seat)]
    if seat != state.turn:
        return trades(state, seat)
    result: list[Command] = []
    if now == "action":
        if state.players[seat].favour > 0:
            result.extend(SHIFTS)
        result.extend(actions(rules, state, seat))
    else:
        result.append(EndTurn())
    result.extend(trades(state, seat))
    result.extend(_flat(hook.river_of_gold_extra_commands(state=state, seat=seat, phase=now)))
    return result


def _flat(lists: list[list[Command]]) -> list[Command]:
    return [command for commands in lists for command in commands]
