"""The web page's routes: the lobby, joining, a seat's page, a spectator's page, replays.

Pages and frames are HTML built in Python (see :mod:`.markup`); the one script talks to the
``/play`` and ``/watch`` routes only, with the seat token in its cookie and never in a URL.
"""

from __future__ import annotations

from importlib import resources
from typing import Annotated, Any

import msgspec
from gamehall.core import reads
from gamehall.core.bots.spec import BotSpec
from gamehall.core.errors import (
    DuplicateMatch,
    GamehallError,
    IllegalCommand,
    MatchOver,
    NotAwaited,
    NotCaughtUp,
    UnknownPlayer,
)
from gamehall.core.limits import INT64_MAX, CommandId, InvalidInput, int_text, is_command_id
from gamehall.core.lobby import NoFreeSeat, Player, SeatAlreadyTaken, check_name
from gamehall.core.seating import check_live
from gamehall.core.words import seat_label
from litestar import Request, Response, Router, get, post
from litestar.params import FromPath, QueryParameter
from litestar.response import Redirect, ServerSentEvent

from .. import once, stream
from ..caller import address
from ..errors import RETRY_AFTER, ApiError, is_store_error, status_of, store_message
from ..gateway import Gateway, bearer, check_id
from . import bots as strengths
from . import forms, listing, pages, scene, session, whatif
from .frame import Extras, frame, heading, title_of
from .markup import Html, join, tag
from .session import root

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


def redirect(request: Req, path: str, cookies: list[Any] | None = None) -> Response[Any]:
    """Return a 303 to a path of the app, under its mount point."""
    return Redirect(root(request) + path, status_code=303, cookies=cookies or [], headers=HEADERS)


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
    """What the page hears back: the match version the move produced (its last seq, which
    the page names in ``X-Gamehall-Version`` when it asks for the frame next), or why the rules
    refused (in words)."""

    ok: bool
    refusal: str | None = None
    version: int | None = None


# -- lobby -------------------------------------------------------------------------------------


@get("/", opt=PAGE, include_in_schema=False)
async def lobby(request: Req) -> Response[Any]:
    """Show the lobby."""
    return await _lobby(request, None, 200)


async def _lobby(
    request: Req,
    filled: pages.Filled | None,
    status: int,
    *,
    me: Player | None = None,
    cookie: Any = None,
) -> Response[Any]:
    gateway = gw(request)
    csrf, csrf_cookie = session.csrf_token(request)
    me = me or await _player(request)
    body = pages.lobby(
        _game_forms(gateway), await listing.lobby(gateway, me), csrf, me,
        root(request), filled, gateway.hall.now(),
    )  # fmt: skip
    return html(body, status, csrf_cookie, cookie)


def _game_forms(gateway: Gateway) -> list[pages.GameForm]:
    registry = gateway.hall.registry
    out = []
    for game in gateway.games().values():
        spec = registry.games[game.id]
        known = {e.id: e for e in registry.expansions_of(game.id)}
        expansions = {x.id: forms.fields(known[x.id].options) for x in game.expansions}
        given = _choices_of(registry, game.id)
        out.append(
            pages.GameForm(game, forms.fields(spec.options, given), expansions, strengths.choices())
        )
    return out


def _choices_of(registry: Any, game: str) -> forms.Choices:
    """Return the closed sets of values the game's options take: the game's own, and those
    each installed expansion adds, named with the expansion that brings them."""
    given = {k: list(v) for k, v in registry.ruleset(game).rules.option_choices().items()}
    for expansion in registry.expansions_of(game):
        added = registry.ruleset(game, [expansion.id]).rules.option_choices()
        for name, values in added.items():
            known = {value for value, _ in given.get(name, [])}
            given.setdefault(name, []).extend(
                (value, f"{shown} (with {expansion.name})")
                for value, shown in values
                if value not in known
            )
    return given


