"""The odds calculator: exact and sampled answers agree, the worked example, the CLI and errors."""

from __future__ import annotations

import itertools
import math

import msgspec
import pytest
from gamehall.adapters.cli import main
from gamehall.core import GamehallError, Registry, default_registry
from gamehall.core import calculators as calc
from gamehall.plugins.kaladan.dice import compare, sort_high
from gamehall.plugins.kaladan.odds import OddsRequest, calculate, top_table
from gamehall.plugins.kaladan.words import catalogue

WORKED = {
    "attacker": ("general", "archer", "archer", "sword"),
    "attacker_terrain": "forest",
    "defender": ("general", "shield"),
    "defender_terrain": "mountain",
}
SMALL = [
    {"attacker": ("sword",), "defender": ("shield",)},
    {"attacker": ("catapult", "sword"), "defender": ("shield", "crown"), "defender_castle": True},
    {"attacker": ("archer", "archer"), "attacker_terrain": "forest", "defender": ("shield",),
         "defender_terrain": "mountain", "defender_card": "verdance/whispering-pines"},
    {"attacker": ("sword+", "zhoji"), "attacker_terrain": "forest", "defender": ("sword", "sword"),
         "attacker_card": "khalisia/dawns-sword", "defender_card": "sand-veil"},
]  # fmt: skip


def odds(method: str = "auto", samples: int = 20_000, **fields: object) -> object:
    return calculate(OddsRequest(method=method, samples=samples, **fields), catalogue())  # type: ignore[arg-type]


def brute_force(a: list[int], d: list[int]) -> dict[tuple[int, int], float]:
    """Return the casualty chances by rolling every face of every die (tiny pools only)."""
    counts: dict[tuple[int, int], int] = {}
    faces = [range(1, n + 1) for n in (*a, *d)]
    for roll in itertools.product(*faces):
        key = compare(sort_high(roll[: len(a)]), sort_high(roll[len(a) :]))
        counts[key] = counts.get(key, 0) + 1
    total = math.prod(a) * math.prod(d)
    return {k: v / total for k, v in counts.items()}


def test_exact_counting_matches_rolling_every_face() -> None:
    for pools in ([8], [10]), ([10, 10, 8], [10, 6]), ([12, 6], [8, 8, 10]):
        a, d = pools
        k = min(len(a), len(d))
        ta, td = top_table(a, k), top_table(d, k)
        assert sum(ta.values()) == math.prod(a) and sum(td.values()) == math.prod(d)
        exact: dict[tuple[int, int], float] = {}
        for (xa, wa), (xd, wd) in itertools.product(ta.items(), td.items()):
            key = compare(xa, xd)
            exact[key] = exact.get(key, 0) + wa * wd / (math.prod(a) * math.prod(d))
        assert exact.keys() == brute_force(a, d).keys()
        assert all(abs(exact[k] - v) < 1e-12 for k, v in brute_force(a, d).items())


@pytest.mark.parametrize("fields", SMALL)
def test_exact_and_monte_carlo_agree_on_small_pools(fields: dict[str, object]) -> None:
    exact = odds("exact", **fields)
    sampled = odds("monte-carlo", samples=30_000, **fields)
    assert exact.method == "exact" and sampled.method == "monte-carlo"  # type: ignore[attr-defined]
    assert abs(sum(o.chance.p for o in exact.outcomes) - 1) < 1e-9  # type: ignore[attr-defined]
    sampled_by = {(o.attacker_losses, o.defender_losses): o.chance for o in sampled.outcomes}  # type: ignore[attr-defined]
    for outcome in exact.outcomes:  # type: ignore[attr-defined]
        chance = sampled_by.get((outcome.attacker_losses, outcome.defender_losses))
        p = outcome.chance.p
        assert chance is not None or p < 0.001
        if chance is not None:
            slack = 4 * math.sqrt(p * (1 - p) / 30_000) + 1e-4
            assert abs(chance.p - p) <= slack and chance.low <= chance.p <= chance.high


def test_the_worked_example_armies() -> None:
    answer = odds(**WORKED)
    assert answer.method == "exact" and answer.pairs == 3  # type: ignore[attr-defined]
    assert sorted(answer.attacker_dice) == [8, 10, 10, 10, 12]  # type: ignore[attr-defined]
    assert sorted(answer.defender_dice) == [10, 10, 12]  # type: ignore[attr-defined]
    one_each = next(o for o in answer.outcomes if (o.attacker_losses, o.defender_losses) == (1, 1))  # type: ignore[attr-defined]
    assert 0 < one_each.chance.p < 1
    take = answer.attacker_takes_tile.p + answer.defender_holds.p + answer.both_fall.p  # type: ignore[attr-defined]
    assert abs(take - 1) < 1e-12


