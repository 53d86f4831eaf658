"""What a seat may ask for in Gunsen: one command per decision the rules give a player."""

from __future__ import annotations

from typing import Annotated, Literal

import msgspec
from gamehall.core import Command, namespaced

Space = Annotated[int, msgspec.Meta(ge=0, le=200, description="space number on the board side")]
Column = Annotated[
    int, msgspec.Meta(ge=0, le=3, description="0 Armory, 1 Recruit, 2 Influence, 3 Expand")
]
Count = Annotated[int, msgspec.Meta(ge=1, le=15, description="number of troops")]
Faces = tuple[str, ...]


class GunsenCommand(Command, frozen=True, gc=False, tag=namespaced("gunsen")):
    """Base of the game's commands."""


class ChooseClan(GunsenCommand, frozen=True):
    """Choose a clan that nobody has chosen yet."""

    clan: str


class ReplaceRow(GunsenCommand, frozen=True):
    """Discard the whole row and lay five new cards (four share a colour or have a price)."""


class TakeCard(GunsenCommand, frozen=True):
    """Take an order card from the row, paying its price."""

    card: str


class PlaceCard(GunsenCommand, frozen=True):
    """Put the taken card open on its column, or face down on noble-action space 1, 2 or 3."""

    column: Column | None = None
    noble: Annotated[int, msgspec.Meta(ge=1, le=3)] | None = None


class ChooseColumn(GunsenCommand, frozen=True):
    """Choose the column to activate (and to put the card in hand on, if any)."""

    column: Column


class RecruitHero(GunsenCommand, frozen=True):
    """Recruit a hero onto the fort or a space with an own army."""

    hero: str
    space: Space


class TakeSpecial(GunsenCommand, frozen=True):
    """Put one of the clan's special orders on top of a column of its colour."""

    card: str
    column: Column


class Skip(GunsenCommand, frozen=True):
    """Skip the current action, stop a repeatable one, stop rerolling, or swap no dice."""


class Gain(GunsenCommand, frozen=True):
    """Take one of the resources the current action offers."""

    resource: Literal["koku", "wood", "influence"]


class Recruit(GunsenCommand, frozen=True):
    """Put a troop from the clan board on the fort or on a controlled clan building."""

    space: Space


class BuyMove(GunsenCommand, frozen=True):
    """Pay the column's resource for one extra move."""


class SelectArmy(GunsenCommand, frozen=True):
    """Pick up troops (and a hero) from a space to move them; ``tower``: by watchtower."""

    space: Space
    troops: Count
    hero: str = ""
    tower: bool = False


class MoveArmy(GunsenCommand, frozen=True):
    """Move the picked-up army to a space."""

    to: Space


class Build(GunsenCommand, frozen=True):
    """Build a clan building on a space, paying its wood."""

    building: str
    space: Space


class BuyTactic(GunsenCommand, frozen=True):
    """Buy a clan tactic or a neutral tactic for its koku."""

    tactic: str


class PayTribute(GunsenCommand, frozen=True):
    """Pay Bayushi Aramoro's tribute in influence, or refuse and lose the heroes' symbols."""

    pay: bool


class Ride(GunsenCommand, frozen=True):
    """Let Moto Chagatai ride to the combat, or not."""

    ride: bool


class Reroll(GunsenCommand, frozen=True):
    """Reroll the dice showing these faces (one reroll symbol)."""

    faces: Faces


class Keep(GunsenCommand, frozen=True):
    """Keep the dice showing these faces, as many as the keep symbols allow."""

    faces: Faces


class SwapDice(GunsenCommand, frozen=True):
    """Swap one own kept die with one of the opponent's kept dice (Togashi Yokuni)."""

    mine: str
    theirs: str


class Retreat(GunsenCommand, frozen=True):
    """Retreat every remaining troop to the fort or to one controlled clan building."""

    to: Space


class PlaceHero(GunsenCommand, frozen=True):
    """Put a hero whose troops are gone on a clan building with own troops, or the fort."""

    hero: str
    space: Space


class StealToken(GunsenCommand, frozen=True):
    """Take this village token from the loser of the combat."""

    token: str


COMMANDS: tuple[type[GunsenCommand], ...] = (
    ChooseClan, ReplaceRow, TakeCard, PlaceCard, ChooseColumn, RecruitHero, TakeSpecial, Skip,
    Gain, Recruit, BuyMove, SelectArmy, MoveArmy, Build, BuyTactic, PayTribute, Ride, Reroll,
    Keep, SwapDice, Retreat, PlaceHero, StealToken,
)  # fmt: skip
