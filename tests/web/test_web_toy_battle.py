"""Toy Battle in the browser: made in the lobby, played to its end by two seats' pages while a
spectator watches, no page ever showing the other rack; then the replay and a fork."""

from __future__ import annotations

import random
import re
import time
from pathlib import Path
from typing import Any

import pytest
from gamehall.core.registry import builtin_registry
from gamehall.plugins.toy_battle.terrain import BOXED
from gamehall.plugins.toy_battle.words import boards

from .play import (
    api_view,
    create_in_lobby,
    ended,
    frame_seq,
    my_move,
    play_one,
    player_token,
    set_field,
    wait_until,
)  # fmt: skip


def _create(page: Any, url: str, terrain: str) -> str:
    page.goto(url + "/")
    page.locator("#game-toy-battle > summary").click()
    form = page.locator("#game-toy-battle form")
    form.locator("input[name=name]").fill("Ada")
    form.locator("select[name=seat1]").select_option("open")
    set_field(form.locator("[name='o.terrain']"), terrain)  # a select, or a text box
    form.get_by_role("button", name="Start Toy Battle").click()
    page.wait_for_url(re.compile(r"/play/[0-9a-f]+/0$"))
    return page.url.rsplit("/", 2)[-2]


def _join(page: Any, url: str, match: str) -> None:
    page.goto(url + "/")
    page.locator(f"#list-open a[href='/join/{match}']").click()
    page.locator("input[name=name]").fill("Bo")
    page.get_by_role("button", name="Play as Red").click()
    page.wait_for_url(re.compile(rf"/play/{match}/1$"))


def _hidden_rack(hall: Any, match: str, seat: int, reader: int | None) -> list[str]:
    """Return the troops on a seat's rack that another reader does not know."""
    rack = hall.view(match, seat).view.players[seat].rack
    known = hall.view(match, reader).view.players[seat].known
    return [t for t in rack if t not in known]


def _check_no_leak(pages: dict[str, Any], hall: Any, match: str) -> None:
    html = {name: page.content() for name, page in pages.items()}
    for seat in (0, 1):
        for name, text in html.items():
            if name == f"seat{seat}":
                continue
            reader = 1 - seat if name.startswith("seat") else None
            for troop in _hidden_rack(hall, match, seat, reader):
                assert troop not in text, f"{name}'s page shows {troop} of seat {seat}'s rack"


def test_toy_battle_in_the_browser(browser: Any, serve: Any, screenshots: Path) -> None:
    server = serve(builtin_registry())
    url = server.url
    rng = random.Random(7)
    blue_ctx, red_ctx, watch_ctx = (browser.new_context() for _ in range(3))
    blue, red, watcher = blue_ctx.new_page(), red_ctx.new_page(), watch_ctx.new_page()
    match = _create(blue, url, "caribbean")
    _join(red, url, match)
    watcher.goto(f"{url}/watch/{match}")
    assert "watching" in watcher.locator("h1").text_content()
    assert blue.locator("h1").text_content().endswith("you are Blue, Ada")
    wait_until(blue, lambda: "Bo" in blue.locator(".players").text_content(), "Bo's name shown")
    assert "Ada" in watcher.locator(".players").text_content()
    tokens = [player_token(blue_ctx), player_token(red_ctx)]
    assert tokens[0] not in blue.url and tokens[0] not in blue.content()
    pages = {"seat0": blue, "seat1": red, "spectator": watcher}
    blue.screenshot(path=str(screenshots / "toy-battle-start.png"), full_page=True)
    moves, started = 0, time.monotonic()
    while not ended(blue) and moves < 400:
        mover = next((p for p in (blue, red) if my_move(p)), None)
        if mover is None:
            blue.wait_for_timeout(25)
            continue
        play_one(mover, rng)
        moves += 1
        if moves % 2 == 1:
            _check_no_leak(pages, server.hall, match)
        if moves == 12:
            red.screenshot(path=str(screenshots / "toy-battle.png"), full_page=True)
            # While the match runs, asking for another seat's eyes still shows one's own view.
            peek = blue.request.get(f"{url}/play/{match}/0/frame?as=1").text()
            for troop in _hidden_rack(server.hall, match, 1, 0):
                assert troop not in peek
    for page in pages.values():
        wait_until(page, lambda page=page: ended(page), "every page shows the end")
    print(f"{moves} moves in {time.monotonic() - started:.1f} s")
    assert "wins" in blue.locator(".status").text_content()
    watcher.screenshot(path=str(screenshots / "toy-battle-end.png"), full_page=True)
    last = frame_seq(watcher)
    assert last == api_view(url, match, None)["seq"]
    assert watcher.locator(".log li").count() > moves  # the log tells every move in words

    # The replay: the slider goes to the start, the step buttons walk on, then a fork.
    slider = blue.locator("#replay")
    slider.focus()
    blue.keyboard.press("Home")
    wait_until(blue, lambda: frame_seq(blue) == 1, "the replay shows the start")
    assert blue.locator("#frame").get_attribute("data-live") == "0"
    for _ in range(15):
        before = frame_seq(blue)
        blue.locator("#step-forward").click()
        wait_until(blue, lambda before=before: frame_seq(blue) > before, "a step forward")
        if blue.locator("form.fork").count():
            break
    blue.screenshot(path=str(screenshots / "toy-battle-replay.png"), full_page=True)
    at = frame_seq(blue)
    blue.locator("form.fork button").click()
    blue.wait_for_url(re.compile(r"/join/[0-9a-f]+$"))
    forked = blue.url.rsplit("/", 1)[-1]
    assert forked != match
    assert api_view(url, forked, None)["seq"] == at
    for ctx in (blue_ctx, red_ctx, watch_ctx):
        ctx.close()


@pytest.mark.long
@pytest.mark.parametrize("terrain", BOXED)
def test_each_terrain_is_drawn(browser: Any, serve: Any, screenshots: Path, terrain: str) -> None:
    server = serve(builtin_registry())
    page = browser.new_context(viewport={"width": 1300, "height": 1000}).new_page()
    create_in_lobby(page, server.url, "toy-battle", ["me", "bot"], options={"terrain": terrain})
    board = boards()[terrain]
    wait_until(page, lambda: my_move(page), "the seat's move")
    assert page.locator("svg.board .place").count() >= 1  # the seat's moves are on the board
    spots = page.locator("svg.board g[aria-label^='Spot'], svg.board g > title").all_text_contents()
    for spot in board.bases:
        assert any(f"spot {spot}" in text for text in spots), f"spot {spot} is not drawn"
    drawn = page.locator("svg.board > title").text_content()
    assert drawn == f"Toy Battle on {board.name}"
    assert page.locator("svg.board g.region").count() == len(board.terrain.regions)
    page.screenshot(path=str(screenshots / f"toy-battle-{terrain}.png"), full_page=True)
