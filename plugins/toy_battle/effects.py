"""Troop effects and special-base effects: what each offers and what using it causes.

Every effect but the Battlefield's is optional (TB-EFFECT-1): ``options`` lists the commands
that use it now, and an empty list means it cannot be used, so the rules skip it without asking. ``apply`` checks the
command, raising ``IllegalCommand`` with the rule id, and adds the events to the emitter. Effects are
registered through the ``toy_battle_effects`` hook, so an expansion can add or replace one.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from gamehall.core import Command, Context, IllegalCommand

from .commands import USE, ChooseTarget, MoveTroop, PlaceTroop, UseEffect
from .events import (
    TroopDiscarded,
    TroopMoved,
    TroopRecovered,
    TroopReturned,
    TroopsDrawn,
    TroopSnatched,
    TroopTurnedDown,
)
from .placement import RACK_LIMIT, draw_count, seat_of
from .state import State, WaitingEffect

if TYPE_CHECKING:
    from gamehall.core import Emitter

    from .rules import ToyBattle


class Effect:
    """An optional effect; subclasses set ``name``, ``prompt`` and ``rule``."""

    name = ""
    prompt = ""
    rule = "TB-EFFECT-1"
    accepts: tuple[type[Command], ...] = (UseEffect,)
    mandatory = False
    """True for an order, not a "you may": it is applied whenever it can be (TB-EFFECT-1)."""

    def options(self, game: ToyBattle, state: State, waiting: WaitingEffect) -> list[Command]:
        """Return the commands that use this effect now (empty: it cannot be used)."""
        raise NotImplementedError

    def apply(
        self,
        game: ToyBattle,
        emitter: Emitter[State],
        waiting: WaitingEffect,
        command: Any,
        ctx: Context,
    ) -> None:
        """Check the command and add the events of using the effect to ``emitter``."""
        raise NotImplementedError


class Draw(Effect):
    """Draw troops from the own supply (Skully, Star, City of Clouds)."""

    def __init__(self, name: str, count: int, rule: str, prompt: str) -> None:
        self.name, self.count, self.rule, self.prompt = name, count, rule, prompt

    def options(self, game: ToyBattle, state: State, waiting: WaitingEffect) -> list[Command]:
        """Offer the draw while the supply has a troop and the rack has room."""
        return [USE] if draw_count(state, waiting.seat, self.count) else []

    def apply(
        self,
        game: ToyBattle,
        emitter: Emitter[State],
        waiting: WaitingEffect,
        command: Any,
        ctx: Context,
    ) -> None:
        """Draw up to ``count`` troops, fewer when the rack or supply is short (TB-EFFECT-3)."""
        seat = waiting.seat
        count = draw_count(emitter.state, seat, self.count)
        if not count:
            raise IllegalCommand("there is nothing to draw or no room on your rack", self.rule)
        troops = emitter.state.supply[seat][:count]
        emitter.emit(TroopsDrawn(seat=seat, count=count, cause=self.name, troops=troops))


class CapN(Effect):
    """Place one extra troop, whose effect is applied too (TB-CAPN-1)."""

    name, rule, accepts = "capn", "TB-CAPN-1", (PlaceTroop,)
    prompt = "Cap'n: place one more troop, or skip"

    def options(self, game: ToyBattle, state: State, waiting: WaitingEffect) -> list[Command]:
        """Offer every legal placement."""
        return game.placement_commands(state, waiting.seat)

    def apply(
        self,
        game: ToyBattle,
        emitter: Emitter[State],
        waiting: WaitingEffect,
        command: Any,
        ctx: Context,
    ) -> None:
        """Place the extra troop by the ordinary placement rules."""
        game.place(emitter, waiting.seat, command.troop, command.spot)


class Jumbo(Effect):
    """Discard one visible enemy troop adjacent to Jumbo (TB-JUMBO-1)."""

    name, rule, accepts = "jumbo", "TB-JUMBO-1", (ChooseTarget,)
    prompt = "Jumbo: choose an adjacent enemy troop to discard, or skip"

    def options(self, game: ToyBattle, state: State, waiting: WaitingEffect) -> list[Command]:
        """Offer each enemy troop on top of a spot one path away."""
        return [ChooseTarget(troop=t) for t, _ in game.enemy_tops_near(state, waiting)]

    def apply(
        self,
        game: ToyBattle,
        emitter: Emitter[State],
        waiting: WaitingEffect,
        command: Any,
        ctx: Context,
    ) -> None:
        """Discard the target and check the regions its removal may complete (TB-JUMBO-1)."""
        spot = game.visible_target(emitter.state, command.troop, 1 - waiting.seat, self.rule)
        if spot not in game.board(emitter.state).adjacent[waiting.spot]:
            raise IllegalCommand(f"{command.troop} is not adjacent to Jumbo", "TB-JUMBO-1")
        emitter.emit(TroopDiscarded(seat=1 - waiting.seat, troop=command.troop, spot=spot))
        game.settle(emitter, waiting.seat)


class XB42(Effect):
    """Discard a random troop from the opponent's rack (TB-XB42-1)."""

    name, rule = "xb42", "TB-XB42-1"
    prompt = "XB-42: discard a random troop from your opponent's rack, or skip"

    def options(self, game: ToyBattle, state: State, waiting: WaitingEffect) -> list[Command]:
        """Offer the snatch while the opponent's rack holds a troop."""
        return [USE] if state.racks[1 - waiting.seat] else []

    def apply(
        self,
        game: ToyBattle,
        emitter: Emitter[State],
        waiting: WaitingEffect,
        command: Any,
        ctx: Context,
    ) -> None:
        """Draw the victim at random; the event records it, so replay never draws (TB-XB42-1)."""
        rack = emitter.state.racks[1 - waiting.seat]
        if not rack:
            raise IllegalCommand("your opponent's rack is empty", self.rule)
        troop = rack[ctx.rng.randrange(len(rack))]
        emitter.emit(TroopSnatched(seat=1 - waiting.seat, troop=troop))


