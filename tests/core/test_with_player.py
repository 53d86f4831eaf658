"""``with_player`` changes one seat's player of a state and shares everything else."""

from __future__ import annotations

import msgspec
import pytest
from gamehall.core import with_player


class Player(msgspec.Struct, frozen=True):
    koku: int = 0
    hand: tuple[str, ...] = ()


class State(msgspec.Struct, frozen=True):
    players: tuple[Player, ...]
    turn: int = 0


def test_one_seats_fields_change_and_the_rest_is_the_same_objects() -> None:
    first, second, third = Player(1, ("a",)), Player(2), Player(3)
    state = State((first, second, third), turn=2)
    after = with_player(state, 1, koku=7, hand=("b", "c"))
    assert after == State((first, Player(7, ("b", "c")), third), turn=2)
    assert after.players[0] is first and after.players[2] is third
    assert type(after.players) is tuple
    assert state.players[1] == Player(2)  # the state given is left as it was


def test_an_unknown_field_raises() -> None:
    with pytest.raises(TypeError):
        with_player(State((Player(),)), 0, gold=1)
