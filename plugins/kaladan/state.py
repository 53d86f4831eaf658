"""The state of a Generals of Kaladan match, and the options it starts with.

Units are named by ids such as ``khalisia/sword-2`` (realm, kind, copy); tiles by their number
in the world's drawing order. Two armies never share a tile, so a tile's ``holder`` owns every
unit on it. Seats' views hide the hands, the other realms' piles and the event deck's order
(see ``view.py``).
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

import msgspec

Units = tuple[str, ...]
NOBODY = -1


class Options(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """What players choose before a match (rule ids in docs/rules/kaladan.md)."""

    round_limit: Annotated[
        int,
        msgspec.Meta(
            ge=0,
            title="Rounds to play (0: no limit)",
            description="End after this many rounds and break the tie; 0 plays to the last Crown.",
        ),
    ] = 0
    """End after this many rounds with the tie-break of KAL-END-3; 0 plays to the last Crown."""
    magic_order: Annotated[
        Literal["attacker-first", "simultaneous"],
        msgspec.Meta(
            title="Order of magic in a battle",
            description="attacker-first: the attacker declares magic first; simultaneous: both at once.",
        ),
    ] = "attacker-first"
    """Who declares magic first (KAL-MAGIC-2): the attacker, or both at once."""
    crown_castle_die: Annotated[
        Literal["defence", "both"],
        msgspec.Meta(
            title="When a Crown in its Castle rolls its D8",
            description="defence: only when defending its own Castle; both: attacking from it too.",
        ),
    ] = "defence"
    """When a Crown in its own Castle rolls its D8: defending only, or attacking too (KAL-UNIT-6)."""
    zhoji: Annotated[
        Literal["forest-tile", "attack-from-forest"],
        msgspec.Meta(
            title="When Zhoji rolls its D12",
            description="forest-tile: whenever Zhoji stands on a Forest; attack-from-forest: only attacking from one.",
        ),
    ] = "forest-tile"
    """When Zhoji rolls its D12: on a Forest tile either way, or only attacking from one."""
    castle_defence_die: Annotated[
        Literal[0, 6, 8, 10, 12],
        msgspec.Meta(
            title="Castle bonus die",
            description="Sides of the extra die of the army defending a Castle tile (our size: "
            "no source gives one); 0: none.",
        ),
    ] = 8
    """The castle bonus die of the army defending a Castle tile (KAL-TERRAIN-4; 0: none).

    The size is ours (no source gives one); it comes on top of the Crown's D8 (KAL-UNIT-6)."""
    castle_die_defender: Annotated[
        Literal["any", "owner"],
        msgspec.Meta(
            title="Who gets the castle die",
            description="any: the army defending any Castle tile (the seed); owner: only a "
            "Castle its player owns (version 1.0's reading).",
        ),
    ] = "any"
    """Which defender rolls the castle bonus die: on any Castle tile, or only its owner's."""
    terrain_capacity: Annotated[
        Literal["seed", "compendium"],
        msgspec.Meta(
            title="Terrain capacity",
            description="seed: a plain Forest holds 4, as in the battle chapter's example; "
            "compendium: 3, from the public terrain list.",
        ),
    ] = "seed"
    """Whose figures give a tile's capacity (KAL-TERRAIN-2): the seed's, or the compendium's."""
    starting_gold: Annotated[
        int,
        msgspec.Meta(
            ge=0,
            title="Starting gold",
            description="Gold each realm starts with.",
        ),
    ] = 2
    """Gold each realm starts with (KAL-SETUP-7)."""


class Battle(msgspec.Struct, frozen=True):
    """The battle in progress; sides are 0 (attacker) and 1 (defender).

    ``cards`` are the declared magic cards, hidden from the other side until ``revealed``.
    ``step`` is what the battle waits for: "declare", "effect" (side ``effect_side``'s card
    before the units are fixed), "losses", "keep" or "invade".
    """

    seats: tuple[int, int]
    tiles: tuple[int, int]
    step: str = "declare"
    declared: tuple[bool, bool] = (False, False)
    cards: tuple[str, str] = ("", "")
    revealed: bool = False
    effect_side: int = 0
    effect_left: int = 0
    fighters: tuple[Units, Units] = ((), ())
    owed: tuple[int, int] = (0, 0)
    chosen: tuple[bool, bool] = (False, False)
    killed: tuple[Units, Units] = ((), ())
    warded: tuple[int, int] = (0, 0)


class State(msgspec.Struct, frozen=True):
    """Everything in a match; per-seat tuples are indexed by seat."""

    players: int
    options: Options = Options()
    terrain: tuple[str, ...] = ()
    castles: dict[int, int] = {}
    board: tuple[Units, ...] = ()
    holder: tuple[int, ...] = ()
    upgraded: Units = ()
    reserve: tuple[Units, ...] = ()
    ready: tuple[Units, ...] = ()
    graveyard: tuple[Units, ...] = ()
    gold: tuple[int, ...] = ()
    realms: tuple[str, ...] = ()
    order: tuple[int, ...] = ()
    alive: tuple[bool, ...] = ()
    hands: tuple[Units, ...] = ()
    piles: dict[str, Units] = {}
    pile_owner: dict[str, int] = {}
    spent: Units = ()
    deck: Units = ()
    discard: Units = ()
    phase: str = "setup"
    turn: int = NOBODY
    round: int = 0
    queue: tuple[int, ...] = ()
    event: str = ""
    moved: Units = ()
    battled: bool = False
    battle: Battle | None = None
    over: bool = False
    winners: tuple[int, ...] = ()
    reason: str = ""
    ext: dict[str, Any] = {}

    def realm_seat(self, realm: str) -> int:
        """Return the seat that plays a realm, or NOBODY."""
        return self.realms.index(realm) if realm in self.realms else NOBODY

    def controls(self, seat: int, tile: int) -> bool:
        """Return whether ``seat`` controls a tile: its army stands there, or its empty Castle."""
        holder = self.holder[tile]
        return holder == seat or (holder == NOBODY and self.castles.get(tile, NOBODY) == seat)

    def castles_of(self, seat: int) -> tuple[int, ...]:
        """Return the tiles of the Castles a seat owns (its own, and those it took)."""
        return tuple(sorted(tile for tile, owner in self.castles.items() if owner == seat))

    def owner_of(self, unit: str) -> int:
        """Return the seat a unit on the board, in a reserve or waiting to deploy belongs to."""
        for tile, units in enumerate(self.board):
            if unit in units:
                return self.holder[tile]
        for seat in range(self.players):
            if unit in self.reserve[seat] or unit in self.ready[seat]:
                return seat
        return NOBODY

    def tile_of(self, unit: str) -> int:
        """Return the tile a unit stands on, or NOBODY."""
        for tile, units in enumerate(self.board):
            if unit in units:
                return tile
        return NOBODY


def put(values: tuple[Any, ...], index: int, value: Any) -> tuple[Any, ...]:
    """Return ``values`` with one entry replaced."""
    return values[:index] + (value,) + values[index + 1 :]


def without(items: Units, *drop: str) -> Units:
    """Return ``items`` without the given ids."""
    return tuple(item for item in items if item not in drop)
