"""What an operator's load balancer and monitoring ask each node: liveness, readiness, metrics.

``/livez`` answers while the process serves at all; ``/readyz`` only while the hall runs, the
store answers and (on a shared store) the node follows the other nodes' commits, so a load
balancer sends no command to a node that cannot store it. ``/metrics`` is the Prometheus text
format of the node's counters.
"""

from __future__ import annotations

import time
from typing import Any

import anyio
import structlog
from litestar import Request, Response, get
from litestar.openapi.datastructures import ResponseSpec

from .errors import ApiError
from .gateway import Gateway
from .openapi import errors
from .seats import same_secret

log = structlog.get_logger("gamehall.http")

Req = Request[Any, Any, Any]
PROMETHEUS = "text/plain; version=0.0.4; charset=utf-8"
FOLLOW_STALE = 10.0  # seconds without a look at the store after which a node is not ready
# How long a transaction may hold this node's followers back (PostgreSQL's watermark: committed
# events no follower reads until it ends) before the node says it is not ready.
READY_HELD_SECONDS = 30.0


def _gateway(request: Req) -> Gateway:
    gateway: Gateway = request.app.state.gamehall
    return gateway


# A load balancer's probes are never rate-limited: a flood from the address the probes share
# must not make a healthy node look down. /metrics reads the store and stays limited.
PROBE = {"unlimited": True}


@get("/livez", tags=["server"], media_type="text/plain", responses=errors(), opt=PROBE)
async def livez() -> str:
    """Tell that the process answers."""
    return "ok\n"


@get(
    "/readyz",
    tags=["server"],
    media_type="text/plain",
    opt=PROBE,
    responses={
        **errors(),
        503: ResponseSpec(
            data_container=str, media_type="text/plain", description="not ready, and why"
        ),
    },
)
async def readyz(request: Req) -> Response[str]:
    """Tell whether this node can take commands now (503 and the reason when it cannot)."""
    hall = _gateway(request).hall
    reason = None
    if hall.closed:
        reason = "the hall is not running"
    else:
        try:  # every store part a request needs: the events and the seat table
            await anyio.to_thread.run_sync(hall.store.version, "")
            await anyio.to_thread.run_sync(_gateway(request).seats.ping)
        except Exception as exc:  # noqa: BLE001 - any failure means not ready, said in words
            # The detail (a file path, a database URL) is for the operator's log only.
            log.warning("not ready", error=f"{type(exc).__name__}: {exc}")
            reason = "the store does not answer"
        follower = hall.follower
        if reason is None and follower is not None:
            if time.monotonic() - follower.checked > FOLLOW_STALE:
                reason = "this node has not followed the other nodes' commits lately"
        if reason is None and follower is not None:
            reason = await _held_back(request, hall.store)
    if reason is not None:
        return Response(f"not ready: {reason}\n", status_code=503, media_type="text/plain")
    return Response("ready\n", media_type="text/plain")


async def _held_back(request: Req, store: Any) -> str | None:
    """Return why the node is not ready when a transaction has held its followers back past
    the limit (``ready_held_seconds``; ``None``: never), or ``None``."""
    limit = request.app.state.get("ready_held_seconds")
    if limit is None or not hasattr(store, "held_back"):
        return None
    try:
        events, seconds = await anyio.to_thread.run_sync(store.held_back)
    except Exception as exc:  # noqa: BLE001 - the store answered a moment ago: say so if not
        log.warning("not ready", error=f"{type(exc).__name__}: {exc}")
        return "the store does not answer"
    if events > 0 and seconds > limit:
        return (
            f"a transaction has held this node's followers back for {seconds:.0f} s "
            f"(limit {limit:g} s): {events} committed events wait for it to end"
        )
    return None


@get("/metrics", tags=["server"], media_type=PROMETHEUS, responses=errors(401))
async def metrics(request: Req) -> Response[str]:
    """Return the node's counters in the Prometheus text format (with the metrics token, when
    the server has one: ``Authorization: Bearer TOKEN``)."""
    gateway = _gateway(request)
    wanted = request.app.state.get("metrics_token")
    if wanted is not None:
        given = request.headers.get("authorization", "")
        scheme, _, token = given.partition(" ")
        if scheme.lower() != "bearer" or not same_secret(token.strip(), wanted):
            raise ApiError(
                401, "unauthorized", "the metrics of this server need its metrics token",
                headers={"WWW-Authenticate": 'Bearer realm="metrics"'},
            )  # fmt: skip
    hall = gateway.hall
    counts = hall.metrics
    lag = 0
    if hall.follower is not None:
        try:
            head = await anyio.to_thread.run_sync(hall.store.position)
            lag = max(head - hall.follower.position, 0)
        except Exception:  # noqa: BLE001 - the store is down: readiness says so
            lag = hall.follower.lag
    held = (0, 0.0)
    if hall.follower is not None and hasattr(hall.store, "held_back"):
        try:
            held = await anyio.to_thread.run_sync(hall.store.held_back)
        except Exception:  # noqa: BLE001 - the store is down: readiness says so
            pass
    lines: list[str] = []

    def add(name: str, kind: str, text: str, value: float) -> None:
        lines.extend([f"# HELP {name} {text}", f"# TYPE {name} {kind}", f"{name} {value:g}"])

    add(
        "gamehall_commands_total", "counter", "Commands acknowledged by this node.", counts.commands
    )
    add(
        "gamehall_appends_total",
        "counter",
        "Batches this node appended to the store.",
        counts.appends,
    )
    add(
        "gamehall_commits_total",
        "counter",
        "Store transactions (group commits) of this node.",
        hall.journal.commits,
    )
    add(
        "gamehall_conflicts_total",
        "counter",
        "Appends refused because another node stored the same seq first.",
        counts.conflicts,
    )
    add(
        "gamehall_retries_total",
        "counter",
        "Commands decided again after such a conflict.",
        counts.retries,
    )
    add(
        "gamehall_caught_up_events_total",
        "counter",
        "Events of other nodes applied to this node's actors.",
        counts.caught_up,
    )
    add("gamehall_actors_active", "gauge", "Matches active on this node.", hall.active)
    add(
        "gamehall_stream_lag_events",
        "gauge",
        "Events committed in the store that this node has not applied yet.",
        lag,
    )
    if hasattr(hall.store, "held_back"):
        add(
            "gamehall_follow_held_events",
            "gauge",
            "Committed events no follower can read yet: an older transaction still runs.",
            held[0],
        )
        add(
            "gamehall_follow_held_seconds",
            "gauge",
            "How long the transaction holding followers back has run (0 when none does).",
            held[1],
        )
    add(
        "gamehall_leases_held",
        "gauge",
        "Match leases this node holds (bots, clocks).",
        getattr(hall.store, "leases", 0),
    )
    add(
        "gamehall_bot_commands_total",
        "counter",
        "Commands sent by this node's bots.",
        hall.bots.played,
    )
    add(
        "gamehall_quarantined_matches",
        "gauge",
        "Matches refused for damaged rows.",
        len(hall.quarantined),
    )
    return Response("\n".join(lines) + "\n", media_type=PROMETHEUS)  # fmt: skip


OPS_ROUTES = [livez, readyz, metrics]
