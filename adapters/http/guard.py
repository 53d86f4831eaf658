"""What every request passes before its route runs: the rate limits and the body checks.

Rate limits are token buckets. A request whose token the server has accepted before draws
from that token's bucket; any other request (anonymous, or with a token not known to be
good) draws from its client address's bucket, so trying random tokens buys no extra
requests. By default both are limited (a token as much as an address: a free player token
buys no unlimited requests). The client address is the connection's peer; the server takes a
forwarded address (``X-Forwarded-For``) only from the proxies its operator names. A refused
request gets ``429`` with ``Retry-After`` (whole seconds until the bucket has one again).

A body must be declared JSON (``415`` otherwise) and is refused before decoding when it nests
too deep, repeats a key or holds a number no field can take (see :mod:`gamehall.core.limits`).
"""

from __future__ import annotations

import hashlib
import math
import re
import time
import weakref
from collections import OrderedDict
from typing import Any

import msgspec
from gamehall.core import limits
from gamehall.core.bots import parse_bot
from gamehall.core.bots.base import BotError
from gamehall.core.bots.spec import BudgetLimit
from litestar import Request, Response

from .caller import address, credential
from .errors import ApiError

BUCKETS = 50_000


class RateLimits(msgspec.Struct, frozen=True):
    """Requests per second and burst, per client address (anonymous) and per accepted token.

    A rate of ``0`` turns that limit off.
    """

    anonymous_rate: float = 20.0
    anonymous_burst: int = 60
    token_rate: float = 20.0
    token_burst: int = 120


class BotLimits(BudgetLimit, frozen=True):
    """The largest budget a bot of a match created over HTTP may think with, per decision.

    A match's bots share the server's few thinking slots with every other match's (in turns,
    see :mod:`gamehall.core.bots.fair`): a budget this large keeps one decision short.
    """

    def check_role(self, role: str) -> None:
        """Refuse a bot role (``bot:KIND:BUDGET``) over the server's maximum, naming it."""
        spec = parse_bot(role.removeprefix("bot").removeprefix(":") or "random")
        try:
            self.check(spec)
        except BotError as exc:
            raise ApiError(400, "invalid_bot", f"{role}: {str(exc).partition(': ')[2]}") from None


class Bucket:
    """A token bucket: ``burst`` requests at once, refilled at ``rate`` a second."""

    __slots__ = ("level", "stamp")

    def __init__(self, burst: int, now: float) -> None:
        self.level = float(burst)
        self.stamp = now


class Limiter:
    """The buckets of one app (in memory: a restart forgives everyone)."""

    def __init__(self, config: RateLimits) -> None:
        self.config = config
        self._buckets: OrderedDict[tuple[str, str], Bucket] = OrderedDict()
        self._good: OrderedDict[bytes, None] = OrderedDict()

    def accepted(self, token: str) -> None:
        """Remember that a token was accepted: its requests now count against the token."""
        key = _digest(token)
        self._good[key] = None
        self._good.move_to_end(key)
        if len(self._good) > BUCKETS:
            self._good.popitem(last=False)

    def check(self, address: str, token: str | None) -> None:
        """Take one request from the right bucket, or raise the 429."""
        config = self.config
        if token is not None and _digest(token) in self._good:
            self._take(("token", token), config.token_rate, config.token_burst)
        else:
            self._take(("address", address), config.anonymous_rate, config.anonymous_burst)

    def _take(self, key: tuple[str, str], rate: float, burst: int) -> None:
        if rate <= 0:
            return
        now = time.monotonic()
        bucket = self._buckets.get(key)
        if bucket is None:
            bucket = self._buckets[key] = Bucket(burst, now)
            if len(self._buckets) > BUCKETS:
                self._buckets.popitem(last=False)
        else:
            self._buckets.move_to_end(key)
            bucket.level = min(float(burst), bucket.level + (now - bucket.stamp) * rate)
            bucket.stamp = now
        if bucket.level < 1.0:
            wait = max(1, math.ceil((1.0 - bucket.level) / rate))
            raise ApiError(
                429,
                "rate_limited",
                f"too many requests from this {key[0]}: try again in {wait} s",
                headers={"Retry-After": str(wait)},
            )
        bucket.level -= 1.0


def _digest(token: str) -> bytes:
    return hashlib.sha256(token.encode()).digest()[:16]


