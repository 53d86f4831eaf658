"""The HTTP adapter: an ASGI app over a Hall, seat tokens, a live stream per seat, OpenAPI."""

from .app import create_app

__all__ = ["create_app"]
