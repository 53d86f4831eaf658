"""The machine mode: JSON lines in, JSON lines out, one request per line.

Every request is an object with an ``id`` (a string or an integer) and an ``op``; the answer
echoes the id with ``"ok": true`` and a ``result``, or ``"ok": false`` and an ``error`` with a
``code`` and a ``message``. Requests are answered in the order they arrive. ``watch`` answers
at once and then pushes the seat's events as ``{"id": <watch id>, "event": {...}}`` lines until
``unwatch`` or the end of the input. See ``docs/stdio-protocol.md``.
"""

from __future__ import annotations

import secrets
import sys
from collections.abc import Awaitable, Callable
from functools import partial
from typing import Annotated, Any, BinaryIO, Literal

import anyio
import msgspec
import structlog
from anyio.abc import TaskGroup
from gamehall.core import GamehallError, Recorded, limits, nodes, reads
from gamehall.core.bots import parse_role
from gamehall.core.bots.spec import BudgetLimit
from gamehall.core.errors import DuplicateMatch
from gamehall.core.events import MatchStarted
from gamehall.core.hall import Hall, Turn
from gamehall.core.limits import CommandId, Count, MatchId, Players, Seat, Seed, Seq
from gamehall.core.runtime import rested_memory_task
from gamehall.core.store import Store

from . import debugging
from .common import describe_options

log = structlog.get_logger("gamehall.stdio")

RequestId = str | int


class Games(msgspec.Struct, forbid_unknown_fields=True):
    """List the installed games."""


class Matches(msgspec.Struct, forbid_unknown_fields=True):
    """List the stored matches."""

    after: str = ""
    limit: Count | None = None


CREATE_BATCH_MAX = 256  # events a create may write before the first command


class Create(msgspec.Struct, forbid_unknown_fields=True):
    """Start a match; ``seats`` gives a seat's role: ``human`` (the default), ``bot`` or
    ``bot:KIND[:BUDGET]`` (``{"1": "bot:mcts:2000"}``): the engine plays bot seats."""

    game: str
    players: Players | None = None
    expansions: list[str] = []
    options: dict[str, Any] = {}
    expansion_options: dict[str, dict[str, Any]] = {}
    seed: Seed | None = None
    match: MatchId | None = None
    seats: dict[str, str] = {}
    clock: str | None = None
    undo: str = "consent"
    players_by_seat: dict[str, str] = {}
    open: list[Seat] = []
    request_id: CommandId | None = None
    token: str | None = None
    """A player token: its player is the match's creator (who may abandon it)."""


class Lobby(msgspec.Struct, forbid_unknown_fields=True):
    """List matches newest first, with filters and pages (``next`` is the next ``cursor``)."""

    game: str | None = None
    state: Literal["running", "finished"] | None = None
    open: bool | None = None
    player: str | None = None
    token: str | None = None
    cursor: str | None = None
    limit: Annotated[int, msgspec.Meta(ge=1, le=500)] = 50


class Register(msgspec.Struct, forbid_unknown_fields=True):
    """Make a player with a display name; the answer holds the player token, once."""

    name: str


class Rename(msgspec.Struct, forbid_unknown_fields=True):
    """Change a player's display name (``null`` erases it)."""

    token: str
    name: str | None


class TakeSeat(msgspec.Struct, forbid_unknown_fields=True):
    """Seat a player (by token) in an open seat of a match (the lowest one without ``seat``)."""

    match: str
    token: str
    seat: Seat | None = None


class LeaveSeat(msgspec.Struct, forbid_unknown_fields=True):
    """A player (by token) leaves a seat they hold, or the match's creator frees one, while
    the match waits for players."""

    match: str
    token: str
    seat: Seat


class Abandon(msgspec.Struct, forbid_unknown_fields=True):
    """The match's creator (by token) abandons it while nobody else joined."""

    match: str
    token: str


class Undo(msgspec.Struct, forbid_unknown_fields=True):
    """Ask to take back a seat's last command."""

    match: str
    seat: Seat


class AnswerUndo(msgspec.Struct, forbid_unknown_fields=True):
    """Agree to (or decline) the take-back waiting in a match."""

    match: str
    seat: Seat
    agree: bool


class MatchRef(msgspec.Struct, forbid_unknown_fields=True):
    """A match (for ``rematch``, ``spectators``, ``delete``)."""

    match: str


