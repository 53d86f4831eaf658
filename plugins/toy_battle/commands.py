"""What a seat may ask for in Toy Battle; troops are named by token (``blue-roxy-2``)."""

from __future__ import annotations

from typing import Annotated

import msgspec
from gamehall.core import Command, namespaced

Token = Annotated[str, msgspec.Meta(max_length=40, description="a troop, e.g. blue-roxy-2")]
SpotId = Annotated[int, msgspec.Meta(ge=0, le=99, description="a base or headquarters id")]


class ToyBattleCommand(Command, frozen=True, gc=False, tag=namespaced("toy_battle")):
    """Base of the game's commands."""


class DrawTroops(ToyBattleCommand, frozen=True):
    """Draw 2 troops (or 1) from the supply onto the rack (TB-DRAW-1)."""


class PlaceTroop(ToyBattleCommand, frozen=True):
    """Place a troop from the rack on a spot (TB-PLACE-1), also as Cap'n's extra troop."""

    troop: Token
    spot: SpotId


class UseEffect(ToyBattleCommand, frozen=True):
    """Use the waiting effect that needs no target (draws, XB-42, Battlefield)."""


class ChooseTarget(ToyBattleCommand, frozen=True):
    """Use the waiting effect on a troop: Jumbo's victim, Castle's or Cemetery's troop."""

    troop: Token


class MoveTroop(ToyBattleCommand, frozen=True):
    """Use the Jungle: move a visible enemy troop to a base adjacent to its own (TB-JUNGLE-1)."""

    troop: Token
    to: SpotId


class SkipEffect(ToyBattleCommand, frozen=True):
    """Leave the waiting effect unused (TB-EFFECT-1)."""


COMMANDS: tuple[type[ToyBattleCommand], ...] = (
    DrawTroops,
    PlaceTroop,
    UseEffect,
    ChooseTarget,
    MoveTroop,
    SkipEffect,
)
DRAW = DrawTroops()
USE = UseEffect()
SKIP = SkipEffect()
