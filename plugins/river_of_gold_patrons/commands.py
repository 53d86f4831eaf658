"""What a seat may ask for in the Clan Patrons: imperatives, namespaced."""

from __future__ import annotations

from gamehall.core import Command, namespaced

TAG = namespaced("river_of_gold_patrons")


class ChoosePatron(Command, frozen=True, gc=False, tag=TAG):
    """Take one of the patrons on offer (ROG-PATRON-1, ROG-PATRON-2)."""

    patron: str


class SetDie(Command, frozen=True, gc=False, tag=TAG):
    """Pay 1 favour to set the die to ``face`` instead of rolling (ROG-PATRON-8, -12).

    At the end of a turn this ends the turn; in setup it settles the opening die.
    """

    face: int


class RollDie(Command, frozen=True, gc=False, tag=TAG):
    """Roll the opening die after all, without paying (ROG-PATRON-12)."""


COMMANDS = (ChoosePatron, SetDie, RollDie)