async def _player(request: Req) -> Player | None:
    """Return the player whose token this browser's cookie holds, if any (the player record
    read off the event loop)."""
    token = session.player_token(request)
    gateway = gw(request)
    if token is None or not gateway.hall.lobby.is_player_token(token):
        return None
    try:
        player = await reads.io(gateway.hall, gateway.hall.lobby.player_of, token)
    except UnknownPlayer:
        return None  # a token the store no longer knows: the browser plays as a newcomer
    gateway.accepted(request, token)
    return player


async def _become(request: Req, form: dict[str, list[str]]) -> tuple[Player, Any]:
    """Return this browser's player, registered or renamed from the form's name, and the
    cookie to set when the player is new."""
    lobby = gw(request).hall.lobby
    name = _last(form, "name")
    player = await _player(request)
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
    return redirect(request, "/", [cookie] if cookie else [])


def _roles(form: dict[str, list[str]], players: int) -> list[str]:
    roles = [_last(form, f"seat{s}") or "open" for s in range(players)]
    for role in roles:
        if role not in ("me", "open") and strengths.strength_of(role) is None:
            raise ApiError(
                400, "invalid_request",
                "each seat is me, open or a bot: easy, medium or strong",
            )  # fmt: skip
    return roles


def _bots(game: str, hidden: bool, roles: list[str]) -> dict[int, BotSpec]:
    out = {}
    for seat, role in enumerate(roles):
        strength = strengths.strength_of(role)
        if strength is not None:
            out[seat] = strengths.spec(game, strength, hidden)
    return out


@post("/lobby/matches", opt=FORM, include_in_schema=False, status_code=303)
async def create(request: Req) -> Response[Any]:
    """Start a match from the lobby's form; this browser's player takes the seats marked "me".

    A value the game's options refuse sends the form back filled in, the error beside the
    field it belongs to; nothing is started.
    """
    form = _form(await request.form())
    session.check_csrf(request, _last(form, "csrf"))
    gateway = gw(request)
    game = gateway.game(_last(form, "game") or "")
    registry = gateway.hall.registry
    spec = registry.games[game.id]
    expansions = form.get("expansion", [])
    low, high = registry.ruleset(game.id, expansions).player_range
    try:  # before anything is sized by it
        players = int_text("the number of players", _last(form, "players") or str(low), low, high)
    except InvalidInput as exc:
        raise ApiError(400, "invalid_options", str(exc)) from None
    roles = _roles(form, players)
    known = {e.id: e for e in registry.expansions_of(game.id)}
    try:
        given = registry.ruleset(game.id, expansions).rules.option_choices()
        options = forms.read(spec.options, form, "o.", given)
        xopts = {x: forms.read(known[x].options, form, f"x.{x}.") for x in expansions
                 if x in known}  # fmt: skip
    except forms.FormError as exc:
        prefix = "o."
        for x in expansions:
            if x in known and any(f.name == exc.field for f in forms.fields(known[x].options)):
                prefix = f"x.{x}."
        beside = {prefix + exc.field: exc.message} if exc.field else {}
        refused = pages.Filled(game.id, form, beside, None if beside else exc.message)
        return await _lobby(request, refused, 400)
    rid = _last(form, "request_id")
    if rid is not None and not is_command_id(rid):
        raise ApiError(400, "invalid_request", "the form is damaged: reload the page")
    asked: list[tuple[Player, Any]] = []  # who sent the form, for a page that refuses it

    async def make() -> tuple[str, Any]:
        player, cookie = await _become(request, form)
        asked.append((player, cookie))
        mine = [s for s, r in enumerate(roles) if r == "me"]
        match_id = once.match_id_for("web", rid) if rid else None
        try:
            match = await gateway.hall.create(
                game.id, players, expansions=expansions, options=options,
                expansion_options={k: v for k, v in xopts.items() if v},
                bots=_bots(game.id, spec.hidden_information, roles),
                clock=(_last(form, "clock") or "").strip() or None,
                seat_players={s: player.player for s in mine},
                open_seats=[s for s, r in enumerate(roles) if r == "open"], match_id=match_id,
                creator=player.player,
            )  # fmt: skip
        except DuplicateMatch:
            if match_id is None:
                raise
            return f"/watch/{match_id}", cookie  # made by an earlier send of this form
        return (session.seat_path(match, mine[0]) if mine else f"/watch/{match}"), cookie

    # The form's request id: a second send of it (a lost answer, a double click) gets the
    # first answer and never makes a second match.
    replies: once.Replies = request.app.state.replies
    try:
        where, cookie = await (replies.once(("web", rid), make) if rid else make())
    except GamehallError as exc:
        if status_of(exc) != 400:
            raise
        refused = pages.Filled(game.id, form, {}, exc.message)
        player, cookie = asked[-1] if asked else (None, None)
        return await _lobby(request, refused, 400, me=player, cookie=cookie)
    return redirect(request, where, [cookie] if cookie else [])


