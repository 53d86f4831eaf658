"""``gamehall serve``: the HTTP API on the embedded SQLite store, served by uvicorn."""

from __future__ import annotations

import argparse
import contextlib
import errno
import ipaddress
import os
import resource
import signal
import socket
import sys
import threading
from collections.abc import Callable, Iterator
from types import FrameType
from typing import Any

import anyio
import uvicorn
from gamehall.adapters.cli.common import (
    add_db_option,
    add_server_limits,
    check_server_limits,
    int_arg,
    open_store,
)
from gamehall.core import GamehallError, default_registry, lifecycle
from gamehall.core.hall import Hall
from gamehall.core.runtime import (
    GC_ENV,
    LOOP_ENV,
    LOOPS,
    SERVER_THRESHOLDS,
    GcPolicy,
    apply_gc_policy,
    gc_policy_from_env,
    loop_options,
    rested_memory_task,
)

from .app import MAX_BODY, create_app
from .conn import guarded_protocol, quiet_accept_errors
from .guard import BotLimits, RateLimits
from .ops import READY_HELD_SECONDS
from .stream import MAX_STREAMS, STREAMS_PER_ADDRESS, StreamLimits


def _fd_budget() -> int:
    """Return the default connection cap: what the file descriptor limit leaves room for."""
    soft, _ = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft == resource.RLIM_INFINITY:
        return 10_000
    return max(64, min(10_000, soft - 100))  # the rest: the store, logs, plugins' files


ADMIN_TOKEN_ENV = "GAMEHALL_ADMIN_TOKEN"
METRICS_TOKEN_ENV = "GAMEHALL_METRICS_TOKEN"
PROXIES_ENV = "GAMEHALL_TRUSTED_PROXIES"
HEADER_TIMEOUT = 10.0
BODY_TIMEOUT = 30.0
MAX_CONNECTIONS = _fd_budget()
PER_ADDRESS = 64
SHUTDOWN_DEADLINE = 20.0


def register(sub: Any) -> None:
    """Add the ``serve`` subcommand."""
    parser = sub.add_parser("serve", help="serve the HTTP API (OpenAPI at /openapi.json)")
    parser.add_argument(
        "--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)"
    )
    parser.add_argument(
        "--port",
        type=int_arg(0, 65535),
        default=8000,
        help="port (default 8000; 0 picks a free one)",
    )
    add_db_option(parser)
    parser.add_argument(
        "--max-body", type=int_arg(1, 2**31), default=MAX_BODY, help="largest request body in bytes"
    )
    limits = RateLimits()
    parser.add_argument(
        "--anonymous-rate", type=_rate, default=limits.anonymous_rate, metavar="N",
        help=f"requests a second per client address without an accepted token "
        f"(default {limits.anonymous_rate:g}; 0: no limit)",
    )  # fmt: skip
    parser.add_argument(
        "--anonymous-burst", type=_burst, default=limits.anonymous_burst, metavar="N",
        help=f"requests at once per client address (default {limits.anonymous_burst})",
    )  # fmt: skip
    parser.add_argument(
        "--token-rate", type=_rate, default=limits.token_rate, metavar="N",
        help=f"requests a second per accepted token (default {limits.token_rate:g}; 0: no limit)",
    )  # fmt: skip
    parser.add_argument(
        "--token-burst", type=_burst, default=limits.token_burst, metavar="N",
        help=f"requests at once per accepted token (default {limits.token_burst})",
    )  # fmt: skip
    parser.add_argument(
        "--header-timeout", type=_seconds, default=HEADER_TIMEOUT, metavar="SECONDS",
        help=f"a request's headers must arrive within this (default {HEADER_TIMEOUT:g})",
    )  # fmt: skip
    parser.add_argument(
        "--body-timeout", type=_seconds, default=BODY_TIMEOUT, metavar="SECONDS",
        help=f"longest pause while a body arrives (default {BODY_TIMEOUT:g})",
    )  # fmt: skip
    parser.add_argument(
        "--max-connections", type=int_arg(1, 10**6), default=MAX_CONNECTIONS, metavar="N",
        help=f"connections and requests at once; more are answered 503 (default {MAX_CONNECTIONS})",
    )  # fmt: skip
    parser.add_argument(
        "--max-connections-per-address", type=int_arg(1, 10**6), default=PER_ADDRESS,
        metavar="N", help=f"connections one client address may hold (default {PER_ADDRESS})",
    )  # fmt: skip
    parser.add_argument(
        "--max-streams", type=int_arg(1, 10**6), default=MAX_STREAMS, metavar="N",
        help=f"event streams open at once on this node (default {MAX_STREAMS})",
    )  # fmt: skip
    parser.add_argument(
        "--max-streams-per-address", type=int_arg(1, 10**6), default=STREAMS_PER_ADDRESS,
        metavar="N", help=f"event streams one client address may hold (default {STREAMS_PER_ADDRESS})",
    )  # fmt: skip
    add_server_limits(parser)
    parser.add_argument(
        "--shutdown-deadline", type=_seconds, default=SHUTDOWN_DEADLINE, metavar="SECONDS",
        help=f"after a stop signal, end within this whatever still runs (default "
        f"{SHUTDOWN_DEADLINE:g})",
    )  # fmt: skip
    parser.add_argument(
        "--trusted-proxy", action="append", default=None, metavar="ADDRESS",
        help="a proxy whose X-Forwarded-For / X-Forwarded-Proto the server believes (repeat "
        f"for more; an IP address or network); also ${PROXIES_ENV} (comma-separated). "
        "Without one, every client is the address it connects from",
    )  # fmt: skip
    parser.add_argument(
        "--gc", default=None, metavar="POLICY",
        help=f"garbage collector policy: server (default: freeze start-up objects, "
        f"thresholds {','.join(map(str, SERVER_THRESHOLDS))}), python (Python's defaults) or "
        f"up to three thresholds N,N,N; also ${GC_ENV}",
    )  # fmt: skip
    parser.add_argument(
        "--loop", default=None, choices=LOOPS,
        help=f"event loop (default asyncio; uvloop needs the uvloop extra); also ${LOOP_ENV}",
    )  # fmt: skip
    parser.add_argument(
        "--expire-after", type=_period, default=lifecycle.EXPIRE_AFTER, metavar="PERIOD",
        help="a match waiting for players expires after this without an event (30m, 24h, 7d "
        "or never; default 24h)",
    )  # fmt: skip
    parser.add_argument(
        "--retain-for", type=_period, default=lifecycle.RETAIN_FOR, metavar="PERIOD",
        help="a finished, abandoned or expired match leaves the lobby's listings this long after "
        "its last event (its log stays until deleted; 12h, 7d or never; default 7d)",
    )  # fmt: skip
    parser.add_argument(
        "--ready-held-seconds", type=_held_limit, default=READY_HELD_SECONDS, metavar="SECONDS",
        help="/readyz answers 503 once a transaction has held this node's followers back longer "
        f"than this (PostgreSQL; default {READY_HELD_SECONDS:g}; never: no limit)",
    )  # fmt: skip
    parser.add_argument("--bare-endpoint", action="store_true", help=argparse.SUPPRESS)
    parser.set_defaults(func=run)


