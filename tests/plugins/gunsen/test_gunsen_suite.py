"""The rules spec is fully tested, the game conforms, speaks in words, hides what it must,
samples its hidden parts, and an expansion written against its API changes it."""

from __future__ import annotations

import importlib.util
import random
import re
from pathlib import Path

import msgspec
import pytest
from gamehall.core import RandomBot, Registry, Table, default_registry
from gamehall.core.conformance import Case, cases, check_playout, strings_in
from gamehall.core.narration import Narrator
from gamehall.core.words import menu
from gamehall.plugins.gunsen import combat
from gamehall.plugins.gunsen import commands as cmd
from gamehall.plugins.gunsen.commands import COMMANDS
from gamehall.plugins.gunsen.events import EVENTS
from gamehall.plugins.gunsen.rules import Gunsen
from gamehall.plugins.gunsen.state import HIDDEN
from gamehall.plugins.gunsen.words import COMMAND_WORDS, EVENT_WORDS
from gunsen_banner import BANNER, BannerPlugin
from gunsen_helpers import CAT, RULES, RULESET, acting, fighting, player, ready, sp, step, troops

ROOT = Path(__file__).resolve().parents[3]
HERE = Path(__file__).parent


def test_every_event_applies_and_every_command_and_event_has_words() -> None:
    assert set(EVENTS) <= set(Gunsen._evolvers)
    assert set(COMMANDS) == set(COMMAND_WORDS)
    assert set(EVENTS) == set(EVENT_WORDS)


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_conformance_at_every_player_count(players: int) -> None:
    registry = default_registry()
    case = next(c for c in cases(registry, "gunsen") if c.players == players)
    check_playout(registry, case, 101)


@pytest.mark.parametrize(
    "options", [{"steal_choice": "loser"}, {"row_replacements": "repeat"}], ids=str
)
def test_conformance_with_the_other_readings(options: dict[str, str]) -> None:
    registry = default_registry()
    check_playout(registry, Case("gunsen", (), 3, options), 5)


def test_bench_reports_games_per_second() -> None:
    spec = importlib.util.spec_from_file_location(
        "bench_gunsen", ROOT / "bench" / "bench_gunsen.py"
    )
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    figures = module.run(quick=True)
    assert (
        set(figures) == {"playouts.gunsen.games_per_s"}
        and figures["playouts.gunsen.games_per_s"] > 0
    )


# -- hidden information (GUN-HIDDEN-1..4) ------------------------------------------------------


def test_GUN_HIDDEN_1_unbought_neutral_tactics_are_hidden_from_the_others() -> None:
    state = ready(players=3)
    hand = state.players[0].hand
    for seat in (1, 2, None):
        shown = RULES.view(state, seat)
        assert shown.players[0].hand == (HIDDEN,) * 2
        assert not set(hand) & strings_in(msgspec.to_builtins(shown))
        assert set(hand) <= RULES.hidden(state, seat)
    assert RULES.view(state, 0).players[0].hand == hand
    bought = player(state, 0, hand=hand[1:], tactics=hand[:1])
    assert (
        hand[0] not in RULES.hidden(bought, 1)
        and RULES.view(bought, 1).players[0].tactics == hand[:1]
    )


def test_GUN_HIDDEN_2_the_deck_order_is_hidden_its_size_public() -> None:
    table = Table.new("gunsen", 2, seed=3)
    shown = RULES.view(table.state, 0)
    assert shown.deck == (HIDDEN,) * len(table.state.deck)
    shuffled = next(e for e in table.events if type(e).__name__ == "DeckShuffled")
    assert RULES.redact(shuffled, 0).order == () and RULES.redact(shuffled, 0).size == len(
        shuffled.order
    )
    reshuffled = msgspec.structs.replace(table.state, reshuffled=True)
    assert not set(reshuffled.deck) & RULES.hidden(reshuffled, 0)


def test_GUN_HIDDEN_3_village_tokens_are_hidden_from_everyone_until_claimed() -> None:
    state = ready()
    space, token = state.villages[0]
    for seat in (0, 1, None):
        assert dict(RULES.view(state, seat).villages)[space] == HIDDEN
        assert token in RULES.hidden(state, seat)
    claimed = player(msgspec.structs.replace(state, villages=((space, ""), *state.villages[1:])), 0,
                     tokens=(token,))  # fmt: skip
    assert token not in RULES.hidden(claimed, 1)
    assert RULES.view(claimed, 1).players[0].tokens == (token,)


