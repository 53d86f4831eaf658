"""At the table: the page on a phone and on a desktop, hot-seat in one browser, the app mounted
under a prefix, and no text overflowing its box.

On a phone (390 CSS px) no text of the frame is under 11 CSS px and no place to tap under 32 px:
the board keeps a readable size and scrolls sideways, the moves and the log follow below it. At
1280×800 the whole board is in view; where its text is then under 11 px, one click on
"Readable size" zooms it to a readable size. Screenshots of every game at both widths go to
build/screenshots/ (every game in the long run; tic-tac-toe in every run).
"""

from __future__ import annotations

import random
import re
from pathlib import Path
from typing import Any

import pytest
from gamehall.core.registry import builtin_registry

from .measure import overflowing, smallest_font, smallest_target, word_problems
from .play import (
    create_in_lobby,
    ended,
    frame_seq,
    join_match,
    my_move,
    play_one,
    tap_one,
    wait_until,
)  # fmt: skip

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 800}
FONT, TARGET = 11, 32
PLAYERS = {"river-of-gold": 3, "ehre-der-samurai": 3}
GAMES = ["tictactoe", "toy-battle", "river-of-gold", "gunsen", "kaladan", "ehre-der-samurai"]


def phone(browser: Any) -> Any:
    return browser.new_context(viewport=PHONE, has_touch=True, device_scale_factor=1).new_page()


def check_readable(page: Page, game: str) -> None:
    """Fail if the frame shows text under 11 CSS px, a place to tap under 32 px, text
    overflowing its box, or words counting a seat from 0 or "1 <plural>" on the page."""
    font, target = smallest_font(page), smallest_target(page)
    assert font["size"] >= FONT, f"{game}: text {font['text']!r} at {font['size']:.1f} px"
    assert target["size"] >= TARGET, f"{game}: {target['text']!r} is {target['size']:.1f} px"
    assert page.evaluate("() => document.documentElement.scrollWidth <= window.innerWidth + 1")
    assert overflowing(page) == [], f"{game} at 390 px"
    assert word_problems(page) == [], game


Page = Any


def check_readable_on_a_desktop(page: Page, game: str, screenshots: Path) -> None:
    """At 1280×800 the whole board is in view first; where its text comes out under 11 CSS
    px, "Readable size" (over the board's corner) zooms it until no text is under 11 px."""
    toggle = page.locator(".fit-toggle")
    if toggle.count() and toggle.is_visible():
        assert toggle.text_content() == "Readable size"
        toggle.click()
        wait_until(page, lambda: page.locator(".board-wrap.zoomed").count() == 1, "the zoom")
        assert toggle.text_content() == "Whole board"
    font = smallest_font(page)
    assert font["size"] >= FONT, f"{game} at 1280: {font['text']!r} at {font['size']:.1f} px"
    page.screenshot(path=str(screenshots / f"{game}-1280-readable.png"))


def tap_to_end(page: Page, game: str, seed: int, limit: int = 3000) -> int:
    """Play a seat's page to the end by taps alone, checking what it shows now and then."""
    rng = random.Random(seed)
    moves = 0
    while moves < limit:
        wait_until(page, lambda: my_move(page) or ended(page), "the seat's move or the end", 90)
        if ended(page):
            return moves
        if moves % 10 == 0:
            check_readable(page, game)
        tap_one(page, rng)
        moves += 1
    raise AssertionError(f"{game} did not end in {limit} moves")


def test_tictactoe_by_taps_on_a_phone_and_whole_on_a_desktop(
    browser: Any, serve: Any, screenshots: Path
) -> None:
    server = serve(builtin_registry())
    page = phone(browser)
    create_in_lobby(page, server.url, "tictactoe", ["me", "bot:medium"])
    wait_until(page, lambda: my_move(page), "the first move")
    check_readable(page, "tictactoe")
    page.screenshot(path=str(screenshots / "tictactoe-390.png"), full_page=True)
    tap_to_end(page, "tictactoe", 4)
    assert page.locator(".status .outcome").count() == 1
    assert "medium bot" in page.locator(".players").text_content()
    page.screenshot(path=str(screenshots / "tictactoe-390-end.png"), full_page=True)
    desk = browser.new_context(viewport=DESKTOP).new_page()
    create_in_lobby(desk, server.url, "tictactoe", ["me", "bot"])
    wait_until(desk, lambda: my_move(desk), "the first move")
    bottom = desk.evaluate(
        "() => Math.max(...Array.from(document.querySelectorAll('svg.board .place'),"
        " (p) => p.getBoundingClientRect().bottom))"
    )
    assert bottom <= DESKTOP["height"], f"the board's bottom row ends at {bottom} px"
    assert overflowing(desk) == []
    desk.screenshot(path=str(screenshots / "tictactoe-1280.png"))


