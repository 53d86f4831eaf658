"""The browser's secrets: the player token in a cookie, and the CSRF token of state-changing forms.

A browser is a player of the lobby (:mod:`gamehall.core.lobby`): the name typed in the lobby
registers a player, whose token lives in an ``HttpOnly``, ``SameSite=Strict`` cookie, so page
scripts can never read it and it never appears in a URL. The player token acts for every seat
the player holds, as it does over the API. The server sets no seat-token cookie; a client
that holds a seat token from the API may send it as the ``gh_seat`` cookie limited to the
seat's own page (``/play/{match}/{seat}``), which that page, its stream and its commands
accept (:func:`seat_cookie` makes such a cookie). Every state-changing
request carries the CSRF token (a form field or the ``X-CSRF-Token`` header) that must equal
the browser's ``gh_csrf`` cookie (the double-submit pattern) and, where the browser names it,
come from this origin.
"""

from __future__ import annotations

import hmac
import secrets
from typing import Any
from urllib.parse import urlsplit

from litestar import Request, Response
from litestar.datastructures import Cookie

from ..errors import ApiError

PLAYER_COOKIE = "gh_player"
SEAT_COOKIE = "gh_seat"
CSRF_COOKIE = "gh_csrf"
CSRF_HEADER = "x-csrf-token"
YEAR = 365 * 24 * 3600

Req = Request[Any, Any, Any]


def seat_path(match: str, seat: int) -> str:
    """Return the path of a seat's page, which its cookie is limited to (below the root)."""
    return f"/play/{match}/{seat}"


def root(request: Req) -> str:
    """Return where the app is mounted: the ASGI ``root_path``, else ``create_app``'s own
    ``root_path`` (for a host that mounts it without setting one); ``""`` at the top."""
    given = request.scope.get("root_path") or request.app.state.get("root_path") or ""
    return str(given).rstrip("/")


def _secure(request: Req) -> bool:
    return request.url.scheme == "https"


def seat_cookie(request: Req, match: str, seat: int, token: str) -> Cookie:
    """Return the cookie that holds a seat token for the seat's page only."""
    return Cookie(
        key=SEAT_COOKIE, value=token, path=root(request) + seat_path(match, seat), max_age=YEAR,
        httponly=True, samesite="strict", secure=_secure(request),
    )  # fmt: skip


def player_cookie(request: Req, token: str) -> Cookie:
    """Return the cookie that holds this browser's player token, for the whole site."""
    return Cookie(
        key=PLAYER_COOKIE, value=token, path=root(request) or "/", max_age=YEAR, httponly=True,
        samesite="strict", secure=_secure(request),
    )  # fmt: skip


def player_token(request: Req) -> str | None:
    """Return the player token the browser sent, if any."""
    return request.cookies.get(PLAYER_COOKIE) or None


def seat_token(request: Req) -> str | None:
    """Return the seat token the browser sent (its path scopes it to one seat)."""
    return request.cookies.get(SEAT_COOKIE) or None


def csrf_token(request: Req) -> tuple[str, Cookie | None]:
    """Return the browser's CSRF token, and the cookie to set when it has none yet."""
    token = request.cookies.get(CSRF_COOKIE)
    if token and 20 <= len(token) <= 64:
        return token, None
    token = secrets.token_urlsafe(24)
    cookie = Cookie(
        key=CSRF_COOKIE, value=token, path=root(request) or "/", httponly=True, samesite="strict",
        secure=_secure(request),
    )  # fmt: skip
    return token, cookie


def check_csrf(request: Req, given: str | None) -> None:
    """Refuse a state-changing request without the browser's CSRF token, or from elsewhere."""
    origin = request.headers.get("origin")
    if origin and origin != "null":
        host = request.headers.get("host", "")
        if urlsplit(origin).netloc != host:
            raise ApiError(403, "forbidden", "the request comes from another site")
    expected = request.cookies.get(CSRF_COOKIE) or ""
    # Bytes: compare_digest refuses a str beyond ASCII, and such a token is simply wrong.
    if (
        not given
        or not expected
        or not hmac.compare_digest(
            given.encode("utf-8", "surrogatepass"), expected.encode("utf-8", "surrogatepass")
        )
    ):
        raise ApiError(
            403, "forbidden", "the form is out of date or comes from another site: reload the page"
        )


def with_cookies(response: Response[Any], *cookies: Cookie | None) -> Response[Any]:
    """Return a response that sets the given cookies (``None`` ones are left out)."""
    for cookie in cookies:
        if cookie is not None:
            response.set_cookie(cookie)
    return response
