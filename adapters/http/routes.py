"""The routes of the HTTP API; every answer is redacted for whoever asks."""

from __future__ import annotations

from typing import Annotated, Any

import anyio
import msgspec
from gamehall.core import calculators as calc
from gamehall.core.errors import GamehallError
from litestar import Request, Response, get, post
from litestar.params import FromPath, HeaderParameter, JSONBody, QueryParameter
from litestar.response import ServerSentEvent

from . import stream
from .errors import ApiError
from .gateway import Gateway, check_id
from .schemas import (
    AckOut,
    BareOk,
    CalculationOut,
    CalculatorOut,
    ClaimSeat,
    Created,
    CreateMatch,
    ForkMatch,
    GameOut,
    Health,
    HistoryOut,
    MatchOut,
    PostCommand,
    SeatOut,
    SeatToken,
    ViewOut,
)

SEAT: list[dict[str, list[str]]] = [{"seat": []}]
OPTIONAL_SEAT: list[dict[str, list[str]]] = [{}, {"seat": []}]
ADMIN_OR_ENDED: list[dict[str, list[str]]] = [{}, {"admin": []}]
HISTORY_LIMIT = 1000
After = Annotated[int, QueryParameter(ge=0, description="only events with a larger seq")]
Req = Request[Any, Any, Any]


def gw(request: Req) -> Gateway:
    """Return the gateway of the app that got the request."""
    gateway: Gateway = request.app.state.gamehall
    return gateway


@get("/health", tags=["server"])
async def health(request: Req) -> Health:
    """Tell that the server answers; report installed games and active matches."""
    gateway = gw(request)
    return Health("ok", len(gateway.hall.registry.games), gateway.hall.active)


@get("/games", tags=["games"])
async def list_games(request: Req) -> list[GameOut]:
    """List installed games with their expansions, options and command schemas."""
    return list(gw(request).games().values())


@get("/games/{game:str}", tags=["games"])
async def get_game(request: Req, game: FromPath[str]) -> GameOut:
    """Describe one installed game."""
    return gw(request).game(game)


@get("/games/{game:str}/calculators", tags=["games"])
async def list_calculators(request: Req, game: FromPath[str]) -> list[CalculatorOut]:
    """List the calculators a game offers (an odds calculator), with their request schemas."""
    registry = gw(request).hall.registry
    registry.game(game)
    return [
        CalculatorOut(
            c.game,
            c.name,
            c.description,
            msgspec.json.schema(c.request),
            msgspec.json.schema(c.answer),
        )
        for c in calc.calculators(registry, game)
    ]


@post("/games/{game:str}/calculators/{name:str}", status_code=200, tags=["games"])
async def run_calculator(
    request: Req, game: FromPath[str], name: FromPath[str], data: JSONBody[dict[str, Any]]
) -> CalculationOut:
    """Run one of a game's calculators on the request in the body; answer in data and words."""
    try:
        calculator = calc.find(gw(request).hall.registry, game, name)
    except calc.UnknownCalculator as exc:
        raise ApiError(404, "not_found", exc.message) from None
    decoded = calc.decode(calculator, data)
    answer = await anyio.to_thread.run_sync(calc.calculate, calculator, decoded)
    text = calc.words(calculator, answer)
    return CalculationOut(game, name, msgspec.to_builtins(answer), text)


@post("/matches", status_code=201, tags=["matches"])
async def create_match(request: Req, data: JSONBody[CreateMatch]) -> Created:
    """Start a match; with ``tokens`` seating the answer holds one secret token per seat."""
    gateway = gw(request)
    match = await gateway.hall.create(
        data.game,
        data.players,
        expansions=data.expansions,
        options=data.options,
        expansion_options=data.expansion_options,
        seed=data.seed,
    )
    players = gateway.hall.info(match).players
    return await gateway.seat(match, data.game, players, data.seating)


@get("/matches/{match:str}", tags=["matches"])
async def get_match(request: Req, match: FromPath[str]) -> MatchOut:
    """Describe a match as anyone may see it: seq, awaited seats, outcome, claimed seats."""
    gateway = gw(request)
    info = gateway.hall.info(check_id(match))
    public = gateway.hall.view(match, None)
    seats = gateway.seats.seats(match)
    return MatchOut(
        match, info.game, info.expansions, info.players, info.version, info.created,
        info.updated, public.awaiting, public.outcome,
        [SeatOut(s, bool(seats) and seats[s] is not None) for s in range(info.players)],
        info.forked_from, info.fork_seq,
    )  # fmt: skip


@post("/matches/{match:str}/seats", status_code=201, tags=["matches"])
async def claim_seat(request: Req, match: FromPath[str], data: JSONBody[ClaimSeat]) -> SeatToken:
    """Claim a free seat of an open match; the answer holds its token, shown only once."""
    gateway = gw(request)
    gateway.check_match(match)
    seat, token = await gateway.run_sync(gateway.seats.claim, match, data.seat)
    return SeatToken(seat, token)


