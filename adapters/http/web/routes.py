"""The web page's routes: the lobby, joining, a seat's page, a spectator's page, replays.

Pages and frames are HTML built in Python (see :mod:`.markup`); the one script talks to the
``/play`` and ``/watch`` routes only, with the seat token in its cookie and never in a URL.
"""

from __future__ import annotations

from importlib import resources
from typing import Annotated, Any

import msgspec
from gamehall.core.errors import (
    GamehallError,
    IllegalCommand,
    MatchOver,
    NotAwaited,
    UnknownPlayer,
)
from gamehall.core.limits import INT64_MAX
from gamehall.core.lobby import NoFreeSeat, Player, SeatAlreadyTaken, check_name
from litestar import Request, Response, Router, get, post
from litestar.params import FromPath, QueryParameter
from litestar.response import Redirect, ServerSentEvent

from .. import stream
from ..errors import ApiError, status_of
from ..gateway import Gateway, check_id
from ..schemas import CommandId
from . import listing, pages, scene, session
from .frame import frame, heading, title_of
from .markup import Html, join, tag

CSP = (
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'"
)
HEADERS = {
    "Content-Security-Policy": CSP,
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "Cache-Control": "no-store",
}
STATIC = {
    "gamehall.js": "text/javascript",
    "gamehall.css": "text/css",
    "favicon.svg": "image/svg+xml",
}
Req = Request[Any, Any, Any]
Seq = Annotated[int | None, QueryParameter(ge=0, le=INT64_MAX, required=False)]
As = Annotated[int | None, QueryParameter(name="as", ge=0, le=63, required=False)]
PAGE = {"web": "page"}
FRAGMENT = {"web": "fragment"}
FORM = {"web": "page", "form": True}


def gw(request: Req) -> Gateway:
    """Return the gateway of the app that got the request."""
    gateway: Gateway = request.app.state.gamehall
    return gateway


def html(body: Html, status: int = 200, *cookies: Any) -> Response[Any]:
    """Return an HTML answer with the page's security headers."""
    response: Response[Any] = Response(
        str(body), status_code=status, media_type="text/html", headers=HEADERS
    )
    return session.with_cookies(response, *cookies)


