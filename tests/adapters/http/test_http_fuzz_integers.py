"""Every integer field from outside, at its extremes: never a 5xx, never an answer over 1 s.

The fields are read from what the server itself publishes, so a new field is fuzzed without
touching this test: the OpenAPI document (query and header parameters, request bodies), each
game's option, expansion-option and command schemas and its calculators' request schemas
(``GET /games``), and the web page's forms as the lobby, join and replay pages render them
(every field of every form, numbers or not, gets the extremes as text). Requests go through
the app in the test's event loop, so a request that blocks the loop shows as a slow answer; a
slow answer is asked once more and counts only when it is slow again, since a stalled machine
slows one answer and work that grows with a value slows every one.
A short pass is part of ``make test``; ``make test-long`` tries many more values.
"""

from __future__ import annotations

import itertools
import time
from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass, field
from html.parser import HTMLParser
from typing import Any

import anyio
import httpx
import pytest
from gamehall.core import Registry
from gamehall.core.store import MemoryStore
from http_helpers import Served, bearer, serve

pytestmark = pytest.mark.anyio
ADMIN = "fuzz-admin-token-of-this-test"
SHORT: list[Any] = [-1, 0, 2**63 - 1, 2**63, 10**30]
LONG: list[Any] = [
    *SHORT, 1, 2, 3, 7, 64, 255, 1000, 65_536, 2**31 - 1, 2**31, 2**53 + 1, 2**62,
    -(2**63), -(2**63) - 1, 10**100, 30_000_000, 1.5, 2.0, "2", "1e3", True, None,
]  # fmt: skip
FINISHED = [4, 0, 2, 6, 3, 1, 5]  # tic-tac-toe: X completes 2-4-6
SLOW = 1.0


@dataclass
class Target:
    """A running and a finished match to aim at, with their tokens."""

    running: str
    finished: str
    tokens: list[str]
    open: str = ""
    per_game: dict[str, tuple[str, str]] = field(default_factory=dict)  # game: (match, token)
    csrf: str = ""


@dataclass
class Case:
    """One request of the fuzz."""

    what: str
    method: str
    path: str
    options: dict[str, Any]


async def fuzz(served: Served, target: Target, values: list[Any]) -> int:
    """Send every case; fail on a 5xx or a slow answer; return how many were sent."""
    client = served.client
    doc = (await client.get("/openapi.json")).json()
    games = (await client.get("/games")).json()
    forms = await page_forms(client, target)
    cases = itertools.chain(
        openapi_cases(doc, target, values),
        game_cases(games, target, values),
        await calculator_cases(client, games, values),
        form_cases(forms, values),
        web_cases(served.app, target, values),
    )
    sent = 0
    slow: list[str] = []
    for number, case in enumerate(cases):
        took = await timed(client, case)
        if took > SLOW:
            # A machine that stalls (another process, a busy CI host) makes any one answer
            # slow; work that grows with the value is slow every time it is asked.
            again = await timed(client, case)
            if again > SLOW:
                slow.append(f"{case.what} {case.path}: {took:.2f} s, then {again:.2f} s")
        sent = number + 1
    assert not slow, slow
    return sent


async def timed(client: httpx.AsyncClient, case: Case) -> float:
    """Send one case; fail on a 5xx; return how long the answer took."""
    began = time.monotonic()
    with anyio.fail_after(30, reason=f"{case.what} {case.path}"):
        answer = await client.request(case.method, case.path, **case.options)
    assert answer.status_code < 500, (case.what, case.path, answer.text[:300])
    return time.monotonic() - began


# -- the OpenAPI document ----------------------------------------------------------------------


def openapi_cases(doc: dict[str, Any], target: Target, values: list[Any]) -> Iterator[Case]:
    for path, operations in doc["paths"].items():
        for method, operation in operations.items():
            url = fill_path(path, target)
            headers = auth(path, target)
            for param in operation.get("parameters", []):
                if not is_integer(param.get("schema", {}), doc):
                    continue
                for value in values:
                    text = as_text(value)
                    where = param["in"]
                    options: dict[str, Any] = {"headers": dict(headers)}
                    if where == "query":
                        options["params"] = {param["name"]: text}
                    elif where == "header":
                        options["headers"][param["name"]] = text
                    else:
                        continue
                    if method in ("post", "put"):
                        options["json"] = base_body(path, method)
                    yield Case(f"{param['name']}={text}", method.upper(), url, options)
            body = operation.get("requestBody", {}).get("content", {}).get("application/json")
            if body is None:
                continue
            for name in integer_fields(resolve(body["schema"], doc), doc):
                for value in values:
                    data = {**base_body(path, method), name: value}
                    yield Case(f"{name}={value!r}", method.upper(), url,
                               {"json": data, "headers": headers})  # fmt: skip