def test_the_main_journey_mounted_under_a_prefix(
    browser: Any, serve: Any, screenshots: Path
) -> None:
    """Two people and a spectator on an app mounted at /games by a Starlette host: the lobby,
    joining, moves, the names, the end, the replay and a fork, every request under /games."""
    server = serve(builtin_registry(), prefix="/games")
    url = server.url
    assert url.endswith("/games")
    contexts = [browser.new_context() for _ in range(3)]
    asked: list[str] = []
    failed: list[str] = []
    for context in contexts:
        context.on("request", lambda request: asked.append(request.url))
        context.on(
            "response",
            lambda answer: failed.append(f"{answer.status} {answer.url}")
            if answer.status >= 400 else None,
        )  # fmt: skip
    ada, bo, watcher = (c.new_page() for c in contexts)
    match = create_in_lobby(ada, url, "tictactoe", ["me", "open"], name="Ada")
    bo.goto(url + "/")
    bo.locator(f"#list-open a[href='/games/join/{match}']").click()
    bo.locator("input[name=name]").fill("Bo")
    bo.get_by_role("button", name="Play as O").click()
    bo.wait_for_url(re.compile(rf"/games/play/{match}/1$"))
    watcher.goto(f"{url}/watch/{match}")
    # The page is styled (the stylesheet came from under the prefix).
    assert ada.evaluate("() => getComputedStyle(document.querySelector('header.top')).display")
    assert (
        ada.evaluate("() => getComputedStyle(document.querySelector('header.top')).backgroundColor")
        != "rgba(0, 0, 0, 0)"
    )
    wait_until(ada, lambda: "Bo" in ada.locator(".players").text_content(), "Bo's name")
    rng = random.Random(5)
    while not ended(ada):
        mover = ada if my_move(ada) else bo if my_move(bo) else None
        if mover is None:
            ada.wait_for_timeout(25)
            continue
        play_one(mover, rng)
    for page in (ada, bo, watcher):
        wait_until(page, lambda p=page: ended(p), "every page shows the end")
    watcher.screenshot(path=str(screenshots / "mounted-end.png"), full_page=True)
    # The replay, then a fork from its start.
    ada.locator("#replay").focus()
    ada.keyboard.press("Home")
    wait_until(ada, lambda: frame_seq(ada) == 1, "the replay's start")
    ada.locator("#step-forward").click()
    wait_until(ada, lambda: frame_seq(ada) == 2, "one step on")
    ada.locator("form.fork button").click()
    ada.wait_for_url(re.compile(r"/games/join/[0-9a-f]+$"))
    forked = ada.url.rsplit("/", 1)[-1]
    seat = join_match(ada, url, forked, "Ada")
    assert ada.url.endswith(f"/games/play/{forked}/{seat}")
    # A rematch from the finished match, asked on its page.
    bo.locator("form.rematch button").click()
    bo.wait_for_url(re.compile(r"/games/play/[0-9a-f]+/0$"))
    assert failed == [], failed
    assert asked and all(u.startswith(url + "/") for u in asked), [
        u for u in asked if not u.startswith(url + "/")
    ]


