"""Who sent a request: its client address and the credential it carries, unchecked.

The guard's rate limits and the error handlers both ask, so neither imports the other.
"""

from __future__ import annotations

from typing import Any

from litestar import Request


def credential(request: Request[Any, Any, Any]) -> str | None:
    """Return the token a request carries (header, ``?token=`` or the web page's player or
    seat cookie), unchecked."""
    header = request.headers.get("authorization")
    if header:
        scheme, _, token = header.partition(" ")
        if scheme.lower() == "bearer" and token.strip():
            return token.strip()
        return header
    cookies = request.cookies
    return (
        request.query_params.get("token")
        or cookies.get("gh_player")
        or cookies.get("gh_seat")
        or None
    )


def address(request: Request[Any, Any, Any]) -> str:
    """Return the client address a request came from."""
    client = request.client
    return client.host if client is not None else "unknown"