def _whole(text: str | None, high: int) -> int | None:
    """Return the whole number ``0..high`` a field holds, or ``None`` for anything else."""
    if text is None:
        return None
    try:
        return int_text("", text, 0, high)
    except InvalidInput:
        return None


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


@post("/lobby/abandon/{match:str}", opt=FORM, include_in_schema=False, status_code=303)
async def abandon(request: Req, match: FromPath[str]) -> Response[Any]:
    """Abandon a match this browser's player created and nobody else joined; back to the
    lobby."""
    form = _form(await request.form())
    session.check_csrf(request, _last(form, "csrf"))
    gateway = gw(request)
    await gateway.check_match_off_loop(match)
    player = await _player(request)
    if player is None:
        raise ApiError(403, "forbidden", "only the player who created this match may abandon it")
    await gateway.hall.lobby.abandon(check_id(match), player.player)
    return redirect(request, "/")


@get("/join/{match:str}", opt=PAGE, include_in_schema=False)
async def join_page(request: Req, match: FromPath[str]) -> Response[Any]:
    """Show a match's free seats to take."""
    csrf, cookie = session.csrf_token(request)
    gateway = gw(request)
    await gateway.check_match_off_loop(match)
    me = await _player(request)
    shown = await listing.entry(gateway, check_id(match), me)
    return html(pages.join_page(shown, csrf, me, root(request)), 200, cookie)


@post("/join/{match:str}", opt=FORM, include_in_schema=False, status_code=303)
async def join_seat(request: Req, match: FromPath[str]) -> Response[Any]:
    """Take a free seat: it becomes this browser's player's, whose page it opens."""
    form = _form(await request.form())
    session.check_csrf(request, _last(form, "csrf"))
    gateway = gw(request)
    await gateway.check_match_off_loop(match)
    match = check_id(match)
    given = _last(form, "seat")
    wanted = _whole(given, 999)
    listed = await reads.entry(gateway.hall, match)
    free = [s.seat for s in listed.seats if s.open]
    if listed.ended:  # abandoned or expired: say so
        check_live(match, {"ended": listed.ended}, "its seats are not taken any more")
    if listed.finished or (wanted is not None and wanted not in free) or not free:
        if free and wanted is not None:
            raise SeatAlreadyTaken(f"{seat_label(wanted)} was taken meanwhile")
        raise NoFreeSeat("every seat of this match is taken")
    known = await _player(request)
    typed = _last(form, "name")
    distinct = gateway.check_distinct
    if typed is not None and typed.strip():
        await reads.io(gateway.hall, distinct, match, check_name(typed), known and known.player)
    elif known is not None:
        await reads.io(gateway.hall, distinct, match, known.name, known.player)
    player, cookie = await _become(request, form)
    seat, token = await gateway.seats.claim(match, player.player, wanted)  # the match decides
    gateway.accepted(request, token)
    return redirect(request, session.seat_path(match, seat), [cookie] if cookie else [])


