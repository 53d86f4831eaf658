"""The rules spec is fully tested, the game passes conformance at every player count, its words,
sampler and timeouts hold, and an expansion written against its API changes something real."""

from __future__ import annotations

import ast
import importlib.util
import random
from pathlib import Path

import msgspec
import pytest
from frostmark import FrostmarkPlugin
from gamehall.core import RandomBot, Registry, Table, default_registry
from gamehall.core.conformance import cases, check_playout

ROOT = Path(__file__).resolve().parents[3]
HERE = Path(__file__).parent


@pytest.mark.parametrize("case", cases(default_registry(), "kaladan"), ids=lambda c: c.name)
def test_conformance_at_every_player_count(case: object) -> None:
    for seed in range(4):
        check_playout(default_registry(), case, 100 + seed)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    "options",
    [
        {"magic_order": "simultaneous", "round_limit": 4},
        {"crown_castle_die": "both", "zhoji": "attack-from-forest", "castle_defence_die": 10},
        {"terrain_capacity": "compendium", "castle_die_defender": "owner", "castle_defence_die": 0},
    ],
)
def test_conformance_with_the_other_options(options: dict[str, object]) -> None:
    registry = default_registry()
    for players in (2, 4):
        case = msgspec.structs.replace(cases(registry, "kaladan")[players - 2], options=options)
        for seed in range(3):
            check_playout(registry, case, seed)


def test_bench_reports_its_figures() -> None:
    spec = importlib.util.spec_from_file_location(
        "bench_kaladan", ROOT / "bench" / "bench_kaladan.py"
    )
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    figures = module.run(quick=True)
    assert set(figures) == {"playouts.kaladan.games_per_s", "odds.kaladan.worked_example_s"}
    assert all(v > 0 for v in figures.values())


def test_simulate_4_players_50_games_ends_every_game() -> None:
    from gamehall.adapters.stdin.simulate import simulate

    summary = simulate(default_registry(), "kaladan", 50, players=4, seed=1)
    assert summary.unfinished == 0 and summary.games == 50


def test_every_command_and_event_has_words_without_json() -> None:
    registry = default_registry()
    ruleset = registry.ruleset("kaladan")
    for players in (2, 5):
        table = Table.new("kaladan", players, seed=3)
        bot = RandomBot(3)
        seen = {}
        for _ in range(3000):
            asked = table.awaiting()
            if not asked:
                break
            seat = next(iter(asked))
            view = table.view(seat)
            for command in table.legal(seat):
                text = ruleset.hook.gamehall_describe_command(command=command, view=view, seat=seat)
                assert text and "{" not in text and "/" not in text, (command, text)
            command = bot.choose(seat, table.legal(seat), lambda: None)
            for event in table.send(seat, command):
                for reader in (seat, None):
                    shown = table.rules.redact(event, reader)
                    text = ruleset.hook.gamehall_describe_event(event=shown, view=view, seat=reader)
                    assert text and "{" not in text and "kaladan." not in text, (event, text)
                    seen[type(event).__name__] = text
        assert "DiceRolled" in seen and "TurnBegan" in seen
        names = ruleset.hook.gamehall_seat_names(view=table.view(None))
        assert sorted(names) == sorted(
            ruleset.rules.catalogue.realms[r].name for r in table.state.realms
        )
        board = table.render(0)
        assert "legend:" in board and "{" not in board


def test_sample_is_consistent_with_the_view_and_varies_hidden_parts() -> None:
    rules = default_registry().ruleset("kaladan").rules
    varied = 0
    for seed in range(8):
        table = Table.new("kaladan", 2 + seed % 5, seed=seed)
        bot, rng = RandomBot(seed), random.Random(seed)
        for step in range(400):
            asked = table.awaiting()
            if not asked:
                break
            if step % 7 == 0:
                for seat in range(table.state.players):
                    view = rules.view(table.state, seat)
                    first = rules.sample(view, seat, rng)
                    assert rules.view(first, seat) == view
                    second = rules.sample(view, seat, rng)
                    varied += (first.deck, first.hands) != (second.deck, second.hands)
            seat = next(iter(asked))
            table.send(seat, bot.choose(seat, table.legal(seat), lambda: None))
    assert varied > 20


def test_timeout_is_a_legal_pass_or_a_bot_move() -> None:
    rules = default_registry().ruleset("kaladan").rules
    table = Table.new("kaladan", 3, seed=6)
    bot = RandomBot(6)
    passes = 0
    while table.awaiting():
        for seat in table.awaiting():
            chosen = rules.timeout(table.state, seat)
            if chosen is not None:
                assert chosen in table.legal(seat)
                passes += 1
        seat = next(iter(table.awaiting()))
        table.send(seat, bot.choose(seat, table.legal(seat), lambda: None))
    assert passes > 10


# -- an expansion through the public API ---------------------------------------------------------


def test_the_expansion_imports_only_the_public_api() -> None:
    tree = ast.parse((HERE / "frostmark.py").read_text())
    modules = {
        node.module
        for node in ast.walk(tree)
        if isinstance(node, ast.ImportFrom) and node.module and "kaladan" in node.module
    }
    assert modules == {"gamehall.plugins.kaladan.api"}


def test_the_expansion_adds_a_realm_a_unit_and_an_event_card() -> None:
    registry = Registry([FrostmarkPlugin()])
    ruleset = registry.ruleset("kaladan", ["kaladan-frostmark"])
    catalogue = ruleset.rules.catalogue
    assert "frostmark" in catalogue.realms and "pike" in catalogue.units
    assert len(catalogue.army("frostmark")) == 19 and len(catalogue.deck()) == 23
    table = Table.new("kaladan", 2, expansions=["kaladan-frostmark"], seed=1, registry=registry)
    seat = next(iter(table.awaiting()))
    assert any(c.realm == "frostmark" for c in table.legal(seat))  # type: ignore[attr-defined]
    for case in cases(registry, "kaladan"):
        if case.expansions and case.players in (2, 3):
            for seed in range(3):
                check_playout(registry, case, seed)
