"""The OpenAPI document at /openapi.json describes exactly the routes the app serves."""

from __future__ import annotations

from typing import Any

import pytest
from gamehall.core import Registry
from http_helpers import serve

pytestmark = pytest.mark.anyio
UNDOCUMENTED = {"/openapi.json", "/bare"}
# The web page's routes serve HTML to browsers, not the API (docs/architecture.md, "Web page").
WEB_PAGE = ("/lobby/", "/join/", "/play/", "/watch/", "/static/")


def served_routes(app: Any) -> dict[str, set[str]]:
    out: dict[str, set[str]] = {}
    for route in app.routes:
        path = route.path_format
        if path in UNDOCUMENTED or path == "/schema" or path.startswith("/schema/"):
            continue
        if path == "/" or path.startswith(WEB_PAGE):
            continue
        methods = {m.lower() for m in getattr(route, "methods", ())} - {"head", "options"}
        if methods:
            out.setdefault(path, set()).update(methods)
    return out


async def test_openapi_document_matches_the_routes(registry: Registry) -> None:
    async with serve(registry, bare_endpoint=True) as served:
        response = await served.client.get("/openapi.json")
        assert response.status_code == 200
        assert response.headers["content-type"].startswith("application/vnd.oai.openapi+json")
        document = response.json()
        routes = served_routes(served.app)
    assert document["openapi"].startswith("3.")
    documented = {path: set(item) - {"parameters"} for path, item in document["paths"].items()}
    assert documented == routes
    assert len(routes) >= 13
    schemas = document["components"]["schemas"]
    for path, method, body in [
        ("/matches", "post", "CreateMatch"),
        ("/matches/{match}/commands", "post", "PostCommand"),
        ("/matches/{match}/seats", "post", "ClaimSeat"),
        ("/matches/{match}/fork", "post", "ForkMatch"),
    ]:
        content = document["paths"][path][method]["requestBody"]["content"]["application/json"]
        assert content["schema"]["$ref"].endswith(body) and body in schemas
    assert "command_id" in schemas["PostCommand"]["required"]
    assert document["paths"]["/matches/{match}/commands"]["post"]["security"] == [{"seat": []}]
    assert set(document["components"]["securitySchemes"]) == {"seat", "admin"}