class CommandIn(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """A command sent from a seat's page."""

    command: dict[str, Any]
    command_id: CommandId


class CommandAnswer(msgspec.Struct, frozen=True):
    """What the page hears back: nothing, or why the rules refused (in words)."""

    ok: bool
    refusal: str | None = None


# -- lobby -------------------------------------------------------------------------------------


@get("/", opt=PAGE, include_in_schema=False)
async def lobby(request: Req) -> Response[Any]:
    """Show the lobby."""
    gateway = gw(request)
    csrf, cookie = session.csrf_token(request)
    games = list(gateway.games().values())
    me = _player(request)
    body = pages.lobby(games, listing.lobby(gateway, me), csrf, me)
    return html(body, 200, cookie)


def _field(spec: dict[str, Any], text: str) -> Any:
    kind = spec.get("type")
    enum = spec.get("enum")
    if kind == "boolean":
        return text == "true"
    if kind == "integer" or (enum and all(isinstance(v, int) for v in enum)):
        try:
            return int(text)
        except ValueError:
            raise ApiError(400, "invalid_options", f"{text!r} is not a whole number") from None
    return text


def _options(
    form: dict[str, list[str]], prefix: str, schema: dict[str, Any] | None
) -> dict[str, Any]:
    props = pages._properties(schema)
    out = {}
    for key, values in form.items():
        if key.startswith(prefix) and key[len(prefix) :] in props:
            name = key[len(prefix) :]
            out[name] = _field(props[name], values[-1])
    return out


def _player(request: Req) -> Player | None:
    """Return the player whose token this browser's cookie holds, if any."""
    token = session.player_token(request)
    gateway = gw(request)
    if token is None or not gateway.hall.lobby.is_player_token(token):
        return None
    try:
        player = gateway.hall.lobby.player_of(token)
    except UnknownPlayer:
        return None  # a token the store no longer knows: the browser plays as a newcomer
    gateway.accepted(request, token)
    return player


async def _become(request: Req, form: dict[str, list[str]]) -> tuple[Player, Any]:
    """Return this browser's player, registered or renamed from the form's name, and the
    cookie to set when the player is new."""
    lobby = gw(request).hall.lobby
    name = _last(form, "name")
    player = _player(request)
    if player is None:
        if not name or not name.strip():
            raise ApiError(400, "invalid_request", "type your name: the other players see it")
        player, token = await lobby.register(name)
        return player, session.player_cookie(request, token)
    if name is not None and name.strip() and check_name(name) != player.name:
        player = await lobby.rename(player.player, name)
    return player, None


@post("/lobby/name", opt=FORM, include_in_schema=False, status_code=303)
async def rename(request: Req) -> Response[Any]:
    """Choose this browser's name (a new player), or change it; back to the lobby."""
    form = _form(await request.form())
    session.check_csrf(request, _last(form, "csrf"))
    _, cookie = await _become(request, form)
    return Redirect("/", status_code=303, cookies=[cookie] if cookie else [], headers=HEADERS)


@post("/lobby/matches", opt=FORM, include_in_schema=False, status_code=303)
async def create(request: Req) -> Response[Any]:
    """Start a match from the lobby's form; this browser's player takes the seats marked "me"."""
    form = _form(await request.form())
    session.check_csrf(request, _last(form, "csrf"))
    gateway = gw(request)
    game = gateway.game(_last(form, "game") or "")
    try:
        players = int(_last(form, "players") or game.min_players)
    except ValueError:
        raise ApiError(400, "invalid_request", "the number of players is not a number") from None
    roles = [_last(form, f"seat{s}") or "open" for s in range(players)]
    if any(r not in ("me", "open", "bot") for r in roles):
        raise ApiError(400, "invalid_request", "each seat is me, open or a bot")
    expansions = form.get("expansion", [])
    known = {e.id: e for e in game.expansions}
    xopts = {x: _options(form, f"x.{x}.", known[x].options) for x in expansions if x in known}
    player, cookie = await _become(request, form)
    mine = [s for s, r in enumerate(roles) if r == "me"]
    match = await gateway.hall.create(
        game.id, players, expansions=expansions, options=_options(form, "o.", game.options),
        expansion_options={k: v for k, v in xopts.items() if v},
        bots={s: "random" for s, r in enumerate(roles) if r == "bot"},
        clock=(_last(form, "clock") or "").strip() or None,
        seat_players={s: player.player for s in mine},
        open_seats=[s for s, r in enumerate(roles) if r == "open"],
    )  # fmt: skip
    where = session.seat_path(match, mine[0]) if mine else f"/watch/{match}"
    cookies = [cookie] if cookie else []
    return Redirect(where, status_code=303, cookies=cookies, headers=HEADERS)


def _last(form: dict[str, list[str]], key: str) -> str | None:
    values = form.get(key)
    return values[-1] if values else None


def _form(data: Any) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for key, value in data.multi_items():
        if isinstance(value, str):
            out.setdefault(key, []).append(value)
    return out


# -- joining -----------------------------------------------------------------------------------


@get("/join/{match:str}", opt=PAGE, include_in_schema=False)
async def join_page(request: Req, match: FromPath[str]) -> Response[Any]:
    """Show a match's free seats to take."""
    csrf, cookie = session.csrf_token(request)
    gateway = gw(request)
    gateway.check_match(match)
    me = _player(request)
    shown = listing.entry(gateway, check_id(match), me)
    return html(pages.join_page(shown, csrf, me), 200, cookie)


@post("/join/{match:str}", opt=FORM, include_in_schema=False, status_code=303)
async def join_seat(request: Req, match: FromPath[str]) -> Response[Any]:
    """Take a free seat: it becomes this browser's player's, whose page it opens."""
    form = _form(await request.form())
    session.check_csrf(request, _last(form, "csrf"))
    gateway = gw(request)
    gateway.check_match(match)
    match = check_id(match)
    given = _last(form, "seat")
    wanted = int(given) if given is not None and given.isdigit() and len(given) < 4 else None
    lobby = gateway.hall.lobby
    free = [s.seat for s in lobby.entry(match).seats if s.open]
    if lobby.entry(match).finished or (wanted is not None and wanted not in free) or not free:
        if free and wanted is not None:
            raise SeatAlreadyTaken(f"seat {wanted} was taken meanwhile")
        raise NoFreeSeat("every seat of this match is taken")
    player, cookie = await _become(request, form)
    seat, token = await gateway.seats.claim(match, player.player, wanted)  # the match decides
    gateway.accepted(request, token)
    cookies = [cookie] if cookie else []
    return Redirect(
        session.seat_path(match, seat), status_code=303, cookies=cookies, headers=HEADERS
    )


# -- a seat's page -----------------------------------------------------------------------------


def _seat(request: Req, match: str, seat: int) -> int:
    """Return the seat of the page if this browser holds its token, or refuse in words."""
    gateway = gw(request)
    gateway.check_match(match)
    player = _player(request)
    if player is not None and seat in gateway.hall.lobby.seats_of(check_id(match), player.player):
        return seat
    token = session.seat_token(request)
    if token is None or gateway.seats.seat_of(check_id(match), token) != seat:
        raise ApiError(
            401, "unauthorized",
            f"this browser holds no token for seat {seat} of this match: join a free seat, "
            "or watch it as a spectator",
        )  # fmt: skip
    gateway.accepted(request, token)
    return seat


def _scene(
    request: Req, match: str, seat: int | None, at: int | None, eyes: int | None
) -> scene.Scene:
    hall = gw(request).hall
    if at is None:
        return scene.live(hall, match, seat, eyes)
    return scene.replay(hall, match, seat, at, eyes)


def _page(request: Req, match: str, seat: int | None, base: str) -> Response[Any]:
    csrf, cookie = session.csrf_token(request)
    now = _scene(request, match, seat, None, None)
    ruleset = gw(request).hall.ruleset(match)
    title = title_of(ruleset)
    body = frame(ruleset, now, csrf, None)
    urls = {"frame": f"{base}/frame", "events": f"{base}/events", "fork": f"{base}/fork"}
    if seat is not None:
        urls["command"] = f"{base}/command"
    shown = pages.match_page(title, heading(ruleset, now), body, urls, csrf, now.names)
    return html(shown, 200, cookie)


@get("/play/{match:str}/{seat:int}", opt=PAGE, include_in_schema=False)
async def play(request: Req, match: FromPath[str], seat: FromPath[int]) -> Response[Any]:
    """Show a seat's match page."""
    _seat(request, match, seat)
    return _page(request, match, seat, session.seat_path(match, seat))


@get("/watch/{match:str}", opt=PAGE, include_in_schema=False)
async def watch(request: Req, match: FromPath[str]) -> Response[Any]:
    """Show a match to a spectator."""
    gw(request).check_match(match)
    return _page(request, match, None, f"/watch/{match}")


def _frame(
    request: Req, match: str, seat: int | None, at: int | None, eyes: int | None, base: str
) -> Response[Any]:
    csrf, _ = session.csrf_token(request)
    shown = _scene(request, match, seat, at, eyes)
    return html(frame(gw(request).hall.ruleset(match), shown, csrf, f"{base}/fork"))


@get("/play/{match:str}/{seat:int}/frame", opt=FRAGMENT, include_in_schema=False)
async def play_frame(
    request: Req, match: FromPath[str], seat: FromPath[int], at: Seq = None, eyes: As = None
) -> Response[Any]:
    """Return a seat's frame now, or at a seq of the replay."""
    _seat(request, match, seat)
    return _frame(request, match, seat, at, eyes, session.seat_path(match, seat))


@get("/watch/{match:str}/frame", opt=FRAGMENT, include_in_schema=False)
async def watch_frame(
    request: Req, match: FromPath[str], at: Seq = None, eyes: As = None
) -> Response[Any]:
    """Return a spectator's frame now, or at a seq of the replay."""
    gw(request).check_match(match)
    return _frame(request, match, None, at, eyes, f"/watch/{match}")


def _events(request: Req, match: str, seat: int | None, after: int) -> ServerSentEvent:
    gateway = gw(request)
    last = request.headers.get("last-event-id", "")
    start = max(after, int(last) if last.isdigit() and len(last) < 19 else 0)
    player = _player(request) if seat is None else None
    messages = stream.messages(gateway.hall, match, seat, start, gateway.heartbeat, player)
    return ServerSentEvent(messages, headers={**HEADERS, "X-Accel-Buffering": "no"})


@get("/play/{match:str}/{seat:int}/events", opt=FRAGMENT, include_in_schema=False)
async def play_events(
    request: Req, match: FromPath[str], seat: FromPath[int], after: Seq = None
) -> ServerSentEvent:
    """Stream a seat's events to its page."""
    _seat(request, match, seat)
    return _events(request, match, seat, after or 0)


@get("/watch/{match:str}/events", opt=FRAGMENT, include_in_schema=False)
async def watch_events(request: Req, match: FromPath[str], after: Seq = None) -> ServerSentEvent:
    """Stream the public events to a spectator's page."""
    gw(request).check_match(match)
    return _events(request, match, None, after or 0)


@post(
    "/play/{match:str}/{seat:int}/command", opt=FRAGMENT, include_in_schema=False, status_code=200
)
async def command(request: Req, match: FromPath[str], seat: FromPath[int]) -> Response[Any]:
    """Send a command from a seat's page; a refusal comes back in words."""
    session.check_csrf(request, request.headers.get(session.CSRF_HEADER))
    _seat(request, match, seat)
    try:
        data = msgspec.json.decode(await request.body(), type=CommandIn)
    except msgspec.ValidationError as exc:
        raise ApiError(400, "invalid_request", f"the move is malformed: {exc}") from None
    hall = gw(request).hall
    try:
        await hall.send(match, seat, data.command, data.command_id)
    except NotAwaited:
        return _answer(False, _not_now(request, match, seat))
    except MatchOver:
        return _answer(False, "The match is over: no more moves.")
    except IllegalCommand as exc:
        return _answer(False, f"Refused: {exc.reason}")
    except GamehallError as exc:
        if status_of(exc) not in (400, 409):
            raise
        return _answer(False, f"Refused: {exc.message}")
    return _answer(True)


def _not_now(request: Req, match: str, seat: int) -> str:
    now = scene.live(gw(request).hall, match, seat)
    who = ", ".join(now.names[s] for s in sorted(now.awaiting) if s < len(now.names))
    return f"Not your move now: the match waits for {who}." if who else "Not your move now."


def _answer(ok: bool, refusal: str | None = None) -> Response[Any]:
    return Response(
        msgspec.json.encode(CommandAnswer(ok, refusal)), media_type="application/json",
        headers=HEADERS,
    )  # fmt: skip


async def _fork(request: Req, match: str) -> Response[Any]:
    form = _form(await request.form())
    session.check_csrf(request, _last(form, "csrf"))
    gateway = gw(request)
    if not gateway.ended(match):
        raise ApiError(403, "forbidden", "a match can be forked here only once it has ended")
    try:
        at = int(_last(form, "at_seq") or "")
    except ValueError:
        raise ApiError(400, "invalid_fork", "the fork point is not a number") from None
    players = gateway.hall.info(match).players
    new = await gateway.hall.fork(match, at, open_seats=range(players))
    return Redirect(f"/join/{new}", status_code=303, headers=HEADERS)


@post("/play/{match:str}/{seat:int}/fork", opt=FORM, include_in_schema=False, status_code=303)
async def play_fork(request: Req, match: FromPath[str], seat: FromPath[int]) -> Response[Any]:
    """Fork an ended match from a point of its replay; the new match's seats are open."""
    _seat(request, match, seat)
    return await _fork(request, match)


@post("/watch/{match:str}/fork", opt=FORM, include_in_schema=False, status_code=303)
async def watch_fork(request: Req, match: FromPath[str]) -> Response[Any]:
    """Fork an ended match from a point of its replay, as a spectator."""
    gw(request).check_match(match)
    return await _fork(request, match)


# -- assets and errors -------------------------------------------------------------------------

_ASSETS: dict[str, bytes] = {}


@get("/static/{name:str}", include_in_schema=False)
async def static(name: FromPath[str]) -> Response[bytes]:
    """Serve the page's script, styles and icon from the package."""
    media = STATIC.get(name)
    if media is None:
        raise ApiError(404, "not_found", f"no file {name!r}")
    if name not in _ASSETS:
        _ASSETS[name] = (resources.files(__package__) / "static" / name).read_bytes()
    headers = {**HEADERS, "Cache-Control": "public, max-age=300"}
    return Response(_ASSETS[name], media_type=media, headers=headers)


def on_error(request: Req, exc: Exception) -> Response[Any]:
    """Answer a page's error with a page in words, a fragment's as a short message."""
    from ..errors import HANDLERS

    if isinstance(exc, ApiError):
        status, message = exc.status, exc.message
    elif isinstance(exc, GamehallError) and status_of(exc) is not None:
        status, message = status_of(exc) or 400, exc.message
    else:
        handler = HANDLERS[Exception]
        for cls in type(exc).__mro__:
            if cls in HANDLERS:
                handler = HANDLERS[cls]
                break
        return handler(request, exc)  # type: ignore[no-any-return]
    kind = (request.route_handler.opt or {}).get("web")
    if kind == "page":
        titles = {401: "Not your seat", 403: "Not allowed", 404: "Not found"}
        hint = None
        parts = request.url.path.split("/")
        if status == 401 and len(parts) > 2:
            hint = join(
                tag("p", tag("a", "Join a free seat", href=f"/join/{parts[2]}"), " or ",
                    tag("a", "watch it", href=f"/watch/{parts[2]}"), ".")
            )  # fmt: skip
        body = pages.problem(titles.get(status, "That did not work"), message, hint)
        return html(body, status)
    return Response(message, status_code=status, media_type="text/plain", headers=HEADERS)


ROUTES = [
    lobby, rename, create, join_page, join_seat, play, watch, play_frame, watch_frame, play_events,
    watch_events, command, play_fork, watch_fork, static,
]  # fmt: skip


def router() -> Router:
    """Return the web page's routes, with their own error pages."""
    from ..errors import HANDLERS

    handlers: dict[int | type[Exception], Any] = {kind: on_error for kind in HANDLERS}
    return Router(path="/", route_handlers=ROUTES, exception_handlers=handlers)
