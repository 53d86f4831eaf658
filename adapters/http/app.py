"""The ASGI app factory: gamehall over HTTP, mountable inside another service.

``create_app(hall)`` returns a Litestar app that drives a running :class:`Hall`. A service that
embeds gamehall owns the hall (``async with Hall(store) as hall``) and mounts the app; with
``manage_hall=True`` the app's own lifespan starts and stops the hall instead, which is what
``gamehall serve`` does. A host that mounts the app does not run the mounted app's lifespan
by itself: its own lifespan opens the hall, or runs the app's with :func:`mounted_lifespan`.
Mounted under a path, every link the pages, the script and the OpenAPI document give starts
with the ASGI ``root_path`` the host sets (Starlette's ``Mount`` does), or with the
``root_path`` given here (Litestar's ``asgi(..., is_mount=True)`` sets none).
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import anyio
from gamehall.core import logs
from gamehall.core.hall import Hall
from litestar import Litestar, Request, Response, get
from litestar.datastructures import State
from litestar.openapi import OpenAPIConfig
from litestar.openapi.spec import Components, SecurityScheme

from . import openapi
from .errors import HANDLERS
from .gateway import Gateway
from .guard import BotLimits, Limiter, RateLimits, before_request
from .once import Replies
from .ops import OPS_ROUTES, READY_HELD_SECONDS
from .routes import ROUTES, bare
from .seats import SeatTokens
from .stream import StreamLimits, StreamSlots
from .web import router as web_router

MAX_BODY = 64 * 1024
HEARTBEAT = 15.0
DEFAULT_LIMITS = RateLimits()
DEFAULT_STREAMS = StreamLimits()
DEFAULT_BOTS = BotLimits()


@get("/openapi.json", include_in_schema=False, media_type="application/vnd.oai.openapi+json")
async def openapi_json(request: Request[Any, Any, Any]) -> Response[bytes]:
    """Return the OpenAPI document (its server: where the app is mounted)."""
    return Response(openapi.document(request), media_type="application/vnd.oai.openapi+json")


def create_app(
    hall: Hall,
    *,
    admin_token: str | None = None,
    max_body: int = MAX_BODY,
    heartbeat: float = HEARTBEAT,
    manage_hall: bool = False,
    bare_endpoint: bool = False,
    rate_limits: RateLimits | None = DEFAULT_LIMITS,
    root_path: str = "",
    metrics_token: str | None = None,
    streams: StreamLimits = DEFAULT_STREAMS,
    bots: BotLimits = DEFAULT_BOTS,
    ready_held_seconds: float | None = READY_HELD_SECONDS,
) -> Litestar:
    """Return the HTTP app of a hall.

    Seat tokens are kept by the hall's store, with the seats they act for. ``admin_token`` unlocks full logs and forks of running
    matches. ``max_body`` bounds request bodies in bytes. ``bare_endpoint`` adds ``POST /bare``,
    which only decodes a command body: the baseline of the benchmark. ``rate_limits`` sets
    the requests a second per client address and per token (``None``: no limits).
    ``root_path`` is where a host mounts the app when it sets no ASGI ``root_path`` itself
    (``"/games"``); the pages' links and the OpenAPI document's server start with it.
    ``metrics_token``, if given, is required to read ``/metrics``. ``streams`` caps the
    event streams open at once, on the node and per client address. ``bots`` caps the budget
    a bot of a match created over HTTP thinks with. ``ready_held_seconds``: ``/readyz``
    answers 503 once a transaction has held the node's followers back longer than this
    (PostgreSQL; ``None``: never).
    """
    if root_path and (not root_path.startswith("/") or root_path.endswith("/")):
        raise ValueError(f"root_path {root_path!r} must start with '/' and not end with one")
    seats = SeatTokens(hall)
    limiter = Limiter(rate_limits) if rate_limits is not None else None
    gateway = Gateway(hall, seats, admin_token, heartbeat, limiter)
    logs.add_secret(admin_token)
    logs.add_secret(metrics_token)

    @asynccontextmanager
    async def lifespan(app: Litestar) -> AsyncIterator[None]:
        try:
            if manage_hall:
                async with hall:
                    yield
            else:
                yield
        finally:
            gateway.seats.close()

    routes: list[Any] = [*ROUTES, *OPS_ROUTES, openapi_json, web_router()]
    if bare_endpoint:
        routes.append(bare)
    app = Litestar(
        route_handlers=routes,
        lifespan=[lifespan],
        exception_handlers=HANDLERS,
        before_request=before_request,
        request_max_body_size=max_body,
        openapi_config=OpenAPIConfig(
            title="gamehall",
            version="1",
            description="Board games as event-sourced matches: create, play, watch, fork, export.",
            path="/schema",
            render_plugins=[openapi.CorrectedJson()],
            components=Components(
                security_schemes={
                    "seat": SecurityScheme(
                        type="http", scheme="bearer", description="a seat token of the match"
                    ),
                    "admin": SecurityScheme(
                        type="http", scheme="bearer", description="the server's admin token"
                    ),
                }
            ),
        ),
        state=State(
            {
                "gamehall": gateway,
                "openapi": {},
                "limiter": limiter,
                "root_path": root_path,
                "metrics_token": metrics_token or None,
                "streams": StreamSlots(streams),
                "bot_limits": bots,
                "ready_held_seconds": ready_held_seconds,
                "calculators": None,
                "replies": Replies(),
            }
        ),
        logging_config=None,  # the embedding program configures logging, not this app
        debug=False,
    )
    return app


@asynccontextmanager
async def mounted_lifespan(app: Any) -> AsyncIterator[None]:
    """Run a mounted ASGI app's lifespan inside the host's own: startup before the host
    serves, shutdown after. A host that mounts ``create_app(hall, manage_hall=True)`` uses it
    so that the app opens (and closes) its hall; Starlette and Litestar run only their own.
    """
    to_app, app_inbox = anyio.create_memory_object_stream[dict[str, Any]](2)
    app_outbox, from_app = anyio.create_memory_object_stream[dict[str, Any]](2)

    async def receive() -> dict[str, Any]:
        return await app_inbox.receive()

    async def send(message: dict[str, Any]) -> None:
        await app_outbox.send(message)

    scope = {"type": "lifespan", "asgi": {"version": "3.0", "spec_version": "2.0"}, "state": {}}
    try:
        async with anyio.create_task_group() as group, to_app, from_app, app_inbox, app_outbox:
            group.start_soon(app, scope, receive, send)
            await to_app.send({"type": "lifespan.startup"})
            started = await from_app.receive()
            if started["type"] != "lifespan.startup.complete":
                group.cancel_scope.cancel()
                raise RuntimeError(f"the mounted app did not start: {started.get('message', '')}")
            try:
                yield
            finally:
                await to_app.send({"type": "lifespan.shutdown"})
                with anyio.move_on_after(30):
                    await from_app.receive()
    except BaseExceptionGroup as group:  # the host's own error leaves as it was raised
        if len(group.exceptions) == 1:
            raise group.exceptions[0] from None
        raise