# -- a seat's page -----------------------------------------------------------------------------


async def _seat(request: Req, match: str, seat: int) -> int:
    """Return the seat of the page if this browser holds its token, or refuse in words (the
    store read off the event loop)."""
    gateway = gw(request)
    await gateway.check_match_off_loop(match)
    player = await _player(request)
    if player is not None and seat in await reads.seats_of(gateway.hall, match, player.player):
        return seat
    token = session.seat_token(request)
    seat_of = gateway.seats.seat_of
    if token is None or await reads.io(gateway.hall, seat_of, check_id(match), token) != seat:
        raise ApiError(
            401, "unauthorized",
            f"this browser holds no token for seat {seat + 1} of this match: join a free seat, "
            "or watch it as a spectator",
        )  # fmt: skip
    gateway.accepted(request, token)
    return seat


async def _held(request: Req, match: str) -> list[int]:
    """Return the seats of a match this browser's player holds (hot-seat: more than one)."""
    player = await _player(request)
    if player is None:
        return []
    return sorted(await reads.seats_of(gw(request).hall, match, player.player))


async def _scene(
    request: Req, match: str, seat: int | None, at: int | None, eyes: int | None
) -> scene.Scene:
    hall = gw(request).hall
    if at is None:
        return await scene.live(hall, match, seat, eyes)
    return await scene.replay(hall, match, seat, at, eyes)


async def _shown(
    request: Req, match: str, seat: int | None, at: int | None, eyes: int | None
) -> tuple[scene.Scene, Extras]:
    """Return what a page's frame shows and offers.

    A browser that holds several seats of a match plays them from one page: where the game
    hides nothing, the page shows whichever of its seats the match waits for; where it hides
    information, the page offers a one-click hand-over to that seat's page.
    """
    gateway = gw(request)
    base = root(request) + (session.seat_path(match, seat) if seat is not None
                            else f"/watch/{match}")  # fmt: skip
    now = await _scene(request, match, seat, at, eyes)
    extras = Extras(fork_url=f"{base}/fork", command_url=f"{base}/command" if seat is not None
                    else None, whatif_url=f"{root(request)}/watch/{match}/whatif",
                    names=await _bot_names(gateway, match))  # fmt: skip
    if seat is None or at is not None or not now.live:
        return now, extras
    held = await _held(request, match)
    hidden = gateway.hall.registry.games[now.game].hidden_information
    if now.ended:
        entry = await reads.entry(gateway.hall, check_id(match))
        rematch = entry.rematch
        info = await reads.info(gateway.hall, match)
        extras = msgspec.structs.replace(
            extras, rematch_url=f"{base}/rematch",
            rematch=await _rematch_path(request, rematch) if rematch else None,
            bots=_strength(gateway, info.game, list(info.bots.values())) if info.bots else None,
        )  # fmt: skip
        return now, extras
    others = [s for s in held if s != seat and s in now.awaiting]
    if len(held) < 2 or seat in now.awaiting or not others:
        return now, extras
    other = others[0]
    if not hidden:
        followed = await scene.live(gateway.hall, match, other)
        path = root(request) + session.seat_path(match, other)
        return followed, msgspec.structs.replace(extras, command_url=f"{path}/command")
    name = now.names[other] if other < len(now.names) else f"seat {other + 1}"
    url = root(request) + session.seat_path(match, other) + "?handover=1"
    return now, msgspec.structs.replace(extras, switch=(name, url))


async def _bot_names(gateway: Gateway, match: str) -> dict[int, str]:
    info = await reads.info(gateway.hall, match)
    hidden = gateway.hall.registry.games[info.game].hidden_information
    return {s: strengths.named(info.game, str(b), hidden) for s, b in info.bots.items()}