def allowed(request: Request[Any, Any, Any]) -> Response[None]:
    """Answer ``OPTIONS`` with every method the path takes (all its handlers', not one's)."""
    handler = request.route_handler
    methods = {"OPTIONS"}
    for route in request.app.routes:
        handlers = getattr(route, "route_handlers", ())
        if any(h is handler for h in handlers):
            methods |= set(getattr(route, "methods", ()))
    allow = ", ".join(sorted(methods))
    return Response(None, status_code=204, headers={"Allow": allow})


async def before_request(request: Request[Any, Any, Any]) -> Response[None] | None:
    """Apply the rate limits, then check the body of a request that has one."""
    limiter: Limiter | None = request.app.state.get("limiter")
    if limiter is not None and not request.route_handler.opt.get("unlimited"):
        limiter.check(address(request), credential(request))
    if request.method == "OPTIONS":
        return allowed(request)
    _check_integer_params(request)
    if request.method not in ("POST", "PUT", "PATCH"):
        return None
    if request.route_handler.opt.get("form"):
        return None  # a web page's form (its route checks the CSRF token and reads the fields)
    body = await request.body()
    if not body:
        return None  # the route says what body it needs
    media, _ = request.content_type
    if media != "application/json" and not media.endswith("+json"):
        shown = f"{media!r}" if media else "no Content-Type"
        raise ApiError(415, "unsupported_media_type", f"the body must be JSON, not {shown}")
    try:
        value = limits.parse_json(body)
    except limits.InvalidJson as exc:
        raise ApiError(400, exc.code, f"the JSON body is refused: {exc}") from None
    except ValueError:
        return None  # a syntax error: the framework's decoder says where it breaks
    _check_types(request, value)
    # The body is parsed once: the route's data comes from this value, not from the bytes.
    request._json = request._connection_state.json = value  # noqa: SLF001
    return None


_WHOLE = re.compile(r"-?[0-9]+")
# By the handler's function, whose signature says it: a handler object is made for each app,
# and one made later may take the id of one collected before (a cache by id once answered a
# route with another route's parameters, and let ``1e3`` through to the lenient conversion).
_INTEGER_PARAMS: weakref.WeakKeyDictionary[Any, tuple[tuple[str, str], ...]] = (
    weakref.WeakKeyDictionary()
)


def _integer_params(handler: Any) -> tuple[tuple[str, str], ...]:
    """Return (source, name) of each query or header parameter a handler takes as an integer."""
    known = _INTEGER_PARAMS.get(handler.fn)
    if known is not None:
        return known
    found = []
    for name, field in handler.parsed_fn_signature.parameters.items():
        kwarg = field.kwarg_definition
        types = {field.annotation, *(t.annotation for t in field.inner_types)}
        if kwarg is None or int not in types:
            continue
        kind = str(getattr(kwarg, "param_type", "")).lower()
        if "header" in kind:
            found.append(("header", getattr(kwarg, "name", None) or name))
        elif "query" in kind:
            found.append(("query", getattr(kwarg, "name", None) or name))
    _INTEGER_PARAMS[handler.fn] = known = tuple(found)
    return known


def _check_integer_params(request: Request[Any, Any, Any]) -> None:
    """Refuse ``1e3`` or ``2.0`` where a query or header parameter is a whole number."""
    for source, name in _integer_params(request.route_handler):
        values = request.headers if source == "header" else request.query_params
        text = values.get(name.lower() if source == "header" else name)
        if text is not None and not _WHOLE.fullmatch(text.strip()):
            shown = limits.shown(text, 24)
            raise ApiError(400, "invalid_request", f"{name} must be a whole number, not {shown!r}")


def _check_types(request: Request[Any, Any, Any], value: Any) -> None:
    """Refuse a body whose values have the wrong JSON type (``"2"`` or ``2.0`` for a count).

    The framework converts leniently, as it must for query strings; a JSON body is typed, so
    its decoded value is converted strictly here first and a wrong type is a 400 that names
    the field.
    """
    field = request.route_handler.parsed_data_field
    kind = field.annotation if field is not None else None
    if not (isinstance(kind, type) and issubclass(kind, msgspec.Struct)):
        return
    try:
        msgspec.convert(value, type=kind, strict=True)
    except msgspec.ValidationError as exc:
        raise ApiError(400, "invalid_request", f"the request is refused: {exc}") from None
