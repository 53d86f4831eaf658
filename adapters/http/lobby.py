"""The lobby's routes: players, the match listing, spectators, rematches, take-backs, deletion."""

from __future__ import annotations

import time
from typing import Annotated, Any, Literal

import msgspec
from gamehall.core import reads
from gamehall.core.hall import MatchInfo
from gamehall.core.limits import MATCH_ID_RULE
from gamehall.core.lobby import LobbyEntry, LobbyPage
from gamehall.core.store.base import MAX_PAGE
from gamehall.core.words import ago
from litestar import Request, delete, get, post, put
from litestar.params import JSONBody, Parameter, QueryParameter

from .errors import ApiError
from .gateway import Gateway, check_id
from .openapi import AS_SEAT, READ, WRITE, errors
from .schemas import (
    AnswerUndo,
    Created,
    DeletedOut,
    LobbyMatch,
    LobbyOut,
    LobbySeat,
    NewPlayer,
    PlayerCreated,
    PlayerOut,
    Rematch,
    Rename,
    SpectatorOut,
    SpectatorsOut,
    UndoOut,
)
from .web import bots as strengths

Req = Request[Any, Any, Any]
MatchPath = Annotated[str, Parameter(description=f"the match id: {MATCH_ID_RULE}")]
SeatPath = Annotated[int, Parameter(description="a seat, counted from 0", ge=0, le=1000)]
SEAT: list[dict[str, list[str]]] = [{"seat": []}]
PLAYER: list[dict[str, list[str]]] = [{"seat": []}]
OPTIONAL_PLAYER: list[dict[str, list[str]]] = [{}, {"seat": []}]
ADMIN: list[dict[str, list[str]]] = [{"admin": []}]


def gw(request: Req) -> Gateway:
    """Return the gateway of the app that got the request."""
    gateway: Gateway = request.app.state.gamehall
    return gateway


# -- players ---------------------------------------------------------------------------------


@post("/players", status_code=201, tags=["players"], responses=errors(400, 413, 415, 503))
async def create_player(request: Req, data: JSONBody[NewPlayer]) -> PlayerCreated:
    """Become a player: the answer holds the player token, shown only once.

    One token per person: it creates matches, takes seats, lists your matches
    (``GET /matches?mine=true``) and acts for every seat you hold.
    """
    gateway = gw(request)
    player, token = await gateway.hall.lobby.register(data.name)
    gateway.accepted(request, token)
    assert player.name is not None
    return PlayerCreated(player.player, player.name, token)


@get("/players/me", tags=["players"], security=PLAYER, responses=errors(400, 401))
async def get_me(request: Req) -> PlayerOut:
    """Return the player of the token: the id others see and the display name."""
    player = await gw(request).player_of_off_loop(request)
    assert player is not None
    return PlayerOut(player.player, player.name)


@put("/players/me/name", tags=["players"], security=PLAYER, responses=errors(400, 401, 413, 415))
async def rename_me(request: Req, data: JSONBody[Rename]) -> PlayerOut:
    """Change your display name; every view shows the new one at once."""
    gateway = gw(request)
    player = await gateway.player_of_off_loop(request)
    assert player is not None
    renamed = await gateway.hall.lobby.rename(player.player, data.name)
    return PlayerOut(renamed.player, renamed.name)


@delete(
    "/players/me/name", status_code=200, tags=["players"], security=PLAYER,
    responses=errors(400, 401),
)  # fmt: skip
async def erase_my_name(request: Req) -> PlayerOut:
    """Erase your display name (retention): your seats stay yours, no view shows the name."""
    gateway = gw(request)
    player = await gateway.player_of_off_loop(request)
    assert player is not None
    erased = await gateway.hall.lobby.rename(player.player, None)
    return PlayerOut(erased.player, erased.name)


# -- the listing -----------------------------------------------------------------------------


def lobby_out(page: LobbyPage, now: float | None = None) -> LobbyOut:
    """Return a lobby page as the API answers it (ages in words as of ``now``)."""
    now = time.time() if now is None else now
    return LobbyOut([match_out(e, now) for e in page.matches], page.total, page.next)


