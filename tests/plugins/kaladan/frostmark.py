"""A test expansion written only against the game's public API: a seventh realm, a new unit
kind in every army, and a new event card."""

from __future__ import annotations

from gamehall.core import ExpansionSpec
from gamehall.plugins.kaladan.api import EventCard, MagicCard, Realm, Special, UnitKind, hookimpl

PIKE = UnitKind("pike", "Pike", attack=(8,), defence=(10,), cost=1, cls="basic", count=2)
FROSTMARK = Realm(
    key="frostmark",
    name="Frostmark",
    title="The White Watch of the North",
    special=Special("ice-wyrm", "Ice Wyrm", "defend-mountain"),
    cards=(
        MagicCard("blizzard", "Blizzard", "extra", dice=(12, 12)),
        MagicCard("frozen-ranks", "Frozen Ranks", "replace", unit="pike", die=12),
        MagicCard("white-out", "White-out", "ward", count=2),
        MagicCard("sled-levy", "Sled Levy", "levy", count=2, units=("pike",)),
    ),
)
HARVEST = EventCard("harvest", "Bountiful Harvest", "all", "gold", gold=3, copies=3)


class FrostmarkParts:
    """Hook implementations of the test expansion."""

    @hookimpl
    def kaladan_realms(self) -> list[Realm]:
        return [FROSTMARK]

    @hookimpl
    def kaladan_unit_kinds(self) -> list[UnitKind]:
        return [PIKE]

    @hookimpl
    def kaladan_event_cards(self) -> list[EventCard]:
        return [HARVEST]


class FrostmarkPlugin:
    """A plugin that registers the test expansion."""

    @hookimpl
    def gamehall_expansions(self) -> list[ExpansionSpec]:
        return [
            ExpansionSpec(
                "kaladan-frostmark", "Frostmark", "1.0.0", "kaladan", hookimpls=(FrostmarkParts(),)
            )
        ]
