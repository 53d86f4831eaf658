"""The routes of the HTTP API; every answer is redacted for whoever asks."""

from __future__ import annotations

from typing import Annotated, Any

import anyio
import msgspec
from gamehall.core import calculators as calc
from gamehall.core import reads
from gamehall.core.errors import DuplicateMatch, InvalidOptions
from gamehall.core.limits import INT64_MAX, MATCH_ID_RULE
from gamehall.core.logformat import header_for, log_lines
from litestar import Request, Response, get, post
from litestar.params import FromPath, HeaderParameter, JSONBody, Parameter, QueryParameter
from litestar.response import ServerSentEvent

from . import once, stream
from .caller import address
from .errors import ApiError
from .gateway import VERSION_HEADER, Gateway, check_id
from .guard import BotLimits
from .lobby import LOBBY_ROUTES
from .openapi import AS_SEAT, READ, WRITE, errors
from .schemas import (
    AckOut,
    BareOk,
    CalculationOut,
    CalculatorOut,
    ClaimSeat,
    ClockOut,
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
    UndoOut,
    ViewOut,
)

SEAT: list[dict[str, list[str]]] = [{"seat": []}]
OPTIONAL_SEAT: list[dict[str, list[str]]] = [{}, {"seat": []}]
ADMIN_OR_ENDED: list[dict[str, list[str]]] = [{}, {"admin": []}]
HISTORY_LIMIT = 1000
After = Annotated[
    int, QueryParameter(ge=0, le=INT64_MAX, description="only events with a larger seq")
]
# An id that breaks the rule is a 404 like any unknown one; the document shows the rule.
MatchPath = Annotated[str, Parameter(description=f"the match id: {MATCH_ID_RULE}")]
LastEventId = Annotated[
    int,
    HeaderParameter(
        name="Last-Event-ID", ge=0, le=INT64_MAX, required=False,
        description="the seq of the last event seen: the stream resumes after it",
    ),
]  # fmt: skip
Version = Annotated[
    int | None,
    HeaderParameter(
        name=VERSION_HEADER, ge=0, le=INT64_MAX, required=False,
        description="the match version (last_seq) of the asker's last acknowledgement: answer "
        "only from state at least that new (400 unknown_version past the match's last seq; 503 "
        "not_caught_up when this node did not catch up in time)",
    ),
]  # fmt: skip
Req = Request[Any, Any, Any]


def gateway_of(request: Req) -> Gateway:
    """Return the gateway of the app that got the request."""
    gateway: Gateway = request.app.state.gamehall
    return gateway


@get("/health", tags=["server"], responses=errors())
async def health(request: Req) -> Health:
    """Tell that the server answers; report installed games and active matches."""
    gateway = gateway_of(request)
    return Health("ok", len(gateway.hall.registry.games), gateway.hall.active)


@get("/games", tags=["games"], responses=errors())
async def list_games(request: Req) -> list[GameOut]:
    """List installed games with their expansions, options and command schemas."""
    return list(gateway_of(request).games().values())


@get("/games/{game:str}", tags=["games"], responses=errors(400, 404))
async def get_game(request: Req, game: FromPath[str]) -> GameOut:
    """Describe one installed game."""
    return gateway_of(request).game(game)


@get("/games/{game:str}/calculators", tags=["games"], responses=errors(400, 404))
async def list_calculators(request: Req, game: FromPath[str]) -> list[CalculatorOut]:
    """List the calculators a game offers (an odds calculator), with their request schemas."""
    registry = gateway_of(request).hall.registry
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