class SendCommand(msgspec.Struct, forbid_unknown_fields=True):
    """Send a seat's command."""

    match: str
    seat: Seat
    command: dict[str, Any]
    command_id: CommandId | None = None
    version: Seq | None = None  # decide on state at least this new (an earlier ack's last_seq)


class View(msgspec.Struct, forbid_unknown_fields=True):
    """Return a seat's view (no seat: a spectator's)."""

    match: str
    seat: Seat | None = None
    version: Seq | None = None  # answer from state at least this new (an ack's last_seq)


class Legal(msgspec.Struct, forbid_unknown_fields=True):
    """Return a seat's legal commands with their text."""

    match: str
    seat: Seat
    version: Seq | None = None  # answer from state at least this new (an ack's last_seq)


class History(msgspec.Struct, forbid_unknown_fields=True):
    """Return a seat's events after ``after``."""

    match: str
    seat: Seat | None = None
    after: Seq = 0
    limit: Count | None = None


class Watch(msgspec.Struct, forbid_unknown_fields=True):
    """Push a seat's events after ``after``, then the live ones."""

    match: str
    seat: Seat | None = None
    after: Seq = 0


class Unwatch(msgspec.Struct, forbid_unknown_fields=True):
    """Stop a watch."""

    watch: RequestId


PARAMS: dict[str, type[msgspec.Struct]] = {
    "games": Games,
    "matches": Matches,
    "create": Create,
    "command": SendCommand,
    "view": View,
    "legal": Legal,
    "history": History,
    "watch": Watch,
    "unwatch": Unwatch,
    "lobby": Lobby,
    "register": Register,
    "rename": Rename,
    "take_seat": TakeSeat,
    "leave_seat": LeaveSeat,
    "abandon": Abandon,
    "undo": Undo,
    "answer_undo": AnswerUndo,
    "rematch": MatchRef,
    "spectators": MatchRef,
    "delete": MatchRef,
    **debugging.PARAMS,
}