class Castle(Effect):
    """Take one other own visible troop back to the rack (TB-CASTLE-1)."""

    name, rule, accepts = "castle", "TB-CASTLE-1", (ChooseTarget,)
    prompt = "Castle: take one of your other troops back to your rack, or skip"

    def options(self, game: ToyBattle, state: State, waiting: WaitingEffect) -> list[Command]:
        """Offer each own top troop but the one just placed, while the rack has room."""
        seat = waiting.seat
        if len(state.racks[seat]) >= RACK_LIMIT:
            return []
        return [
            ChooseTarget(troop=stack[-1])
            for stack in state.stacks.values()
            if stack and seat_of(state, stack[-1]) == seat and stack[-1] != waiting.troop
        ]

    def apply(
        self,
        game: ToyBattle,
        emitter: Emitter[State],
        waiting: WaitingEffect,
        command: Any,
        ctx: Context,
    ) -> None:
        """Return the troop and check the regions uncovering may complete (TB-CASTLE-1)."""
        seat, troop = waiting.seat, command.troop
        spot = game.visible_target(emitter.state, troop, seat, self.rule)
        if troop == waiting.troop:
            raise IllegalCommand("the Castle returns one of your other troops", self.rule)
        game.check_room(emitter.state, seat, self.rule)
        emitter.emit(TroopReturned(seat=seat, troop=troop, spot=spot))
        game.settle(emitter, seat)


class Cemetery(Effect):
    """Take one own troop from the discard pile back to the rack (TB-CEMETERY-1)."""

    name, rule, accepts = "cemetery", "TB-CEMETERY-1", (ChooseTarget,)
    prompt = "Cemetery: take one of your troops from the discard pile, or skip"

    def options(self, game: ToyBattle, state: State, waiting: WaitingEffect) -> list[Command]:
        """Offer each own discarded troop while the rack has room."""
        seat = waiting.seat
        if len(state.racks[seat]) >= RACK_LIMIT:
            return []
        return [ChooseTarget(troop=t) for t in state.discard if seat_of(state, t) == seat]

    def apply(
        self,
        game: ToyBattle,
        emitter: Emitter[State],
        waiting: WaitingEffect,
        command: Any,
        ctx: Context,
    ) -> None:
        """Move the troop from the discard pile to the rack."""
        seat, troop, state = waiting.seat, command.troop, emitter.state
        if troop not in state.discard:
            raise IllegalCommand(f"{troop} is not on the discard pile", self.rule)
        if seat_of(state, troop) != seat:
            raise IllegalCommand("the Cemetery only returns your own troops", self.rule)
        game.check_room(state, seat, self.rule)
        emitter.emit(TroopRecovered(seat=seat, troop=troop))


