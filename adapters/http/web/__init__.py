"""The web page of the HTTP adapter: lobby, match pages, replays, served at ``/``."""

from .routes import router

__all__ = ["router"]