def test_large_pools_are_sampled_with_an_interval() -> None:
    big = odds(attacker=("catapult",) * 2 + ("general", "archer", "archer"),
               defender=("shield",) * 3 + ("general",), samples=2_000)  # fmt: skip
    assert big.method == "monte-carlo" and big.samples == 2_000  # type: ignore[attr-defined]
    assert big.attacker_takes_tile.low < big.attacker_takes_tile.p < big.attacker_takes_tile.high  # type: ignore[attr-defined]
    again = odds(attacker=("catapult",) * 2 + ("general", "archer", "archer"),
                 defender=("shield",) * 3 + ("general",), samples=2_000)  # fmt: skip
    assert again == big  # seeded


def test_the_calculator_through_the_core_registry_and_the_cli(
    capsys: pytest.CaptureFixture[str],
) -> None:
    calculator = calc.find(default_registry(), "kaladan")
    answer = calc.calculate(calculator, calc.decode(calculator, msgspec.json.encode(WORKED)))
    assert answer == odds(**WORKED)
    flags = ["--set", "attacker=general,archer,archer,sword", "--set", "attacker_terrain=forest",
             "--set", "defender=general,shield", "--set", "defender_terrain=mountain"]  # fmt: skip
    assert main(["odds", "kaladan", *flags]) == 0
    out = capsys.readouterr().out
    assert out.startswith("attacker rolls D12 D10 D10 D8 D10; defender rolls D12 D10 D10")
    assert "3 pairs compared (counted exactly)" in out and "{" not in out
    assert main(["odds", "kaladan", msgspec.json.encode(WORKED).decode(), "--json"]) == 0
    assert msgspec.json.decode(capsys.readouterr().out)["pairs"] == 3


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"attacker": ["knight"], "defender": ["sword"]}, "unknown unit 'knight'"),
        (
            {"attacker": ["sword"], "defender": ["sword"], "defender_terrain": "sea"},
            "defender_terrain: unknown terrain 'sea'",
        ),
        (
            {"attacker": ["sword"], "defender": ["sword"], "attacker_terrain": "sea"},
            "attacker_terrain: unknown terrain 'sea'",
        ),
        ({"defender": ["sword"]}, "attacker is missing"),
        ({"attacker": ["sword"], "defender": ["sword"], "seed": "x"}, "seed: expected a whole"),
        (
            {"attacker": ["sword"], "defender": ["sword"], "attacker_card": "root-snare"},
            "changes the armies",
        ),
        ({"attacker": [], "defender": ["sword"]}, "at least one unit"),
        ({"attacker": ["sword"], "defender": ["sword"], "samples": 5}, "samples"),
        ({"attacker": ["sword"], "defender": ["sword"], "colour": "red"}, "colour"),
    ],
)
def test_bad_requests_name_the_problem(fields: dict[str, object], message: str) -> None:
    calculator = calc.find(default_registry(), "kaladan", "odds")
    with pytest.raises(calc.InvalidRequest, match=message):
        calc.calculate(calculator, calc.decode(calculator, fields))
    with pytest.raises(GamehallError, match="offers: odds"):
        calc.find(default_registry(), "kaladan", "scores")


# -- the odds and the battle agree ------------------------------------------------------------

CASTLE_CASES = [
    # (owner of the Castle on the defending tile 2, or None; options; odds request fields);
    # seat 0 (Khalisia, whose Iron Warden counts in its own Castle) defends against seat 1
    (0, {}, {"defender_castle": True}),
    (0, {}, {"defender_on_castle": True, "defender_owns_castle": True}),
    (1, {}, {"defender_on_castle": True}),  # seat 0 stands in seat 1's Castle
    (-1, {}, {"defender_on_castle": True}),  # a free Castle
    (None, {}, {}),
    (1, {"castle_die_defender": "owner"}, {"defender_on_castle": True}),
    (0, {"castle_die_defender": "owner", "castle_defence_die": 12}, {"defender_castle": True}),
    (0, {"castle_defence_die": 0}, {"defender_owns_castle": True}),
    (0, {"crown_castle_die": "both"}, {"defender_castle": True}),
]