def _strength(gateway: Gateway, game: str, bots: list[Any]) -> str:
    """Return the strength in words of a match's bots ("" when they are not one of the
    lobby's, or of different strengths)."""
    hidden = gateway.hall.registry.games[game].hidden_information
    found = {
        s
        for s in strengths.STRENGTHS
        for b in bots
        if str(strengths.spec(game, s, hidden)) == str(b)
    }
    return found.pop() if len(found) == 1 and len(set(map(str, bots))) == 1 else ""


async def _rematch_path(request: Req, new: str) -> str:
    player = await _player(request)
    if player is not None:
        held = await reads.seats_of(gw(request).hall, new, player.player)
        if held:
            return root(request) + session.seat_path(new, min(held))
    return root(request) + f"/join/{new}"


async def _page(
    request: Req, match: str, seat: int | None, handover: bool = False
) -> Response[Any]:
    csrf, cookie = session.csrf_token(request)
    now, extras = await _shown(request, match, seat, None, None)
    ruleset = gw(request).hall.ruleset(match)
    title = title_of(ruleset)
    body = frame(ruleset, now, csrf, extras)
    base = root(request) + (session.seat_path(match, seat) if seat is not None
                            else f"/watch/{match}")  # fmt: skip
    urls = {"frame": f"{base}/frame", "events": f"{base}/events"}
    if seat is not None:
        urls["command"] = f"{base}/command"
    hidden = ruleset.game.hidden_information
    cover = None
    if handover and hidden and seat is not None and len(await _held(request, match)) > 1:
        cover = now.names[seat] if seat < len(now.names) else f"seat {seat + 1}"
    shown = pages.match_page(
        title, heading(ruleset, now), body, urls, csrf, now.names, root(request), cover
    )
    return html(shown, 200, cookie)


Handover = Annotated[bool, QueryParameter(required=False)]


@get("/play/{match:str}/{seat:int}", opt=PAGE, include_in_schema=False)
async def play(
    request: Req, match: FromPath[str], seat: FromPath[int], handover: Handover = False
) -> Response[Any]:
    """Show a seat's match page (``handover``: covered until the seat's person asks)."""
    await _seat(request, match, seat)
    return await _page(request, match, seat, handover)


@get("/watch/{match:str}", opt=PAGE, include_in_schema=False)
async def watch(request: Req, match: FromPath[str]) -> Response[Any]:
    """Show a match to a spectator."""
    await gw(request).check_match_off_loop(match)
    return await _page(request, match, None)


async def _frame(
    request: Req, match: str, seat: int | None, at: int | None, eyes: int | None
) -> Response[Any]:
    csrf, _ = session.csrf_token(request)
    shown, extras = await _shown(request, match, seat, at, eyes)
    return html(frame(gw(request).hall.ruleset(match), shown, csrf, extras))


@get("/play/{match:str}/{seat:int}/frame", opt=FRAGMENT, include_in_schema=False)
async def play_frame(
    request: Req, match: FromPath[str], seat: FromPath[int], at: Seq = None, eyes: As = None
) -> Response[Any]:
    """Return a seat's frame now, or at a seq of the replay."""
    await _seat(request, match, seat)
    await gw(request).caught_up(request, match)
    return await _frame(request, match, seat, at, eyes)


@get("/watch/{match:str}/frame", opt=FRAGMENT, include_in_schema=False)
async def watch_frame(
    request: Req, match: FromPath[str], at: Seq = None, eyes: As = None
) -> Response[Any]:
    """Return a spectator's frame now, or at a seq of the replay."""
    await gw(request).check_match_off_loop(match)
    await gw(request).caught_up(request, match)
    return await _frame(request, match, None, at, eyes)


async def _events(request: Req, match: str, seat: int | None, after: int) -> ServerSentEvent:
    gateway = gw(request)
    last = request.headers.get("last-event-id", "")
    start = max(after, _whole(last, INT64_MAX) or 0)
    player = await _player(request) if seat is None else None
    release = request.app.state.streams.take(address(request))
    messages = stream.messages(gateway.hall, match, seat, start, gateway.heartbeat, player)
    return stream.counted_response(messages, release, {**HEADERS, "X-Accel-Buffering": "no"})


