"""Every error as a JSON body with a status, a code and a message that names the problem.

Client errors carry the engine's message (it is about the asker's own request). A server error
carries only an incident id: the details, which might name hidden state, go to the log.
"""

from __future__ import annotations

import secrets
import sqlite3
from typing import Any

import structlog
from gamehall.core.errors import (
    CommandIdConflict,
    ConcurrencyError,
    CorruptRecord,
    DamagedStore,
    GamehallError,
    IllegalCommand,
    InvalidCommand,
    InvalidFork,
    InvalidOptions,
    InvalidQuery,
    MatchOver,
    MatchQuarantined,
    NotAwaited,
    NotCaughtUp,
    StoreBusy,
    StoreClosed,
    StoreFailed,
    UnknownEventType,
    UnknownGame,
    UnknownMatch,
    UnknownPlayer,
    UnknownVersion,
)
from gamehall.core.kernel.actor import MatchMoved
from gamehall.core.limits import InvalidInput
from gamehall.core.lobby import Forbidden
from gamehall.core.names import LookAlikeName
from gamehall.core.undo import UndoRefused
from litestar import Request, Response
from litestar.exceptions import HTTPException, ValidationException

from .caller import address, credential
from .schemas import ErrorOut
from .seats import NoFreeSeat

log = structlog.get_logger("gamehall.http")

STATUS: dict[type[GamehallError], int] = {
    InvalidCommand: 400,
    InvalidOptions: 400,
    InvalidInput: 400,
    InvalidFork: 400,
    InvalidQuery: 400,
    UnknownVersion: 400,
    UnknownGame: 400,
    UnknownPlayer: 401,
    Forbidden: 403,
    UnknownMatch: 404,
    NotAwaited: 409,
    MatchOver: 409,
    UndoRefused: 409,
    MatchMoved: 409,
    IllegalCommand: 409,
    NoFreeSeat: 409,
    LookAlikeName: 409,
    ConcurrencyError: 409,
    CommandIdConflict: 409,
    # A match the store cannot serve is refused alone; the server and the other matches go on.
    MatchQuarantined: 409,
    CorruptRecord: 409,
    UnknownEventType: 409,
    StoreClosed: 503,
    NotCaughtUp: 503,
    StoreBusy: 503,
    StoreFailed: 503,
    DamagedStore: 503,
}
HTTP_CODES = {
    400: "invalid_request",
    401: "unauthorized",
    403: "forbidden",
    404: "not_found",
    405: "method_not_allowed",
    413: "body_too_large",
    415: "unsupported_media_type",
    429: "rate_limited",
}
RETRY_AFTER = {503: "5"}
BUSY_RETRY_AFTER = "1"  # a busy store frees a connection as soon as a read ends
# A 503 tells the client what happened and when to come back, never where the store lives:
# the store's own message (its file, its database URL) goes to the operator's log.
STORE_MESSAGES: dict[type[GamehallError], str] = {
    StoreClosed: "the server is stopping: try again in a moment (on another node, if any)",
    DamagedStore: "the server's store failed its checks and is not used: the operator must look",
    StoreBusy: "the server is busy: every connection to its store was in use for a while "
    "(nothing was saved); try again in a moment",
    StoreFailed: "the server could not store or read this now (nothing was saved): try again",
}
STORE_FAILED = StoreFailed.code
PARAMETER_NAMES = {
    "last_event_id": "Last-Event-ID",
    "gamehall_version": "X-Gamehall-Version",
}  # as the client spells them


class ApiError(Exception):
    """An error the adapter raises itself (auth, permissions, paths, limits)."""

    def __init__(
        self, status: int, code: str, message: str, headers: dict[str, str] | None = None
    ) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message
        self.headers = headers or {}


def error_response(
    status: int,
    code: str,
    message: str,
    rule: str | None = None,
    headers: dict[str, str] | None = None,
) -> Response[Any]:
    """Return the JSON error answer."""
    body = ErrorOut(status=status, error=code, message=message, rule=rule)
    if status in RETRY_AFTER:
        headers = {"Retry-After": RETRY_AFTER[status], **(headers or {})}
    return Response(body, status_code=status, media_type="application/json", headers=headers)


def status_of(exc: GamehallError) -> int | None:
    """Return the HTTP status of an engine error, or ``None`` for a server error."""
    for cls in type(exc).__mro__:
        if cls in STATUS:
            return STATUS[cls]
    return None


def on_api_error(request: Request[Any, Any, Any], exc: ApiError) -> Response[Any]:
    """Answer an adapter error."""
    return error_response(exc.status, exc.code, exc.message, headers=exc.headers)


