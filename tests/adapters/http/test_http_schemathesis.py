"""The OpenAPI document is valid and true: schemathesis sends what it describes, seeded.

Every operation is fuzzed from the document against a live server (uvicorn on loopback), as
a spectator, with a seat token and with the admin token, on unknown matches and on real ones
(a running match and a finished one), with valid data and with invalid data. The checks:
no 5xx, every answer matches its documented schema, every status code is documented.
A short run is part of ``make test``; the full pass runs in ``make test-long``.
"""

from __future__ import annotations

import socket
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

import anyio
import httpx
import hypothesis
import pytest
import schemathesis
import uvicorn
from gamehall.adapters.http import create_app
from gamehall.core import Registry
from gamehall.core.hall import Hall
from gamehall.core.store import MemoryStore
from hypothesis import HealthCheck, Phase, given, settings
from schemathesis import GenerationMode
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (
    response_schema_conformance,
    status_code_conformance,
)

ADMIN = "schemathesis-admin-token"
CHECKS = [not_a_server_error, response_schema_conformance, status_code_conformance]
FINISHED = [4, 0, 2, 6, 3, 1, 5]  # X completes 3-4-5


@dataclass
class Live:
    """A served app, its document and real matches to aim at."""

    url: str
    document: dict[str, Any]
    running: str
    finished: str
    tokens: dict[str, str]


@contextmanager
def live_server(registry: Registry) -> Iterator[Live]:
    """Serve a fresh hall with uvicorn in a thread; stop it afterwards."""
    hall = Hall(MemoryStore(registry.codec), registry, idle_seconds=1.0)
    app = create_app(hall, admin_token=ADMIN, manage_hall=True, rate_limits=None, heartbeat=0.2)
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    sock.bind(("127.0.0.1", 0))
    config = uvicorn.Config(app, log_config=None, log_level="warning", lifespan="on")
    server = uvicorn.Server(config)
    server.capture_signals = _no_signals  # type: ignore[method-assign]
    thread = threading.Thread(target=lambda: anyio.run(server.serve, [sock]), daemon=True)
    thread.start()
    try:
        url = f"http://127.0.0.1:{sock.getsockname()[1]}"
        with httpx.Client(base_url=url, timeout=10) as client:
            for _ in range(500):
                if server.started:
                    break
                threading.Event().wait(0.01)
            document = client.get("/openapi.json").json()
            running = client.post("/matches", json={"game": "tictactoe", "seed": 1}).json()
            finished = client.post("/matches", json={"game": "tictactoe", "seed": 2}).json()
            for n, cell in enumerate(FINISHED):
                token = finished["seats"][n % 2]["token"]
                body = {
                    "command": {"type": "tictactoe.PlaceMark", "cell": cell},
                    "command_id": f"c{n}",
                }
                client.post(
                    f"/matches/{finished['match']}/commands",
                    json=body,
                    headers={"authorization": f"Bearer {token}"},
                ).raise_for_status()
        tokens = {"seat": running["seats"][0]["token"], "admin": ADMIN}
        yield Live(url, document, running["match"], finished["match"], tokens)
    finally:
        server.should_exit = True
        thread.join(10)
        sock.close()


@contextmanager
def _no_signals() -> Iterator[None]:
    yield


@pytest.fixture(scope="module")
def live(registry: Registry) -> Iterator[Live]:
    with live_server(registry) as served:
        yield served


