"""The per-game contract, one check each, driven by the registry for gamehall's own plugins (an
outside distribution runs the same functions of ``gamehall.core.testing``): every game and
expansion names a numbered rules document whose every rule has a scenario test; every game
provides the words, the board, a sampler where it hides information and a public API; its
hooks follow the naming, ``:param`` and order conventions."""

from __future__ import annotations

from pathlib import Path

import pytest
from gamehall.core import Registry
from gamehall.core.testing import (
    contract_problems,
    hook_problems,
    registry_rules_problems,
    rules_doc_problems,
)

ROOT = Path(__file__).resolve().parents[2]


def test_every_builtin_game_and_expansion_has_a_fully_tested_rules_doc(registry: Registry) -> None:
    problems = registry_rules_problems(
        registry, ROOT, ROOT / "tests", ROOT / "plugins", distribution="gamehall"
    )
    assert not problems, "\n".join(problems)


def test_the_rules_check_takes_the_distribution_to_check(
    registry: Registry, tmp_path: Path
) -> None:
    """An outside package's tree holds none of gamehall's rules documents: checking its own
    distribution gives no error about them, checking gamehall's (or all) names them."""
    empty = tmp_path / "tests"
    empty.mkdir()
    assert registry_rules_problems(registry, tmp_path, empty, tmp_path, distribution="pytest") == []
    named = registry_rules_problems(registry, tmp_path, empty, tmp_path, distribution="gamehall")
    assert any(p.startswith("tictactoe: ") for p in named)
    assert len(named) == len(registry_rules_problems(registry, tmp_path, empty, tmp_path))
    with pytest.raises(ValueError, match="no distribution"):
        registry_rules_problems(registry, tmp_path, empty, tmp_path, distribution="no-such-dist")


def test_the_check_names_untested_unknown_and_doubled_rules(tmp_path: Path) -> None:
    doc = tmp_path / "rules.md"
    doc.write_text("- **XY-MOVE-1** Move.\n- **XY-MOVE-2** Again.\n- **XY-MOVE-2** Twice.\n")
    (tmp_path / "tests").mkdir()
    (tmp_path / "tests" / "test_xy.py").write_text(
        "def test_XY_MOVE_1_moves(): ...\ndef test_XY_JUMP_4_jumps(): ...\n"
    )
    (tmp_path / "code").mkdir()
    (tmp_path / "code" / "rules.py").write_text("# XY-MOVE-1 and XY-SWIM-3\n")
    problems = rules_doc_problems(doc, tmp_path / "tests", tmp_path / "code")
    assert problems == [
        "rules.md defines XY-MOVE-2 twice",
        "rules of rules.md without a scenario test: XY-MOVE-2",
        "tests name rules rules.md does not define: XY-JUMP-4",
        "the code cites rules rules.md does not define: XY-SWIM-3",
    ]
    assert rules_doc_problems(tmp_path / "none.md", tmp_path, tmp_path) == [
        f"no rules document {tmp_path / 'none.md'}"
    ]


def test_every_builtin_game_follows_the_hook_conventions(registry: Registry) -> None:
    problems = [p for game in registry.games for p in hook_problems(registry, game)]
    assert not problems, "\n".join(problems)


def test_the_hook_check_names_a_default_that_is_not_trylast() -> None:
    from gamehall.core import GameSpec, Rules, hookimpl, hookspec

    class Specs:
        @hookspec(firstresult=True)
        def dice_game_faces(self, seat: int) -> int:  # type: ignore[empty-body]
            """Return the faces of a die (no param line)."""

        @hookspec
        def roll_twice(self) -> bool:  # type: ignore[empty-body]
            """Return whether to roll twice."""

    class Defaults:
        @hookimpl(tryfirst=True)
        def dice_game_faces(self, seat: int) -> int:
            return 6

    class Plugin:
        @hookimpl
        def gamehall_games(self) -> list[GameSpec]:
            return [GameSpec("dice-game", "Dice", "1.0.0", Rules, object, 1, 2, None,
                             (Specs,), (Defaults(),))]  # fmt: skip

    problems = hook_problems(Registry([Plugin()], distributions=[]), "dice-game")
    assert problems == [
        "dice-game: hook dice_game_faces has no :param line for ['seat']",
        "dice-game: the default of dice_game_faces is not trylast=True",
        "dice-game: hook roll_twice does not start with dice_game_",
    ]


def test_every_builtin_game_provides_what_every_game_provides(registry: Registry) -> None:
    problems = [p for game in registry.games for p in contract_problems(registry, game)]
    assert not problems, "\n".join(problems)


def test_the_contract_check_names_what_a_game_lacks() -> None:
    from tests.core.sample_games import BUGGY, SamplePlugin

    registry = Registry([SamplePlugin(BUGGY)], distributions=[])
    assert contract_problems(registry, "buggy") == [
        "buggy does not implement gamehall_render_text",
        "buggy does not implement gamehall_describe_command",
        "buggy does not implement gamehall_describe_event",
        "buggy does not implement gamehall_seat_names",
        "buggy names no rules document (GameSpec.rules_doc)",
    ]
