"""River of Gold's own hooks (phases, effects, costs, caps, scoring) and the rulebook defaults.

Expansions implement these; the game calls them through the match's hook relay, so an
expansion acts only in matches that enable it. ``turn`` arguments are the
:class:`~gamehall.plugins.river_of_gold.effects.Turn` being decided: emit events through it.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any

import msgspec
from gamehall.core import Command, Decision, hookimpl, hookspec

from .components import COMPONENTS, CUSTOMERS, SPACES

if TYPE_CHECKING:
    from .effects import Turn
    from .state import State


class Caps(msgspec.Struct, frozen=True):
    """The most koku, goods of one kind and favour cap (moon) a clan may hold (ROG-TRADE-3)."""

    koku: int
    goods: int
    favour_cap: int


class RiverOfGoldSpecs:
    """Hooks an expansion of River of Gold may implement."""

    # -- setup -------------------------------------------------------------------------------

    @hookspec
    def river_of_gold_setup(self, turn: Turn, options: Any, rng: random.Random) -> None:
        """Emit extra setup events after the base setup (ROG-SETUP-*).

        Fires once in ``start``; every implementation runs. ``options`` maps expansion ids to
        their typed options.

        :param turn: the turn being decided (``api.Turn``): its state, and where events go.
        :param options: the match's expansion options, by expansion id, each typed.
        :param rng: the generator to draw from (the command's, or a bot's own when it searches).
        """

    @hookspec(firstresult=True)
    def river_of_gold_opening_roll(self, turn: Turn, seat: int) -> bool | None:
        """Settle ``seat``'s opening die instead of rolling it; return ``True`` when handled.

        Fires once per seat in personal setup (ROG-SETUP-9), after every setup decision of
        :func:`river_of_gold_decision` is made; the base game rolls the die when no implementation
        returns ``True``. A die left open is settled through :func:`river_of_gold_decision`.

        :param turn: the turn being decided (``api.Turn``): its state, and where events go.
        :param seat: the seat concerned.
        """

    # -- extra decisions and commands --------------------------------------------------------

    @hookspec(firstresult=True)
    def river_of_gold_decision(self, state: State) -> tuple[int, Decision] | None:
        """Return a decision that comes before the base game's (a setup draft), or ``None``.

        Fires in ``awaiting``, ``legal`` and ``decide``; the first non-``None`` result wins and
        only commands answered by :func:`river_of_gold_decide` are accepted meanwhile.

        :param state: the match state (``api.State``).
        """

    @hookspec
    def river_of_gold_extra_commands(self, state: State, seat: int, phase: str) -> list[Command]:  # type: ignore[empty-body]
        """Return extra legal commands for ``seat`` in ``phase`` (``action``, ``finish``, …).

        Fires in ``legal``; every list is used. Each must be accepted by :func:`river_of_gold_decide`.

        :param state: the match state (``api.State``).
        :param seat: the seat concerned.
        :param phase: where the seat is: ``action``, ``finish`` or ``expansion``.
        """

    @hookspec(firstresult=True)
    def river_of_gold_decide(self, turn: Turn, seat: int, command: Command) -> bool | None:
        """Decide an expansion's command by emitting events; return ``True`` when handled.

        Fires in ``decide`` for commands the base game does not know (and for every command
        while :func:`river_of_gold_decision` holds the match). Raise ``IllegalCommand`` to refuse.

        :param turn: the turn being decided (``api.Turn``): its state, and where events go.
        :param seat: the seat concerned.
        :param command: the command sent.
        """

    @hookspec(firstresult=True)
    def river_of_gold_evolve(self, state: State, event: Any) -> State | None:
        """Return the state after an expansion's event, or ``None`` if it is not yours.

        :param state: the match state (``api.State``).
        :param event: the event to apply.
        """

    # -- hidden parts ------------------------------------------------------------------------

    @hookspec
    def river_of_gold_view(self, state: State, seat: int | None) -> dict[str, Any] | None:
        """Return your own state as ``seat`` may see it (``None``: all shown).

        Fires in ``view`` for every seat and spectator, once any expansion keeps state; every
        result is laid over ``State.ext``, so return ``api.extension_entry(your id, masked)``.
        An expansion that keeps something hidden masks it here (with ``api.HIDDEN``) and
        draws it again in :func:`river_of_gold_sample`.

        :param state: the match state (``api.State``).
        :param seat: the seat concerned.
        """

    @hookspec
    def river_of_gold_sample(
        self, view: State, seat: int, rng: random.Random
    ) -> dict[str, Any] | None:
        """Return your own state with what ``seat`` cannot see drawn at random.

        Fires when a bot samples a state from ``seat``'s view (``Rules.sample``); draw from
        ``rng`` only, uniformly from what the seat has not seen, so that viewing the result
        for ``seat`` gives ``view`` again. Every result is laid over ``State.ext``
        (``api.extension_entry``); ``None`` when nothing of yours is hidden.

        :param view: the state as ``seat`` sees it.
        :param seat: the seat concerned.
        :param rng: the generator to draw from (the command's, or a bot's own when it searches).
        """

    # -- costs and caps ----------------------------------------------------------------------

    @hookspec(firstresult=True)
    def river_of_gold_build_regions(self, state: State, seat: int) -> tuple[int, ...]:  # type: ignore[empty-body]
        """Return the regions ``seat`` may build in this turn (default: the die's, ROG-BUILD-1).

        :param state: the match state (``api.State``).
        :param seat: the seat concerned.
        """

    @hookspec(firstresult=True)
    def river_of_gold_deliver_regions(self, state: State, seat: int) -> tuple[int, ...]:  # type: ignore[empty-body]
        """Return the regions whose customers ``seat`` may deliver to (default: the die's).

        :param state: the match state (``api.State``).
        :param seat: the seat concerned.
        """

    @hookspec(firstresult=True)
    def river_of_gold_build_cost(self, state: State, seat: int, space: int) -> int:  # type: ignore[empty-body]
        """Return the koku ``seat`` pays to build on ``space`` (default: ROG-BUILD-2, ROG-ARTISAN-2).

        :param state: the match state (``api.State``).
        :param seat: the seat concerned.
        :param space: the shore space.
        """

    @hookspec(firstresult=True)
    def river_of_gold_caps(self, state: State, seat: int) -> Caps:  # type: ignore[empty-body]
        """Return the caps on koku, goods and the favour cap for ``seat`` (ROG-TRADE-3).

        :param state: the match state (``api.State``).
        :param seat: the seat concerned.
        """

    @hookspec(firstresult=True)
    def river_of_gold_end_bonus(self, state: State, seat: int) -> int:  # type: ignore[empty-body]
        """Return the points for the seat that triggers the end (default 5, ROG-END-1).

        :param state: the match state (``api.State``).
        :param seat: the seat concerned.
        """

    # -- effects -----------------------------------------------------------------------------

    @hookspec(firstresult=True)
    def river_of_gold_influence_target(  # type: ignore[empty-body]
        self, state: State, seat: int, region: int, steps: int
    ) -> int:
        """Return where ``seat``'s marker lands when it moves ``steps`` up a track (ROG-INFL-1).

        :param state: the match state (``api.State``).
        :param seat: the seat concerned.
        :param region: the region whose influence track the marker is on.
        :param steps: how many steps the marker moves up.
        """

    @hookspec
    def river_of_gold_influence_moved(
        self, turn: Turn, seat: int, region: int, before: int, after: int
    ) -> None:
        """React after a marker moved up a track and its rewards were paid.

        :param turn: the turn being decided (``api.Turn``): its state, and where events go.
        :param seat: the seat concerned.
        :param region: the region whose influence track the marker is on.
        :param before: the marker's step before the move.
        :param after: the marker's step after it.
        """

    @hookspec
    def river_of_gold_built(self, turn: Turn, seat: int, space: int) -> None:
        """React after ``seat`` built on ``space`` and its build bonus was paid.

        :param turn: the turn being decided (``api.Turn``): its state, and where events go.
        :param seat: the seat concerned.
        :param space: the shore space.
        """

    @hookspec
    def river_of_gold_sailed(self, turn: Turn, seat: int, ship: int, river: int) -> None:
        """React after a ship visited ``river`` and every visitor and owner reward was paid.

        :param turn: the turn being decided (``api.Turn``): its state, and where events go.
        :param seat: the seat concerned.
        :param ship: the seat whose ship sailed.
        :param river: the river space visited.
        """

    @hookspec
    def river_of_gold_delivered(self, turn: Turn, seat: int, card: str) -> None:
        """React after a delivery's ability, before the draw.

        :param turn: the turn being decided (``api.Turn``): its state, and where events go.
        :param seat: the seat concerned.
        :param card: the customer card delivered to.
        """

    @hookspec
    def river_of_gold_turn_ended(self, turn: Turn, seat: int) -> None:
        """React after the masteries of a turn, before the roll.

        :param turn: the turn being decided (``api.Turn``): its state, and where events go.
        :param seat: the seat concerned.
        """

    # -- scoring -----------------------------------------------------------------------------

    @hookspec
    def river_of_gold_final_points(self, state: State, seat: int) -> int:  # type: ignore[empty-body]
        """Return extra final points for ``seat``; every result is added (ROG-SCORE-*).

        :param state: the match state (``api.State``).
        :param seat: the seat concerned.
        """

    @hookspec(firstresult=True)
    def river_of_gold_score_category(self, reason: str) -> str | None:
        """Name the scoring category of points an expansion gave during play for ``reason``.

        Fires when the final scoring is broken down, once per reason that is not the base
        game's; stops at the first non-``None`` result; by default the reason is its own
        category.

        :param reason: the reason the points were given (a ``PointsScored`` reason).
        """


class Defaults:
    """The rulebook's answer to every River of Gold hook that needs one."""

    @hookimpl(trylast=True)
    def river_of_gold_build_regions(self, state: State, seat: int) -> tuple[int, ...]:
        """Build in the die's region (ROG-BUILD-1)."""
        return (state.players[seat].die,)

    @hookimpl(trylast=True)
    def river_of_gold_deliver_regions(self, state: State, seat: int) -> tuple[int, ...]:
        """Deliver to customers of the die's region (ROG-DELIVER-1)."""
        return (state.players[seat].die,)

    @hookimpl(trylast=True)
    def river_of_gold_build_cost(self, state: State, seat: int, space: int) -> int:
        """Pay the space's cost, 2 less per artisan of its region (ROG-BUILD-2, ROG-ARTISAN-2)."""
        region = SPACES[space].region
        artisans = sum(
            1
            for card in state.players[seat].delivered
            if CUSTOMERS[card].kind == "artisan" and CUSTOMERS[card].region == region
        )
        return max(0, SPACES[space].cost - 2 * artisans)

    @hookimpl(trylast=True)
    def river_of_gold_caps(self, state: State, seat: int) -> Caps:
        """Cap koku at 25, each good at 6 and the favour cap at 6 (ROG-TRADE-3, ROG-MONK-1)."""
        return DEFAULT_CAPS

    @hookimpl(trylast=True)
    def river_of_gold_end_bonus(self, state: State, seat: int) -> int:
        """Give 5 points to the seat that triggers the end (ROG-END-1)."""
        return COMPONENTS.setup.end_bonus

    @hookimpl(trylast=True)
    def river_of_gold_influence_target(
        self, state: State, seat: int, region: int, steps: int
    ) -> int:
        """Move up ``steps`` spaces; influence past the top is lost (ROG-INFL-1)."""
        return min(COMPONENTS.track.top, state.players[seat].influence[region - 1] + steps)


DEFAULT_CAPS = Caps(
    COMPONENTS.setup.koku_cap, COMPONENTS.setup.goods_cap, COMPONENTS.setup.favour_cap_max
)
