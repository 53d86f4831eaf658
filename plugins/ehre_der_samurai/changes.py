"""Pure helpers of the ``@evolves`` methods in ``rules.py``: a copy of the state with one part
changed."""

from __future__ import annotations

from typing import Any

import msgspec
from gamehall.core import with_player

from . import events as ev
from .state import WAITING, House, Insult, Player, State, without

replace = msgspec.structs.replace


def into(player: Player, house: House, cards: tuple[str, ...]) -> Player:
    """Return the player with ``cards`` as one of its houses."""
    if house == "daimyo":
        return replace(player, daimyo_house=cards)
    return replace(player, samurai_house=cards)


def spend(state: State, seat: int, card: str, cost: int, actions: int = 1) -> State:
    """Discard an action card from a hand, pay its honour and count its card actions."""
    player = state.players[seat]
    state = with_player(state, seat, hand=without(player.hand, card), honour=player.honour - cost)
    return replace(
        state, discard=state.discard + (card,), actions_used=state.actions_used + actions
    )


def house_field(house: House, cards: tuple[str, ...]) -> dict[str, tuple[str, ...]]:
    """Return the player's field of a house, holding ``cards``."""
    return {"daimyo_house" if house == "daimyo" else "samurai_house": cards}


def dishonour(state: State, e: ev.DishonourPlayed, actions: int, bystanders: bool) -> State:
    """Return the state after a Dishonour is played, the answers it waits for open."""
    state = spend(state, e.seat, e.card, 0, actions)
    answers = tuple(
        WAITING if s == e.victim or (bystanders and s != e.seat) else None
        for s in range(state.count)
    )
    return replace(state, insult=Insult(e.seat, e.victim, e.card, answers))


def at(values: tuple[Any, ...], index: int, value: Any) -> tuple[Any, ...]:
    """Return ``values`` with the one at ``index`` replaced."""
    return values[:index] + (value,) + values[index + 1 :]
