"""Gunsen's own hooks, and the rulebook's default for each.

The component hooks fire once, when a ruleset builds its rules, so every move runs on plain
dictionaries. The effect hooks fire during play, only where the rules ask them (once per side
of a combat, once per unknown objective condition), never inside the legal-move loops.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from gamehall.core import hookimpl, hookspec

from .board import load_sides
from .components import load_clans, load_neutral, load_orders

if TYPE_CHECKING:
    from .board import Side
    from .components import Clan, Hero, Objective, OrderCard, Symbols, Tactic

# Hookspecs have no body: their docstrings are the contract.
# mypy: disable-error-code="empty-body"


class GunsenSpecs:
    """Hooks an expansion of Gunsen may implement."""

    # -- components (fire once per ruleset) ------------------------------------------------

    @hookspec
    def gunsen_clans(self) -> list[Clan]:
        """Return clans a match may be played with.

        Fires once when the rules are built; every list is used, and a later clan with the
        same ``id`` replaces an earlier one. The default returns the seven clans of the box
        (GUN-COMP-2).
        """

    @hookspec
    def gunsen_order_cards(self) -> list[OrderCard]:
        """Return order cards for the deck.

        Fires once when the rules are built; every list is used, a later card with the same
        ``id`` replaces an earlier one. A card with ``players = 5`` is used with five or six
        players only (GUN-SETUP-9). The default returns the deck of the box (GUN-COMP-3).
        """

    @hookspec
    def gunsen_neutral_tactics(self) -> list[Tactic]:
        """Return neutral tactics for the deal of two per player (GUN-SETUP-13).

        Fires once when the rules are built; every list is used, a later tactic with the same
        ``id`` replaces an earlier one. The default returns the neutral tactics of the box.
        """

    @hookspec
    def gunsen_mercenaries(self) -> list[Hero]:
        """Return mercenary heroes (recruited by a tactic whose ``hero`` names them).

        Fires once when the rules are built; every list is used, a later hero with the same
        ``id`` replaces an earlier one. The default returns the three mercenaries of the box.
        """

    @hookspec
    def gunsen_board_sides(self) -> list[Side]:
        """Return board sides, by ``key`` ("small" for 2-3 players, "large" for 4-6).

        Fires once when the rules are built; every list is used, a later side with the same
        ``key`` replaces an earlier one (GUN-SETUP-1).
        """

    @hookspec(firstresult=True)
    def gunsen_markers_to_win(self) -> int:
        """Return how many achievement markers win the game (GUN-ACH-7).

        Fires once when the rules are built; stops at the first non-``None`` result. The
        default is the seven markers of a clan.
        """

    # -- effects (fire during play) --------------------------------------------------------

    @hookspec
    def gunsen_combat_symbols(self, state: Any, seat: int, space: int) -> Symbols | None:
        """Return extra combat symbols for one side of a combat.

        Fires once per side when a combat tallies strength, blood and armour (GUN-COMBAT-2),
        after the box's sources are counted; every non-``None`` result is added.

        :param state: the match state (``api.State``) at the start of the tally.
        :param seat: the side whose symbols are counted.
        :param space: the space of the combat.
        """

    @hookspec(firstresult=True)
    def gunsen_objective_met(self, state: Any, seat: int, objective: Objective) -> bool | None:
        """Tell whether a clan objective with a condition the box does not know is met.

        Fires whenever objectives are checked (GUN-OBJ-1), only for objectives whose
        ``condition`` is not one of GUN-OBJ-3; stops at the first non-``None`` result, and
        ``None`` everywhere means not met.

        :param state: the match state (``api.State``).
        :param seat: the clan whose objective is checked.
        :param objective: the objective card.
        """

    @hookspec
    def gunsen_turn_ended(self, play: Any, seat: int) -> None:
        """React at the end of a turn, after the box's end-of-turn effects (GUN-END-1, GUN-END-2).

        Fires once per turn, after the claims and the income, before the forts are refilled.
        An expansion emits its own effects through ``play`` (``api.Play``, the core's
        ``Emitter``: ``play.state`` is the state after every event so far, ``play.emit`` adds
        events, ``play.rng`` is the command's generator); every implementation is called.

        :param play: the command being decided (``api.Play``): its state, and where events go.
        :param seat: the active player, whose turn ends.
        """


class Defaults:
    """The rulebook's answer to every Gunsen hook."""

    @hookimpl(trylast=True)
    def gunsen_clans(self) -> list[Clan]:
        """Return the seven clans of the box."""
        return load_clans()

    @hookimpl(trylast=True)
    def gunsen_order_cards(self) -> list[OrderCard]:
        """Return the order deck of the box."""
        return load_orders()

    @hookimpl(trylast=True)
    def gunsen_neutral_tactics(self) -> list[Tactic]:
        """Return the neutral tactics of the box."""
        return list(load_neutral().tactics)

    @hookimpl(trylast=True)
    def gunsen_mercenaries(self) -> list[Hero]:
        """Return the three mercenary heroes of the box."""
        return list(load_neutral().mercenaries)

    @hookimpl(trylast=True)
    def gunsen_board_sides(self) -> list[Side]:
        """Return both sides of the board of the box."""
        return load_sides()

    @hookimpl(trylast=True)
    def gunsen_markers_to_win(self) -> int:
        """Return seven, the markers of a clan."""
        return 7