class Jungle(Effect):
    """Move an enemy troop next to this base to a base next to its own (TB-JUNGLE-1)."""

    name, rule, accepts = "jungle", "TB-JUNGLE-1", (MoveTroop,)
    prompt = "Jungle: move an adjacent enemy troop to a neighbouring base, or skip"

    def options(self, game: ToyBattle, state: State, waiting: WaitingEffect) -> list[Command]:
        """Offer each (enemy troop next to the special base, base next to it)."""
        board = game.board(state)
        return [
            MoveTroop(troop=troop, to=to)
            for troop, spot in game.enemy_tops_near(state, waiting)
            for to in board.adjacent[spot]
            if to not in board.hq_owner
        ]

    def apply(
        self,
        game: ToyBattle,
        emitter: Emitter[State],
        waiting: WaitingEffect,
        command: Any,
        ctx: Context,
    ) -> None:
        """Move the troop onto the destination stack, ignoring placement rules."""
        board = game.board(emitter.state)
        spot = game.visible_target(emitter.state, command.troop, 1 - waiting.seat, self.rule)
        if spot not in board.adjacent[waiting.spot]:
            raise IllegalCommand(f"{command.troop} is not adjacent to the Jungle base", self.rule)
        if command.to in board.hq_owner:
            raise IllegalCommand("a troop can only be moved onto a base", "TB-JUNGLE-2")
        if command.to not in board.adjacent[spot]:
            raise IllegalCommand(f"spot {command.to} is not adjacent to spot {spot}", self.rule)
        emitter.emit(TroopMoved(troop=command.troop, source=spot, to=command.to))
        game.settle(emitter, waiting.seat)


class Battlefield(Effect):
    """Lay a random troop of the opponent's rack face down (TB-BATTLEFIELD-1)."""

    name, rule, mandatory = "battlefield", "TB-BATTLEFIELD-1", True
    prompt = "Battlefield: point blindly at a troop on your opponent's rack"

    def options(self, game: ToyBattle, state: State, waiting: WaitingEffect) -> list[Command]:
        """Offer the effect while the opponent has a troop standing on its rack."""
        other = 1 - waiting.seat
        return [USE] if len(state.racks[other]) > len(state.face_down[other]) else []

    def apply(
        self,
        game: ToyBattle,
        emitter: Emitter[State],
        waiting: WaitingEffect,
        command: Any,
        ctx: Context,
    ) -> None:
        """Pick the troop at random, as pointing blindly does, and record it."""
        other, state = 1 - waiting.seat, emitter.state
        standing = [t for t in state.racks[other] if t not in state.face_down[other]]
        if not standing:
            raise IllegalCommand("no troop stands on your opponent's rack", self.rule)
        troop = standing[ctx.rng.randrange(len(standing))]
        emitter.emit(TroopTurnedDown(seat=other, troop=troop))


def default_effects() -> list[Effect]:
    """Return the rulebook's troop and special-base effects."""
    return [
        Draw("skully", 2, "TB-SKULLY-1", "Skully: draw 2 troops (1 if your rack has 7), or skip"),
        CapN(),
        Jumbo(),
        XB42(),
        Draw("star", 1, "TB-STAR-1", "Star: draw 1 troop, or skip"),
        Castle(),
        Cemetery(),
        Draw("clouds", 1, "TB-CLOUDS-1", "City of Clouds: draw 1 troop, or skip"),
        Jungle(),
        Battlefield(),
    ]