def fill_path(path: str, target: Target) -> str:
    # A stream of a running match stays open by design: streams are fuzzed on a finished one.
    match = target.finished if path.endswith("/events") else target.running
    return path.replace("{match}", match).replace("{game}", "kaladan").replace("{name}", "odds")


def auth(path: str, target: Target) -> dict[str, str]:
    if path.endswith(("/fork", "/log")):
        return bearer(ADMIN)
    return bearer(target.tokens[0]) if "{match}" in path else {}


_ids = itertools.count()


def base_body(path: str, method: str) -> dict[str, Any]:
    """Return a body the route would take, so a fuzzed field reaches past the required ones."""
    if path == "/matches" and method == "post":
        return {"game": "tictactoe"}
    if path.endswith("/commands"):
        command = {"type": "tictactoe.PlaceMark", "cell": 0}
        return {"command": command, "command_id": f"fuzz-{next(_ids)}"}
    if path.endswith("/fork"):
        return {"at_seq": 1}
    if path == "/players":
        return {"name": f"fuzz {next(_ids)}"}
    return {}


def resolve(schema: dict[str, Any], doc: dict[str, Any]) -> dict[str, Any]:
    ref = schema.get("$ref")
    if ref is None:
        return schema
    node: Any = doc
    for part in ref.lstrip("#/").split("/"):
        node = node[part]
    return resolve(node, doc)


def is_integer(schema: dict[str, Any], doc: dict[str, Any]) -> bool:
    schema = resolve(schema, doc)
    kinds = schema.get("type")
    if kinds == "integer" or (isinstance(kinds, list) and "integer" in kinds):
        return True
    enum = schema.get("enum")
    if enum and all(isinstance(v, int) and not isinstance(v, bool) for v in enum):
        return True
    return any(is_integer(s, doc) for s in schema.get("anyOf", []) + schema.get("oneOf", []))


def integer_fields(schema: dict[str, Any], doc: dict[str, Any]) -> list[str]:
    props = resolve(schema, doc).get("properties", {})
    return [name for name, prop in props.items() if is_integer(prop, doc)]


def as_text(value: Any) -> str:
    return "true" if value is True else "null" if value is None else str(value)


# -- games: options, commands, calculators ---------------------------------------------------


def game_cases(games: list[dict[str, Any]], target: Target, values: list[Any]) -> Iterator[Case]:
    for game in games:
        gid = game["id"]
        for name in integer_fields(game["options"] or {}, game["options"] or {}):
            for value in values:
                body = {"game": gid, "options": {name: value}}
                yield Case(f"{gid} option {name}={value!r}", "POST", "/matches", {"json": body})
        for expansion in game["expansions"]:
            schema = expansion.get("options") or {}
            for name in integer_fields(schema, schema):
                for value in values:
                    body = {"game": gid, "expansions": [expansion["id"]],
                            "expansion_options": {expansion["id"]: {name: value}}}  # fmt: skip
                    yield Case(f"{gid} {expansion['id']} {name}", "POST", "/matches",
                               {"json": body})  # fmt: skip
        match, token = target.per_game[gid]
        for tag, schema in game["commands"].items():
            command = filled(schema)
            for name in integer_fields(schema, schema):
                for value in values:
                    body = {"command": {**command, "type": tag, name: value},
                            "command_id": f"fuzz-{next(_ids)}"}  # fmt: skip
                    yield Case(f"{tag}.{name}={value!r}", "POST", f"/matches/{match}/commands",
                               {"json": body, "headers": bearer(token)})  # fmt: skip


def filled(schema: dict[str, Any]) -> dict[str, Any]:
    """Return the required fields of an object schema with the plainest values."""
    node = resolve(schema, schema)
    plain = {"integer": 0, "string": "", "boolean": False, "array": [], "object": {}}
    out: dict[str, Any] = {}
    for name in node.get("required", []):
        prop = resolve(node["properties"].get(name, {}), schema)
        enum = prop.get("enum")
        out[name] = enum[0] if enum else plain.get(str(prop.get("type")), None)
    return out


async def calculator_cases(
    client: httpx.AsyncClient, games: list[dict[str, Any]], values: list[Any]
) -> list[Case]:
    cases = []
    for game in games:
        offered = (await client.get(f"/games/{game['id']}/calculators")).json()
        for calculator in offered:
            schema = calculator["request"]
            url = f"/games/{game['id']}/calculators/{calculator['name']}"
            for name in integer_fields(schema, schema):
                for value in values:
                    body = {**filled(schema), name: value}
                    cases.append(Case(f"{calculator['name']} {name}={value!r}", "POST", url,
                                      {"json": body}))  # fmt: skip
    return cases


# -- the web page's forms ----------------------------------------------------------------------