def on_gamehall_error(request: Request[Any, Any, Any], exc: GamehallError) -> Response[Any]:
    """Answer an engine error: a 4xx with its message, or a 500 without."""
    status = status_of(exc)
    if status is None:
        return on_unexpected(request, exc)
    if isinstance(exc, IllegalCommand):
        return error_response(status, exc.code, exc.reason, exc.rule)
    if isinstance(exc, NotCaughtUp):  # about the match and the version asked: no store detail
        return error_response(503, exc.code, exc.message, headers={"Retry-After": "1"})
    if status == 503:
        return store_failure(request, exc)
    return error_response(status, exc.code, exc.message)


def store_failure(request: Request[Any, Any, Any], exc: Exception) -> Response[Any]:
    """Answer a store that failed: ``503 store_failed`` with ``Retry-After``; log the detail."""
    code = exc.code if isinstance(exc, StoreClosed | DamagedStore | StoreBusy) else STORE_FAILED
    headers = {"Retry-After": BUSY_RETRY_AFTER} if isinstance(exc, StoreBusy) else None
    return error_response(503, code, store_message(request, exc), headers=headers)


def store_message(request: Request[Any, Any, Any], exc: Exception) -> str:
    """Log what the store said (for the operator); return what the client may read."""
    log.warning(
        "store failed a request",
        method=request.method,
        path=request.url.path,
        error=f"{type(exc).__name__}: {exc}",
    )
    return next(
        (text for cls, text in STORE_MESSAGES.items() if isinstance(exc, cls)),
        STORE_MESSAGES[StoreFailed],
    )


def is_store_error(exc: BaseException) -> bool:
    """Tell whether an exception is a database driver's (SQLite's or PostgreSQL's)."""
    if isinstance(exc, sqlite3.Error):
        return True
    module = type(exc).__module__
    return module.startswith("psycopg") and isinstance(exc, Exception)


def on_http_error(request: Request[Any, Any, Any], exc: HTTPException) -> Response[Any]:
    """Answer the framework's own errors (bad JSON, validation, size, routing) in our shape."""
    status = exc.status_code
    if status >= 500:
        return on_unexpected(request, exc)
    code = HTTP_CODES.get(status, "client_error")
    message = str(exc.detail)
    headers = {k: v for k, v in (exc.headers or {}).items() if k.lower() == "allow"}
    if status in (404, 405):
        limited = _routing_limit(request)  # a miss costs the asker as much as a hit
        if limited is not None:
            return limited
    if isinstance(exc, ValidationException):
        message = _validation_message(exc)
    elif status == 400:
        message = f"malformed JSON body: {message}"
    elif status == 413:
        message = "the request body is larger than the limit of this server"
    elif status == 404:
        message = f"no route {request.url.path!r}"
    elif status == 405:
        allowed = headers.get("allow") or headers.get("Allow") or ""
        headers = {"Allow": allowed}
        message = f"{request.method} is not allowed here; allowed: {allowed}"
    return error_response(status, code, message, headers=headers)


def _routing_limit(request: Request[Any, Any, Any]) -> Response[Any] | None:
    limiter = request.app.state.get("limiter")
    if limiter is None:
        return None
    try:
        limiter.check(address(request), credential(request))
    except ApiError as exc:
        return on_api_error(request, exc)
    return None


def _validation_message(exc: ValidationException) -> str:
    problems = []
    for item in exc.extra or ():
        if not isinstance(item, dict):
            continue
        key, text = item.get("key"), str(item.get("message", ""))
        if key == "data" and text == "'data'":
            problems.append("the request needs a JSON object as its body")
        elif item.get("source") == "body" or key in (None, "data"):
            problems.append(text if key in (None, "data") else f"{key}: {text}")
        else:
            source = item.get("source", "parameter")
            name = PARAMETER_NAMES.get(str(key), key)
            problems.append(f"{getattr(source, 'value', source)} parameter {name!r}: {text}")
    return "; ".join(problems) or "the request is invalid"


def on_unexpected(request: Request[Any, Any, Any], exc: Exception) -> Response[Any]:
    """Log an unexpected error once and answer a 500 that names only an incident id.

    The line names the method, the path and the error, never headers, body or locals. An
    engine error (a rules failure) was logged with its traceback where it happened.
    """
    if is_store_error(exc):  # a driver's error that no store turned into its own
        return store_failure(request, exc)
    incident = secrets.token_hex(6)
    log.error(
        "request failed",
        incident=incident,
        method=request.method,
        path=request.url.path,
        error=f"{type(exc).__name__}: {exc}",
        exc_info=None if isinstance(exc, GamehallError) else exc,
    )
    return error_response(
        500, "internal_error", f"the server failed on this request (incident {incident})"
    )


HANDLERS: dict[int | type[Exception], Any] = {
    ApiError: on_api_error,
    GamehallError: on_gamehall_error,
    HTTPException: on_http_error,
    Exception: on_unexpected,
}
