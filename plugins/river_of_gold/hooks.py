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

from .components import CUSTOMERS, SPACES, C

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
    def rog_setup(self, turn: Turn, options: Any, rng: random.Random) -> None:
        """Emit extra setup events after the base setup (ROG-SETUP-*).

        Fires once in ``start``; every implementation runs. ``options`` maps expansion ids to
        their typed options.
        """

    @hookspec(firstresult=True)
    def rog_opening_roll(self, turn: Turn, seat: int) -> bool | None:
        """Settle ``seat``'s opening die instead of rolling it; return ``True`` when handled.

        Fires once per seat in personal setup (ROG-SETUP-9), after every setup decision of
        :func:`rog_decision` is made; the base game rolls the die when no implementation
        returns ``True``. A die left open is settled through :func:`rog_decision`.
        """

    # -- extra decisions and commands --------------------------------------------------------

    @hookspec(firstresult=True)
    def rog_decision(self, state: State) -> tuple[int, Decision] | None:
        """Return a decision that comes before the base game's (a setup draft), or ``None``.

        Fires in ``awaiting``, ``legal`` and ``decide``; the first non-``None`` result wins and
        only commands answered by :func:`rog_decide` are accepted meanwhile.
        """

    @hookspec
    def rog_extra_commands(self, state: State, seat: int, phase: str) -> list[Command]:  # type: ignore[empty-body]
        """Return extra legal commands for ``seat`` in ``phase`` (``action``, ``finish``, …).

        Fires in ``legal``; every list is used. Each must be accepted by :func:`rog_decide`.
        """

    @hookspec(firstresult=True)
    def rog_decide(self, turn: Turn, seat: int, command: Command) -> bool | None:
        """Decide an expansion's command by emitting events; return ``True`` when handled.

        Fires in ``decide`` for commands the base game does not know (and for every command
        while :func:`rog_decision` holds the match). Raise ``IllegalCommand`` to refuse.
        """

    @hookspec(firstresult=True)
    def rog_evolve(self, state: State, event: Any) -> State | None:
        """Return the state after an expansion's event, or ``None`` if it is not yours."""

    # -- costs and caps ----------------------------------------------------------------------

    @hookspec(firstresult=True)
    def rog_build_regions(self, state: State, seat: int) -> tuple[int, ...]:  # type: ignore[empty-body]
        """Return the regions ``seat`` may build in this turn (default: the die's, ROG-BUILD-1)."""

    @hookspec(firstresult=True)
    def rog_deliver_regions(self, state: State, seat: int) -> tuple[int, ...]:  # type: ignore[empty-body]
        """Return the regions whose customers ``seat`` may deliver to (default: the die's)."""

    @hookspec(firstresult=True)
    def rog_build_cost(self, state: State, seat: int, space: int) -> int:  # type: ignore[empty-body]
        """Return the koku ``seat`` pays to build on ``space`` (default: ROG-BUILD-2, ROG-ARTISAN-2)."""

    @hookspec(firstresult=True)
    def rog_caps(self, state: State, seat: int) -> Caps:  # type: ignore[empty-body]
        """Return the caps on koku, goods and the favour cap for ``seat`` (ROG-TRADE-3)."""

    @hookspec(firstresult=True)
    def rog_end_bonus(self, state: State, seat: int) -> int:  # type: ignore[empty-body]
        """Return the points for the seat that triggers the end (default 5, ROG-END-1)."""

    # -- effects -----------------------------------------------------------------------------

    @hookspec(firstresult=True)
    def rog_influence_target(  # type: ignore[empty-body]
        self, state: State, seat: int, region: int, steps: int
    ) -> int:
        """Return where ``seat``'s marker lands when it moves ``steps`` up a track (ROG-INFL-1)."""

    @hookspec
    def rog_influence_moved(
        self, turn: Turn, seat: int, region: int, before: int, after: int
    ) -> None:
        """React after a marker moved up a track and its rewards were paid."""

    @hookspec
    def rog_built(self, turn: Turn, seat: int, space: int) -> None:
        """React after ``seat`` built on ``space`` and its build bonus was paid."""

    @hookspec
    def rog_sailed(self, turn: Turn, seat: int, ship: int, river: int) -> None:
        """React after a ship visited ``river`` and every visitor and owner reward was paid."""

    @hookspec
    def rog_delivered(self, turn: Turn, seat: int, card: str) -> None:
        """React after a delivery's ability, before the draw."""

    @hookspec
    def rog_turn_ended(self, turn: Turn, seat: int) -> None:
        """React after the masteries of a turn, before the roll."""

    # -- scoring -----------------------------------------------------------------------------

    @hookspec
    def rog_final_points(self, state: State, seat: int) -> int:  # type: ignore[empty-body]
        """Return extra final points for ``seat``; every result is added (ROG-SCORE-*)."""

    @hookspec(firstresult=True)
    def rog_score_category(self, reason: str) -> str | None:
        """Name the scoring category of points an expansion gave during play for ``reason``.

        Fires when the final scoring is broken down, once per reason that is not the base
        game's; stops at the first non-``None`` result; by default the reason is its own
        category.
        """


class Defaults:
    """The rulebook's answer to every River of Gold hook that needs one."""

    @hookimpl(trylast=True)
    def rog_build_regions(self, state: State, seat: int) -> tuple[int, ...]:
        """Build in the die's region (ROG-BUILD-1)."""
        return (state.players[seat].die,)

    @hookimpl(trylast=True)
    def rog_deliver_regions(self, state: State, seat: int) -> tuple[int, ...]:
        """Deliver to customers of the die's region (ROG-DELIVER-1)."""
        return (state.players[seat].die,)

    @hookimpl(trylast=True)
    def rog_build_cost(self, state: State, seat: int, space: int) -> int:
        """Pay the space's cost, 2 less per artisan of its region (ROG-BUILD-2, ROG-ARTISAN-2)."""
        region = SPACES[space].region
        artisans = sum(
            1
            for card in state.players[seat].delivered
            if CUSTOMERS[card].kind == "artisan" and CUSTOMERS[card].region == region
        )
        return max(0, SPACES[space].cost - 2 * artisans)

    @hookimpl(trylast=True)
    def rog_caps(self, state: State, seat: int) -> Caps:
        """Cap koku at 25, each good at 6 and the favour cap at 6 (ROG-TRADE-3, ROG-MONK-1)."""
        return DEFAULT_CAPS

    @hookimpl(trylast=True)
    def rog_end_bonus(self, state: State, seat: int) -> int:
        """Give 5 points to the seat that triggers the end (ROG-END-1)."""
        return C.setup.end_bonus

    @hookimpl(trylast=True)
    def rog_influence_target(self, state: State, seat: int, region: int, steps: int) -> int:
        """Move up ``steps`` spaces; influence past the top is lost (ROG-INFL-1)."""
        return min(C.track.top, state.players[seat].influence[region - 1] + steps)


DEFAULT_CAPS = Caps(C.setup.koku_cap, C.setup.goods_cap, C.setup.favour_cap_max)
