"""A command being decided, and the phases that frame a turn: honour (phase 1) and its end."""

from __future__ import annotations

from typing import NoReturn, cast

from gamehall.core import Emitter, IllegalCommand, effect

from .events import (
    AllianceEnd,
    AllianceEnded,
    HonourCollected,
    HonourSource,
    MatchWon,
    TurnBegan,
    TurnEnded,
)
from .game import Game
from .state import State


def refuse(reason: str, rule: str) -> NoReturn:
    """Refuse a command with the reason and the rule id; nothing changes."""
    raise IllegalCommand(reason, rule)


Turn = Emitter[State]
"""The events one command causes, applied as they are emitted: the core's
:class:`~gamehall.core.Emitter`, made with the command's context (``turn.rng``)."""


def game_of(turn: Turn) -> Game:
    """Return the ruleset's parts (the rules object that made ``turn``, seen as a :class:`Game`)."""
    return cast(Game, turn.rules)


@effect
def end_alliance(turn: Turn, seat: int, reason: AllianceEnd) -> None:
    """End the alliance of ``seat``, if it has one (EDS-ALLY-6 … 9, EDS-LEAVE-2)."""
    ally = turn.state.players[seat].ally
    if ally is not None:
        turn.emit(AllianceEnded(seats=(min(seat, ally), max(seat, ally)), reason=reason))


def phase_one_honour(game: Game, state: State, seat: int) -> tuple[int, HonourSource]:
    """Return the honour a seat takes in phase 1 and how (EDS-HONOUR-1 … 3)."""
    player = state.players[seat]
    values = game.values
    if player.daimyo is not None:
        return values.own_honour(player), "own"
    if player.ally is None:
        return 0, "ronin"
    ally = state.players[player.ally]
    both = values.own_honour(player) + values.house_honour(ally, "daimyo")
    return -(-both // 2), "alliance"  # halved, rounded up


def begin_turn(turn: Turn, seat: int, round_: int) -> None:
    """Start a seat's turn: end an alliance it left a round ago, then phase 1 and the win."""
    if turn.state.players[seat].leaving:
        end_alliance(turn, seat, "left")  # EDS-LEAVE-2
    turn.emit(TurnBegan(seat=seat, round=round_))
    honour, source = phase_one_honour(game_of(turn), turn.state, seat)
    total = turn.state.players[seat].honour + honour
    turn.emit(HonourCollected(seat=seat, honour=honour, total=total, source=source))
    if total >= turn.state.options.honour_target:
        turn.emit(MatchWon(seat=seat, honour=total))  # EDS-WIN-1


def shogun_duty(game: Game, state: State) -> bool:
    """Tell whether the active seat must still declare its Daimyo Shogun (EDS-SHOGUN-3)."""
    player = state.players[state.turn]
    return (
        state.options.shogun_obligation
        and not state.declared
        and state.shogun is None
        and player.daimyo is not None
        and player.honour >= game.numbers.shogun_duty
    )


def end_turn(turn: Turn) -> None:
    """Phase 3: announce the end; the left neighbour goes next (EDS-END-1)."""
    state = turn.state
    if shogun_duty(game_of(turn), state):
        refuse(
            f"with {game_of(turn).numbers.shogun_duty} honour or more you must declare your "
            "Daimyo Shogun before you end your turn",
            "EDS-SHOGUN-3",
        )
    turn.emit(TurnEnded(seat=state.turn))
    following = (state.turn + 1) % state.count
    round_ = state.round + (following == state.options.start_seat)
    begin_turn(turn, following, round_)