def match_out(e: LobbyEntry, now: float) -> LobbyMatch:
    """Return one listing entry as the API answers it."""
    return LobbyMatch(
        e.match,
        e.game,
        e.expansions,
        e.players,
        [LobbySeat(**msgspec.structs.asdict(s)) for s in e.seats],
        e.open_seats,
        e.finished,
        e.version,
        e.created,
        e.updated,
        e.spectators,
        e.clock,
        e.rematch_of,
        e.rematch,
        e.ended,
        e.creator,
        ago(max(0.0, now - e.created)),
        ago(max(0.0, now - e.updated)),
    )  # fmt: skip


@get("/matches", tags=["lobby"], security=OPTIONAL_PLAYER, responses=errors(400, 401))
async def list_matches(
    request: Req,
    game: Annotated[str | None, QueryParameter(max_length=64, description="a game id")] = None,
    status: Annotated[
        Literal["running", "finished"] | None,
        QueryParameter(name="state", description="running: not over yet; finished: over"),
    ] = None,
    open: Annotated[  # noqa: A002 - the query parameter's name
        bool | None, QueryParameter(description="true: matches with a seat left to take")
    ] = None,
    mine: Annotated[
        bool, QueryParameter(description="only the matches where the player token holds a seat")
    ] = False,
    player: Annotated[
        str | None, QueryParameter(max_length=64, description="only the matches of this player id")
    ] = None,
    cursor: Annotated[
        str | None, QueryParameter(max_length=200, description="a page's 'next', for the next page")
    ] = None,
    limit: Annotated[int, QueryParameter(ge=1, le=MAX_PAGE)] = 50,
) -> LobbyOut:
    """List matches, newest first, one page at a time, with every filter given applied."""
    gateway = gw(request)
    if mine:
        me = await gateway.player_of_off_loop(request)
        assert me is not None
        if player is not None and player != me.player:
            raise ApiError(400, "invalid_request", "'mine' and another 'player' contradict")
        player = me.player
    finished = None if status is None else status == "finished"
    page = await gateway.hall.lobby.listing(
        game=game, finished=finished, open_seats=open, player=player, cursor=cursor, limit=limit
    )
    return lobby_out(page, gateway.hall.now())


@get("/matches/{match:str}/spectators", tags=["lobby"], responses=errors(*READ))
async def list_spectators(request: Req, match: MatchPath) -> SpectatorsOut:
    """Return how many follow a match without a seat now, and who (named players)."""
    gateway = gw(request)
    await gateway.check_match_off_loop(match)
    watching = gateway.hall.lobby.watching(check_id(match))
    shown = [SpectatorOut(s.player, s.name) for s in watching]
    return SpectatorsOut(match, len(shown), shown)


# -- after the end ---------------------------------------------------------------------------


@post(
    "/matches/{match:str}/rematch", status_code=201, tags=["lobby"], security=SEAT,
    responses=errors(*WRITE),
)  # fmt: skip
async def rematch(request: Req, match: MatchPath, data: JSONBody[Rematch]) -> Created:
    """Start a rematch of a finished match: same game, options, clock and players, seats
    rotated by one. Asked again, it answers the same rematch. Seats held by a seat token
    (not a player) are open in the rematch, to be claimed."""
    gateway = gw(request)
    asker = await gateway.asker_off_loop(request, match)
    if not asker.admin and asker.seat is None:
        raise ApiError(403, "forbidden", "a rematch is asked by a seat of the match")
    if data.seed is not None and not asker.admin:
        raise ApiError(403, "forbidden", "only the admin token may choose the seed")
    hall = gateway.hall
    known = (await reads.entry(hall, match)).rematch
    chosen = _bots_of(hall, await reads.info(hall, match), data.bots)
    new = await hall.rematch(match, seed=data.seed, bots=chosen)
    info = await reads.info(hall, new)
    if known == new:  # already seated
        return Created(new, info.game, info.players, "open", [], info.bots)
    return gateway.created(info, "open", {})


def _bots_of(hall: Any, info: MatchInfo, strength: str | None) -> dict[int, Any] | None:
    """Return the rematch's bots of a strength, by its seats (rotated by one); ``None`` keeps
    the same bots."""
    if strength is None:
        return None
    if not info.bots:
        raise ApiError(400, "invalid_options", "the match had no bots whose strength to choose")
    hidden = hall.registry.games[info.game].hidden_information
    bot = strengths.spec(info.game, strength, hidden)
    return {(seat + 1) % info.players: bot for seat in info.bots}