@get("/play/{match:str}/{seat:int}/events", opt=FRAGMENT, include_in_schema=False)
async def play_events(
    request: Req, match: FromPath[str], seat: FromPath[int], after: Seq = None
) -> ServerSentEvent:
    """Stream a seat's events to its page."""
    await _seat(request, match, seat)
    return await _events(request, match, seat, after or 0)


@get("/watch/{match:str}/events", opt=FRAGMENT, include_in_schema=False)
async def watch_events(request: Req, match: FromPath[str], after: Seq = None) -> ServerSentEvent:
    """Stream the public events to a spectator's page."""
    await gw(request).check_match_off_loop(match)
    return await _events(request, match, None, after or 0)


@post(
    "/play/{match:str}/{seat:int}/command", opt=FRAGMENT, include_in_schema=False, status_code=200
)
async def command(request: Req, match: FromPath[str], seat: FromPath[int]) -> Response[Any]:
    """Send a command from a seat's page; a refusal comes back in words."""
    session.check_csrf(request, request.headers.get(session.CSRF_HEADER))
    await _seat(request, match, seat)
    try:
        data = msgspec.json.decode(await request.body(), type=CommandIn)
    except msgspec.ValidationError as exc:
        raise ApiError(400, "invalid_request", f"the move is malformed: {exc}") from None
    hall = gw(request).hall
    try:
        await gw(request).caught_up(request, match)
        ack = await hall.send(match, seat, data.command, data.command_id)
    except NotAwaited:
        return _answer(False, await _not_now(request, match, seat))
    except MatchOver:
        return _answer(False, "The match is over: no more moves.")
    except IllegalCommand as exc:
        return _answer(False, f"Refused: {exc.reason}")
    except GamehallError as exc:
        if status_of(exc) not in (400, 409):
            raise
        return _answer(False, f"Refused: {exc.message}")
    return _answer(True, version=ack.last_seq)


async def _not_now(request: Req, match: str, seat: int) -> str:
    now = await scene.live(gw(request).hall, match, seat)
    who = ", ".join(now.names[s] for s in sorted(now.awaiting) if s < len(now.names))
    return f"Not your move now: the match waits for {who}." if who else "Not your move now."


def _answer(ok: bool, refusal: str | None = None, version: int | None = None) -> Response[Any]:
    return Response(
        msgspec.json.encode(CommandAnswer(ok, refusal, version)), media_type="application/json",
        headers=HEADERS,
    )  # fmt: skip


async def _fork(request: Req, match: str) -> Response[Any]:
    form = _form(await request.form())
    session.check_csrf(request, _last(form, "csrf"))
    gateway = gw(request)
    if not await gateway.ended(match):
        raise ApiError(403, "forbidden", "a match can be forked here only once it has ended")
    try:
        at = int_text("the fork point", _last(form, "at_seq") or "", 1)
    except InvalidInput as exc:
        raise ApiError(400, "invalid_fork", str(exc)) from None
    players = (await reads.info(gateway.hall, match)).players
    new = await gateway.hall.fork(match, at, open_seats=range(players))
    return redirect(request, f"/join/{new}")


@post("/play/{match:str}/{seat:int}/fork", opt=FORM, include_in_schema=False, status_code=303)
async def play_fork(request: Req, match: FromPath[str], seat: FromPath[int]) -> Response[Any]:
    """Fork an ended match from a point of its replay; the new match's seats are open."""
    await _seat(request, match, seat)
    return await _fork(request, match)


