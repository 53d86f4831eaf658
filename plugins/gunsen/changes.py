"""Pure helpers of the ``@evolves`` methods in ``rules.py``: a copy of the state with one part
changed."""

from __future__ import annotations

from typing import Any

from gamehall.core import with_player
from msgspec.structs import replace

from .state import Combat, Player, State


def add(state: State, seat: int, resource: str, amount: int) -> State:
    """Return the state with ``amount`` more of a clan's ``resource``."""
    player = state.players[seat]
    return with_player(state, seat, **{resource: getattr(player, resource) + amount})


def troops(state: State, seat: int, changes: dict[int, int], supply: int = 0) -> State:
    """Return the state with a clan's troops per space changed and ``supply`` added."""
    row = bytearray(state.troops[seat])
    for space, delta in changes.items():
        row[space] += delta
    rows = list(state.troops)
    rows[seat] = bytes(row)
    state = replace(state, troops=tuple(rows))
    if supply:
        state = with_player(state, seat, supply=state.players[seat].supply + supply)
    return state


def move_heroes(state: State, seat: int, heroes: tuple[str, ...], to: int) -> State:
    """Return the state with a clan's ``heroes`` on space ``to``."""
    if not heroes:
        return state
    moved = tuple((h, to if h in heroes else s) for h, s in state.players[seat].heroes)
    return with_player(state, seat, heroes=moved)


def remove(items: tuple[str, ...], item: str) -> tuple[str, ...]:
    """Return ``items`` without one ``item``."""
    index = items.index(item)
    return items[:index] + items[index + 1 :]


def remove_all(items: tuple[str, ...], gone: tuple[str, ...]) -> tuple[str, ...]:
    """Return ``items`` without one of each of ``gone``."""
    for item in gone:
        items = remove(items, item)
    return items


def with_activation(state: State, **changes: Any) -> State:
    """Return the state with the column activation's fields changed."""
    assert state.activation is not None
    return replace(state, activation=replace(state.activation, **changes))


def with_combat(state: State, **changes: Any) -> State:
    """Return the state with the combat's fields changed."""
    assert state.combat is not None
    return replace(state, combat=replace(state.combat, **changes))


def side(combat: Combat, seat: int) -> int:
    """Return the side of ``seat`` in a combat: 0 attacks, 1 defends."""
    return 0 if seat == combat.attacker else 1


def lapse_tower(state: State) -> State:
    """A watchtower move right after a move must come at the next decision (GUN-TOWER-2)."""
    activation = state.activation
    if activation is None or not activation.tower_after:
        return state
    return with_activation(state, tower_after=False)


def reward(state: State, seat: int, reward: str, amount: int) -> State:
    """Return the state after a clan takes a reward (a troop goes to its fort)."""
    if not amount:
        return state
    if reward == "troop":
        return troops(state, seat, {state.forts[seat]: amount}, -amount)
    return add(state, seat, reward, amount)


def new_players(count: int) -> tuple[Player, ...]:
    """Return the players before setup."""
    return tuple(Player() for _ in range(count))