@delete(
    "/matches/{match:str}", status_code=200, tags=["lobby"], security=ADMIN,
    responses=errors(*AS_SEAT, 403),
)  # fmt: skip
async def delete_match(request: Req, match: MatchPath) -> DeletedOut:
    """Delete a finished match and its events (admin only): for retention."""
    gateway = gw(request)
    asker = await gateway.asker_off_loop(request, match)
    if not asker.admin:
        raise ApiError(403, "forbidden", "only the admin token deletes a match")
    await gateway.hall.lobby.delete(match)  # its seat tokens go with it
    return DeletedOut(match, True)


@post(
    "/matches/{match:str}/abandon", status_code=200, tags=["lobby"], security=PLAYER,
    responses=errors(*WRITE),
)  # fmt: skip
async def abandon_match(request: Req, match: MatchPath) -> LobbyMatch:
    """Abandon a match you created (with your player token) while nobody else joined it:
    every seat is open, a bot's or yours. It is over, without an outcome (``ended`` is
    ``abandoned``), and leaves the listings after the server's retention time."""
    gateway = gw(request)
    await gateway.check_match_off_loop(match)
    me = await gateway.player_of_off_loop(request)
    assert me is not None
    await gateway.hall.lobby.abandon(check_id(match), me.player)
    return match_out(await reads.entry(gateway.hall, match), gateway.hall.now())


@delete(
    "/matches/{match:str}/seats/{seat:int}", status_code=200, tags=["lobby"], security=PLAYER,
    responses=errors(*WRITE),
)  # fmt: skip
async def leave_seat(request: Req, match: MatchPath, seat: SeatPath) -> LobbyMatch:
    """Leave a seat you hold (with your player token), or free one as the match's creator,
    while the match waits for players (a seat of it is still open): the seat is open again.
    ``seat`` counts from 0."""
    gateway = gw(request)
    await gateway.check_match_off_loop(match)
    me = await gateway.player_of_off_loop(request)
    assert me is not None
    await gateway.hall.lobby.leave_seat(check_id(match), me.player, seat)
    return match_out(await reads.entry(gateway.hall, match), gateway.hall.now())


# -- take-backs ------------------------------------------------------------------------------


@post(
    "/matches/{match:str}/undo", status_code=200, tags=["play"], security=SEAT,
    responses=errors(*WRITE),
)  # fmt: skip
async def request_undo(request: Req, match: MatchPath) -> UndoOut:
    """Ask to take back your last command; it is done once every seat concerned agreed."""
    gateway = gw(request)
    seat = await gateway.seat_of_off_loop(request, match)
    status = await gateway.hall.request_undo(match, seat)
    return UndoOut(**msgspec.structs.asdict(status))


@put(
    "/matches/{match:str}/undo", tags=["play"], security=SEAT, responses=errors(*WRITE),
)  # fmt: skip
async def answer_undo(request: Req, match: MatchPath, data: JSONBody[AnswerUndo]) -> UndoOut:
    """Agree to the take-back waiting in a match, or decline it."""
    gateway = gw(request)
    seat = await gateway.seat_of_off_loop(request, match)
    status = await gateway.hall.answer_undo(match, seat, data.agree)
    return UndoOut(**msgspec.structs.asdict(status))


@get("/matches/{match:str}/undo", tags=["play"], responses=errors(*READ))
async def get_undo(request: Req, match: MatchPath) -> UndoOut:
    """Return the take-back waiting for answers in a match (404 when none waits)."""
    gateway = gw(request)
    await gateway.check_match_off_loop(match)
    status = gateway.hall.undo_status(check_id(match))
    if status is None:
        raise ApiError(404, "not_found", f"no take-back is waiting in match {match!r}")
    return UndoOut(**msgspec.structs.asdict(status))


LOBBY_ROUTES = [
    create_player,
    get_me,
    rename_me,
    erase_my_name,
    list_matches,
    list_spectators,
    rematch,
    delete_match,
    abandon_match,
    leave_seat,
    request_undo,
    answer_undo,
    get_undo,
]