@post("/play/{match:str}/{seat:int}/rematch", opt=FORM, include_in_schema=False, status_code=303)
async def play_rematch(request: Req, match: FromPath[str], seat: FromPath[int]) -> Response[Any]:
    """Start a rematch of a finished match (the seats rotated by one), its bots of the
    strength the form chose; then open this browser's seat of it."""
    form = _form(await request.form())
    session.check_csrf(request, _last(form, "csrf"))
    await _seat(request, match, seat)
    gateway = gw(request)
    hall = gateway.hall
    if not await gateway.ended(match):
        raise ApiError(409, "not_over", "a rematch follows a finished match")
    info = await reads.info(hall, match)
    n = info.players
    strength = _last(form, "bots") or ""
    chosen = None
    if info.bots and strength in strengths.STRENGTHS:
        hidden = hall.registry.games[info.game].hidden_information
        bot = strengths.spec(info.game, strength, hidden)
        chosen = {(s + 1) % n: bot for s in info.bots}
    known = (await reads.entry(hall, check_id(match))).rematch
    # The rematch's seats (players, bots, open) are stored with its first events.
    new = await hall.rematch(match, bots=chosen if known is None else None)
    return Response(
        "", status_code=303, headers={**HEADERS, "Location": await _rematch_path(request, new)}
    )


@get("/watch/{match:str}/whatif", opt={"web": "page"}, include_in_schema=False)
async def watch_whatif(
    request: Req, match: FromPath[str], at: whatif.At, move: whatif.Move = None
) -> Response[Any]:
    """Show a finished match's what-if page after event ``at``; a running match's only to the
    operator (the admin token as a bearer), as its forks are: its seed is the players' secret."""
    gateway = gw(request)
    await gateway.check_match_off_loop(match)
    hall = gateway.hall
    asker = await gateway.asker_off_loop(request, match) if bearer(request) is not None else None
    admin = asker is not None and asker.admin
    if (await reads.view(hall, match, None)).outcome is None and not admin:
        body = pages.problem(
            "Not finished yet",
            "What if… is offered once a match has ended (or to the operator): trying moves "
            "with the match's own dice while it goes on would reveal what the players may "
            "not know.",
            root(request),
        )
        return html(body, 403)
    records = await reads.read(hall, match)
    return html(whatif.page(hall.ruleset(match), records, match, at, move, root(request)))


@post("/watch/{match:str}/fork", opt=FORM, include_in_schema=False, status_code=303)
async def watch_fork(request: Req, match: FromPath[str]) -> Response[Any]:
    """Fork an ended match from a point of its replay, as a spectator."""
    await gw(request).check_match_off_loop(match)
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
    elif isinstance(exc, NotCaughtUp):  # the match and version asked for: no store detail
        status, message = 503, exc.message
    elif is_store_error(exc) or (isinstance(exc, GamehallError) and status_of(exc) == 503):
        status, message = 503, store_message(request, exc)  # never the store's path or URL
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
        parts = str(request.scope.get("path", "")).split("/")
        at = root(request)
        if status == 401 and len(parts) > 2:
            hint = join(
                tag("p", tag("a", "Join a free seat", href=f"{at}/join/{parts[2]}"), " or ",
                    tag("a", "watch it", href=f"{at}/watch/{parts[2]}"), ".")
            )  # fmt: skip
        body = pages.problem(titles.get(status, "That did not work"), message, at, hint)
        return html(body, status) if status != 503 else _retry(html(body, status))
    answer = Response(message, status_code=status, media_type="text/plain", headers=HEADERS)
    return _retry(answer) if status == 503 else answer


def _retry(response: Response[Any]) -> Response[Any]:
    response.headers["Retry-After"] = RETRY_AFTER[503]
    return response


ROUTES = [
    lobby, rename, create, join_page, join_seat, play, watch, play_frame, watch_frame, play_events,
    watch_events, command, play_fork, play_rematch, watch_fork, static, watch_whatif, abandon,
]  # fmt: skip


def router() -> Router:
    """Return the web page's routes, with their own error pages."""
    from ..errors import HANDLERS

    handlers: dict[int | type[Exception], Any] = {kind: on_error for kind in HANDLERS}
    return Router(path="/", route_handlers=ROUTES, exception_handlers=handlers)