def test_hot_seat_one_browser_plays_whichever_seat_is_awaited(
    browser: Any, serve: Any, screenshots: Path
) -> None:
    server = serve(builtin_registry())
    page = browser.new_context().new_page()
    create_in_lobby(page, server.url, "tictactoe", ["me", "me"], name="Carol")
    rng = random.Random(8)
    seats = set()
    moves = 0
    while not ended(page):
        wait_until(page, lambda: my_move(page) or ended(page), "a move of one of my seats", 10)
        if ended(page):
            break
        seats.add(page.locator("#frame").get_attribute("data-seat"))
        play_one(page, rng)
        moves += 1
    assert seats == {"0", "1"} and moves >= 5  # X and O, from the one page
    page.screenshot(path=str(screenshots / "hot-seat-tictactoe.png"), full_page=True)
    # Where the game hides information, the page hands over to the other seat, covered first.
    toy = browser.new_context().new_page()
    create_in_lobby(toy, server.url, "toy-battle", ["me", "me"], name="Carol")
    match = re.search(r"/play/([0-9a-f]+)/0", toy.url)
    assert match is not None
    while not toy.locator("a.switch").count():
        wait_until(toy, lambda: my_move(toy) or toy.locator("a.switch").count() > 0, "a turn")
        if toy.locator("a.switch").count():
            break
        play_one(toy, rng)
    assert "Hand over to Red" in toy.locator("a.switch").text_content()
    toy.locator("a.switch").click()
    toy.wait_for_url(re.compile(rf"/play/{match.group(1)}/1\?handover=1$"))
    assert toy.locator("#handover").is_visible() and not toy.locator("#frame").is_visible()
    toy.screenshot(path=str(screenshots / "hot-seat-handover.png"))
    toy.locator("#handover-show").click()
    assert toy.locator("#frame").is_visible() and my_move(toy)
    play_one(toy, rng)


def _a_few_moves(page: Page, moves: int, seed: int) -> None:
    rng = random.Random(seed)
    for _ in range(moves):
        wait_until(page, lambda: my_move(page) or ended(page), "a move", 60)
        if ended(page):
            return
        play_one(page, rng)
    wait_until(page, lambda: my_move(page) or ended(page), "a move", 60)


@pytest.mark.parametrize("game", ["toy-battle", "kaladan", "ehre-der-samurai"])
def test_no_text_overflows_its_box(browser: Any, serve: Any, screenshots: Path, game: str) -> None:
    server = serve(builtin_registry())
    page = browser.new_context(viewport=DESKTOP).new_page()
    create_in_lobby(page, server.url, game, ["me"] + ["bot"] * (PLAYERS.get(game, 2) - 1))
    _a_few_moves(page, 6, 3)
    assert overflowing(page) == [], game
    # A log number of four digits ("1302.") stands whole inside the log, before its line.
    assert page.evaluate(
        """() => {
          const n = document.querySelector('.log li .n');
          n.textContent = '1302.';
          const a = n.getBoundingClientRect(), box = n.closest('ol').getBoundingClientRect();
          return a.left >= box.left && a.right <= n.nextElementSibling.getBoundingClientRect().left;
        }"""
    )
    if game == "toy-battle":  # one's own rack is above the fold
        bottom = page.evaluate(
            "() => Math.max(...Array.from(document.querySelectorAll('svg.board text'))"
            ".filter((t) => t.textContent.includes('(you)'))"
            ".map((t) => t.parentElement.getBoundingClientRect().bottom))"
        )
        assert 0 < bottom <= DESKTOP["height"], f"the own rack ends at {bottom} px"
    page.screenshot(path=str(screenshots / f"{game}-1280.png"))


@pytest.mark.parametrize(
    "game",
    [pytest.param(g, marks=() if g == "toy-battle" else pytest.mark.long) for g in GAMES],
)  # Toy Battle in every run (about 12 s), the others in the long run
def test_every_game_on_a_phone_by_taps_and_on_a_desktop(
    browser: Any, serve: Any, screenshots: Path, game: str
) -> None:
    """A whole match on a phone by taps alone, one seat a person and the others bots; each
    game also at 1280×800, with no text overflowing its box."""
    server = serve(builtin_registry())
    bots = ["bot"] * (PLAYERS.get(game, 2) - 1)
    desk = browser.new_context(viewport=DESKTOP).new_page()
    create_in_lobby(desk, server.url, game, ["me", *bots])
    _a_few_moves(desk, 4, 1)
    assert overflowing(desk) == [], game
    desk.screenshot(path=str(screenshots / f"{game}-1280.png"))
    check_readable_on_a_desktop(desk, game, screenshots)
    desk.context.close()
    page = phone(browser)
    create_in_lobby(page, server.url, game, ["me", *bots])
    wait_until(page, lambda: my_move(page) or ended(page), "the first move", 60)
    check_readable(page, game)
    page.screenshot(path=str(screenshots / f"{game}-390.png"), full_page=True)
    tap_to_end(page, game, 6)
    check_readable(page, game)
    assert page.locator(".status .outcome").count() == 1
    page.screenshot(path=str(screenshots / f"{game}-390-end.png"), full_page=True)
