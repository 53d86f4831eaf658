"""The Clan Patrons' components: the patron cards and the amounts their abilities name."""

from __future__ import annotations

from typing import Annotated, Literal

import msgspec
from gamehall.core import load_data

ID = "river-of-gold-patrons"
CLANS = ("crab", "crane", "scorpion", "mantis")


class Patron(msgspec.Struct, frozen=True):
    """A clan patron card."""

    id: str
    clan: str
    name: str
    ability: str


class Numbers(msgspec.Struct, frozen=True):
    """The amounts the patrons' abilities name."""

    extra_koku: int
    extra_customers: int
    taka_points_per_river: int
    kudaka_points: int
    uji_points: int
    kakita_cost: int
    hyobu_points: int


class Box(msgspec.Struct, frozen=True):
    """The expansion's components."""

    patrons: tuple[Patron, ...]
    setup: Numbers


class PatronOptions(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """How patrons are dealt: ``draft`` (ROG-PATRON-1) or ``alternative`` (ROG-PATRON-2)."""

    setup: Annotated[
        Literal["draft", "alternative"],
        msgspec.Meta(
            title="How patrons are dealt",
            description="draft: each player takes one of four laid-out patrons; "
            "alternative: each is dealt a clan and chooses one of its two patrons.",
        ),
    ] = "draft"


def load_box() -> Box:
    """Return the patrons of ``data/patrons.toml``."""
    return load_data(__package__, "patrons.toml", Box)


BOX = load_box()
PATRONS = {p.id: p for p in BOX.patrons}
NUMBERS = BOX.setup
