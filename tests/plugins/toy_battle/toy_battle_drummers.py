"""A test expansion of Toy Battle written only against ``gamehall.plugins.toy_battle.api``.

The Drummer (strength 5) musters: after it is placed, its seat may draw one troop for each of
its own troops on a spot next to the Drummer, two at most. A new troop kind, a new effect and
its words, all through the game's public API.
"""

from __future__ import annotations

from typing import Any

from gamehall.core import Context, ExpansionSpec, IllegalCommand, hookimpl
from gamehall.plugins.toy_battle import api

RULE = "TB-DRUM-1"

DRUMMER = api.TroopKind(
    "drummer",
    "Drummer",
    5,
    copies=2,
    effect="muster",
    short="D",
    description="strength 5; draw 1 troop per own troop next to it, 2 at most",
)


def neighbours(game: api.ToyBattle, state: api.State, waiting: api.WaitingEffect) -> int:
    """Return how many of the seat's troops top a spot next to the Drummer."""
    board = game.board(state)
    tops = [state.top(spot) for spot in board.adjacent[waiting.spot]]
    return sum(1 for top in tops if top is not None and api.seat_of(state, top) == waiting.seat)


class Muster(api.Effect):
    """Draw one troop per own neighbouring troop, at most two (TB-DRUM-1)."""

    name, rule = "muster", RULE
    prompt = "Drummer: draw a troop for each of your troops next to it, or skip"

    def options(
        self, game: api.ToyBattle, state: api.State, waiting: api.WaitingEffect
    ) -> list[Any]:
        """Offer the draw while a neighbour is the seat's and the rack has room."""
        wanted = min(2, neighbours(game, state, waiting))
        return [api.USE] if wanted and api.draw_count(state, waiting.seat, wanted) else []

    def apply(
        self,
        game: api.ToyBattle,
        emitter: api.Emitter[api.State],
        waiting: api.WaitingEffect,
        command: Any,
        ctx: Context,
    ) -> None:
        """Draw the troops (fewer when the rack or the supply is short)."""
        state, seat = emitter.state, waiting.seat
        count = api.draw_count(state, seat, min(2, neighbours(game, state, waiting)))
        if not count:
            raise IllegalCommand("no troop of yours is next to the Drummer", RULE)
        troops = state.supply[seat][:count]
        emitter.emit(api.TroopsDrawn(seat=seat, count=count, cause=self.name, troops=troops))


class DrummerParts:
    """The expansion's answers to Toy Battle's hooks."""

    @hookimpl
    def toy_battle_troop_kinds(self) -> list[api.TroopKind]:
        """Add two Drummers per colour."""
        return [DRUMMER]

    @hookimpl
    def toy_battle_effects(self) -> list[api.Effect]:
        """Add the muster effect."""
        return [Muster()]


DRUMMERS = ExpansionSpec(
    id="toy-battle-drummers",
    name="Drummers",
    version="1.0.0",
    game="toy-battle",
    hookimpls=(DrummerParts(),),
    test_options=({"terrain": "castle"},),
    description="Adds the Drummer (5), who musters troops next to it.",
)


class DrummersPlugin:
    """Registers the expansion (a test registry adds it beside the built-in plugins)."""

    @hookimpl
    def gamehall_expansions(self) -> list[ExpansionSpec]:
        """Register the Drummers."""
        return [DRUMMERS]
