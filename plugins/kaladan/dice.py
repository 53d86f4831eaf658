"""Dice pools and the pairwise comparison of the battle chapter (KAL-POOL-1 … KAL-COMPARE-3).

Shared by the match and the odds calculator: a :class:`SidePlan` says what one side brings to a
battle, :func:`pool` turns it into dice, :func:`compare` judges two rolled pools.
"""

from __future__ import annotations

from typing import Literal

import msgspec

from .components import Catalogue, Condition, MagicCard
from .state import Options

UPGRADE = {4: 6, 6: 8, 8: 10, 10: 12, 12: 12}  # an upgraded unit rolls one size up (KAL-UNIT-8)


class SidePlan(msgspec.Struct, frozen=True):
    """One side of a battle: its units (ids or kind keys), its tile and what it plays.

    Two facts about the side's tile: ``castle``, the tile is a Castle, whoever owns it (the
    castle bonus die, KAL-TERRAIN-4); ``own_castle``, its player owns that Castle (the Crown's
    D8, KAL-UNIT-6, and the Iron Warden). An own Castle is a Castle: ``own_castle`` implies
    ``castle``.
    """

    role: Literal["attack", "defence"]
    units: tuple[str, ...]
    kinds: tuple[str, ...]
    terrain: str
    opposing_terrain: str
    own_castle: bool = False
    upgraded: tuple[str, ...] = ()
    card: MagicCard | None = None
    castle: bool = False

    @property
    def on_castle(self) -> bool:
        """Tell whether the side's tile is a Castle (its own or not)."""
        return self.castle or self.own_castle


def castle_die(options: Options, plan: SidePlan) -> int:
    """Return the castle bonus die of a side, or 0 (KAL-TERRAIN-4, option castle_die_defender)."""
    if plan.role != "defence" or not options.castle_defence_die:
        return 0
    held = plan.own_castle if options.castle_die_defender == "owner" else plan.on_castle
    return options.castle_defence_die if held else 0


def condition_holds(condition: Condition, plan: SidePlan, options: Options, key: str) -> bool:
    """Return whether a special unit's condition holds for its side (KAL-REALM-2)."""
    attack = plan.role == "attack"
    if condition == "from-forest":
        if key == "zhoji" and options.zhoji == "attack-from-forest":
            return attack and plan.terrain == "forest"
        return plan.terrain == "forest"
    if condition == "defend-mountain":
        return not attack and plan.terrain == "mountain"
    if condition == "defend-castle":
        return not attack and plan.own_castle
    if condition == "attack-field":
        return attack and plan.opposing_terrain == "field"
    if condition == "defend-field":
        return not attack and plan.terrain == "field"
    if condition == "attack-mountain":
        return attack and plan.opposing_terrain == "mountain"
    return False


def unit_dice(
    catalogue: Catalogue, options: Options, plan: SidePlan, unit: str, key: str
) -> tuple[int, ...]:
    """Return the dice one unit rolls for its side (KAL-POOL-1, KAL-UNIT-1 … 8)."""
    kind = catalogue.units[key]
    attack = plan.role == "attack"
    dice = kind.attack if attack else kind.defence
    if kind.castle_die and plan.own_castle and (not attack or options.crown_castle_die == "both"):
        dice = (kind.castle_die,)
    if kind.cls == "special" and condition_holds(kind.condition, plan, options, key):
        dice = (kind.boost,)
    if unit in plan.upgraded:
        dice = tuple(UPGRADE.get(d, d) for d in dice)
    card = plan.card
    if card is not None and card.effect == "replace" and card.unit == key:
        dice = (card.die,) * len(dice)
    return dice


def pool(catalogue: Catalogue, options: Options, plan: SidePlan) -> list[tuple[int, str]]:
    """Return (sides, source) for every die a side rolls: units, terrain, castle, magic."""
    out = [
        (sides, unit)
        for unit, key in zip(plan.units, plan.kinds, strict=True)
        for sides in unit_dice(catalogue, options, plan, unit, key)
    ]
    if not plan.units:
        return out  # a side without units rolls nothing, bonuses included (KAL-POOL-2)
    terrain = catalogue.terrains[plan.terrain]
    bonus = terrain.attack_die if plan.role == "attack" else terrain.defence_die
    if bonus:
        out.append((bonus, plan.terrain))
    castle = castle_die(options, plan)
    if castle:
        out.append((castle, "castle"))
    card = plan.card
    if card is not None and card.effect == "extra":
        out.extend((sides, card.key) for sides in card.dice)
    return out


def sort_high(values: tuple[int, ...] | list[int]) -> tuple[int, ...]:
    """Return values sorted from high to low (KAL-COMPARE-1)."""
    return tuple(sorted(values, reverse=True))


def compare(attack: tuple[int, ...], defence: tuple[int, ...]) -> tuple[int, int]:
    """Return (attacker losses, defender losses) of two sorted pools (KAL-COMPARE-1 … 3).

    The highest die meets the highest, the second the second, and so on, for as many pairs as
    the smaller pool has; the lower die of a pair loses its side one unit, a tie loses nothing,
    and the larger pool's extra dice count for nothing.
    """
    lost_attack = lost_defence = 0
    for a, d in zip(attack, defence, strict=False):
        if a < d:
            lost_attack += 1
        elif d < a:
            lost_defence += 1
    return lost_attack, lost_defence


def ward(card: MagicCard | None) -> int:
    """Return how many losses a side's card saves it (Ward cards, KAL-CARD-7)."""
    return card.count if card is not None and card.effect == "ward" else 0
