"""Live play on the page: the lobby is the live-play listing (``GET /matches``), a browser is
a named player, names and clocks are shown and kept current, and a page whose stream drops
(the server restarts) reconnects and catches up on what it missed."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import httpx
from gamehall.core.registry import builtin_registry

from .conftest import Server
from .play import (
    create_in_lobby,
    frame_seq,
    join_match,
    my_move,
    play_one,
    player_token,
    wait_until,
)  # fmt: skip


def _api(url: str, token: str | None = None) -> httpx.Client:
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    return httpx.Client(base_url=url, headers=headers, timeout=10)


def test_the_lobby_lists_what_the_api_lists_and_a_browser_is_a_player(
    browser: Any, serve: Any, screenshots: Path
) -> None:
    server = serve(builtin_registry())
    url = server.url
    with _api(url) as api:
        made = api.post("/players", json={"name": "Cleo"}).json()
    with _api(url, made["token"]) as cleo:
        created = cleo.post(
            "/matches", json={"game": "tictactoe", "players": 2, "seats": ["token", "open"]}
        ).json()
        match = created["match"]
        page = browser.new_context().new_page()
        page.goto(url + "/")
        # Cleo's match, made over the API, is listed with her name and its open seat.
        row = page.locator(f"#list-open li[data-match='{match}']")
        assert "X: Cleo, O: open" in row.text_content()
        seat = join_match(page, url, match, "Dana", seat_name="O")
        assert seat == 1
        listed = cleo.get("/matches", params={"game": "tictactoe"}).json()["matches"]
        seats = next(m for m in listed if m["match"] == match)["seats"]
        assert [s["name"] for s in seats] == ["Cleo", "Dana"] and not any(s["open"] for s in seats)
        token = player_token(page.context)
        with _api(url, token) as dana:
            mine = dana.get("/matches", params={"mine": "true"}).json()["matches"]
            assert [m["match"] for m in mine] == [match]
        page.goto(url + "/")
        assert page.locator(f"#list-mine li[data-match='{match}'] a", has_text="Play as O").count()
        assert page.locator(f"#list-open li[data-match='{match}']").count() == 0
        assert page.locator("#me strong").text_content() == "Dana"
        page.screenshot(path=str(screenshots / "lobby.png"), full_page=True)
        # A taken seat cannot be taken twice, and the page says so in words.
        other = browser.new_context().new_page()
        answer = other.goto(f"{url}/join/{match}")
        assert answer is not None and "Every seat is taken." in other.content()
        # The player token acts for the seat over the API as well as on the page.
        assert dana_view(url, match, token)["seat"] == 1


def dana_view(url: str, match: str, token: str) -> dict[str, Any]:
    with _api(url, token) as api:
        answer = api.get(f"/matches/{match}/view")
        answer.raise_for_status()
        result: dict[str, Any] = answer.json()
        return result


def test_names_and_clocks_are_shown_and_kept_current(
    browser: Any, serve: Any, screenshots: Path
) -> None:
    server = serve(builtin_registry())
    url = server.url
    first = browser.new_context().new_page()
    match = create_in_lobby(first, url, "tictactoe", ["me", "open"], name="Ada", clock="move:30")
    second = browser.new_context().new_page()
    join_match(second, url, match, "Bo")
    players = first.locator(".players")
    wait_until(first, lambda: "Bo" in players.text_content(), "the joining player's name")
    clocks = first.locator(".players .clock")
    assert clocks.count() == 2
    running = first.locator(".players .clock[data-running]")
    assert running.count() == 1  # X's clock runs: X is to move
    shown = running.text_content()
    wait_until(first, lambda: running.text_content() != shown, "the running clock ticks", 5)
    first.screenshot(path=str(screenshots / "clock.png"), full_page=True)
    # A move hands the clock over: O's runs now, on both pages.
    play_one(first, __import__("random").Random(3))
    wait_until(second, lambda: my_move(second), "O's move")
    wait_until(first, lambda: first.locator(".players li.asked").get_attribute("data-seat")
               == "1", "O is asked")  # fmt: skip
    assert second.locator(".players li.you .clock[data-running]").count() == 1
    # Renaming in the lobby renames the seat on every page, without reloading them.
    lobby = second.context.new_page()
    lobby.goto(url + "/")
    lobby.locator("form.rename input[name=name]").fill("Bora")
    lobby.locator("form.rename button").click()
    lobby.wait_for_url(url + "/")
    assert lobby.locator("#me strong").text_content() == "Bora"
    wait_until(second, lambda: second.locator("h1").text_content().endswith("you are O, Bora"),
               "the heading follows the new name")  # fmt: skip
    wait_until(first, lambda: "Bora" in players.text_content(), "the other page too")


def test_a_dropped_stream_reconnects_and_catches_up(
    browser: Any, serve: Any, tmp_path: Path
) -> None:
    registry = builtin_registry()
    server = serve(registry, sqlite=True)
    url, port = server.url, int(server.url.rsplit(":", 1)[1])
    first = browser.new_context().new_page()
    match = create_in_lobby(first, url, "tictactoe", ["me", "open"], name="Ada")
    second = browser.new_context().new_page()
    join_match(second, url, match, "Bo")
    play_one(first, __import__("random").Random(1))
    wait_until(second, lambda: my_move(second), "O's move")
    seen = frame_seq(second)
    server.stop()  # every stream drops; the pages say so and keep trying
    for page in (first, second):
        wait_until(page, lambda p=page: bool(p.locator("#connection").text_content()),
                   "the page says it lost the server")  # fmt: skip
    again = Server(registry, server.db, port=port)
    again.start()
    try:
        # A move while the pages are still reconnecting: they must catch up on it.
        token = player_token(second.context)
        with _api(url, token) as bo:
            legal = bo.get(f"/matches/{match}/view").json()["legal"]
            body = {"command": legal[0], "command_id": "while-reconnecting"}
            sent = bo.post(f"/matches/{match}/commands", json=body)
            assert sent.status_code in (200, 201), sent.text
        for page in (first, second):
            wait_until(page, lambda p=page: frame_seq(p) > seen, "the page catches up", 20)
            wait_until(page, lambda p=page: not p.locator("#connection").text_content(),
                       "the page is connected again", 20)  # fmt: skip
        assert my_move(first)
        before = frame_seq(first)
        started = time.monotonic()
        play_one(first, __import__("random").Random(2))
        wait_until(second, lambda: frame_seq(second) > before, "the live stream is back")
        assert time.monotonic() - started < 10
    finally:
        again.stop()


def test_a_form_without_a_name_is_refused_in_words_and_starts_nothing(serve: Any) -> None:
    server = serve(builtin_registry())
    with httpx.Client(base_url=server.url, timeout=10) as client:
        client.get("/")  # the CSRF cookie
        csrf = client.cookies["gh_csrf"]
        form = {"csrf": csrf, "game": "tictactoe", "players": "2", "seat0": "me", "seat1": "bot"}
        refused = client.post("/lobby/matches", data=form)
        assert refused.status_code == 400 and "type your name" in refused.text
        assert "Traceback" not in refused.text and "gh_player" not in client.cookies
        assert server.hall.lobby.find().total == 0  # nothing was started
        bad = client.post("/lobby/matches", data={**form, "name": "x" * 41})
        assert bad.status_code == 400 and "at most 40 characters" in bad.text
        made = client.post("/lobby/matches", data={**form, "name": "Ada"})
        assert made.status_code == 303 and "gh_player" in client.cookies
        assert server.hall.lobby.find().total == 1