def _period(text: str) -> float | None:
    try:
        return lifecycle.parse_period(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def _held_limit(text: str) -> float | None:
    if text.strip().lower() == "never":
        return None
    return _seconds(text)


def _seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds") from None
    if not 0.1 <= value <= 86_400:
        raise argparse.ArgumentTypeError(f"{text!r} must be between 0.1 and 86400 seconds")
    return value


def _rate(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None
    if not 0 <= value <= 1e9:
        raise argparse.ArgumentTypeError(f"{text!r} must be between 0 and 1e9")
    return value


def _burst(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if not 1 <= value <= 10**9:
        raise argparse.ArgumentTypeError(f"{text!r} must be between 1 and 1e9")
    return value


_STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM)


class _EarlySignals:
    """Signals that came while the server was still being set up, kept for the server."""

    def __init__(self) -> None:
        self.received: list[int] = []

    def record(self, sig: int, frame: FrameType | None) -> None:
        self.received.append(sig)


class _Server(uvicorn.Server):
    """uvicorn, but a signal only stops serving: the hall then closes in order.

    A signal that came before serving began (while plugins load, say) stops it as soon as it
    has started, through the same orderly shutdown.
    """

    def __init__(
        self, config: uvicorn.Config, early: _EarlySignals, deadline: float = SHUTDOWN_DEADLINE
    ) -> None:
        super().__init__(config)
        self.early = early
        self.deadline = deadline
        self._watchdog: threading.Timer | None = None

    def handle_exit(self, sig: int, frame: FrameType | None) -> None:
        """Stop serving; and whatever still runs after the deadline, end the process then.

        Every acknowledged command is already on disk, so ending at the deadline loses
        nothing that was answered; only work in progress (a bot thinking) is dropped.
        """
        if self._watchdog is None:
            self._watchdog = threading.Timer(self.deadline, _end_now, (self.deadline,))
            self._watchdog.daemon = True
            self._watchdog.start()
        super().handle_exit(sig, frame)

    @contextlib.contextmanager
    def capture_signals(self) -> Iterator[None]:
        previous = {sig: signal.signal(sig, self.handle_exit) for sig in _STOP_SIGNALS}
        for sig in self.early.received:
            self.handle_exit(sig, None)
        try:
            yield
        finally:
            for sig, handler in previous.items():
                signal.signal(sig, handler)


def _end_now(deadline: float) -> None:
    print(
        f"gamehall serve: still stopping after {deadline:g} s: exiting now",
        file=sys.stderr, flush=True,
    )  # fmt: skip
    os._exit(1)


def run(args: argparse.Namespace) -> int:
    """Serve until interrupted; print the address once listening."""
    check_server_limits(args)
    try:
        args.gc_policy = gc_policy_from_env(args.gc)
        loop = loop_options(args.loop)
    except ValueError as exc:
        raise GamehallError(str(exc)) from None
    family = socket.AF_INET6 if ":" in args.host else socket.AF_INET
    # IPPROTO_TCP explicitly: asyncio sets TCP_NODELAY only on sockets that name it, and
    # without it every keep-alive answer waits for a delayed ACK (about 40 ms).
    sock = socket.socket(family, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((args.host, args.port))
    except OSError as exc:
        sock.close()
        raise GamehallError(_bind_refusal(args.host, args.port, exc)) from None
    early = _EarlySignals()
    previous = {sig: signal.signal(sig, early.record) for sig in _STOP_SIGNALS}
    try:
        anyio.run(_serve, args, sock, early, **loop)
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)
        sock.close()
    return 0


def _bind_refusal(host: str, port: int, exc: OSError) -> str:
    """Return, in one line, why the server cannot listen on ``host:port``."""
    if exc.errno == errno.EADDRINUSE:
        return (
            f"port {port} on {host} is already in use: stop what listens there, "
            "or choose another port with --port (--port 0 picks a free one)"
        )
    if exc.errno == errno.EACCES:
        return f"port {port} on {host} needs more rights: choose a port above 1023 with --port"
    return f"cannot listen on {host} port {port}: {exc.strerror or exc} (see --host, --port)"


def _among(proxies: list[str]) -> Callable[[str], bool]:
    """Return a test of whether an address is one of the named proxies."""
    networks = [ipaddress.ip_network(p, strict=False) for p in proxies]

    def among(host: str) -> bool:
        try:
            address = ipaddress.ip_address(host)
        except ValueError:
            return False
        return any(address in network for network in networks)

    return among


def trusted_proxies(args: argparse.Namespace) -> list[str]:
    """Return the proxies whose forwarded headers are believed (options, then environment)."""
    named = list(args.trusted_proxy or [])
    named += [p.strip() for p in os.environ.get(PROXIES_ENV, "").split(",") if p.strip()]
    for proxy in named:
        try:
            ipaddress.ip_network(proxy, strict=False)
        except ValueError:
            raise GamehallError(
                f"trusted proxy {proxy!r} is not an IP address or network (--trusted-proxy)"
            ) from None
    return named


async def _serve(args: argparse.Namespace, sock: socket.socket, early: _EarlySignals) -> None:
    registry = default_registry()
    proxies = trusted_proxies(args)
    store = open_store(args.db, registry)
    try:
        hall = Hall(
            store,
            registry,
            max_active=args.max_active,
            expire_after=args.expire_after,
            retain_for=args.retain_for,
        )
        app = create_app(
            hall,
            admin_token=os.environ.get(ADMIN_TOKEN_ENV) or None,
            metrics_token=os.environ.get(METRICS_TOKEN_ENV) or None,
            max_body=args.max_body,
            manage_hall=True,
            bare_endpoint=args.bare_endpoint,
            rate_limits=RateLimits(
                args.anonymous_rate, args.anonymous_burst, args.token_rate, args.token_burst
            ),
            streams=StreamLimits(args.max_streams, args.max_streams_per_address),
            bots=BotLimits(args.max_bot_iterations, args.max_bot_seconds),
            ready_held_seconds=args.ready_held_seconds,
        )
        quiet_accept_errors()
        config = uvicorn.Config(
            app,
            log_config=None,  # uvicorn's lines go through gamehall's queue and redaction
            log_level="warning",
            access_log=False,
            lifespan="on",
            timeout_graceful_shutdown=3,
            # uvicorn believes X-Forwarded-For from loopback by default: only from named proxies.
            proxy_headers=bool(proxies),
            forwarded_allow_ips=proxies or None,
            http=guarded_protocol(
                args.header_timeout, args.body_timeout, args.max_connections_per_address,
                _among(proxies),
            ),
            limit_concurrency=args.max_connections,
        )  # fmt: skip
        server = _Server(config, early, args.shutdown_deadline)
        async with anyio.create_task_group() as tg:
            shown = str(store) if store.shared else args.db
            tg.start_soon(_announce, server, sock, shown, args.gc_policy)
            tg.start_soon(rested_memory_task(hall))
            await server.serve(sockets=[sock])
            tg.cancel_scope.cancel()
    finally:
        store.close()


async def _announce(server: uvicorn.Server, sock: socket.socket, db: str, policy: GcPolicy) -> None:
    host, port = sock.getsockname()[:2]  # now: a stop while starting closes the socket
    while not server.started:
        await anyio.sleep(0.01)
    if server.should_exit:
        return
    apply_gc_policy(policy)  # start-up is done: what it loaded lives as long as the process
    shown = f"[{host}]" if ":" in host else host
    try:
        print(
            f"gamehall serving http://{shown}:{port} (store {db}; OpenAPI at /openapi.json)",
            flush=True,
        )
    except BrokenPipeError:
        # The reader of stdout left (`gamehall serve | head -1`): serving needs no stdout.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    if not os.environ.get(ADMIN_TOKEN_ENV):
        print(
            f"no {ADMIN_TOKEN_ENV} set: full logs and forks only after a match ends",
            file=sys.stderr,
            flush=True,
        )
