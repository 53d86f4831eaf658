"""Scenario tests of tic-tac-toe, one per rule id of docs/rules/tictactoe.md."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from gamehall.core import IllegalCommand, InvalidCommand, NotAwaited, Table
from gamehall.core.codec import Codec
from gamehall.plugins.tictactoe.commands import PlaceMark
from gamehall.plugins.tictactoe.events import BoardFilled, LineCompleted, MarkPlaced

DOC = Path(__file__).resolve().parents[3] / "docs" / "rules" / "tictactoe.md"


def play(cells: list[int], expansions: tuple[str, ...] = ()) -> Table:
    table = Table.new("tictactoe", expansions=expansions)
    for i, cell in enumerate(cells):
        table.send(i % 2, PlaceMark(cell=cell))
    return table


def test_TTT_1_empty_board_and_x_moves_first() -> None:
    table = Table.new("tictactoe")
    assert table.state.board == (0,) * 9
    assert list(table.awaiting()) == [0]
    assert len(table.legal(0)) == 9 and not table.legal(1)
    with pytest.raises(NotAwaited):
        table.send(1, PlaceMark(cell=0))
    table.send(0, PlaceMark(cell=0))
    assert list(table.awaiting()) == [1]


def test_TTT_2_taken_cell_is_refused_and_nothing_changes() -> None:
    table = play([4])
    state, length = table.state, len(table.events)
    with pytest.raises(IllegalCommand) as caught:
        table.send(1, PlaceMark(cell=4))
    assert caught.value.rule == "TTT-2" and "cell 4 is already taken" in str(caught.value)
    assert table.state is state and len(table.events) == length


def test_TTT_2_cell_outside_the_board_is_not_a_command(registry: object) -> None:
    codec: Codec = registry.codec  # type: ignore[attr-defined]
    with pytest.raises(InvalidCommand, match=r"cell"):
        codec.command_from_json(b'{"type": "tictactoe.PlaceMark", "cell": 9}')


@pytest.mark.parametrize(
    "cells",
    [[0, 3, 1, 4, 2], [0, 1, 3, 2, 6], [0, 1, 4, 2, 8], [2, 0, 4, 1, 6]],
    ids=["row", "column", "diagonal", "anti-diagonal"],
)
def test_TTT_3_a_line_of_three_wins(cells: list[int]) -> None:
    table = play(cells)
    assert isinstance(table.events[-1], LineCompleted)
    assert table.outcome() is not None and table.outcome().winners == (0,)  # type: ignore[union-attr]
    assert table.awaiting() == {} and not table.legal(0) and not table.legal(1)


def test_TTT_3_second_player_can_win() -> None:
    table = play([0, 3, 1, 4, 8, 5])
    assert table.outcome().winners == (1,)  # type: ignore[union-attr]


def test_TTT_4_full_board_without_line_is_a_draw() -> None:
    table = play([0, 1, 2, 4, 3, 5, 7, 6, 8])
    assert isinstance(table.events[-1], BoardFilled)
    assert table.outcome().winners == ()  # type: ignore[union-attr]
    assert sum(isinstance(e, MarkPlaced) for e in table.events) == 9


def test_TTT_M_1_misere_completing_a_line_loses() -> None:
    table = play([0, 3, 1, 4, 2], expansions=("tictactoe-misere",))
    assert table.outcome().winners == (1,)  # type: ignore[union-attr]
    assert play([0, 3, 1, 4, 2]).outcome().winners == (0,)  # type: ignore[union-attr]


def test_every_rule_id_has_a_scenario_test() -> None:
    ids = re.findall(r"\*\*(TTT-[A-Z0-9-]+)\*\*", DOC.read_text())
    assert ids, "no rule ids found"
    names = [name for name in globals() if name.startswith("test_")]
    missing = [
        i for i in ids if not any(n.startswith(f"test_{i.replace('-', '_')}_") for n in names)
    ]
    assert not missing, f"rules without a scenario test: {missing}"
