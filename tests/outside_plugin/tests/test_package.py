"""This package's own suite, as an outside author runs it: gamehall's conformance suite, the
golden replays of this distribution, the rules document and the per-game contract."""

from __future__ import annotations

from pathlib import Path

import pytest
from gamehall.core import IllegalCommand, Table, default_registry
from gamehall.core.conformance import cases, check_playout
from gamehall.core.golden import check
from gamehall.core.testing import (
    contract_problems,
    hook_problems,
    registry_rules_problems,
    rules_doc_problems,
)
from outside_nim import Take

ROOT = Path(__file__).resolve().parents[1]
OWN = {"outside-nim", "outside-nim-limit", "outside-titans"}
REGISTRY = default_registry()
MINE = [c for c in cases(REGISTRY) if c.game in OWN or set(c.expansions) & OWN]


@pytest.mark.parametrize("case", MINE, ids=lambda c: c.name)
def test_conformance(case: object) -> None:
    for seed in range(3):
        check_playout(REGISTRY, case, seed)  # type: ignore[arg-type]


def test_golden_replays_are_current() -> None:
    problems = check(REGISTRY, ROOT / "golden", only=OWN)
    assert not problems, "\n".join(problems)


def test_rules_document_and_contract() -> None:
    for spec in (
        REGISTRY.game("outside-nim"),
        *(REGISTRY.expansions[e] for e in OWN - {"outside-nim"}),
    ):
        assert spec.rules_doc == "docs/rules.md"
    assert not rules_doc_problems(ROOT / "docs" / "rules.md", ROOT / "tests", ROOT)
    # Only this distribution's games and expansions, not gamehall's installed beside them.
    mine = "gamehall-outside-fixture"
    assert not registry_rules_problems(REGISTRY, ROOT, ROOT / "tests", ROOT, distribution=mine)
    assert not contract_problems(REGISTRY, "outside-nim")
    assert not hook_problems(REGISTRY, "outside-nim")


def test_NIM_1_a_take_larger_than_its_pile_is_refused() -> None:
    table = Table.new("outside-nim", seed=1, registry=REGISTRY)
    with pytest.raises(IllegalCommand, match="holds 1 stones"):
        table.send(0, Take(pile=0, count=2))


def test_NIM_2_who_takes_the_last_stone_wins() -> None:
    table = Table.new("outside-nim", options={"piles": (1,)}, seed=1, registry=REGISTRY)
    table.send(0, Take(pile=0, count=1))
    outcome = table.outcome()
    assert outcome is not None and outcome.winners == (0,)


def test_NIM_3_the_expansion_reads_its_own_option() -> None:
    table = Table.new("outside-nim", expansions=["outside-nim-limit"], seed=1,
                      expansion_options={"outside-nim-limit": {"most": 1}}, registry=REGISTRY)  # fmt: skip
    assert {c.count for c in table.legal(0)} == {1}
    with pytest.raises(IllegalCommand, match="at most 1 stones"):
        table.send(0, Take(pile=2, count=2))
    plain = Table.new("outside-nim", seed=1, registry=REGISTRY)
    assert max(c.count for c in plain.legal(0)) == 5


def test_TITAN_1_each_colour_gets_one_iron_titan() -> None:
    table = Table.new("toy-battle", expansions=["outside-titans"], seed=1, registry=REGISTRY)
    titans = [t for t in table.rules.army.kind if "iron-titan" in t]
    assert sorted(titans) == ["blue-iron-titan-1", "red-iron-titan-1"]
    assert table.rules.army.kind[titans[0]].strength == 8