def test_the_document_is_valid_openapi(live: Live) -> None:
    schema = schemathesis.openapi.from_dict(live.document)
    operations = [result.ok() for result in schema.get_all_operations()]
    assert len(operations) >= 13
    for path, item in live.document["paths"].items():
        for method, operation in item.items():
            if method == "parameters":
                continue
            answers = operation["responses"]
            for status in ("429", "500"):
                assert status in answers, (path, method)
            for status, answer in answers.items():
                if status.startswith(("4", "5")):
                    ref = answer["content"]["application/json"]["schema"]["$ref"]
                    assert ref.endswith("/ErrorOut"), (path, method, status)
    event = live.document["components"]["schemas"]["Event"]["properties"]["type"]
    assert "const" not in event and "tictactoe.MarkPlaced" in event["enum"]
    error = live.document["components"]["schemas"]["ErrorOut"]
    assert set(error["required"]) == {"status", "error", "message"}
    assert set(error["properties"]) == {"status", "error", "message", "rule"}
    history = live.document["paths"]["/matches/{match}/history"]["get"]["parameters"]
    after = next(p for p in history if p["name"] == "after")["schema"]
    assert after["minimum"] == 0 and after["maximum"] == 2**63 - 1
    events = live.document["paths"]["/matches/{match}/events"]["get"]["parameters"]
    resume = next(p for p in events if p["name"] == "Last-Event-ID")["schema"]
    assert resume["minimum"] == 0 and resume["maximum"] == 2**63 - 1


POSITIVE, NEGATIVE = GenerationMode.POSITIVE, GenerationMode.NEGATIVE
# (match, who asks, data): unknown matches, the running one (whose seat 0 holds the token)
# and the finished one; no token, the seat's, the admin's; valid data and invalid.
WAYS = [
    ("unknown", None, POSITIVE), ("unknown", None, NEGATIVE), ("unknown", "seat", POSITIVE),
    ("running", None, POSITIVE), ("running", "seat", POSITIVE), ("running", "seat", NEGATIVE),
    ("running", "admin", POSITIVE), ("running", "admin", NEGATIVE),
    ("finished", None, POSITIVE), ("finished", None, NEGATIVE), ("finished", "admin", POSITIVE),
]  # fmt: skip
ALL_WAYS = [
    (target, who, mode)
    for target in ("unknown", "running", "finished")
    for who in (None, "seat", "admin")
    for mode in (POSITIVE, NEGATIVE)
]


def fuzz(live: Live, examples: int, seed: int, ways: list[Any] = WAYS) -> int:
    """Run every operation in each way; return how many requests were sent."""
    schema = schemathesis.openapi.from_dict(live.document)
    sent = 0
    for result in schema.get_all_operations():
        operation = result.ok()
        for target, who, mode in ways:
            # A live stream of a running match never ends: streams are read once over.
            if operation.path.endswith("/events") and target != "finished":
                continue
            match = {"unknown": None, "running": live.running, "finished": live.finished}[target]
            sent += _run(live, operation, match, who, mode, examples, seed)
    return sent


def _run(
    live: Live, operation: Any, target: str | None, who: str | None, mode: Any, examples: int,
    seed: int,
) -> int:  # fmt: skip
    headers = {"authorization": f"Bearer {live.tokens[who]}"} if who else None
    path = {"match": target} if target and "{match}" in operation.path else None
    if target and path is None:
        return 0  # no match in this path: the unknown-match run covers it
    strategy = operation.as_strategy(mode, path_parameters=path, headers=headers)
    count = [0]

    @hypothesis.seed(seed)
    @settings(
        max_examples=examples, database=None, deadline=None,
        suppress_health_check=list(HealthCheck), phases=[Phase.generate, Phase.shrink],
    )  # fmt: skip
    @given(case=strategy)
    def check(case: Any) -> None:
        count[0] += 1
        case.call_and_validate(base_url=live.url, checks=CHECKS, timeout=10)

    try:
        check()
    except hypothesis.errors.Unsatisfiable:
        pass  # nothing to make invalid (GET /health takes nothing)
    return count[0]


def test_schemathesis_finds_no_5xx_and_no_schema_mismatch(live: Live) -> None:
    sent = fuzz(live, examples=3, seed=1)
    assert sent > 150


@pytest.mark.long
def test_schemathesis_full_pass(registry: Registry) -> None:
    with live_server(registry) as served:
        assert fuzz(served, examples=50, seed=2, ways=ALL_WAYS) > 4_000
