"""The machine mode: JSON lines in, JSON lines out, one request per line.

Every request is an object with an ``id`` (a string or an integer) and an ``op``; the answer
echoes the id with ``"ok": true`` and a ``result``, or ``"ok": false`` and an ``error`` with a
``code`` and a ``message``. Requests are answered in the order they arrive. ``watch`` answers
at once and then pushes the seat's events as ``{"id": <watch id>, "event": {...}}`` lines until
``unwatch`` or the end of the input. See ``docs/stdio-protocol.md``.
"""

from __future__ import annotations

import sys
from collections.abc import Awaitable, Callable
from typing import Any, BinaryIO

import anyio
import msgspec
import structlog
from anyio.abc import TaskGroup
from gamehall.core import GamehallError, Recorded
from gamehall.core.hall import Hall, Turn
from gamehall.core.store import Store

from .common import describe_options

log = structlog.get_logger("gamehall.stdio")

RequestId = str | int


class Games(msgspec.Struct, forbid_unknown_fields=True):
    """List the installed games."""


class Matches(msgspec.Struct, forbid_unknown_fields=True):
    """List the stored matches."""

    after: str = ""
    limit: int | None = None


class Create(msgspec.Struct, forbid_unknown_fields=True):
    """Start a match."""

    game: str
    players: int | None = None
    expansions: list[str] = []
    options: dict[str, Any] = {}
    expansion_options: dict[str, dict[str, Any]] = {}
    seed: int | None = None
    match: str | None = None


class SendCommand(msgspec.Struct, forbid_unknown_fields=True):
    """Send a seat's command."""

    match: str
    seat: int
    command: dict[str, Any]
    command_id: str | None = None


class View(msgspec.Struct, forbid_unknown_fields=True):
    """Return a seat's view (no seat: a spectator's)."""

    match: str
    seat: int | None = None


class Legal(msgspec.Struct, forbid_unknown_fields=True):
    """Return a seat's legal commands with their text."""

    match: str
    seat: int


class History(msgspec.Struct, forbid_unknown_fields=True):
    """Return a seat's events after ``after``."""

    match: str
    seat: int | None = None
    after: int = 0
    limit: int | None = None


class Watch(msgspec.Struct, forbid_unknown_fields=True):
    """Push a seat's events after ``after``, then the live ones."""

    match: str
    seat: int | None = None
    after: int = 0


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
}


