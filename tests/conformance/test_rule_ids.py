"""Every event a built-in game emits names its rule, and the rule is in the game's rules doc."""

from __future__ import annotations

from pathlib import Path

import pytest
from gamehall.core.conformance import cases
from gamehall.core.debug.provenance import rule_problems
from gamehall.core.registry import Registry, builtin_registry

ROOT = Path(__file__).resolve().parents[2]  # the checkout: the specs' rules_doc are under it
RULESETS = sorted({(c.game, c.expansions) for c in cases(builtin_registry())})


@pytest.mark.parametrize(
    ("game", "expansions"), RULESETS, ids=["+".join((g, *e)) for g, e in RULESETS]
)
def test_every_emitted_event_declares_a_rule_of_the_rules_doc(
    registry: Registry, game: str, expansions: tuple[str, ...]
) -> None:
    ruleset = builtin_registry().ruleset(game, expansions)
    problems = [p for seed in (1, 2, 3) for p in rule_problems(ruleset, seed, 300, ROOT)]
    assert not problems, "\n".join(sorted(set(problems)))


def test_the_check_catches_an_event_without_a_rule() -> None:
    ruleset = builtin_registry().ruleset("tictactoe")
    rules = type(ruleset.rules)
    saved = rules.event_rules
    try:
        rules.event_rules = {}
        problems = rule_problems(ruleset, 1, 20, ROOT)
    finally:
        rules.event_rules = saved
    assert any("tictactoe.MarkPlaced" in p and "no rule id" in p for p in problems)
