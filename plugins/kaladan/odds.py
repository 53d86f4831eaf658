"""The odds calculator: the casualty distribution of one battle between two given armies.

It builds both dice pools exactly as the game does (``dice.pool``), then either counts every
outcome (exact enumeration: each side's sorted top dice are folded die by die into a table of
integer counts, so nothing is rounded), or rolls the battle many times with a seeded generator
and gives each probability a 95% Wilson interval. ``auto`` counts exactly when the tables are
small enough and samples otherwise.
"""

from __future__ import annotations

import math
import random
from collections import Counter
from typing import Annotated, Any, Literal

import msgspec
from gamehall.core.calculators import checkpoint
from msgspec import Meta

from .components import Catalogue, MagicCard
from .dice import SidePlan, compare, pool, sort_high
from .state import Options

EXACT_LIMIT = 400_000  # pairs of sorted top-dice tables counted exactly under "auto"
EXACT_MAX = 1_000_000  # past this even "exact" is sampled (about a second of counting)
CHECK_EVERY = 4096  # samples between two looks at whether the asker left
DICE_CARDS = ("replace", "extra", "ward")
Z95 = 1.959963984540054
Table = dict[tuple[int, ...], int]


class OddsRequest(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """Two armies as unit kinds (``sword+`` is an upgraded Sword), their tiles and magic."""

    attacker: Annotated[
        tuple[str, ...],
        Meta(description="The attacking units' kinds; sword+ is an upgraded Sword."),
    ]
    defender: Annotated[
        tuple[str, ...], Meta(description="The defending units' kinds; shield+ is upgraded.")
    ]
    attacker_terrain: Annotated[str, Meta(description="The terrain the attack comes from.")] = (
        "field"
    )
    defender_terrain: Annotated[str, Meta(description="The terrain of the defended tile.")] = (
        "field"
    )
    attacker_castle: Annotated[
        bool, Meta(description="The attacker attacks from a Castle its player owns.")
    ] = False
    defender_castle: Annotated[
        bool,
        Meta(
            description="The defender defends a Castle its player owns: both facts below at once."
        ),
    ] = False
    defender_on_castle: Annotated[
        bool,
        Meta(description="The defending tile is a Castle, whoever owns it: the castle bonus die."),
    ] = False
    defender_owns_castle: Annotated[
        bool,
        Meta(
            description="The defender's player owns that Castle: the Crown's D8, the Iron Warden."
        ),
    ] = False
    attacker_card: Annotated[
        str, Meta(description="A magic card of the attacker that changes dice; empty: none.")
    ] = ""
    defender_card: Annotated[
        str, Meta(description="A magic card of the defender that changes dice; empty: none.")
    ] = ""
    method: Annotated[
        Literal["auto", "exact", "monte-carlo"],
        Meta(description="exact counts every roll, monte-carlo samples; auto picks by size."),
    ] = "auto"
    samples: Annotated[int, Meta(description="Battles rolled by monte-carlo.")] = msgspec.field(
        default=20_000
    )
    seed: Annotated[int, Meta(description="Seed of the monte-carlo rolls.")] = 1
    options: Annotated[
        dict[str, Any],
        Meta(
            description="Game options that change dice: crown_castle_die, zhoji, "
            "castle_defence_die, castle_die_defender; an option left out has its default."
        ),
    ] = {}
    expansions: Annotated[
        tuple[str, ...],
        Meta(description="Expansions whose units, terrains and cards the armies may use."),
    ] = ()


class Chance(msgspec.Struct, frozen=True):
    """A probability with its 95% interval (both ends equal when counted exactly)."""

    p: float
    low: float
    high: float


class Casualties(msgspec.Struct, frozen=True):
    """One outcome: how many units each side loses, and how likely it is."""

    attacker_losses: int
    defender_losses: int
    chance: Chance


class OddsAnswer(msgspec.Struct, frozen=True):
    """The battle's odds: pools, headline chances and every casualty outcome."""

    method: str
    samples: int
    attacker_dice: tuple[int, ...]
    defender_dice: tuple[int, ...]
    pairs: int
    attacker_takes_tile: Chance
    defender_holds: Chance
    both_fall: Chance
    expected_attacker_losses: float
    expected_defender_losses: float
    outcomes: tuple[Casualties, ...]
    note: str = ""
    """Why the method differs from the one asked for (a battle too large to count exactly)."""


def _card(catalogue: Catalogue, card: str, side: str) -> MagicCard | None:
    if not card:
        return None
    found = catalogue.cards.get(card) or next(
        (c for key, c in catalogue.cards.items() if key.split("/", 1)[1] == card), None
    )
    if found is None:
        raise ValueError(f"{side}_card: there is no magic card {card!r}")
    if found.effect not in DICE_CARDS:
        raise ValueError(
            f"{side}_card: {found.name} changes the armies, not the dice; list the units as they "
            "stand after it instead"
        )
    return found


def _other(side: str) -> str:
    return "defender" if side == "attacker" else "attacker"


def allowed_values(catalogue: Catalogue) -> dict[str, list[str]]:
    """Return the values the request's open fields take: units, terrains, dice cards."""
    units = sorted(catalogue.units)
    terrains = list(catalogue.terrains)
    cards = sorted(
        {key.split("/", 1)[1] for key, c in catalogue.cards.items() if c.effect in DICE_CARDS}
    )
    return {
        "attacker": units,
        "defender": units,
        "attacker_terrain": terrains,
        "defender_terrain": terrains,
        "attacker_card": cards,
        "defender_card": cards,
    }


def _plan(catalogue: Catalogue, request: OddsRequest, side: str) -> SidePlan:
    attack = side == "attacker"
    names = request.attacker if attack else request.defender
    terrain = request.attacker_terrain if attack else request.defender_terrain
    other = request.defender_terrain if attack else request.attacker_terrain
    for field, key in ((f"{side}_terrain", terrain), (f"{_other(side)}_terrain", other)):
        if key not in catalogue.terrains:
            raise ValueError(f"{field}: unknown terrain {key!r} ({', '.join(catalogue.terrains)})")
    ids = tuple(f"{side}-{i}" for i in range(len(names)))
    kinds = tuple(n.rstrip("+") for n in names)
    unknown = [k for k in kinds if k not in catalogue.units]
    if unknown:
        raise ValueError(f"{side}: unknown unit {unknown[0]!r} ({', '.join(catalogue.units)})")
    if not kinds:
        raise ValueError(f"{side}: name at least one unit")
    if attack:
        owns = request.attacker_castle
    else:
        owns = request.defender_castle or request.defender_owns_castle
    return SidePlan(
        role="attack" if attack else "defence",
        units=ids,
        kinds=kinds,
        terrain=terrain,
        opposing_terrain=other,
        own_castle=owns,
        upgraded=tuple(i for i, n in zip(ids, names, strict=True) if n.endswith("+")),
        card=_card(catalogue, request.attacker_card if attack else request.defender_card, side),
        castle=owns or (not attack and request.defender_on_castle),
    )


def top_table(dice: list[int], k: int) -> Table:
    """Return how many ways each sorted top-``k`` tuple of a pool comes up (exactly)."""
    table: Table = {(): 1}
    for sides in dice:
        checkpoint()
        grown: Table = {}
        for top, count in table.items():
            for value in range(1, sides + 1):
                key = sort_high([*top, value])[:k]
                grown[key] = grown.get(key, 0) + count
        table = grown
    return table


def _exact(a: list[int], d: list[int], k: int) -> tuple[Counter[tuple[int, int]], int]:
    ta, td = top_table(a, k), top_table(d, k)
    counts: Counter[tuple[int, int]] = Counter()
    for top_a, ways_a in ta.items():
        checkpoint()
        for top_d, ways_d in td.items():
            counts[compare(top_a, top_d)] += ways_a * ways_d
    return counts, math.prod(a) * math.prod(d)


def _sampled(a: list[int], d: list[int], samples: int, seed: int) -> Counter[tuple[int, int]]:
    rng, counts = random.Random(seed), Counter[tuple[int, int]]()
    for n in range(samples):
        if n % CHECK_EVERY == 0:
            checkpoint()
        top_a = sort_high([rng.randint(1, n) for n in a])
        top_d = sort_high([rng.randint(1, n) for n in d])
        counts[compare(top_a, top_d)] += 1
    return counts


def wilson(hits: int, n: int) -> Chance:
    """Return a sampled probability with its 95% Wilson score interval."""
    p = hits / n
    centre = (p + Z95**2 / (2 * n)) / (1 + Z95**2 / n)
    half = Z95 * math.sqrt(p * (1 - p) / n + Z95**2 / (4 * n * n)) / (1 + Z95**2 / n)
    return Chance(p, max(0.0, centre - half), min(1.0, centre + half))


def table_size(dice: list[int], k: int) -> int:
    """Return an upper bound of the number of sorted top-``k`` tuples of a pool."""
    faces = max(dice, default=1)
    return min(math.comb(faces + k - 1, k), math.prod(dice) or 1)


def calculate(request: OddsRequest, catalogue: Catalogue) -> OddsAnswer:
    """Return the odds of one battle; raise ValueError naming a field that makes no sense."""
    if not 100 <= request.samples <= 2_000_000:
        raise ValueError("samples: between 100 and 2,000,000")
    options = msgspec.convert(request.options, Options)
    plans = [_plan(catalogue, request, s) for s in ("attacker", "defender")]
    a, d = ([sides for sides, _ in pool(catalogue, options, p)] for p in plans)
    k = min(len(a), len(d))
    size = table_size(a, k) * table_size(d, k)
    exact = request.method == "exact" or (request.method == "auto" and size <= EXACT_LIMIT)
    note = ""
    if exact and size > EXACT_MAX:
        exact = False
        note = (
            f"counting this battle exactly would compare {size:,} pairs of dice tables (at most "
            f"{EXACT_MAX:,} are counted): {request.samples:,} seeded rolls instead"
        )
    if exact:
        counts, total = _exact(a, d, k)
    else:
        counts, total = _sampled(a, d, request.samples, request.seed), request.samples
    answer = _answer(plans, a, d, k, counts, total, exact)
    return msgspec.structs.replace(answer, note=note) if note else answer


def _answer(
    plans: list[SidePlan],
    a: list[int],
    d: list[int],
    k: int,
    counts: Counter[tuple[int, int]],
    total: int,
    exact: bool,
) -> OddsAnswer:
    units = (len(plans[0].units), len(plans[1].units))
    saved = [p.card.count if p.card is not None and p.card.effect == "ward" else 0 for p in plans]
    losses: Counter[tuple[int, int]] = Counter()
    for (la, ld), ways in counts.items():
        losses[(min(units[0], max(0, la - saved[0])), min(units[1], max(0, ld - saved[1])))] += ways

    def chance(hits: int) -> Chance:
        if exact:
            return Chance(hits / total, hits / total, hits / total)
        return wilson(hits, total)

    take = sum(w for (la, ld), w in losses.items() if ld == units[1] and la < units[0])
    both = sum(w for (la, ld), w in losses.items() if ld == units[1] and la == units[0])
    return OddsAnswer(
        method="exact" if exact else "monte-carlo",
        samples=0 if exact else total,
        attacker_dice=tuple(a),
        defender_dice=tuple(d),
        pairs=k,
        attacker_takes_tile=chance(take),
        defender_holds=chance(total - take - both),
        both_fall=chance(both),
        expected_attacker_losses=sum(la * w for (la, _), w in losses.items()) / total,
        expected_defender_losses=sum(ld * w for (_, ld), w in losses.items()) / total,
        outcomes=tuple(Casualties(la, ld, chance(w)) for (la, ld), w in sorted(losses.items())),
    )


def _pct(c: Chance) -> str:
    if c.low == c.high:
        return f"{100 * c.p:.2f}%"
    return f"{100 * c.p:.2f}% (95%: {100 * c.low:.2f}-{100 * c.high:.2f}%)"


def describe(answer: OddsAnswer) -> str:
    """Return the odds in words, for a terminal."""

    def dice(sides: tuple[int, ...]) -> str:
        return " ".join(f"D{n}" for n in sides)

    how = "counted exactly" if answer.method == "exact" else f"{answer.samples:,} seeded rolls"
    lines = [
        f"attacker rolls {dice(answer.attacker_dice)}; defender rolls {dice(answer.defender_dice)}",
        f"{answer.pairs} pair{'s' if answer.pairs != 1 else ''} compared ({how})",
        f"attacker takes the tile: {_pct(answer.attacker_takes_tile)}",
        f"defender holds:          {_pct(answer.defender_holds)}",
        f"both armies fall:        {_pct(answer.both_fall)}",
        (
            f"expected losses: attacker {answer.expected_attacker_losses:.3f}, "
            f"defender {answer.expected_defender_losses:.3f}"
        ),
        "casualties (attacker loses, defender loses):",
    ]
    lines.extend(
        f"  {o.attacker_losses} and {o.defender_losses}: {_pct(o.chance)}" for o in answer.outcomes
    )
    if answer.note:
        lines.append(f"note: {answer.note}")
    return "\n".join(lines)
