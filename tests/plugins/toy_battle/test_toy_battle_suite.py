"""The rules spec is fully tested, the game passes conformance, and expansions can extend it."""

from __future__ import annotations

import ast
import importlib.util
from pathlib import Path

import msgspec
import pytest
from gamehall.core import (
    Context,
    ExpansionSpec,
    IllegalCommand,
    RandomBot,
    Registry,
    Table,
    engine,
    hookimpl,
)
from gamehall.core.conformance import Case, cases, check_playout
from gamehall.core.registry import builtin_registry
from gamehall.plugins.toy_battle.commands import MoveTroop, PlaceTroop, SkipEffect
from gamehall.plugins.toy_battle.events import TroopsDrawn
from gamehall.plugins.toy_battle.state import Options, State
from gamehall.plugins.toy_battle.terrain import Region, Spot, Terrain
from gamehall.plugins.toy_battle.troops import TroopKind
from toy_battle_drummers import DrummersPlugin
from toy_battle_helpers import B, R

ROOT = Path(__file__).resolve().parents[3]
HERE = Path(__file__).parent


@pytest.mark.parametrize("case", cases(builtin_registry(), "toy-battle"), ids=lambda c: c.name)
def test_conformance_on_every_terrain(case: object) -> None:
    for seed in range(12):
        check_playout(builtin_registry(), case, seed)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    "options",
    [
        {"special_bases": False},
        {"colour": "random", "terrain": "pool", "kwak_on_restricted": True, "tie_loser": "last"},
    ],
)
def test_conformance_with_the_other_options(options: dict[str, object]) -> None:
    registry = builtin_registry()
    case = msgspec.structs.replace(cases(registry, "toy-battle")[0], options=options)
    for seed in range(3):
        check_playout(registry, case, seed)


def test_bench_reports_games_per_second() -> None:
    spec = importlib.util.spec_from_file_location(
        "bench_toy_battle", ROOT / "bench" / "bench_toy_battle.py"
    )
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    figures = module.run(quick=True)
    assert (
        set(figures) == {"playouts.toy_battle.games_per_s"}
        and figures["playouts.toy_battle.games_per_s"] > 0
    )


def test_random_games_end_on_every_terrain_with_every_ending() -> None:
    reasons = set()
    for seed in range(40):
        table = Table.new("toy-battle", options={"terrain": "caribbean"}, seed=seed)
        outcome = table.play(RandomBot(seed))
        assert outcome is not None and table.awaiting() == {}
        reasons.add(table.state.reason)
    assert reasons == {"headquarters", "medals", "stuck"}


# -- an expansion adds a terrain and a troop kind through the game's hooks --------------------

LANE = Terrain(
    key="test-lane",
    name="Test Lane",
    name_nl="Testpad",
    source="made up for this test",
    medal_target=3,
    special_effect="jungle",
    special_bases=(12,),
    muted_bases=(),
    spots=(
        Spot(1, (11,), 50, 90, "blue"),
        Spot(11, (1, 12), 50, 70),
        Spot(12, (11, 13), 50, 50),
        Spot(13, (12, 41), 50, 30),
        Spot(41, (13,), 50, 10, "red"),
    ),
    regions=(Region((11, 12, 13), 1),),
)


class LaneParts:
    """Hook implementations of the test expansion."""

    @hookimpl
    def toy_battle_terrains(self) -> list[Terrain]:
        return [LANE]

    @hookimpl
    def toy_battle_troop_kinds(self) -> list[TroopKind]:
        return [TroopKind("titan", "Titan", 9, copies=1)]


class LanePlugin:
    """A plugin that registers the test expansion."""

    @hookimpl
    def gamehall_expansions(self) -> list[ExpansionSpec]:
        return [
            ExpansionSpec(
                "toy-battle-lane", "Lane", "1.0.0", "toy-battle", hookimpls=(LaneParts(),)
            )
        ]


def test_TB_JUNGLE_2_destination_never_a_headquarters() -> None:
    registry = Registry([LanePlugin()])
    ruleset = registry.ruleset("toy-battle", ["toy-battle-lane"])
    rules = ruleset.rules
    assert len(rules.army.tokens["blue"]) == 25
    state = State(
        terrain="test-lane",
        options=Options(terrain="test-lane"),
        racks=((B("titan"),), ()),
        supply=((B("star"),), (R("star"),)),
        stacks={11: (B("roxy"),), 13: (R("skully"),)},
        ready=True,
    )
    ctx = Context(0, 10, 0)
    _, after = engine.decide(ruleset, state, 0, PlaceTroop(troop=B("titan"), spot=12), ctx)
    assert rules.legal(after, 0) == [MoveTroop(troop=R("skully"), to=12), SkipEffect()]
    with pytest.raises(IllegalCommand) as caught:
        engine.decide(ruleset, after, 0, MoveTroop(troop=R("skully"), to=41), ctx)
    assert caught.value.rule == "TB-JUNGLE-2"
    table = Table.new(
        "toy-battle",
        expansions=["toy-battle-lane"],
        options={"terrain": "test-lane"},
        registry=registry,
    )
    assert len(table.state.supply[0]) + len(table.state.racks[0]) == 21