@get("/matches/{match:str}/view", tags=["play"], security=OPTIONAL_SEAT)
async def get_view(request: Req, match: FromPath[str]) -> ViewOut:
    """Return the asker's view, the decisions awaited and the asker's legal commands."""
    gateway = gw(request)
    asker = gateway.asker(request, match)
    seen = gateway.hall.view(match, asker.seat)
    legal = [msgspec.to_builtins(c) for c in seen.legal]
    return ViewOut(seen.match, seen.seq, seen.seat, seen.view, seen.awaiting, legal, seen.outcome)


@get("/matches/{match:str}/board", tags=["play"], security=OPTIONAL_SEAT, media_type="text/plain")
async def get_board(request: Req, match: FromPath[str]) -> str:
    """Return the asker's board as text."""
    gateway = gw(request)
    asker = gateway.asker(request, match)
    return str(gateway.hall.render(match, asker.seat)) + "\n"


@post("/matches/{match:str}/commands", status_code=200, tags=["play"], security=SEAT)
async def post_command(request: Req, match: FromPath[str], data: JSONBody[PostCommand]) -> AckOut:
    """Send a command for the token's seat; a retry with the same id gets the first answer."""
    gateway = gw(request)
    seat = gateway.seat_of(request, match)
    # Command ids are per seat: one seat can never read another's answer by reusing its id.
    ack = await gateway.hall.send(match, seat, data.command, f"{seat}:{data.command_id}")
    lines = [gateway.hall.registry.codec.event_line(r) for r in ack.events]
    return AckOut(match, data.command_id, ack.first_seq, ack.last_seq, ack.duplicate, lines)


@get("/matches/{match:str}/history", tags=["play"], security=OPTIONAL_SEAT)
async def get_history(
    request: Req,
    match: FromPath[str],
    after: After = 0,
    limit: Annotated[int, QueryParameter(ge=1, le=HISTORY_LIMIT)] = 500,
) -> HistoryOut:
    """Return the asker's redacted events after a seq, at most ``limit`` stored events."""
    gateway = gw(request)
    asker = gateway.asker(request, match)
    hall = gateway.hall
    stored = hall.store.version(match)  # read before: every event up to it is in the answer
    told = hall.narrated_history(match, asker.seat, after, limit)
    upto = max(after, min(after + limit, stored), *(t.record.seq for t in told[-1:]))
    line = hall.registry.codec.event_line
    return HistoryOut(match, asker.seat, after, upto, [line(t.record, t.text) for t in told])


@get(
    "/matches/{match:str}/events",
    tags=["play"],
    security=OPTIONAL_SEAT,
    media_type="text/event-stream",
)
async def get_events(
    request: Req,
    match: FromPath[str],
    after: After = 0,
    token: Annotated[
        str | None, QueryParameter(description="a seat token, for clients that cannot send headers")
    ] = None,
    last_event_id: Annotated[int | None, HeaderParameter(name="Last-Event-ID", ge=0)] = None,
) -> ServerSentEvent:
    """Stream the asker's events as Server-Sent Events from a seq on, live; ends with ``end``."""
    gateway = gw(request)
    asker = gateway.asker(request, match, query_token=True)
    start = last_event_id if last_event_id is not None else after
    messages = stream.messages(gateway.hall, match, asker.seat, start, gateway.heartbeat)
    return ServerSentEvent(
        messages, headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"}
    )


@post("/matches/{match:str}/fork", status_code=201, tags=["matches"], security=ADMIN_OR_ENDED)
async def fork_match(request: Req, match: FromPath[str], data: JSONBody[ForkMatch]) -> Created:
    """Start a new match from the first ``at_seq`` events (admin, or once the match ended)."""
    gateway = gw(request)
    asker = gateway.asker(request, match)
    gateway.may_see_all(asker, match, "a fork")
    if data.seed is not None and not asker.admin:
        raise ApiError(403, "forbidden", "only the admin token may choose the seed of a fork")
    try:
        new = await gateway.hall.fork(match, data.at_seq, seed=data.seed)
    except GamehallError as exc:
        if type(exc) is not GamehallError:
            raise
        raise ApiError(400, "invalid_fork", exc.message) from None
    info = gateway.hall.info(new)
    return await gateway.seat(new, info.game, info.players, data.seating)


@get(
    "/matches/{match:str}/log",
    tags=["matches"],
    security=ADMIN_OR_ENDED,
    media_type="application/x-ndjson",
)
async def export_log(request: Req, match: FromPath[str]) -> Response[bytes]:
    """Export the whole log as JSON Lines (admin, or once the match ended)."""
    gateway = gw(request)
    asker = gateway.asker(request, match)
    gateway.may_see_all(asker, match, "the full log")
    codec = gateway.hall.registry.codec
    lines = b"".join(codec.record_to_json(r) + b"\n" for r in gateway.hall.store.read(match))
    disposition = f'attachment; filename="{match}.jsonl"'
    return Response(
        lines, media_type="application/x-ndjson", headers={"Content-Disposition": disposition}
    )


@post("/bare", status_code=200, include_in_schema=False)
async def bare(data: JSONBody[PostCommand]) -> BareOk:
    """Decode a command body and answer 200: the benchmark's baseline."""
    return BareOk(True)


ROUTES = [
    health,
    list_games,
    get_game,
    list_calculators,
    run_calculator,
    create_match,
    get_match,
    claim_seat,
    get_view,
    get_board,
    post_command,
    get_history,
    get_events,
    fork_match,
    export_log,
]
