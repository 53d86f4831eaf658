"""A command being decided, and the phases that frame a turn: honour (phase 1) and its end."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import NoReturn

from gamehall.core import Emitter, IllegalCommand, Rules

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
from .state import Player, State


def refuse(reason: str, rule: str) -> NoReturn:
    """Refuse a command with the reason and the rule id; nothing changes."""
    raise IllegalCommand(reason, rule)


class Turn(Emitter[State]):
    """The events one command causes, applied as they are emitted, with the ruleset's parts."""

    __slots__ = ("_rng", "game")

    def __init__(
        self, rules: Rules[State], game: Game, state: State, rng: Callable[[], random.Random]
    ) -> None:
        """``rules`` applies the events; ``game`` gives the ruleset's parts (the same rules
        object, seen through :class:`~gamehall.plugins.ehre_der_samurai.game.Game`)."""
        super().__init__(rules, state)
        self.game = game
        self._rng = rng

    @property
    def rng(self) -> random.Random:
        """Return the command's generator (seeded only when first used)."""
        return self._rng()

    def player(self, seat: int) -> Player:
        """Return a player as things stand now."""
        return self.state.players[seat]

    def end_alliance(self, seat: int, reason: AllianceEnd) -> None:
        """End the alliance of ``seat``, if it has one (EDS-ALLY-6 … 9, EDS-LEAVE-2)."""
        ally = self.player(seat).ally
        if ally is not None:
            self.emit(AllianceEnded(seats=(min(seat, ally), max(seat, ally)), reason=reason))


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
    if turn.player(seat).leaving:
        turn.end_alliance(seat, "left")  # EDS-LEAVE-2
    turn.emit(TurnBegan(seat=seat, round=round_))
    honour, source = phase_one_honour(turn.game, turn.state, seat)
    total = turn.player(seat).honour + honour
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
    if shogun_duty(turn.game, state):
        refuse(
            f"with {turn.game.numbers.shogun_duty} honour or more you must declare your "
            "Daimyo Shogun before you end your turn",
            "EDS-SHOGUN-3",
        )
    turn.emit(TurnEnded(seat=state.turn))
    following = (state.turn + 1) % state.count
    round_ = state.round + (following == state.options.start_seat)
    begin_turn(turn, following, round_)
