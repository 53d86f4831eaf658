"""The ASGI app factory: gamehall over HTTP, mountable inside another service.

``create_app(hall)`` returns a Litestar app that drives a running :class:`Hall`. A service that
embeds gamehall owns the hall (``async with Hall(store) as hall``) and mounts the app; with
``manage_hall=True`` the app's own lifespan starts and stops the hall instead, which is what
``gamehall serve`` does.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

from gamehall.core import logs
from gamehall.core.hall import Hall
from litestar import Litestar, Request, Response, get
from litestar.datastructures import State
from litestar.openapi import OpenAPIConfig
from litestar.openapi.spec import Components, SecurityScheme

from . import openapi
from .errors import HANDLERS
from .gateway import Gateway
from .guard import Limiter, RateLimits, before_request
from .ops import OPS_ROUTES
from .routes import ROUTES, bare
from .seats import SeatTokens
from .web import router as web_router

MAX_BODY = 64 * 1024
HEARTBEAT = 15.0
DEFAULT_LIMITS = RateLimits()


@get("/openapi.json", include_in_schema=False, media_type="application/vnd.oai.openapi+json")
async def openapi_json(request: Request[Any, Any, Any]) -> Response[bytes]:
    """Return the OpenAPI document."""
    return Response(openapi.document(request.app), media_type="application/vnd.oai.openapi+json")


def create_app(
    hall: Hall,
    *,
    admin_token: str | None = None,
    max_body: int = MAX_BODY,
    heartbeat: float = HEARTBEAT,
    manage_hall: bool = False,
    bare_endpoint: bool = False,
    rate_limits: RateLimits | None = DEFAULT_LIMITS,
) -> Litestar:
    """Return the HTTP app of a hall.

    Seat tokens are kept by the hall's store, with the seats they act for. ``admin_token`` unlocks full logs and forks of running
    matches. ``max_body`` bounds request bodies in bytes. ``bare_endpoint`` adds ``POST /bare``,
    which only decodes a command body: the baseline of the benchmark. ``rate_limits`` sets
    the requests a second per client address and per token (``None``: no limits).
    """
    seats = SeatTokens(hall)
    limiter = Limiter(rate_limits) if rate_limits is not None else None
    gateway = Gateway(hall, seats, admin_token, heartbeat, limiter)
    logs.add_secret(admin_token)

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
        state=State({"gamehall": gateway, "openapi": None, "limiter": limiter}),
        logging_config=None,  # the embedding program configures logging, not this app
        debug=False,
    )
    return app
