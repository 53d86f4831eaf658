"""Each kind of shrink condition, on tic-tac-toe."""

from __future__ import annotations

import sys

import pytest
from gamehall.core import ExpansionSpec, GamehallError, Registry, Table, hookimpl
from gamehall.core.debug.shrink import parse_condition, shrink

SPEC = ExpansionSpec(
    id="test-crash", name="Crash", version="1.0.0", game="tictactoe",
    description="Raises when O completes a line (test only).",
)  # fmt: skip


@hookimpl
def gamehall_expansions() -> list[ExpansionSpec]:
    return [SPEC]


CRASH = False


@hookimpl
def tictactoe_line_winner(seat: int) -> int:
    if CRASH and seat == 1:
        raise RuntimeError("no winner table for O")
    return seat


def play(registry: Registry, expansions: list[str], cells: list[int]) -> Table:
    ruleset = registry.ruleset("tictactoe", expansions)
    table = Table(ruleset, ruleset.started(seed=1), stream="t")
    for n, cell in enumerate(cells):
        table.send(
            n % 2,
            registry.codec.command_from_json(f'{{"type": "tictactoe.PlaceMark", "cell": {cell}}}'),
        )
    return table


def test_refused_outcome_and_predicate(registry: Registry) -> None:
    table = play(registry, [], [0, 1, 4, 2, 8])
    records = table.records()
    ruleset = table.ruleset
    refused = shrink(
        ruleset, records, parse_condition('refused=2:{"type": "tictactoe.PlaceMark", "cell": 4}')
    )
    assert refused.after == 1 and refused.moves[0][1].cell == 4  # type: ignore[union-attr]
    won = shrink(ruleset, records, parse_condition("outcome=winner:1"))
    assert won.after == 5
    with pytest.raises(GamehallError, match="never holds"):
        shrink(ruleset, records, parse_condition("outcome=draw"))
    with pytest.raises(GamehallError, match="raised ValueError"):
        shrink(ruleset, records, parse_condition("tests.debug.predicates:raises"))
    with pytest.raises(GamehallError, match="only taken on the command line"):
        parse_condition("tests.debug.predicates:raises", allow_code=False)
    with pytest.raises(GamehallError, match="unknown condition"):
        parse_condition("sometimes")


def test_raises_finds_a_short_way_to_a_plugin_that_raises(monkeypatch: pytest.MonkeyPatch) -> None:
    registry = Registry([sys.modules[__name__]])
    # recorded before the plugin raised: O completes the middle column with its last move
    table = play(registry, ["test-crash"], [0, 4, 2, 1, 3, 7])
    records = table.records()
    monkeypatch.setattr(sys.modules[__name__], "CRASH", True)
    ruleset = Registry([sys.modules[__name__]]).ruleset("tictactoe", ["test-crash"])  # fresh rules
    result = shrink(ruleset, records, parse_condition("raises"))
    assert result.raised is not None and "no winner table for O" in result.raised
    assert result.after <= result.before  # the first line completed asks the hook
