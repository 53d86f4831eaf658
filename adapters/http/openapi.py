"""The OpenAPI document, made true: every error answer, the events and commands as they are.

Litestar builds the document from the route signatures and the msgspec Structs the routes
decode and answer with. Two things it cannot know are set here: each route's error answers
(all of them the one ``ErrorOut`` shape the handlers send, listed per route with
:func:`errors`) and the event and command unions, which exist only once the plugins are
loaded: ``Recorded.event`` is typed with the ``Event`` base class, whose own tag is no real
event's, so the document lists the installed tags instead.
"""

from __future__ import annotations

from typing import Any

import msgspec
from gamehall.core.limits import INT64_MAX, MATCH_ID_MAX, MATCH_ID_PATTERN
from gamehall.core.registry import Registry
from litestar import Litestar, Request
from litestar.openapi.datastructures import ResponseSpec
from litestar.openapi.plugins import JsonRenderPlugin
from litestar.serialization import encode_json

from . import schemas as api

REF = "#/components/schemas/{name}"
ERROR_REF = REF.format(name="ErrorOut")
STRUCTS = (
    api.CreateMatch, api.ClaimSeat, api.PostCommand, api.ForkMatch, api.SeatToken, api.Created,
    api.GameOut, api.MatchOut, api.ViewOut, api.AckOut, api.HistoryOut, api.Health, api.ErrorOut,
    api.NewPlayer, api.Rename, api.AnswerUndo, api.Rematch, api.PlayerOut, api.PlayerCreated,
    api.ClockOut, api.UndoOut, api.LobbySeat, api.LobbyMatch, api.LobbyOut, api.SpectatorOut,
    api.SpectatorsOut, api.DeletedOut,
)  # fmt: skip

WHY = {
    400: "the request is malformed: a field, a parameter or the JSON body is refused",
    401: "the token is missing, malformed, or not a token of this match or of a player",
    403: "the token may not do this (the admin token acts for no seat; full logs wait)",
    404: "no such match, game or route",
    409: "the match refuses the command now, a seat is taken, or the match is quarantined",
    413: "the body is larger than the server takes",
    415: "the body is not declared as JSON",
    429: "too many requests: wait for Retry-After seconds",
    500: "the server failed; the answer names only an incident id",
    503: "the store cannot take writes now (closing, full or failed): retry later",
}
READ = (400, 404, 409, 429, 500, 503)
AS_SEAT = (*READ, 401)
WRITE = (*AS_SEAT, 403, 413, 415)
RETRY_AFTER = {
    429: "seconds until the next request will be taken",
    503: "seconds to wait before retrying",
}


def errors(*statuses: int) -> dict[int, ResponseSpec]:
    """Return the documented error answers of a route: always ``ErrorOut``."""
    return {
        status: ResponseSpec(api.ErrorOut, description=WHY[status], generate_examples=False)
        for status in sorted({*statuses, 429, 500})
    }


def document(request: Request[Any, Any, Any]) -> bytes:
    """Return the app's corrected document as JSON (built once for each mount point), its
    server the path the app is mounted at, so that every path it lists can be reached."""
    app: Litestar = request.app
    state = app.state
    root = str(request.scope.get("root_path") or state.get("root_path") or "").rstrip("/")
    built: dict[str, bytes] = state.openapi
    if root not in built:
        registry = state.gamehall.hall.registry
        schema = corrected(app.openapi_schema.to_schema(), registry)
        schema["servers"] = [{"url": root or "/"}]
        built[root] = encode_json(schema)
    return built[root]


class CorrectedJson(JsonRenderPlugin):
    """Serve the corrected document at ``/schema/openapi.json`` too."""

    def render(self, request: Request[Any, Any, Any], openapi_schema: dict[str, Any]) -> bytes:
        """Return the corrected document, whatever Litestar built."""
        return document(request)


def corrected(document: dict[str, Any], registry: Registry) -> dict[str, Any]:
    """Return the document with msgspec's own schemas of the Structs, events and commands.

    Litestar's schemas of msgspec Structs drop a zero bound (``ge=0``) and turn integer
    bounds into floats; msgspec's schema of the same Struct is exact.
    """
    schemas = document.setdefault("components", {}).setdefault("schemas", {})
    _, exact = msgspec.json.schema_components(STRUCTS, ref_template=REF)
    schemas.update(exact)
    codec = registry.codec
    schemas["Event"] = _union("event", codec.event_types)
    schemas["Command"] = _union("command", codec.command_types)
    for item in document.get("paths", {}).values():
        for operation in item.values():
            if not isinstance(operation, dict):
                continue
            for parameter in operation.get("parameters", []):
                _integer_bounds(parameter.get("schema", {}))
                if parameter.get("in") == "path" and parameter.get("name") == "match":
                    parameter["schema"] |= {"pattern": MATCH_ID_PATTERN, "maxLength": MATCH_ID_MAX}
            for status, answer in operation.get("responses", {}).items():
                if status[:1] in "45":  # Litestar's own default: not the shape we send
                    answer["content"] = {"application/json": {"schema": {"$ref": ERROR_REF}}}
                    answer["description"] = WHY.get(int(status), answer.get("description", ""))
            for status, text in RETRY_AFTER.items():
                answer = operation.get("responses", {}).get(str(status))
                if answer is not None:
                    answer.setdefault("headers", {})["Retry-After"] = {
                        "schema": {"type": "integer", "minimum": 1},
                        "description": text,
                    }
    return document


def _integer_bounds(schema: dict[str, Any]) -> None:
    if schema.get("type") != "integer":
        return
    for key in ("minimum", "maximum"):
        if isinstance(schema.get(key), float):
            schema[key] = min(int(schema[key]), INT64_MAX)


def _union(kind: str, types: dict[str, Any]) -> dict[str, Any]:
    return {
        "type": "object",
        "required": ["type"],
        "properties": {
            "type": {
                "type": "string",
                "enum": sorted(types),
                "description": f"the {kind}'s tag: its plugin's namespace and its name",
            }
        },
        "description": (
            f"one {kind} of an installed plugin: its tag in 'type', its fields beside it "
            "(GET /games/{game} gives the schema of each of a game's commands)"
        ),
    }