@dataclass
class Form:
    action: str
    fields: dict[str, str]


class Forms(HTMLParser):
    """Collect each POST form of a page with its fields' first values."""

    def __init__(self) -> None:
        super().__init__()
        self.forms: list[Form] = []
        self._select: str | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {k: v or "" for k, v in attrs}
        if tag == "form" and a.get("method", "").lower() == "post":
            self.forms.append(Form(a.get("action", ""), {}))
        elif not self.forms:
            return
        elif tag in ("input", "button") and a.get("name"):
            self.forms[-1].fields.setdefault(a["name"], a.get("value", ""))
        elif tag == "select":
            self._select = a.get("name")
        elif tag == "option" and self._select:
            self.forms[-1].fields.setdefault(self._select, a.get("value", ""))

    def handle_endtag(self, tag: str) -> None:
        if tag == "select":
            self._select = None


async def page_forms(client: httpx.AsyncClient, target: Target) -> list[Form]:
    forms = []
    replays = [f"/watch/{target.finished}/frame?at={seq}" for seq in range(1, len(FINISHED) + 2)]
    for page in ("/", f"/join/{target.open}", *replays):
        answer = await client.get(page)
        assert answer.status_code == 200, (page, answer.text[:300])
        parser = Forms()
        parser.feed(answer.text)
        forms += [f for f in parser.forms if f.action]
    target.csrf = client.cookies["gh_csrf"]
    actions = {f.action.split("/")[1] for f in forms}
    assert {"lobby", "join", "watch"} <= actions, actions  # the fuzz reaches every kind
    return forms


def form_cases(forms: list[Form], values: list[Any]) -> Iterator[Case]:
    for form in forms:
        for name in form.fields:
            if name in ("csrf", "name", "game"):
                continue
            for value in values:
                data = {**form.fields, "name": "Fuzz", name: as_text(value)}
                data["csrf"] = form.fields.get("csrf", "")
                yield Case(f"form {name}={value!r}", "POST", form.action, {"data": data})


def web_cases(app: Any, target: Target, values: list[Any]) -> Iterator[Case]:
    """Fuzz the integer path and query parameters of the web page's GET routes."""
    for route in app.routes:
        for handler in getattr(route, "route_handlers", ()):
            if "web" not in handler.opt or "GET" not in handler.http_methods:
                continue
            ints = [
                (name, str(getattr(f.kwarg_definition, "param_type", "")).lower())
                for name, f in handler.parsed_fn_signature.parameters.items()
                if int in {f.annotation, *(t.annotation for t in f.inner_types)}
            ]
            path = route.path.replace("{match:str}", target.finished)
            for (name, kind), value in itertools.product(ints, values):
                text = as_text(value)
                if "{" + name + ":int}" in path:
                    url = path.replace("{" + name + ":int}", text).replace("{seat:int}", "0")
                    yield Case(f"web path {name}={text}", "GET", url, {})
                elif "query" in kind or kind == "":
                    query = handler.parsed_fn_signature.parameters[name].kwarg_definition
                    key = getattr(query, "name", None) or name
                    url = path.replace("{seat:int}", "0")
                    yield Case(f"web {key}={text}", "GET", url, {"params": {key: text}})


# -- the runs ----------------------------------------------------------------------------------


@pytest.fixture
async def served(registry: Registry) -> AsyncIterator[tuple[Served, Target]]:
    async with serve(registry, MemoryStore(registry.codec), admin_token=ADMIN) as served:
        client = served.client
        running = (await client.post("/matches", json={"game": "tictactoe"})).json()
        done = (await client.post("/matches", json={"game": "tictactoe"})).json()
        for n, cell in enumerate(FINISHED):
            body = {"command": {"type": "tictactoe.PlaceMark", "cell": cell}, "command_id": f"f{n}"}
            sent = await client.post(f"/matches/{done['match']}/commands", json=body,
                                     headers=bearer(done["seats"][n % 2]["token"]))  # fmt: skip
            assert sent.status_code == 200, sent.text
        target = Target(running["match"], done["match"], [s["token"] for s in running["seats"]])
        target.open = (
            await client.post("/matches", json={"game": "tictactoe", "seating": "open"})
        ).json()["match"]
        for game in (await client.get("/games")).json():
            made = (await client.post("/matches", json={"game": game["id"]})).json()
            target.per_game[game["id"]] = (made["match"], made["seats"][0]["token"])
        yield served, target


async def test_integer_extremes_short(served: tuple[Served, Target]) -> None:
    sent = await fuzz(*served, SHORT)
    assert sent > 200  # every source contributed


@pytest.mark.long
async def test_integer_extremes_full(served: tuple[Served, Target]) -> None:
    sent = await fuzz(*served, LONG)
    assert sent > 1000
