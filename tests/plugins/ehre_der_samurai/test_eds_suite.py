"""The rules spec is fully tested; conformance, words, sampler, golden, bench; the API suffices."""

from __future__ import annotations

import ast
import importlib.util
import random
from pathlib import Path

import msgspec
import pytest
from eds_helpers import RULES, RULESET, make, player, send
from eds_tea_house import TEA_HOUSE, TeaHousePlugin
from gamehall.core import (
    Command,
    Context,
    Event,
    RandomBot,
    Registry,
    Ruleset,
    Table,
    default_registry,
    engine,
)
from gamehall.core.conformance import Case, cases, check_playout
from gamehall.core.narration import Narrator
from gamehall.core.words import menu, outcome_lines
from gamehall.plugins.ehre_der_samurai.commands import Draw, Play
from gamehall.plugins.ehre_der_samurai.state import State

ROOT = Path(__file__).resolve().parents[3]
HERE = Path(__file__).parent
GAME = "ehre-der-samurai"


@pytest.mark.parametrize("case", cases(default_registry(), GAME), ids=lambda c: c.name)
def test_conformance_for_every_player_count_and_option_set(case: Case) -> None:
    for seed in range(100, 106):
        check_playout(default_registry(), case, seed)


def test_random_games_end_at_every_player_count() -> None:
    for players in (3, 4, 5, 6):
        for seed in range(10):
            table = Table.new(GAME, players, seed=seed)
            outcome = table.play(RandomBot(seed), max_commands=20_000)
            assert outcome is not None and table.awaiting() == {}
            assert outcome.reason == "first to reach 400 honour at the end of phase 1"


def test_simulate_5_players_50_games_ends_every_game() -> None:
    from gamehall.adapters.stdin.simulate import simulate

    summary = simulate(default_registry(), GAME, 50, players=5, seed=1)
    assert summary.unfinished == 0 and summary.games == 50


def test_the_sampler_agrees_with_every_view_and_varies_the_hidden_cards() -> None:
    varied = 0
    for players, seed in ((3, 1), (5, 2), (6, 3)):
        table = Table.new(GAME, players, seed=seed)
        bot = RandomBot(seed)
        for step in range(400):
            asked = table.awaiting()
            if not asked:
                break
            if step % 7 == 0:
                for seat in range(players):
                    view = table.view(seat)
                    hands = set()
                    for draw in range(4):
                        sampled = RULES.sample(view, seat, random.Random(draw))
                        assert RULES.view(sampled, seat) == view
                        other = (seat + 1) % players
                        hands.add((sampled.players[other].hand, sampled.deck[:3]))
                    varied += len(hands) > 1
            seat = next(iter(asked))
            table.send(seat, bot.choose(seat, table.legal(seat), lambda: None))
    assert varied > 50


def test_every_command_and_event_reads_as_words() -> None:
    for players, seed in ((3, 4), (6, 5)):
        table = Table.new(GAME, players, seed=seed)
        ruleset = table.ruleset
        table.play(RandomBot(seed), max_commands=3000)
        for seat in (*range(players), None):
            for told in Narrator(ruleset, seat).tell_all(table.records()):
                assert told.text.endswith(".") and "{" not in told.text, told.text
                assert "ehre_der_samurai" not in told.text and "_" not in told.text
        lines = outcome_lines(table.outcome(), ruleset.seat_names(table.view(None), players))
        assert lines[0].startswith(("Owari", "Kai", "Echigo", "Mikawa", "Satsuma", "Aki"))
    state = make(player(0, hand=("warrior-1", "warrior-2", "thief-1")), player(1), player(2))
    entries = menu(RULESET, RULES.legal(state, 0), RULES.view(state, 0), 0)
    texts = [e.text for e in entries]
    assert len(texts) == len(set(texts)) and all("{" not in t and "_" not in t for t in texts)
    assert "draw a card" in texts and "end your turn" in texts


