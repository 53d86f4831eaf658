"""Every rule id in docs/rules/river-of-gold.md has a scenario test named after it."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
DOC = ROOT / "docs" / "rules" / "river-of-gold.md"
TEST_DIRS = (
    ROOT / "tests" / "plugins" / "river_of_gold",
    ROOT / "tests" / "plugins" / "river_of_gold_patrons",
)


def rule_ids() -> set[str]:
    """Return the rule ids the rules document defines."""
    return set(re.findall(r"\*\*(ROG-[A-Z]+-\d+)\*\*", DOC.read_text("utf-8")))


def ids_in_test_names() -> set[str]:
    """Return the rule ids that test functions carry in their names."""
    found: set[str] = set()
    for folder in TEST_DIRS:
        for path in folder.glob("test_*.py"):
            for name in re.findall(r"def test_(ROG_[A-Z]+_\d+)(?=_|\()", path.read_text("utf-8")):
                found.add(name.replace("_", "-"))
    return found


def test_every_rule_id_has_a_scenario_test() -> None:
    ids = rule_ids()
    assert len(ids) > 50
    missing = sorted(ids - ids_in_test_names())
    assert not missing, f"rules without a scenario test: {missing}"


def test_every_test_id_names_a_rule() -> None:
    unknown = sorted(ids_in_test_names() - rule_ids())
    assert not unknown, f"tests name rules the document does not define: {unknown}"
