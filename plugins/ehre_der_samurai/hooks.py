"""Ehre der Samurai's own hooks, and the rulebook's default for each.

``ehre_der_samurai_cards`` and ``ehre_der_samurai_numbers`` are called once, when a ruleset builds its rules, so an
expansion can add a card or change a number while every move still runs on plain tuples;
``ehre_der_samurai_fight_dice`` is called once per side of every fight.
"""

from __future__ import annotations

from gamehall.core import hookimpl, hookspec

from .cards import Card, box
from .houses import Numbers


class EhreSpecs:
    """Hooks an expansion of Ehre der Samurai may implement."""

    # -- components (once per ruleset) ---------------------------------------------------------

    @hookspec
    def ehre_der_samurai_cards(self) -> list[Card]:  # type: ignore[empty-body]
        """Return cards for the box of every match of the ruleset.

        Fires once when the rules are built; every list is used, in registration order, and a
        later card with the same ``id`` replaces an earlier one. Cards of the kinds ``samurai``
        and ``shogun`` stay out of the deck (EDS-SETUP-2); ``starting`` Daimyo are dealt at
        setup (EDS-SETUP-1). The game's default returns the 110 cards of the box.
        """

    @hookspec(firstresult=True)
    def ehre_der_samurai_numbers(self) -> Numbers:  # type: ignore[empty-body]
        """Return the numbers of the rules: hand limit, prices, house limits, dice.

        Fires once when the rules are built; the first non-``None`` result is used. The
        game's default returns :class:`~.houses.Numbers` as printed in the rulebook.
        """

    # -- fights (per fight) --------------------------------------------------------------------

    @hookspec(firstresult=True)
    def ehre_der_samurai_fight_dice(self, strength: int, numbers: Numbers) -> int:  # type: ignore[empty-body]
        """Return how many dice a side rolls in a fight (EDS-ATTACK-3).

        Fires twice when an attack is declared, once for the attacker and once for the
        defender. The first non-``None`` result is used; the default is
        ``min(numbers.max_dice, strength // numbers.strength_per_die)``.

        :param strength: the side's strength, its ally's added.
        :param numbers: the ruleset's numbers.
        """


class Defaults:
    """The rulebook's answer to every Ehre der Samurai hook."""

    @hookimpl(trylast=True)
    def ehre_der_samurai_cards(self) -> list[Card]:
        """Return the 110 cards of the box (EDS-CARDS-3)."""
        return list(box())

    @hookimpl(trylast=True)
    def ehre_der_samurai_numbers(self) -> Numbers:
        """Return the rulebook's numbers."""
        return Numbers()

    @hookimpl(trylast=True)
    def ehre_der_samurai_fight_dice(self, strength: int, numbers: Numbers) -> int:
        """Give one die per three strength, six at most (EDS-ATTACK-3)."""
        return min(numbers.max_dice, strength // numbers.strength_per_die)