def test_the_board_shows_houses_honour_alliances_and_the_own_hand_only() -> None:
    state = make(
        player(0, hand=("warrior-1",), ally=None),
        player(1, None, samurai_house=("okugata-1",), ally=2, hand=("save-face-1",)),
        player(2, "daimyo-oda", daimyo_house=("castle-himeji",), ally=1, honour=-5),
        shogun=2,
    )
    text = RULESET.render(RULES.view(state, 0), 0)
    assert "Your hand: Warrior 0/1/0." in text and "Save Face" not in text
    assert "Kai: 0 honour, 1 card in hand, Ronin, allied with Echigo" in text
    assert "Ronin 0/6/0 + Okugata 6/3/0" in text and "Shogun 100/0/0" in text
    assert "Echigo: -5 honour" in text and "Legend:" in text
    spectator = RULESET.render(RULES.view(state, None), None)
    assert "Your hand" not in spectator and "Warrior 0/1/0" not in spectator


def test_bench_reports_games_per_second() -> None:
    spec = importlib.util.spec_from_file_location(
        "bench_ehre_der_samurai", ROOT / "bench" / "bench_ehre_der_samurai.py"
    )
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    figures = module.run(quick=True)
    assert set(figures) == {"playouts.ehre_der_samurai.games_per_s"}
    assert figures["playouts.ehre_der_samurai.games_per_s"] > 0


# -- an expansion written only against api.py -------------------------------------------------


def test_the_test_expansion_imports_only_the_public_api() -> None:
    tree = ast.parse((HERE / "eds_tea_house.py").read_text())
    imported = {
        node.module for node in ast.walk(tree) if isinstance(node, ast.ImportFrom) and node.module
    } | {a.name for node in ast.walk(tree) if isinstance(node, ast.Import) for a in node.names}
    game = {m for m in imported if m.startswith("gamehall.plugins.")}
    assert game == {"gamehall.plugins.ehre_der_samurai.api"}
    assert imported - game <= {"__future__", "msgspec", "gamehall.core"}


def test_the_api_is_enough_to_add_a_card_and_change_a_number() -> None:
    registry = Registry([TeaHousePlugin()])
    ruleset = registry.ruleset(GAME, ["eds-tea-house"])
    assert len(ruleset.rules.cards.cards) == 111 and ruleset.rules.numbers.hand_limit == 8
    table = Table.new(GAME, 3, expansions=["eds-tea-house"], seed=2, registry=registry)
    every = [*table.state.deck, *(c for p in table.state.players for c in p.hand)]
    assert "tea-house" in every
    state = make(player(0, hand=("tea-house", *(f"warrior-{n}" for n in range(1, 8)))),
                 player(1), player(2))  # fmt: skip
    events, after = _send(ruleset, state, Play(card="tea-house", owner=0, house="daimyo"))
    assert after.players[0].daimyo_house == ("tea-house",)
    assert ruleset.describe_event(events[0], ruleset.rules.view(state, 0), 0).endswith(
        "plays Tea House (honour 15, ki 3, strength 0) into Owari's Daimyo house."
    )
    full = make(player(0, hand=tuple(f"warrior-{n}" for n in range(1, 8))), player(1), player(2))
    _, drawn = _send(ruleset, full, Draw())
    assert len(drawn.players[0].hand) == 8, "the hand limit is eight with the expansion"
    for case in cases(registry, GAME):
        if case.expansions:
            for seed in range(3):
                check_playout(registry, case, seed)
    assert TEA_HOUSE.label.startswith("Tea House")


def _send(ruleset: Ruleset, state: State, command: Command) -> tuple[list[Event], State]:
    events, after = engine.decide(ruleset, state, 0, command, Context(0, 50, 0))
    return list(events), after


def test_the_state_round_trips_with_an_expansion_state() -> None:
    state = msgspec.structs.replace(make(player(0), player(1), player(2)), ext={"x": {"n": 1}})
    _, after = send(state, Draw())
    assert after.ext == {"x": {"n": 1}} and RULES.view(after, 0).ext == {"x": {"n": 1}}
