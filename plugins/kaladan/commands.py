"""What a seat may ask for in Generals of Kaladan (rule ids in docs/rules/kaladan.md)."""

from __future__ import annotations

from typing import Annotated

import msgspec
from gamehall.core import Command, namespaced

Tile = Annotated[int, msgspec.Meta(ge=0, le=63, description="a tile number")]
Seat = Annotated[int, msgspec.Meta(ge=0, le=5, description="a seat")]


class KaladanCommand(Command, frozen=True, gc=False, tag=namespaced("kaladan")):
    """Base of the game's commands."""


# -- setup ------------------------------------------------------------------------------------


class ChooseRealm(KaladanCommand, frozen=True):
    """Play a realm (KAL-SETUP-3)."""

    realm: str


class PlaceCastle(KaladanCommand, frozen=True):
    """Put your Castle on a tile (KAL-SETUP-5)."""

    tile: Tile


# -- event, spawn, action ---------------------------------------------------------------------


class AddEventUnit(KaladanCommand, frozen=True):
    """Put the event card's unit from your reserve onto a tile you control (KAL-EVENT-2)."""

    tile: Tile


class UpgradeUnit(KaladanCommand, frozen=True):
    """Flip one of your deployed units of a kind on a tile to its upgraded side (KAL-EVENT-4)."""

    tile: Tile
    kind: str


class RaiseUnit(KaladanCommand, frozen=True):
    """Take a dead unit of your realm from a graveyard into your reserve (KAL-EVENT-5)."""

    graveyard: Seat
    kind: str


class TakeGold(KaladanCommand, frozen=True):
    """Take the event card's gold instead of its unit or upgrade."""


class Spawn(KaladanCommand, frozen=True):
    """Put a free Sword, Archer or Shield from your reserve onto your Castle (KAL-SPAWN-1)."""

    kind: str
    tile: Tile


class SkipSpawn(KaladanCommand, frozen=True):
    """Spawn nothing this turn."""


class MoveUnit(KaladanCommand, frozen=True):
    """Move one unit of a kind (that has not moved this turn) to an adjacent tile (KAL-MOVE-1)."""

    origin: Tile
    to: Tile
    kind: str
    upgraded: bool = False


class Attack(KaladanCommand, frozen=True):
    """Attack from one of your tiles onto an adjacent tile of one opponent (KAL-SEQ-1)."""

    origin: Tile
    target: Tile


class EndActions(KaladanCommand, frozen=True):
    """End the Action phase."""


# -- battle -----------------------------------------------------------------------------------


class DeclareMagic(KaladanCommand, frozen=True):
    """Use a magic card of your hand in this battle, or pass with an empty ``card``."""

    card: str = ""


class ShiftUnit(KaladanCommand, frozen=True):
    """Move one of your units between two adjacent tiles you control (Harmony cards)."""

    unit: str
    to: Tile


class LevyUnit(KaladanCommand, frozen=True):
    """Put a unit of a kind from your reserve onto your tile in this battle (Levy cards)."""

    kind: str


class AssassinateUnit(KaladanCommand, frozen=True):
    """Kill an enemy unit before the units are fixed (Assassin cards)."""

    unit: str


class RestoreUnit(KaladanCommand, frozen=True):
    """Bring one of your units killed in this battle back onto your Castle (Keep cards)."""

    unit: str


class FinishMagic(KaladanCommand, frozen=True):
    """Stop using your magic card's effect."""


class ChooseLosses(KaladanCommand, frozen=True):
    """Name the units you lose (KAL-LOSS-2)."""

    units: tuple[str, ...]


class Invade(KaladanCommand, frozen=True):
    """Name the units that move into the conquered tile (KAL-INVADE-1)."""

    units: tuple[str, ...]


# -- purchase and reinforcement ---------------------------------------------------------------


class Recruit(KaladanCommand, frozen=True):
    """Pay for a unit of a kind from your reserve (KAL-BUY-1)."""

    kind: str


class UpgradeSpecial(KaladanCommand, frozen=True):
    """Pay 2 gold to upgrade a deployed special unit (KAL-SPECIAL-2)."""

    unit: str


class SwapMagic(KaladanCommand, frozen=True):
    """Pay 2 gold to swap a card of your hand for an unused card of its pile (KAL-MAGIC-6)."""

    card: str


class BuyMagic(KaladanCommand, frozen=True):
    """Pay 4 gold for a random unused card of a realm's pile you may buy from (KAL-MAGIC-7)."""

    realm: str


class EndPurchase(KaladanCommand, frozen=True):
    """End the Purchase phase."""


class Deploy(KaladanCommand, frozen=True):
    """Put a paid unit of a kind onto a tile you control (KAL-REINFORCE-1)."""

    kind: str
    tile: Tile


COMMANDS = (
    ChooseRealm,
    PlaceCastle,
    AddEventUnit,
    UpgradeUnit,
    RaiseUnit,
    TakeGold,
    Spawn,
    SkipSpawn,
    MoveUnit,
    Attack,
    EndActions,
    DeclareMagic,
    ShiftUnit,
    LevyUnit,
    AssassinateUnit,
    RestoreUnit,
    FinishMagic,
    ChooseLosses,
    Invade,
    Recruit,
    UpgradeSpecial,
    SwapMagic,
    BuyMagic,
    EndPurchase,
    Deploy,
)