class ProtocolError(GamehallError):
    """A request that is not well formed."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


class Server:
    """Answer requests against a running hall, writing one JSON line per answer or event."""

    def __init__(
        self, hall: Hall, out: BinaryIO, tg: TaskGroup, bot_limit: BudgetLimit | None = None
    ) -> None:
        self.hall = hall
        self.bot_limit = bot_limit or BudgetLimit()
        self.out = out
        self.tg = tg
        self.codec = hall.registry.codec
        self._encoder = msgspec.json.Encoder()
        self._decoder = msgspec.json.Decoder()
        self.watches: dict[RequestId, _Watch] = {}
        self._handlers: dict[str, Callable[[Any], Awaitable[Any]]] = {
            "games": self.games,
            "matches": self.matches,
            "create": self.create,
            "command": self.command,
            "view": self.view,
            "legal": self.legal,
            "history": self.history,
            "watch": self.watch,
            "unwatch": self.unwatch,
            "lobby": self.lobby,
            "register": self.register,
            "rename": self.rename,
            "take_seat": self.take_seat,
            "leave_seat": self.leave_seat,
            "abandon": self.abandon,
            "undo": self.undo,
            "answer_undo": self.answer_undo,
            "rematch": self.rematch,
            "spectators": self.spectators,
            "delete": self.delete,
        }
        for op, handler in debugging.HANDLERS.items():
            self._handlers[op] = partial(handler, hall)

    # -- lines ------------------------------------------------------------------------------

    def write(self, message: dict[str, Any]) -> None:
        """Write one line; lines are never interleaved (one write per line, on one thread)."""
        self.out.write(self._encoder.encode(message) + b"\n")
        self.out.flush()

    async def handle_line(self, line: bytes, number: int) -> None:
        """Answer one input line (blank lines are ignored)."""
        if not line.strip():
            return
        request_id: RequestId | None = None
        try:
            raw = self._decode(line, number)
            request_id = self._current_id = _request_id(raw, number)
            self._check(line, number)
            op, params = self._parse(raw, number)
            result = await self._handlers[op](params)
        except GamehallError as exc:
            self.write(_error(request_id, exc.code, str(exc), number))
            return
        except Exception as exc:  # noqa: BLE001 - a bug in one request must not end the server
            self.write(_error(request_id, "internal_error", _incident(exc, number), number))
            return
        self.write({"id": request_id, "ok": True, "result": result})
        after, self._after_answer = self._after_answer, None
        if after is not None:
            await after()

    _after_answer: Callable[[], Awaitable[None]] | None = None

    def _decode(self, line: bytes, number: int) -> dict[str, Any]:
        try:
            limits.check_depth(line)  # before any decoder recurses into it
        except limits.InvalidJson as exc:
            raise ProtocolError("invalid_json", f"line {number}: {exc}") from None
        try:
            raw = self._decoder.decode(line)
        except msgspec.DecodeError as exc:
            raise ProtocolError("invalid_json", f"line {number}: invalid JSON: {exc}") from None
        if not isinstance(raw, dict):
            raise ProtocolError("invalid_request", f"line {number}: a request is a JSON object")
        return raw

    @staticmethod
    def _check(line: bytes, number: int) -> None:
        """Refuse what msgspec takes silently: repeated keys, integers past 64 bits."""
        try:
            limits.check_json(line)
        except limits.InvalidJson as exc:
            raise ProtocolError("invalid_json", f"line {number}: {exc}") from None

    def _parse(self, raw: dict[str, Any], number: int) -> tuple[str, Any]:
        raw = {k: v for k, v in raw.items() if k != "id"}
        op = raw.pop("op", None)
        if op not in PARAMS:
            known = ", ".join(PARAMS)
            raise ProtocolError(
                "unknown_request", f"line {number}: unknown op {op!r} (known: {known})"
            )
        try:
            params = msgspec.convert(raw, PARAMS[op])
        except msgspec.ValidationError as exc:
            raise ProtocolError("invalid_request", f"line {number}: {op}: {exc}") from None
        return op, params

    # -- requests ---------------------------------------------------------------------------

    async def games(self, _: Games) -> Any:
        registry = self.hall.registry
        return {"games": [game_entry(registry, g) for g in sorted(registry.games)]}

    async def matches(self, req: Matches) -> Any:
        rows = await reads.io(self.hall, self.hall.matches, req.after, req.limit)
        return {
            "matches": [{"match": r.stream, "version": r.version, **_shown(r.info)} for r in rows]
        }

    async def create(self, req: Create) -> Any:
        if req.request_id is not None and req.match is None:
            req = msgspec.structs.replace(
                req, match=limits.request_match_id("stdio", req.request_id)
            )
        try:
            return await self._create(req)
        except DuplicateMatch:
            retried = await self._retried(req) if req.request_id is not None else None
            if retried is None:
                raise
            return retried

    async def _retried(self, req: Create) -> dict[str, Any] | None:
        """Return the first answer of a create sent again with its match id, or ``None`` when
        the match of that id was made by another request (another game, seed or count)."""
        assert req.match is not None
        head = await reads.read(self.hall, req.match, 0, limit=CREATE_BATCH_MAX)
        started = head[0].event if head else None
        if not isinstance(started, MatchStarted) or started.game != req.game:
            return None
        if req.seed is not None and started.seed != req.seed:
            return None
        if req.players is not None and started.players != req.players:
            return None
        seq = 0
        for record in head:  # the create's own events: those before the first command
            if record.meta.command_id is not None:
                break
            seq = record.seq
        bots = (await reads.info(self.hall, req.match)).bots
        return {
            "match": req.match,
            "seq": seq,
            "bots": {str(seat): bot for seat, bot in bots.items()},
            "duplicate": True,
        }

    async def _create(self, req: Create) -> Any:
        creator = self.hall.lobby.player_of(req.token).player if req.token is not None else None
        match = await self.hall.create(
            req.game,
            req.players,
            expansions=req.expansions,
            options=req.options,
            expansion_options=req.expansion_options,
            seed=req.seed,
            match_id=req.match,
            bots=_bots(req.seats, self.bot_limit),
            bot_seed=req.seed,
            clock=req.clock,
            undo=req.undo,
            seat_players=_seat_players(req.players_by_seat),
            open_seats=req.open,
            creator=creator,
        )
        bots = (await reads.info(self.hall, match)).bots
        return {
            "match": match,
            "seq": (await reads.view(self.hall, match, None)).seq,
            "bots": {str(seat): bot for seat, bot in bots.items()},
        }

    async def command(self, req: SendCommand) -> Any:
        await self._seat(req.match, req.seat)
        await nodes.caught_up(self.hall, req.match, req.version)
        ack = await self.hall.send(req.match, req.seat, req.command, req.command_id)
        return {
            "first_seq": ack.first_seq,
            "last_seq": ack.last_seq,
            "duplicate": ack.duplicate,
            "events": [self.encode_record(r) for r in ack.events],
        }

    async def view(self, req: View) -> Any:
        await self._seat(req.match, req.seat)
        await nodes.caught_up(self.hall, req.match, req.version)
        seen = await reads.view(self.hall, req.match, req.seat)
        return {
            "seq": seen.seq,
            "seat": seen.seat,
            "view": seen.view,
            "awaiting": {str(s): d for s, d in sorted(seen.awaiting.items())},
            "legal": seen.legal,
            "outcome": seen.outcome,
            "board": self.hall.render(req.match, req.seat, seen.names),
            "names": seen.names,
            "clock": seen.clock,
            "undo": self.hall.undo_status(req.match),
        }

    async def lobby(self, req: Lobby) -> Any:
        player = req.player
        if req.token is not None:
            player = (await reads.io(self.hall, self.hall.lobby.player_of, req.token)).player
        finished = None if req.state is None else req.state == "finished"
        page = await self.hall.lobby.listing(
            game=req.game, finished=finished, open_seats=req.open, player=player,
            cursor=req.cursor, limit=req.limit,
        )  # fmt: skip
        return page

    async def register(self, req: Register) -> Any:
        player, token = await self.hall.lobby.register(req.name)
        return {"player": player.player, "name": player.name, "token": token}

    async def rename(self, req: Rename) -> Any:
        player = await reads.io(self.hall, self.hall.lobby.player_of, req.token)
        return await self.hall.lobby.rename(player.player, req.name)

    async def take_seat(self, req: TakeSeat) -> Any:
        player = await reads.io(self.hall, self.hall.lobby.player_of, req.token)
        seat = await self.hall.lobby.take_seat(req.match, player.player, req.seat)
        return {"match": req.match, "seat": seat, "player": player.player}

    async def leave_seat(self, req: LeaveSeat) -> Any:
        player = await reads.io(self.hall, self.hall.lobby.player_of, req.token)
        await self.hall.lobby.leave_seat(req.match, player.player, req.seat)
        return await reads.entry(self.hall, req.match)

    async def abandon(self, req: Abandon) -> Any:
        player = await reads.io(self.hall, self.hall.lobby.player_of, req.token)
        await self.hall.lobby.abandon(req.match, player.player)
        return await reads.entry(self.hall, req.match)

    async def undo(self, req: Undo) -> Any:
        return await self.hall.request_undo(req.match, req.seat)

    async def answer_undo(self, req: AnswerUndo) -> Any:
        return await self.hall.answer_undo(req.match, req.seat, req.agree)

    async def rematch(self, req: MatchRef) -> Any:
        return {"match": await self.hall.rematch(req.match), "rematch_of": req.match}

    async def spectators(self, req: MatchRef) -> Any:
        watching = self.hall.lobby.watching((await reads.entry(self.hall, req.match)).match)
        return {"match": req.match, "count": len(watching), "spectators": watching}

    async def delete(self, req: MatchRef) -> Any:
        await self.hall.lobby.delete(req.match)
        return {"deleted": req.match}

    async def legal(self, req: Legal) -> Any:
        await self._seat(req.match, req.seat)
        await nodes.caught_up(self.hall, req.match, req.version)
        seen = await reads.view(self.hall, req.match, req.seat)
        ruleset = self.hall.ruleset(req.match)
        return {
            "seq": seen.seq,
            "legal": [
                {"command": c, "text": ruleset.describe(c, seen.view, req.seat)} for c in seen.legal
            ],
        }

    async def history(self, req: History) -> Any:
        await self._seat(req.match, req.seat)
        told = await reads.narrated_history(self.hall, req.match, req.seat, req.after, req.limit)
        return {"events": [self.encode_record(t.record, t.text) for t in told]}

    async def watch(self, req: Watch) -> Any:
        await self._seat(req.match, req.seat)
        request_id = self._current_id
        if request_id in self.watches:
            raise ProtocolError("duplicate_watch", f"a watch with id {request_id!r} is running")
        watch = _Watch(self, request_id, req)
        self.watches[request_id] = watch
        self.tg.start_soon(watch.run)
        # Once answered, what is stored is pushed before the next line is read (the catch-up
        # is read off the event loop): a command sent after the watch is told as a change.
        self._after_answer = watch.drain
        return {"watch": request_id, "match": req.match, "seat": req.seat}

    async def unwatch(self, req: Unwatch) -> Any:
        watch = self.watches.pop(req.watch, None)
        if watch is None:
            raise ProtocolError("unknown_watch", f"no watch with id {req.watch!r}")
        await watch.drain()
        watch.scope.cancel()
        watch._tell_moved()
        return {"stopped": req.watch, "last_seq": watch.last}

    # -- helpers ----------------------------------------------------------------------------

    _current_id: RequestId = 0

    async def _seat(self, match: str, seat: int | None) -> None:
        players = (await reads.info(self.hall, match)).players
        if seat is not None and not 0 <= seat < players:
            raise ProtocolError(
                "invalid_seat", f"seat {seat} does not exist: seats are 0 to {players - 1}"
            )

    def encode_record(self, record: Recorded, text: str | None = None) -> msgspec.Raw:
        """Return a record as the JSON object of a log file line (with its words)."""
        return msgspec.Raw(self.codec.record_to_json(record, text))

    async def drain(self) -> None:
        """Let every watch push what is already stored, then stop them all."""
        for watch in list(self.watches.values()):
            await watch.drain()
            watch.scope.cancel()
            watch._tell_moved()
        self.watches.clear()


class _Watch:
    """One running ``watch`` request."""

    def __init__(self, server: Server, request_id: RequestId, req: Watch) -> None:
        self.server = server
        self.id = request_id
        self.req = req
        self.last = req.after
        self.scope = anyio.CancelScope()
        self.ended = False
        self._moved: anyio.Event | None = None  # set when ``last`` moves or the watch ends

    def _tell_moved(self) -> None:
        moved, self._moved = self._moved, None
        if moved is not None:
            moved.set()

    async def run(self) -> None:
        server = self.server
        hall, match, seat = server.hall, self.req.match, self.req.seat
        turn = None
        watcher = hall.lobby.follow(match, None) if seat is None else None
        with self.scope:
            try:
                if hall.view(match, None).seq <= self.req.after:
                    turn = self._tell_turn(None)
                    self._tell_clock()
                    self._tell_names()
                async for told in hall.watch_narrated(match, seat, self.req.after):
                    self.last = told.record.seq
                    line = server.encode_record(told.record, told.text)
                    server.write({"id": self.id, "event": line})
                    self._tell_moved()
                    if self.last >= hall.view(match, None).seq:  # caught up
                        turn = self._tell_turn(turn)
                        self._tell_clock()
                        self._tell_names()
            except GamehallError as exc:
                server.watches.pop(self.id, None)
                server.write(_error(self.id, exc.code, f"the watch ended: {exc}", 0))
            except Exception as exc:  # noqa: BLE001 - one failed watch must not end the server
                server.watches.pop(self.id, None)
                server.write(_error(self.id, "internal_error", _incident(exc, 0), 0))
            finally:
                self.ended = True
                self._tell_moved()
                if watcher is not None:
                    hall.lobby.leave(match, watcher)

    _clock_at: tuple[float, list[int]] | None = None

    def _tell_clock(self) -> None:
        # A timed match's clocks, pushed when a batch changed them (never as time runs).
        clock = self.server.hall.clock(self.req.match)
        if clock is None or (clock.at, clock.running) == self._clock_at:
            return
        self._clock_at = (clock.at, clock.running)
        self.server.write({"id": self.id, "clock": clock})

    _names: list[str | None] | None = None

    def _tell_names(self) -> None:
        # The seats' names, pushed when the watch catches up and whenever one changes.
        names = self.server.hall.lobby.names(self.req.match)
        if names != self._names and (any(names) or self._names is not None):
            self._names = names
            self.server.write({"id": self.id, "names": names})

    def _tell_turn(self, last: Turn | None) -> Turn:
        # Whose move it is, pushed only when it changed: the seat knows when it may act.
        turn = self.server.hall.turn(self.req.match, self.req.seat)
        if last is None or (turn.awaiting, turn.decision, turn.free) != (
            last.awaiting,
            last.decision,
            last.free,
        ):
            self.server.write({"id": self.id, "turn": turn})
        return turn

    async def drain(self, timeout: float = 5.0) -> None:
        """Wait until every event stored so far that this seat may see has been pushed."""
        shown = await reads.history(self.server.hall, self.req.match, self.req.seat, self.last)
        if not shown:
            return
        target = shown[-1].seq
        with anyio.move_on_after(timeout):
            while self.last < target and not (self.ended or self.scope.cancel_called):
                if self._moved is None:
                    self._moved = anyio.Event()
                await self._moved.wait()


def _bots(seats: dict[str, str], limit: BudgetLimit) -> dict[int, str]:
    """Return the bot of each seat whose role in a create request is a bot, each within the
    server's maximum budget."""
    bots: dict[int, str] = {}
    for key, role in seats.items():
        try:
            seat = int(key)
        except ValueError:
            raise ProtocolError(
                "invalid_request", f"create: seats: {key!r} is not a seat number"
            ) from None
        spec = parse_role(role)
        if spec is not None:
            bots[seat] = str(limit.check(spec))
    return bots