@post(
    "/games/{game:str}/calculators/{name:str}",
    status_code=200,
    tags=["games"],
    responses=errors(400, 404, 413, 415),
)
async def run_calculator(
    request: Req, game: FromPath[str], name: FromPath[str], data: JSONBody[dict[str, Any]]
) -> CalculationOut:
    """Run one of a game's calculators on the request in the body; answer in data and words."""
    try:
        registry = gateway_of(request).hall.registry
        calculator = calc.find(registry, game, name)
    except calc.UnknownCalculator as exc:
        raise ApiError(404, "not_found", exc.message) from None
    decoded = calc.decode(calculator, data)

    def work() -> Any:
        with calc.cancellable(anyio.from_thread.check_cancelled):
            return calc.calculate(calculator, decoded, registry)

    answer: Any = None
    refused: Exception | None = None
    async with anyio.create_task_group() as tg:
        tg.start_soon(_cancel_when_gone, request, tg.cancel_scope)
        with anyio.move_on_after(CALCULATION_SECONDS) as deadline:
            # Calculators have threads of their own: a flood of them never holds the
            # threads that creates, sign-ups and the stores use.
            try:
                answer = await anyio.to_thread.run_sync(work, limiter=_calculators(request))
            except Exception as exc:  # noqa: BLE001 - a calculator's (plugin's) error: raised below
                refused = exc
        tg.cancel_scope.cancel()
    if refused is not None:
        raise refused
    if deadline.cancelled_caught:
        raise ApiError(
            503, "calculation_too_long",
            f"the calculation did not finish within {CALCULATION_SECONDS:g} s: ask for a "
            "smaller one (fewer samples)", headers={"Retry-After": "5"},
        )  # fmt: skip
    if answer is None:  # the asker left: nobody reads this
        raise ApiError(499, "client_closed", "the client left before the answer")
    text = calc.words(calculator, answer)
    return CalculationOut(game, name, msgspec.to_builtins(answer), text)


CALCULATION_SECONDS = 20.0
CALCULATORS_AT_ONCE = 2


def _calculators(request: Req) -> anyio.CapacityLimiter:
    """Return the app's limiter of calculator threads (made in the event loop, once)."""
    limiter: anyio.CapacityLimiter | None = request.app.state.get("calculators")
    if limiter is None:
        limiter = request.app.state["calculators"] = anyio.CapacityLimiter(CALCULATORS_AT_ONCE)
    return limiter


async def _cancel_when_gone(request: Req, scope: anyio.CancelScope) -> None:
    """Cancel ``scope`` once the client disconnects (its body was read already)."""
    while True:
        message = await request.receive()
        if message["type"] == "http.disconnect":
            scope.cancel()
            return


@post(
    "/matches", status_code=201, tags=["matches"], security=OPTIONAL_SEAT,
    responses=errors(400, 401, 413, 415, 503),
)  # fmt: skip
async def create_match(request: Req, data: JSONBody[CreateMatch]) -> Created:
    """Start a match; the answer holds a secret token for each seat seated with one.

    ``seats`` (one role per seat) mixes token seats, open seats and bot seats, which the
    engine plays. With a player token, the creator takes ``seat`` (the first seat that is no
    bot's by default) and acts there with the player token; ``clock`` makes the match timed.
    """
    gateway = gateway_of(request)
    player = await gateway.player_of_off_loop(request, required=False)
    if data.request_id is None:
        return await _create(request, data, player, None)
    scope = player.player if player is not None else "anonymous"
    replies: once.Replies = request.app.state.replies
    match_id = once.match_id_for(scope, data.request_id)
    return await replies.once(
        (scope, data.request_id), lambda: _create(request, data, player, match_id)
    )


