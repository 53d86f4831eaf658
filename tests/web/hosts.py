"""gamehall mounted under /games inside another service: a Starlette host and a Litestar host.

docs/http-api.md includes this file; tests/web/test_web_forms.py serves both.
"""

from __future__ import annotations

from gamehall.adapters.http import create_app
from gamehall.adapters.http.app import mounted_lifespan
from gamehall.core.hall import Hall
from litestar import Litestar, asgi
from starlette.applications import Starlette
from starlette.routing import Mount


def starlette_host(hall: Hall) -> Starlette:
    """Starlette sets the ASGI root_path of a Mount: the pages' links follow it."""
    games = create_app(hall, manage_hall=True)
    # A host runs only its own lifespan: it runs the mounted app's, which opens the hall.
    return Starlette(
        routes=[Mount("/games", app=games)],
        lifespan=lambda app: mounted_lifespan(games),
    )


def litestar_host(hall: Hall) -> Litestar:
    """Litestar's mount sets no root_path: the app is told where it is mounted."""
    games = create_app(hall, manage_hall=True, root_path="/games")
    return Litestar(
        route_handlers=[asgi("/games", is_mount=True, copy_scope=True)(games)],
        lifespan=[lambda app: mounted_lifespan(games)],
    )