def _seat_players(given: dict[str, str]) -> dict[int, str]:
    """Return the player id of each seat a create request seats a player in."""
    out: dict[int, str] = {}
    for key, player in given.items():
        try:
            out[int(key)] = player
        except ValueError:
            raise ProtocolError(
                "invalid_request", f"create: players_by_seat: {key!r} is not a seat number"
            ) from None
    return out


def _shown(info: dict[str, Any]) -> dict[str, Any]:
    """Return a match's stored info without its bots' seeds (they would foretell the bots)."""
    if "bots" not in info:
        return info
    bots = {seat: bot.get("bot") for seat, bot in (info.get("bots") or {}).items()}
    return {**info, "bots": bots}


def _request_id(raw: dict[str, Any], number: int) -> RequestId:
    value = raw.get("id")
    if isinstance(value, bool) or not isinstance(value, str | int):
        raise ProtocolError(
            "invalid_request", f"line {number}: 'id' must be a string or an integer"
        )
    return value


def _incident(exc: Exception, line: int) -> str:
    """Log an unexpected error once (no locals, no request) and return what the client is told."""
    incident = secrets.token_hex(6)
    log.error(
        "request failed", incident=incident, line=line, error=type(exc).__name__, exc_info=exc
    )
    return f"the server failed on this request (incident {incident})"