class ProtocolError(GamehallError):
    """A request that is not well formed."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


class Server:
    """Answer requests against a running hall, writing one JSON line per answer or event."""

    def __init__(self, hall: Hall, out: BinaryIO, tg: TaskGroup) -> None:
        self.hall = hall
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
        }

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
            op, params = self._parse(raw, number)
            result = await self._handlers[op](params)
        except GamehallError as exc:
            self.write(_error(request_id, exc.code, str(exc), number))
            return
        except Exception as exc:
            log.exception("request failed", line=number)
            self.write(_error(request_id, "internal_error", f"{type(exc).__name__}: {exc}", number))
            return
        self.write({"id": request_id, "ok": True, "result": result})

    def _decode(self, line: bytes, number: int) -> dict[str, Any]:
        try:
            raw = self._decoder.decode(line)
        except msgspec.DecodeError as exc:
            raise ProtocolError("invalid_json", f"line {number}: invalid JSON: {exc}") from None
        if not isinstance(raw, dict):
            raise ProtocolError("invalid_request", f"line {number}: a request is a JSON object")
        return raw

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
        rows = self.hall.matches(req.after, req.limit)
        return {"matches": [{"match": r.stream, "version": r.version, **r.info} for r in rows]}

    async def create(self, req: Create) -> Any:
        match = await self.hall.create(
            req.game,
            req.players,
            expansions=req.expansions,
            options=req.options,
            expansion_options=req.expansion_options,
            seed=req.seed,
            match_id=req.match,
        )
        return {"match": match, "seq": self.hall.view(match, None).seq}

    async def command(self, req: SendCommand) -> Any:
        self._seat(req.match, req.seat)
        ack = await self.hall.send(req.match, req.seat, req.command, req.command_id)
        return {
            "first_seq": ack.first_seq,
            "last_seq": ack.last_seq,
            "duplicate": ack.duplicate,
            "events": [self.encode_record(r) for r in ack.events],
        }

    async def view(self, req: View) -> Any:
        self._seat(req.match, req.seat)
        seen = self.hall.view(req.match, req.seat)
        return {
            "seq": seen.seq,
            "seat": seen.seat,
            "view": seen.view,
            "awaiting": {str(s): d for s, d in sorted(seen.awaiting.items())},
            "legal": seen.legal,
            "outcome": seen.outcome,
            "board": self.hall.ruleset(req.match).render(seen.view, req.seat),
        }

    async def legal(self, req: Legal) -> Any:
        self._seat(req.match, req.seat)
        seen = self.hall.view(req.match, req.seat)
        ruleset = self.hall.ruleset(req.match)
        return {
            "seq": seen.seq,
            "legal": [
                {"command": c, "text": ruleset.describe(c, seen.view, req.seat)} for c in seen.legal
            ],
        }

    async def history(self, req: History) -> Any:
        self._seat(req.match, req.seat)
        told = self.hall.narrated_history(req.match, req.seat, req.after, req.limit)
        return {"events": [self.encode_record(t.record, t.text) for t in told]}

    async def watch(self, req: Watch) -> Any:
        self._seat(req.match, req.seat)
        request_id = self._current_id
        if request_id in self.watches:
            raise ProtocolError("duplicate_watch", f"a watch with id {request_id!r} is running")
        watch = _Watch(self, request_id, req)
        self.watches[request_id] = watch
        self.tg.start_soon(watch.run)
        return {"watch": request_id, "match": req.match, "seat": req.seat}

    async def unwatch(self, req: Unwatch) -> Any:
        watch = self.watches.pop(req.watch, None)
        if watch is None:
            raise ProtocolError("unknown_watch", f"no watch with id {req.watch!r}")
        await watch.drain()
        watch.scope.cancel()
        return {"stopped": req.watch, "last_seq": watch.last}

    # -- helpers ----------------------------------------------------------------------------

    _current_id: RequestId = 0

    def _seat(self, match: str, seat: int | None) -> None:
        players = self.hall.info(match).players
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
        self.watches.clear()


class _Watch:
    """One running ``watch`` request."""

    def __init__(self, server: Server, request_id: RequestId, req: Watch) -> None:
        self.server = server
        self.id = request_id
        self.req = req
        self.last = req.after
        self.scope = anyio.CancelScope()

    async def run(self) -> None:
        server = self.server
        hall, match, seat = server.hall, self.req.match, self.req.seat
        turn = None
        with self.scope:
            try:
                if hall.view(match, None).seq <= self.req.after:
                    turn = self._tell_turn(None)
                async for told in hall.watch_narrated(match, seat, self.req.after):
                    self.last = told.record.seq
                    line = server.encode_record(told.record, told.text)
                    server.write({"id": self.id, "event": line})
                    if self.last >= hall.view(match, None).seq:  # caught up
                        turn = self._tell_turn(turn)
            except GamehallError as exc:
                server.watches.pop(self.id, None)
                server.write(_error(self.id, exc.code, f"the watch ended: {exc}", 0))

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
        shown = self.server.hall.history(self.req.match, self.req.seat, self.last)
        if not shown:
            return
        target = shown[-1].seq
        with anyio.move_on_after(timeout):
            while self.last < target and not self.scope.cancel_called:
                await anyio.sleep(0.001)


def _request_id(raw: dict[str, Any], number: int) -> RequestId:
    value = raw.get("id")
    if isinstance(value, bool) or not isinstance(value, str | int):
        raise ProtocolError(
            "invalid_request", f"line {number}: 'id' must be a string or an integer"
        )
    return value


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
        "options": describe_options(game.options),
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
    store: Store, registry: Any, stdin: BinaryIO | None = None, stdout: BinaryIO | None = None
) -> int:
    """Answer requests from ``stdin`` until it ends; return the exit code (always 0)."""
    stdin = stdin or sys.stdin.buffer
    stdout = stdout or sys.stdout.buffer
    async with Hall(store, registry) as hall, anyio.create_task_group() as tg:
        server = Server(hall, stdout, tg)
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
