"""Generals of Kaladan's own hooks, and the default implementation of each.

They are called once, when a ruleset builds its rules, so an expansion can add a unit kind, a
terrain, a world, a realm with its cards or an event card while every move runs on plain data.
For each, a later item with the same ``key`` replaces an earlier one (the game's defaults come
first).
"""

from __future__ import annotations

from gamehall.core import hookimpl, hookspec

from .components import (
    EventCard,
    Realm,
    Terrain,
    UnitKind,
    World,
    load_event_cards,
    load_realms,
    load_terrains,
    load_units,
    load_worlds,
)


class KaladanSpecs:
    """Hooks an expansion of Generals of Kaladan may implement."""

    @hookspec
    def kaladan_unit_kinds(self) -> list[UnitKind]:  # type: ignore[empty-body]
        """Return unit kinds for every realm's army (not the special units).

        Fires once when the rules are built; every list is used. A kind's ``count`` copies
        join each realm's army. Default: Sword, Archer, Shield, Catapult, General, Crown
        (KAL-UNIT-1 … 7).
        """

    @hookspec
    def kaladan_terrains(self) -> list[Terrain]:  # type: ignore[empty-body]
        """Return terrains with their capacity and their attack or defence die.

        Fires once when the rules are built; every list is used. Default: Field, Forest,
        Mountain (KAL-TERRAIN-1 … 3).
        """

    @hookspec
    def kaladan_worlds(self) -> list[World]:  # type: ignore[empty-body]
        """Return worlds: hex cells and terrain mix for the player counts each names.

        Fires once when the rules are built; every list is used, a later world for a player
        count replaces an earlier one. Default: 7, 7, 13, 14 and 19 tiles (KAL-WORLD-1).
        """

    @hookspec
    def kaladan_realms(self) -> list[Realm]:  # type: ignore[empty-body]
        """Return realms with their special unit and their magic deck.

        Fires once when the rules are built; every list is used. Default: the six realms of
        ``data/realms.toml`` (KAL-REALM-1).
        """

    @hookspec
    def kaladan_event_cards(self) -> list[EventCard]:  # type: ignore[empty-body]
        """Return event cards; ``copies`` of each go into the deck.

        Fires once when the rules are built; every list is used. Default: the seven published
        cards and the project's own rest of the deck (KAL-EVENT-1).
        """


class Defaults:
    """The rulebook's answer to every Generals of Kaladan hook."""

    @hookimpl(trylast=True)
    def kaladan_unit_kinds(self) -> list[UnitKind]:
        """Return the six kinds of every army."""
        return list(load_units())

    @hookimpl(trylast=True)
    def kaladan_terrains(self) -> list[Terrain]:
        """Return Field, Forest and Mountain."""
        return list(load_terrains())

    @hookimpl(trylast=True)
    def kaladan_worlds(self) -> list[World]:
        """Return the worlds for 2 to 6 players."""
        return list(load_worlds())

    @hookimpl(trylast=True)
    def kaladan_realms(self) -> list[Realm]:
        """Return the six realms."""
        return list(load_realms())

    @hookimpl(trylast=True)
    def kaladan_event_cards(self) -> list[EventCard]:
        """Return the event deck's cards."""
        return list(load_event_cards())