async def _create(request: Req, data: CreateMatch, player: Any, match_id: str | None) -> Created:
    """Create a match and its seats (``match_id``: the one its request id stands for)."""
    gateway = gateway_of(request)
    hall = gateway.hall
    ruleset = hall.registry.ruleset(data.game, data.expansions)
    low, high = ruleset.player_range
    if data.players is not None and not low <= data.players <= high:  # before anything is sized
        allowed = f"{low} players" if low == high else f"{low} to {high} players"
        raise InvalidOptions(f"{ruleset.name} plays with {allowed}, not players={data.players}")
    bots = bot_seats(data, hall.registry)
    budgets: BotLimits = request.app.state.get("bot_limits") or BotLimits()
    for role in data.seats or ():
        if role.startswith("bot"):
            budgets.check_role(role)
    count = data.players if data.players is not None else None
    roles = _roles(data, hall, count)
    seat_players: dict[int, str] = {}
    if player is not None:
        seat = (
            data.seat
            if data.seat is not None
            else next((s for s, r in enumerate(roles) if not r.startswith("bot")), 0)
        )
        if not 0 <= seat < len(roles) or roles[seat].startswith("bot"):
            raise ApiError(400, "invalid_request", f"seat {seat} is not one you can take")
        roles[seat] = "player"
        seat_players[seat] = player.player
    elif data.seat is not None:
        raise ApiError(400, "invalid_request", "'seat' goes with a player token")
    # The seats' tokens are stored with the match's first events: all of it, or nothing.
    tokens, digests = gateway.seats.issue([s for s, r in enumerate(roles) if r == "token"])
    try:
        match = await hall.create(
            data.game,
            data.players,
            expansions=data.expansions,
            options=data.options,
            expansion_options=data.expansion_options,
            seed=data.seed,
            bots=bots,
            bot_seed=data.seed,
            clock=data.clock,
            seat_players=seat_players,
            open_seats=[s for s, r in enumerate(roles) if r == "open"],
            undo=data.undo,
            match_id=match_id,
            seat_tokens=digests,
            creator=player.player if player is not None else None,
        )
    except DuplicateMatch:
        if match_id is None:
            raise
        # A retry the node no longer remembers: the match was stored with its seats in one
        # append, and its seat tokens were in the first answer.
        raise ApiError(
            409, "already_created", f"request_id {data.request_id!r} already created match "
            f"{match_id!r}: its seat tokens were in that answer",
        ) from None  # fmt: skip
    return gateway.created(await reads.info(hall, match), data.seating, tokens)


def _roles(data: CreateMatch, hall: Any, count: int | None) -> list[str]:
    """Return the role of each seat of a create request (token, open, bot…)."""
    if data.seats is not None:
        return list(data.seats)
    low = hall.registry.ruleset(data.game, data.expansions).player_range[0]
    seats = count if count is not None else low
    return ["open" if data.seating == "open" else "token"] * seats


def bot_seats(data: CreateMatch, registry: Any) -> dict[int, str]:
    """Return the bot of each bot seat of a create request, refusing a wrong number of seats."""
    roles = data.seats
    if roles is None:
        return {}
    low = registry.ruleset(data.game, data.expansions).player_range[0]
    count = data.players if data.players is not None else low
    if len(roles) != count:
        raise ApiError(
            400, "invalid_request", f"seats lists {len(roles)} roles for {count} players"
        )
    return {seat: role[4:] or "random" for seat, role in enumerate(roles) if role.startswith("bot")}


@get("/matches/{match:str}", tags=["matches"], responses=errors(*READ))
async def get_match(request: Req, match: MatchPath, gamehall_version: Version = None) -> MatchOut:
    """Describe a match as anyone may see it: seq, awaited seats, outcome, seats and who holds
    them, the clocks, how many follow it, and the rematch links."""
    gateway = gateway_of(request)
    hall = gateway.hall
    await gateway.caught_up(request, match, gamehall_version)
    public = await reads.view(hall, check_id(match), None)  # activated off the loop, once
    info = await reads.info(hall, match)
    tokens = await reads.io(hall, gateway.seats.seats, match)
    entry = await reads.entry(hall, match)
    return MatchOut(
        match, info.game, info.expansions, info.players, info.version, info.created,
        info.updated, public.awaiting, public.outcome,
        [
            SeatOut(s, s in tokens or s in info.bots or entry.seats[s].player is not None,
                    info.bots.get(s), entry.seats[s].name, entry.seats[s].player)
            for s in range(info.players)
        ],
        info.forked_from, info.fork_seq, public.names, clock_out(public.clock),
        entry.spectators, public.outcome is not None or entry.ended is not None, entry.rematch_of,
        entry.rematch, entry.ended, entry.creator,
    )  # fmt: skip


