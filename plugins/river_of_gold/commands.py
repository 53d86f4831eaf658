"""What a seat may ask for in River of Gold."""

from __future__ import annotations

from typing import Annotated, Literal

import msgspec
from gamehall.core import Command, namespaced

from .components import Good

Space = Annotated[int, msgspec.Meta(ge=1, le=30, description="shore space 1-30")]
Slot = Annotated[int, msgspec.Meta(ge=0, le=3, description="row slot, 0 = entry, 3 = end")]
Ship = Annotated[int, msgspec.Meta(ge=0, le=1, description="ship 0 or 1")]
Shift = Annotated[int, msgspec.Meta(ge=-1, le=1)]
Card = Annotated[str, msgspec.Meta(pattern=r"^cust-\d\d$")]


class RogCommand(Command, frozen=True, gc=False, tag=namespaced("river_of_gold")):
    """Base of the game's commands."""


class ShiftDie(RogCommand, frozen=True):
    """Pay 1 favour to turn the die up (+1) or down (-1), wrapping 6 and 1 (ROG-TURN-1)."""

    by: Literal[-1, 1]


class Build(RogCommand, frozen=True):
    """Build the row tile in ``slot`` on an empty shore space of the die's region (ROG-BUILD-1)."""

    space: Space
    slot: Slot


class Sail(RogCommand, frozen=True):
    """Sail a ship downriver by the die; ``shift`` is a free ±1 some imperial ships allow."""

    ship: Ship
    shift: Shift = 0


class Deliver(RogCommand, frozen=True):
    """Deliver to a customer in hand whose region is the die (ROG-DELIVER-1)."""

    card: Card


class TradeGoods(RogCommand, frozen=True):
    """Trade 2 of one good for 1 of another (ROG-TRADE-1)."""

    give: Good
    take: Good


class BuyFavour(RogCommand, frozen=True):
    """Trade 5 koku for 1 favour (ROG-TRADE-2)."""


class EndTurn(RogCommand, frozen=True):
    """Claim the masteries met, roll the die and end the turn (ROG-TURN-3, ROG-TURN-4)."""


class TakeGood(RogCommand, frozen=True):
    """Take a good of your choice when a reward or the journey offers one."""

    good: Good


class TakeKoku(RogCommand, frozen=True):
    """Take 3 koku for completing the journey (ROG-JOURNEY-1)."""


class DiscardCustomer(RogCommand, frozen=True):
    """Discard a customer from your hand after drawing."""

    card: Card


class PlaceMarker(RogCommand, frozen=True):
    """Put a monk's second clan marker on a building (ROG-MONK-2)."""

    space: Space


class UpgradeShip(RogCommand, frozen=True):
    """Replace a standard ship by the imperial ship (ROG-NOBLE-1)."""

    ship: Ship


class SellGood(RogCommand, frozen=True):
    """Sell a good for 5 koku (a merchant's journey ability, ROG-MERCHANT-2)."""

    good: Good


class StopSelling(RogCommand, frozen=True):
    """Sell no more goods."""


COMMANDS: tuple[type[RogCommand], ...] = (
    ShiftDie, Build, Sail, Deliver, TradeGoods, BuyFavour, EndTurn, TakeGood, TakeKoku,
    DiscardCustomer, PlaceMarker, UpgradeShip, SellGood, StopSelling,
)  # fmt: skip