@pytest.mark.parametrize(("owner", "options", "fields"), CASTLE_CASES)
def test_KAL_TERRAIN_4_the_exact_odds_and_the_battle_draw_the_same_pools(
    owner: int | None, options: dict[str, object], fields: dict[str, object]
) -> None:
    from gamehall.plugins.kaladan.commands import Attack
    from gamehall.plugins.kaladan.events import DiceRolled
    from gamehall.plugins.kaladan.state import Options
    from kaladan_helpers import make, of, send

    attack, defence = ["crown", "sword"], ["crown", "iron-warden"]
    state = make(
        terrain=["field", "forest", "mountain", "field", "field", "field", "field"],
        castles={} if owner is None else {2: owner},
        units={1: (1, attack), 2: (0, defence)},
        options=Options(**options),  # type: ignore[arg-type]
        turn=1,
    )
    events, _ = send(state, 1, Attack(origin=1, target=2), rolls=[1] * 12)
    rolled = of(events, DiceRolled)[0]
    answer = odds("exact", attacker=tuple(attack), defender=tuple(defence),
                  attacker_terrain="forest", defender_terrain="mountain",
                  options=options, **fields)  # fmt: skip
    assert answer.attacker_dice == tuple(d.sides for d in rolled.attack)  # type: ignore[attr-defined]
    assert answer.defender_dice == tuple(d.sides for d in rolled.defence)  # type: ignore[attr-defined]
    castle_dice = [d.sides for d in rolled.defence if d.source == "castle"]
    gets_die = owner is not None and (owner == 0 or options.get("castle_die_defender") != "owner")
    size = options.get("castle_defence_die", 8)
    assert castle_dice == ([size] if gets_die and size else [])
    crown = next(d.sides for d in rolled.defence if d.source.endswith("/crown-1"))
    assert crown == (8 if owner == 0 else 6)  # the Crown's D8 only in a Castle its player owns


def test_a_defender_owning_its_castle_implies_the_tile_is_a_castle() -> None:
    owns = odds("exact", attacker=("sword",), defender=("crown",), defender_owns_castle=True)
    both = odds("exact", attacker=("sword",), defender=("crown",), defender_on_castle=True,
                defender_owns_castle=True)  # fmt: skip
    taken = odds("exact", attacker=("sword",), defender=("crown",), defender_on_castle=True)
    assert owns == both and owns.defender_dice == (8, 8)  # type: ignore[attr-defined]
    assert taken.defender_dice == (6, 8)  # type: ignore[attr-defined]


def test_the_cli_answers_no_input_in_words_and_lists_fields_with_kinds_and_values(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["odds", "kaladan"]) == 1
    err = capsys.readouterr().err
    assert err.startswith("error: kaladan odds needs attacker and defender: give --set attacker=")
    assert "Object" not in err and "`" not in err and len(err.splitlines()) == 1
    assert main(["odds", "kaladan", "--fields"]) == 0
    out = capsys.readouterr().out
    assert "  attacker: a list (comma-separated); required" in out
    assert "  defender_terrain: text; default field" in out
    assert "      allowed: field, forest, mountain" in out
    assert "  method: one of: auto, exact, monte-carlo; default auto" in out
    assert "(default" not in out and "Annotated" not in out


def test_the_odds_read_the_expansions_named_in_the_request(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # Frostmark (a test expansion) adds the Pike: the odds count its dice once the request
    # names the expansion, and refuse it by name without.
    from frostmark import FrostmarkPlugin

    registry = Registry([FrostmarkPlugin()])
    calculator = calc.find(registry, "kaladan")
    pikes = {"attacker": ["pike", "pike"], "defender": ["sword"]}
    with pytest.raises(calc.InvalidRequest, match="unknown unit 'pike'"):
        calc.calculate(calculator, calc.decode(calculator, pikes))
    answer = calc.calculate(
        calculator, calc.decode(calculator, {**pikes, "expansions": ["kaladan-frostmark"]})
    )
    assert answer.attacker_dice == (8, 8)  # the Pike attacks with a D8
    assert "pike" in calc.allowed_values(calculator, registry, ["kaladan-frostmark"])["attacker"]
    assert "pike" not in calc.allowed_values(calculator, registry)["attacker"]
    with pytest.raises(calc.InvalidRequest, match="expansions: unknown expansion 'frost'"):
        calc.calculate(calculator, calc.decode(calculator, {**pikes, "expansions": ["frost"]}))
    # The command line: --expansion, in the answer and in --fields.
    monkeypatch.setattr("gamehall.adapters.cli.calculate.default_registry", lambda: registry)
    flags = ["--set", "attacker=pike,pike", "--set", "defender=sword"]
    assert main(["odds", "kaladan", *flags, "--expansion", "kaladan-frostmark"]) == 0
    assert capsys.readouterr().out.startswith("attacker rolls D8 D8; defender rolls")
    assert main(["odds", "kaladan", "--fields", "--expansion", "kaladan-frostmark"]) == 0
    assert "pike" in capsys.readouterr().out