def clock_out(clock: Any) -> ClockOut | None:
    """Return a view's clocks as the API answers them."""
    return None if clock is None else ClockOut(**msgspec.structs.asdict(clock))


def undo_out(status: Any) -> UndoOut | None:
    """Return a take-back as the API answers it."""
    return None if status is None else UndoOut(**msgspec.structs.asdict(status))


@post(
    "/matches/{match:str}/seats",
    status_code=201,
    tags=["matches"],
    security=OPTIONAL_SEAT,
    responses=errors(*READ, 401, 413, 415),
)
async def claim_seat(request: Req, match: MatchPath, data: JSONBody[ClaimSeat]) -> SeatToken:
    """Claim a free seat of an open match; the answer holds its token, shown only once.

    With a player token the seat is the player's: it lists the match under "mine" and
    shows the player's name, and the player token acts for it as well as the seat token.
    """
    gateway = gateway_of(request)
    await gateway.check_match_off_loop(match)
    player = await gateway.player_of_off_loop(request, required=False)
    lobby = gateway.hall.lobby
    if player is not None and data.seat is not None:
        await reads.io(gateway.hall, lobby.player, player.player)
    if player is not None:
        await reads.io(gateway.hall, gateway.check_distinct, match, player.name, player.player)
    # The match's actor decides who wins the seat (one of any number of takers); the token
    # is stored with the winner's seat, in the same transaction.
    held = player.player if player is not None else None
    seat, token = await gateway.seats.claim(match, held, data.seat)
    gateway.accepted(request, token)
    return SeatToken(seat, token)


@get("/matches/{match:str}/view", tags=["play"], security=OPTIONAL_SEAT, responses=errors(*AS_SEAT))
async def get_view(request: Req, match: MatchPath, gamehall_version: Version = None) -> ViewOut:
    """Return the asker's view, the decisions awaited and the asker's legal commands."""
    gateway = gateway_of(request)
    await gateway.hall.activate(check_id(match))  # loaded off the event loop, once
    asker = await gateway.asker_off_loop(request, match)
    await gateway.caught_up(request, match, gamehall_version)
    seen = await reads.view(gateway.hall, match, asker.seat)
    legal = [msgspec.to_builtins(c) for c in seen.legal]
    undo = undo_out(gateway.hall.undo_status(match))
    return ViewOut(
        seen.match, seen.seq, seen.seat, seen.view, seen.awaiting, legal, seen.outcome,
        seen.names, clock_out(seen.clock), undo,
    )  # fmt: skip


@get(
    "/matches/{match:str}/board",
    tags=["play"],
    security=OPTIONAL_SEAT,
    media_type="text/plain",
    responses=errors(*AS_SEAT),
)
async def get_board(request: Req, match: MatchPath, gamehall_version: Version = None) -> str:
    """Return the asker's board as text."""
    gateway = gateway_of(request)
    asker = await gateway.asker_off_loop(request, match)
    await gateway.caught_up(request, match, gamehall_version)
    return await reads.render(gateway.hall, match, asker.seat) + "\n"


@post(
    "/matches/{match:str}/commands",
    status_code=200,
    tags=["play"],
    security=SEAT,
    responses=errors(*WRITE),
)
async def post_command(
    request: Req, match: MatchPath, data: JSONBody[PostCommand], gamehall_version: Version = None
) -> AckOut:
    """Send a command for the token's seat; a retry with the same id gets the first answer."""
    gateway = gateway_of(request)
    # The seat awaited is that of the state named.
    await gateway.caught_up(request, match, gamehall_version)
    seat = await gateway.seat_of_off_loop(request, match, data.seat)
    # Command ids are per match, as everywhere (docs/architecture.md, "Command ids"); the hall
    # refuses another seat's id, so no seat reads another's answer by reusing it.
    ack = await gateway.hall.send(match, seat, data.command, data.command_id)
    lines = [gateway.hall.registry.codec.event_line(r) for r in ack.events]
    return AckOut(match, data.command_id, ack.first_seq, ack.last_seq, ack.duplicate, lines)