def test_GUN_HIDDEN_4_everything_else_is_public_and_samples_fit_the_view() -> None:
    rng = random.Random(1)
    for players, seed in ((2, 1), (4, 2), (6, 3)):
        table = Table.new("gunsen", players, seed=seed)
        bot = RandomBot(seed)
        decks, hands = set(), set()
        for turn in range(400):
            asked = table.awaiting()
            if not asked:
                break
            seat = next(iter(asked))
            if turn % 40 == 0:
                for looker in range(players):
                    shown = RULES.view(table.state, looker)
                    sample = RULES.sample(shown, looker, rng)
                    assert RULES.view(sample, looker) == shown
                    assert HIDDEN not in sample.deck and all(
                        t != HIDDEN for _, t in sample.villages
                    )
                    decks.add(sample.deck)
                    hands.add(tuple(p.hand for i, p in enumerate(sample.players) if i != looker))
            table.send(seat, bot.choose(seat, table.legal(seat), lambda: None))
        assert len(decks) > 3 and len(hands) > 3
    public = RULES.view(table.state, 0)
    assert public.troops == table.state.troops and public.row == table.state.row


# -- bots and words (GUN-BOT-1) ----------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_GUN_BOT_1_random_games_end_with_a_seventh_marker(players: int) -> None:
    for seed in range(3):
        table = Table.new("gunsen", players, seed=seed)
        outcome = table.play(RandomBot(seed))
        assert outcome is not None and table.awaiting() == {}
        winner = outcome.winners[0]
        assert outcome.scores is not None and outcome.scores[winner] == 7
        assert outcome.reason.startswith("reached seven achievements, the last: ")
    state = ready()
    assert RULES.timeout(msgspec.structs.replace(state, phase="act"), 0) == cmd.Skip()
    assert RULES.timeout(state, 0) is None
    assert RULES.timeout(msgspec.structs.replace(state, phase="tribute"), 0) == cmd.PayTribute(
        pay=False
    )


def test_words_menus_and_the_board_show_no_json_or_keys() -> None:
    table = Table.new("gunsen", 3, seed=11)
    bot = RandomBot(11)
    narrator = Narrator(RULESET, 1)
    told = 0
    for _ in range(600):
        asked = table.awaiting()
        if not asked:
            break
        seat = next(iter(asked))
        legal = table.legal(seat)
        view = table.view(seat)
        entries = menu(RULESET, legal, view, seat)
        texts = [e.text for e in entries]
        assert len(texts) == len(set(texts))
        for command in legal:
            text = RULESET.describe(command, view, seat)
            assert "{" not in text and "_" not in text and "gunsen." not in text, text
        table.send(seat, bot.choose(seat, legal, lambda: None))
    for record in table.records():
        narrated = narrator.tell(record)
        if narrated is not None:
            told += 1
            assert "{" not in narrated.text and "gunsen." not in narrated.text, narrated.text
    board = table.render(None)
    assert "{" not in board and "Legend" in board and "Toshi Ranbo" in board
    assert told > 100 and RULESET.seat_names(table.view(None), 3) == [
        CAT.clans[p.clan].name for p in table.state.players
    ]


def test_different_commands_read_differently() -> None:
    state = troops(ready(), 0, {"A1": 5, "B2": 2})
    state = player(state, 0, heroes=(("hida-kisada", sp(state, "B2")),), influence=2)
    state = acting(state, 0, [step("move")])
    legal = RULES.legal(state, 0)
    texts = [RULESET.describe(c, RULES.view(state, 0), 0) for c in legal]
    assert len(set(texts)) == len(legal)


# -- an expansion written against the API ------------------------------------------------------


def test_the_banner_expansion_imports_only_the_api() -> None:
    source = (HERE / "gunsen_banner.py").read_text()
    imports = re.findall(r"^from (\S+) import", source, re.MULTILINE)
    assert [m for m in imports if m.startswith("gamehall.plugins")] == [
        "gamehall.plugins.gunsen.api"
    ]


def test_the_banner_expansion_changes_the_deal_and_combats_and_conforms() -> None:
    registry = Registry([BannerPlugin()])
    ruleset = registry.ruleset("gunsen", ["gunsen-banner"])
    rules = ruleset.rules
    assert BANNER.id in rules.cat.neutral and len(rules.cat.neutral) == len(CAT.neutral) + 1
    state = troops(troops(ready(), 0, {"A1": 2, "C2": 2}), 1, {"D7": 2, "C2": 2})
    state = fighting(player(state, 0, tactics=(BANNER.id,)), sp(state, "C2"), 0, 1)
    play = rules.play(state, lambda: random.Random(0))
    assert combat.side_symbols(play, 0).strength == 2
    assert combat.side_symbols(play, 1).strength == 0
    dealt = set()
    for seed in range(6):
        table = Table.new("gunsen", 6, expansions=["gunsen-banner"], seed=seed, registry=registry)
        while table.state.phase == "clan":
            table.send(table.state.asked, cmd.ChooseClan(clan=CAT.clan_ids[table.state.asked]))
        dealt |= {t for p in table.state.players for t in p.hand}
    assert BANNER.id in dealt
    check_playout(registry, Case("gunsen", ("gunsen-banner",), 4, {}), 2)