def _error(request_id: RequestId | None, code: str, message: str, line: int) -> dict[str, Any]:
    return {
        "id": request_id,
        "ok": False,
        "error": {"code": code, "message": message, "line": line},
    }


def game_entry(registry: Any, game_id: str) -> dict[str, Any]:
    """Describe an installed game and its expansions for listings."""
    game = registry.games[game_id]
    return {
        "id": game.id,
        "name": game.name,
        "version": game.version,
        "players": [game.min_players, game.max_players],
        "options": describe_options(
            game.options, choices=registry.ruleset(game_id).rules.option_choices()
        ),
        "description": game.description,
        "expansions": [
            {
                "id": e.id,
                "name": e.name,
                "version": e.version,
                "options": describe_options(e.options),
                "requires": list(e.requires),
                "conflicts": list(e.conflicts),
                "description": e.description,
            }
            for e in sorted(registry.expansions_of(game_id), key=lambda e: e.id)
        ],
    }


async def serve(
    store: Store,
    registry: Any,
    stdin: BinaryIO | None = None,
    stdout: BinaryIO | None = None,
    *,
    bot_limit: BudgetLimit | None = None,
    max_active: int = 10_000,
) -> int:
    """Answer requests from ``stdin`` until it ends; return the exit code (always 0).
    ``bot_limit`` is the largest bot budget a create may ask for; ``max_active`` caps the
    running matches (see :class:`Hall`)."""
    stdin = stdin or sys.stdin.buffer
    stdout = stdout or sys.stdout.buffer
    async with (
        Hall(store, registry, max_active=max_active) as hall,
        anyio.create_task_group() as tg,
    ):
        server = Server(hall, stdout, tg, bot_limit)
        tg.start_soon(rested_memory_task(hall))
        number = 0
        while True:
            line = await anyio.to_thread.run_sync(stdin.readline, abandon_on_cancel=True)
            if not line:
                break
            number += 1
            await server.handle_line(line, number)
        await server.drain()
        tg.cancel_scope.cancel()
    return 0
