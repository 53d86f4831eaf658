"""Every built-in game plays to its end in the browser (bots on the other seats), and River of
Gold with patrons runs a few rounds between two people's pages with a spectator watching."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
from gamehall.core.registry import builtin_registry

from .play import (
    api_view,
    create_in_lobby,
    ended,
    frame_seq,
    join_match,
    my_move,
    play_one,
    play_to_end,
    player_token,
    wait_until,
)  # fmt: skip


def _solo(browser: Any, serve: Any, screenshots: Path, game: str, players: int, seed: int) -> None:
    server = serve(builtin_registry())
    page = browser.new_context(viewport={"width": 1400, "height": 1000}).new_page()
    create_in_lobby(page, server.url, game, ["me"] + ["bot"] * (players - 1))
    rng = random.Random(seed)
    for _ in range(3):  # a few moves in, for the screenshot
        wait_until(page, lambda: my_move(page) or ended(page), "a move", 60)
        if ended(page):
            break
        play_one(page, rng)
    page.screenshot(path=str(screenshots / f"{game}.png"), full_page=True)
    play_to_end(page, rng)
    assert page.locator(".status .outcome").count() == 1
    assert page.locator("svg.board").count() == 1  # the game's own drawing, not the generic page
    page.screenshot(path=str(screenshots / f"{game}-end.png"), full_page=True)


def test_tictactoe_in_the_browser(browser: Any, serve: Any, screenshots: Path) -> None:
    _solo(browser, serve, screenshots, "tictactoe", 2, 1)


def test_keyboard_phone_width_and_no_other_host(
    browser: Any, serve: Any, screenshots: Path
) -> None:
    server = serve(builtin_registry())
    context = browser.new_context(viewport={"width": 390, "height": 844})
    page = context.new_page()
    asked: list[str] = []
    page.on("request", lambda request: asked.append(request.url))
    create_in_lobby(page, server.url, "tictactoe", ["me", "bot"])
    wait_until(page, lambda: my_move(page), "the first move")
    before = frame_seq(page)
    page.keyboard.press("Tab")
    while page.evaluate("() => document.activeElement.dataset.commands === undefined"):
        page.keyboard.press("Tab")  # from the top of the page to the first cell of the board
    page.keyboard.press("Enter")
    wait_until(page, lambda: frame_seq(page) > before, "the move made with the keyboard")
    assert page.evaluate("() => document.documentElement.scrollWidth <= window.innerWidth + 1")
    page.screenshot(path=str(screenshots / "tictactoe-phone.png"), full_page=True)
    assert asked and all(url.startswith(server.url + "/") for url in asked), asked


@pytest.mark.long
@pytest.mark.parametrize(
    ("game", "players"), [("gunsen", 2), ("kaladan", 2), ("ehre-der-samurai", 3)]
)
def test_each_game_plays_to_its_end_in_the_browser(
    browser: Any, serve: Any, screenshots: Path, game: str, players: int
) -> None:
    _solo(browser, serve, screenshots, game, players, 5)


@pytest.mark.long
def test_river_of_gold_with_patrons_for_a_few_rounds(
    browser: Any, serve: Any, screenshots: Path
) -> None:
    server = serve(builtin_registry())
    url = server.url
    contexts = [browser.new_context(viewport={"width": 1400, "height": 1000}) for _ in range(3)]
    first, second, watcher = (c.new_page() for c in contexts)
    match = create_in_lobby(first, url, "river-of-gold", ["me", "open", "bot"],
                            expansions=("river-of-gold-patrons",))  # fmt: skip
    join_match(second, url, match, "Bo")
    watcher.goto(f"{url}/watch/{match}")
    tokens = [player_token(contexts[0]), player_token(contexts[1])]
    rng = random.Random(11)
    moves = 0
    while moves < 45 and not ended(first):
        mover = next((p for p in (first, second) if my_move(p)), None)
        if mover is None:
            first.wait_for_timeout(25)
            continue
        play_one(mover, rng)
        moves += 1
        if moves % 5 == 0:
            _no_other_hand(
                url, match, tokens, {"first": first, "second": second, "watcher": watcher}
            )
    first.screenshot(path=str(screenshots / "river-of-gold.png"), full_page=True)
    watcher.screenshot(path=str(screenshots / "river-of-gold-spectator.png"), full_page=True)
    assert first.locator("text=Patrons").count() >= 1
    slider = first.locator("#replay")
    slider.focus()
    first.keyboard.press("Home")
    wait_until(first, lambda: frame_seq(first) == 1, "the replay's start")
    for _ in range(5):
        first.keyboard.press("ArrowRight")
    wait_until(first, lambda: frame_seq(first) == 6, "five steps on")
    first.locator("#go-live").click()
    wait_until(first, lambda: first.locator("#frame").get_attribute("data-live") == "1", "live")


def _no_other_hand(url: str, match: str, tokens: list[str], pages: dict[str, Any]) -> None:
    for seat, token in enumerate(tokens):
        hand = api_view(url, match, token)["view"]["players"][seat]["hand"]
        for name, page in pages.items():
            if name == ("first", "second")[seat]:
                continue
            html = page.content()
            for card in hand:
                assert card not in html, f"{name}'s page shows {card} of seat {seat}'s hand"
