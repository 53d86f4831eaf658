"""A third-party game with no drawing plays through the generic page; names a game supplies
are shown as text, never run; stale pages, spectators and strangers get clear answers."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import httpx
from gamehall.core import Registry

from .pebbles import NAMES, Plugin
from .play import ended, frame_seq, join_match, my_move, notice, wait_until

# Player names are typed by people: the page shows them as text, never runs them.
PLAYERS = ["<script>window.pwned = 3</script>", "<b>Bo</b> & <i>co</i>"]


def _setup(browser: Any, serve: Any) -> tuple[Any, str, Any, Any, str]:
    server = serve(Registry([Plugin()], entry_points=False))
    first, second = browser.new_context(), browser.new_context()
    page = first.new_page()
    page.goto(server.url + "/")
    page.locator("#game-pebbles > summary").click()
    page.locator("#game-pebbles input[name=name]").fill(PLAYERS[0])
    page.locator("#game-pebbles select[name=seat1]").select_option("open")
    page.locator("#game-pebbles button[type=submit]").click()
    page.wait_for_url(re.compile(r"/play/[0-9a-f]+/0$"))
    match = page.url.rsplit("/", 2)[-2]
    other = second.new_page()
    join_match(other, server.url, match, PLAYERS[1])
    assert other.url.endswith(f"/play/{match}/1")
    return server, match, page, other, server.url


def test_a_third_party_game_plays_through_the_generic_page(
    browser: Any, serve: Any, screenshots: Path
) -> None:
    server, match, zero, one, url = _setup(browser, serve)
    for seat, page in enumerate((zero, one)):
        heading = f"you are {NAMES[seat]}, {PLAYERS[seat]}"
        wait_until(page, lambda p=page, h=heading: p.locator("h1").text_content().endswith(h),
                   "the heading names the seat and its player")  # fmt: skip
    wait_until(zero, lambda: PLAYERS[1] in zero.locator(".players").text_content(), "names")
    assert zero.locator(".view-fields dt", has_text="pile").count() == 1
    zero.screenshot(path=str(screenshots / "generic-pebbles.png"), full_page=True)
    while not ended(zero):
        mover = zero if my_move(zero) else one if my_move(one) else None
        if mover is None:
            zero.wait_for_timeout(25)
            continue
        before = frame_seq(mover)
        mover.locator("button.command").first.click()
        wait_until(mover, lambda m=mover, b=before: frame_seq(m) > b or notice(m), "a move")
        assert not notice(mover)
    wait_until(one, lambda: ended(one), "the other page sees the end")
    text = one.locator(".status").text_content()
    assert "wins: took the last pebble" in text and (NAMES[0] in text or NAMES[1] in text)
    for page in (zero, one):
        assert page.evaluate("() => window.pwned") is None
        assert "<script>window.pwned" not in page.content().replace("&lt;script&gt;", "")
        assert "<b>Bo</b>" not in page.content()
    lobby = zero.context.new_page()
    lobby.goto(url + "/")
    assert lobby.get_by_text("Pebbles <b>&amp;</b>").count() >= 1
    assert lobby.locator("#me strong").text_content() == PLAYERS[0]
    assert PLAYERS[1] in lobby.locator("#list-finished").text_content()
    assert lobby.evaluate("() => window.pwned") is None
    assert "<script>window.pwned = 3" not in lobby.content()


def test_a_stale_page_gets_the_refusal_in_words_and_the_fresh_state(
    browser: Any, serve: Any
) -> None:
    server, match, zero, one, url = _setup(browser, serve)
    stale = zero.context.new_page()
    stale.route(re.compile(r".*/events.*"), lambda route: route.abort())  # it hears nothing
    stale.goto(f"{url}/play/{match}/0")
    assert my_move(stale)
    before = frame_seq(zero)
    zero.locator("button.command").first.click()
    wait_until(zero, lambda: frame_seq(zero) > before, "the move")
    assert my_move(stale) and frame_seq(stale) == before  # still shows the old turn
    stale.locator("button.command").first.click()
    wait_until(stale, lambda: notice(stale) is not None, "the refusal")
    assert "Not your move now: the match waits for" in (notice(stale) or "")
    wait_until(stale, lambda: frame_seq(stale) > before, "the fresh state")
    assert not my_move(stale)


def test_spectators_cannot_send_and_strangers_get_a_clear_page(browser: Any, serve: Any) -> None:
    server, match, zero, one, url = _setup(browser, serve)
    spectator = browser.new_context().new_page()
    spectator.goto(f"{url}/watch/{match}")
    assert spectator.locator("#match").get_attribute("data-command-url") is None
    assert spectator.locator("[data-commands]").count() == 0
    answer = spectator.goto(f"{url}/play/{match}/0")
    assert answer is not None and answer.status == 401
    assert spectator.locator("h1").text_content() == "Not your seat"
    assert "Traceback" not in spectator.content()
    assert spectator.locator("a[href='/join/" + match + "']").count() == 1
    missing = spectator.goto(f"{url}/play/{match}-nope/0")
    assert missing is not None and missing.status == 404
    assert "Traceback" not in spectator.content()
    # The seat's own endpoint refuses a request without the seat's cookie or the CSRF token.
    csrf = next(c["value"] for c in spectator.context.cookies() if c["name"] == "gh_csrf")
    body = {"command": {"type": "pebbles.Take", "count": 1}, "command_id": "s-1"}
    cookies = {"gh_csrf": csrf}
    with httpx.Client(base_url=url, cookies=cookies) as client:
        sent = client.post(f"/play/{match}/0/command", json=body, headers={"X-CSRF-Token": csrf})
        assert sent.status_code == 401
        assert client.post(f"/watch/{match}/command", json=body).status_code in (404, 405)
    token = next(c["value"] for c in zero.context.cookies() if c["name"] == "gh_player")
    with httpx.Client(base_url=url, cookies={"gh_player": token, "gh_csrf": csrf}) as client:
        forged = client.post(f"/play/{match}/0/command", json=body)
        assert forged.status_code == 403 and "reload the page" in forged.text
        elsewhere = client.post(
            f"/play/{match}/0/command", json=body,
            headers={"X-CSRF-Token": csrf, "Origin": "https://evil.example"},
        )  # fmt: skip
        assert elsewhere.status_code == 403
    assert frame_seq(zero) == server.hall.view(match, None).seq  # nothing was stored