def test_the_invariant_names_the_troop_found_in_two_places() -> None:
    from gamehall.plugins.toy_battle.invariants import no_troop_twice

    state = State(terrain="castle", racks=((B("roxy"),), ()), stacks={11: (B("roxy"),)}, ready=True)
    assert (
        no_troop_twice(state) == "blue-roxy-1 is in two places at once: spot 11 and seat 1's rack"
    )
    assert no_troop_twice(msgspec.structs.replace(state, stacks={})) is None


@pytest.fixture
def titans(monkeypatch: pytest.MonkeyPatch) -> Registry:
    """Return a registry with the outside package's Toy Battle expansion (key ``iron-titan``)."""
    monkeypatch.syspath_prepend(str(ROOT / "tests" / "outside_plugin"))
    import outside_titans
    from gamehall.plugins import toy_battle

    return Registry([toy_battle, outside_titans], entry_points=False)


def test_an_added_troop_kind_is_named_coded_and_described_from_its_expansion(
    titans: Registry,
) -> None:
    table = Table.new("toy-battle", expansions=["outside-titans"], seed=2, registry=titans)
    titan = "blue-iron-titan-1"
    assert titan in table.rules.army.tokens["blue"]  # a key with "-" makes sound tokens
    assert table.rules.army.kind[titan].name == "Iron Titan"
    others = tuple(t for t in table.state.supply[0] if t != titan)
    table.state = msgspec.structs.replace(
        table.state, turn=0, racks=((titan,), table.state.racks[1]), supply=(others, ())
    )
    place = next(c for c in table.legal(0) if isinstance(c, PlaceTroop) and c.troop == titan)
    view = table.view(0)
    text = table.ruleset.describe(place, view, 0)
    assert text.startswith(f"Place Iron Titan (8) from your rack on spot {place.spot}")
    board = table.render(0)
    assert "rack: Iron Titan (8)" in board and titan not in board
    assert "T Iron Titan (8): strength 8, no effect" in board  # the legend
    table.send(0, place)
    assert f"{place.spot}:BT" in table.render(None)
    case = Case("toy-battle", ("outside-titans",), 2, {"terrain": "castle"})
    for seed in range(3):
        check_playout(titans, case, seed)


# -- an expansion written only against api.py -------------------------------------------------


def test_the_drummers_import_only_the_public_api() -> None:
    tree = ast.parse((HERE / "toy_battle_drummers.py").read_text())
    imported = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module:
            game = node.module.startswith("gamehall.plugins")
            imported |= {f"{node.module}.{a.name}" for a in node.names} if game else {node.module}
        elif isinstance(node, ast.Import):
            imported |= {a.name for a in node.names}
    assert {m for m in imported if m.startswith("gamehall.")} == {
        "gamehall.core",
        "gamehall.plugins.toy_battle.api",
    }


def test_the_api_is_enough_to_add_a_troop_kind_with_an_effect_of_its_own() -> None:
    registry = Registry([DrummersPlugin()])
    table = Table.new("toy-battle", expansions=["toy-battle-drummers"], seed=3, registry=registry,
                      options={"terrain": "castle"})  # fmt: skip
    drummer = "blue-drummer-1" if table.state.blue == 0 else "red-drummer-1"
    assert drummer in table.rules.army.kind and table.rules.effects["muster"].rule == "TB-DRUM-1"
    musters = 0
    for seed in range(40):
        table = Table.new("toy-battle", expansions=["toy-battle-drummers"], seed=seed,
                          registry=registry, options={"terrain": "castle"})  # fmt: skip
        table.play(RandomBot(seed))
        musters += sum(
            1 for e in table.events if isinstance(e, TroopsDrawn) and e.cause == "muster"
        )
    assert musters > 0, "no random match mustered"
    case = Case("toy-battle", ("toy-battle-drummers",), 2, {"terrain": "castle"})
    for seed in range(3):
        check_playout(registry, case, seed)