@get(
    "/matches/{match:str}/history",
    tags=["play"],
    security=OPTIONAL_SEAT,
    responses=errors(*AS_SEAT),
)
async def get_history(
    request: Req,
    match: MatchPath,
    after: After = 0,
    limit: Annotated[int, QueryParameter(ge=1, le=HISTORY_LIMIT)] = 500,
) -> HistoryOut:
    """Return the asker's redacted events after a seq, at most ``limit`` stored events."""
    gateway = gateway_of(request)
    asker = await gateway.asker_off_loop(request, match)
    hall = gateway.hall
    stored = await reads.version(hall, match)  # first: every event up to it is in the answer
    told = await reads.narrated_history(hall, match, asker.seat, after, limit)
    upto = max(after, min(after + limit, stored), *(t.record.seq for t in told[-1:]))
    line = hall.registry.codec.event_line
    return HistoryOut(match, asker.seat, after, upto, [line(t.record, t.text) for t in told])


@get(
    "/matches/{match:str}/events",
    tags=["play"],
    security=OPTIONAL_SEAT,
    media_type="text/event-stream",
    responses=errors(*AS_SEAT),
)
async def get_events(
    request: Req,
    match: MatchPath,
    after: After = 0,
    token: Annotated[
        str | None, QueryParameter(description="a seat token, for clients that cannot send headers")
    ] = None,
    last_event_id: LastEventId = 0,
) -> ServerSentEvent:
    """Stream the asker's events as Server-Sent Events from a seq on, live; ends with ``end``.

    The stream starts after the larger of ``after`` and ``Last-Event-ID``, so a browser that
    reconnects to the same URL resumes where it was.
    """
    gateway = gateway_of(request)
    asker = await gateway.asker_off_loop(request, match, query_token=True)
    start = max(after, last_event_id)
    release = request.app.state.streams.take(address(request))
    messages = stream.messages(
        gateway.hall, match, asker.seat, start, gateway.heartbeat, asker.player
    )
    return stream.counted_response(
        messages, release, {"Cache-Control": "no-cache", "X-Accel-Buffering": "no"}
    )


@post(
    "/matches/{match:str}/fork",
    status_code=201,
    tags=["matches"],
    security=ADMIN_OR_ENDED,
    responses=errors(*WRITE),
)
async def fork_match(request: Req, match: MatchPath, data: JSONBody[ForkMatch]) -> Created:
    """Start a new match from the first ``at_seq`` events (admin, or once the match ended)."""
    gateway = gateway_of(request)
    asker = await gateway.asker_off_loop(request, match)
    await gateway.may_see_all(asker, match, "a fork")
    if data.seed is not None and not asker.admin:
        raise ApiError(403, "forbidden", "only the admin token may choose the seed of a fork")
    players = (await reads.info(gateway.hall, match)).players
    free = range(players) if data.seating == "open" else ()
    tokens, digests = gateway.seats.issue([] if free else list(range(players)))
    new = await gateway.hall.fork(
        match, data.at_seq, seed=data.seed, open_seats=free, seat_tokens=digests
    )
    info = await reads.info(gateway.hall, new)
    return gateway.created(info, data.seating, tokens)


@get(
    "/matches/{match:str}/log",
    tags=["matches"],
    security=ADMIN_OR_ENDED,
    media_type="application/x-ndjson",
    responses=errors(*AS_SEAT, 403),
)
async def export_log(request: Req, match: MatchPath) -> Response[bytes]:
    """Export the whole log as a log file: header, then JSON Lines (admin, or after the end)."""
    gateway = gateway_of(request)
    asker = await gateway.asker_off_loop(request, match)
    await gateway.may_see_all(asker, match, "the full log")
    records = await reads.read(gateway.hall, match)
    header = header_for(match, None, records, await reads.names(gateway.hall, match))
    lines = b"".join(
        line + b"\n" for line in log_lines(gateway.hall.registry.codec, header, records)
    )
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
    *LOBBY_ROUTES,
]
