"""Playing a match through its pages: find whose move it is, click a legal place, wait."""

from __future__ import annotations

import random
import re
import time
from typing import Any

import httpx

Page = Any


def frame_seq(page: Page) -> int:
    """Return the seq of the frame a page shows."""
    return int(page.locator("#frame").get_attribute("data-seq"))


def ended(page: Page) -> bool:
    """Tell whether a page shows an ended match."""
    return page.locator("#frame").get_attribute("data-ended") == "1"


def my_move(page: Page) -> bool:
    """Tell whether a seat's page says it is that seat's move."""
    return page.locator("#frame").get_attribute("data-turn") == "you"


def wait_until(page: Page, check: Any, what: str, timeout: float = 15.0) -> None:
    """Poll ``check()`` until it holds (the page's CSP forbids evaluating strings in it)."""
    deadline = time.monotonic() + timeout
    while not check():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting until {what}")
        page.wait_for_timeout(15)


def notice(page: Page) -> str | None:
    """Return the refusal or warning a page shows, if any."""
    box = page.locator("#notice")
    return box.text_content() if box.is_visible() else None


def play_one(page: Page, rng: random.Random) -> None:
    """Click one of the page's legal places (board or list) and answer the chooser; a tap
    that a re-drawn frame swallowed (nothing happens for a while) is tapped again, as a
    person would."""
    before = frame_seq(page)
    try:
        _tap(page, rng)
        wait_until(page, lambda: frame_seq(page) > before or notice(page), "the move", 6)
    except AssertionError:
        if frame_seq(page) <= before and not notice(page):
            _tap(page, rng)
            wait_until(page, lambda: frame_seq(page) > before or notice(page), "the move is played")
    assert not notice(page), f"a legal move was refused: {notice(page)}"


def _tap(page: Page, rng: random.Random) -> None:
    places = page.locator("#frame [data-commands]")
    count = places.count()
    assert count, "a seat asked to move has no place to click"
    before = frame_seq(page)
    place = places.nth(rng.randrange(count))
    # A real click while the page is young; later a dispatched click (the same DOM event the
    # page's script handles) skips the scrolling and stability waits of every move.
    place.click() if before < 12 else place.dispatch_event("click")
    chooser = page.locator("#chooser")
    if chooser.is_visible():
        options = chooser.locator("li button")
        option = options.nth(rng.randrange(options.count()))
        option.click() if before < 12 else option.dispatch_event("click")


def player_token(context: Any, root: str = "/") -> str:
    """Return the player token a browser context holds in its cookie (for the API's view,
    which a player token asks for the player's seat)."""
    for cookie in context.cookies():
        if cookie["name"] == "gh_player":
            assert cookie["httpOnly"] and cookie["sameSite"] == "Strict" and cookie["path"] == root
            return str(cookie["value"])
    raise AssertionError("no player cookie")


def fill_name(form: Any, name: str) -> None:
    """Type the player's name into a form that asks for it (a browser's first form)."""
    field = form.locator("input[name=name]")
    if field.count():
        field.fill(name)


def join_match(page: Page, url: str, match: str, name: str, seat_name: str | None = None) -> int:
    """Take an open seat of a match from its join page (the first, or the one named)."""
    page.goto(f"{url}/join/{match}")
    fill_name(page.locator("form"), name)
    buttons = page.locator("form .join button")
    button = buttons.first if seat_name is None else buttons.filter(has_text=seat_name)
    button.click()
    page.wait_for_url(lambda address: f"/play/{match}/" in address)
    return int(page.url.rsplit("/", 1)[-1])


def api_view(url: str, match: str, token: str | None) -> dict[str, Any]:
    """Return a seat's view from the HTTP API."""
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    answer = httpx.get(f"{url}/matches/{match}/view", headers=headers)
    answer.raise_for_status()
    result: dict[str, Any] = answer.json()
    return result


def set_field(field: Any, value: str) -> None:
    """Give an option field a value: a select's choice, or typed text."""
    if field.evaluate("(element) => element.tagName") == "SELECT":
        field.select_option(value)
    else:
        field.fill(value)


def tap_one(page: Page, rng: random.Random) -> None:
    """Tap one of the page's legal places (board or list), as a finger would, and answer the
    chooser with a tap too. A place another shape covers at its middle is left for another."""
    places = page.locator("#frame [data-commands]")
    count = places.count()
    assert count, "a seat asked to move has no place to tap"
    before = frame_seq(page)
    order = list(range(count))
    rng.shuffle(order)
    for index in order:
        place = places.nth(index)
        try:
            place.tap(timeout=1500)
            break
        except Exception:  # noqa: BLE001 - covered or moving: try another place
            if frame_seq(page) > before or not my_move(page):
                return
    else:
        raise AssertionError("no legal place could be tapped")
    chooser = page.locator("#chooser")
    if chooser.is_visible():
        options = chooser.locator("li button")
        options.nth(rng.randrange(options.count())).tap()
    wait_until(page, lambda: frame_seq(page) > before or notice(page), "the move is played")
    assert not notice(page), f"a legal move was refused: {notice(page)}"


def create_in_lobby(
    page: Page,
    url: str,
    game: str,
    roles: list[str],
    expansions: tuple[str, ...] = (),
    options: dict[str, str] | None = None,
    name: str = "Ada",
    clock: str | None = None,
) -> str:
    """Start a match from the lobby's form, one role per seat; return its id."""
    page.goto(url + "/")
    page.locator(f"#game-{game} > summary").click()
    form = page.locator(f"#game-{game} form")
    fill_name(form, name)
    if clock is not None:
        form.locator("select[name=clock]").select_option(clock)
    form.locator("select[name=players]").select_option(str(len(roles)))
    for seat, role in enumerate(roles):
        form.locator(f"select[name=seat{seat}]").select_option(role)
    for expansion in expansions:
        form.locator(f"input[name=expansion][value='{expansion}']").check()
    for name, value in (options or {}).items():
        set_field(form.locator(f"[name='o.{name}']:not([type=hidden])"), value)
    form.locator("button[type=submit]").click()
    page.wait_for_url(lambda address: "/play/" in address or "/watch/" in address)
    found = re.search(r"/(?:play|watch)/([^/?]+)", page.url)
    assert found, page.url
    return found.group(1)


def play_to_end(page: Page, rng: random.Random, limit: int = 3000) -> int:
    """Play a seat's page until the match ends (other seats are bots); return the moves made."""
    moves = 0
    while moves < limit:
        wait_until(page, lambda: my_move(page) or ended(page), "the seat's move or the end", 60)
        if ended(page):
            return moves
        play_one(page, rng)
        moves += 1
    raise AssertionError(f"the match did not end in {limit} moves")
