"""What a connection may hold of the server: read deadlines, caps per address, quiet accept errors.

uvicorn closes an idle keep-alive connection but waits forever for a request's headers or
body. :func:`guarded_protocol` returns its HTTP/1.1 protocol with two deadlines: a request's
headers must arrive within ``header_timeout`` seconds of its first byte (or of the connection),
and a body may pause at most ``body_timeout`` seconds between two reads. A client address may
hold ``per_address`` connections at once (a named proxy is exempt); one more is closed at once.
When the process runs out of file descriptors, the event loop logs every failed accept: the
filter from :func:`quiet_accept_errors` lets one such line through per interval.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections import Counter
from collections.abc import Callable

from uvicorn.protocols.http.h11_impl import H11Protocol

ACCEPT_ERROR = "socket.accept() out of system resource"


def guarded_protocol(
    header_timeout: float, body_timeout: float, per_address: int, exempt: Callable[[str], bool]
) -> type[H11Protocol]:
    """Return uvicorn's HTTP/1.1 protocol class with read deadlines and a per-address cap."""
    held: Counter[str] = Counter()

    class Guarded(H11Protocol):
        _deadline: asyncio.TimerHandle | None = None
        _began: float | None = None
        _address: str | None = None

        def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
            super().connection_made(transport)
            host = self.client[0] if self.client else None
            if host is not None and not exempt(host):
                if held[host] >= per_address:
                    transport.close()  # over the cap: nothing is read or answered
                    return
                held[host] += 1
                self._address = host
            self._began = time.monotonic()
            self._arm()

        def connection_lost(self, exc: Exception | None) -> None:
            self._disarm()
            if self._address is not None:
                held[self._address] -= 1
                if held[self._address] <= 0:
                    del held[self._address]
                self._address = None
            super().connection_lost(exc)

        def data_received(self, data: bytes) -> None:
            if self._waiting_for_headers() and self._began is None:
                self._began = time.monotonic()
            super().data_received(data)
            self._arm()

        def on_response_complete(self) -> None:
            super().on_response_complete()
            self._began = None  # the next request's clock starts with its first byte
            self._arm()

        def _waiting_for_headers(self) -> bool:
            return self.cycle is None or self.cycle.response_complete

        def _arm(self) -> None:
            self._disarm()
            if self.transport.is_closing():
                return
            cycle = self.cycle
            if cycle is not None and not cycle.response_complete:
                if cycle.more_body:  # the body is still coming: it may not pause for long
                    self._deadline = self.loop.call_later(body_timeout, self._expired)
                return  # the app is answering: no read deadline
            if self._began is None:
                return  # idle between requests: uvicorn's keep-alive timeout closes it
            left = max(0.0, self._began + header_timeout - time.monotonic())
            self._deadline = self.loop.call_later(left, self._expired)

        def _disarm(self) -> None:
            if self._deadline is not None:
                self._deadline.cancel()
                self._deadline = None

        def _expired(self) -> None:
            self._deadline = None
            if not self.transport.is_closing():
                self.transport.close()  # the app's receive() hears of a disconnect

    return Guarded


class AcceptErrorFilter(logging.Filter):
    """Let one "out of file descriptors" accept error through per ``interval`` seconds."""

    def __init__(self, interval: float = 10.0) -> None:
        super().__init__()
        self.interval = interval
        self.last = -float("inf")
        self.dropped = 0

    def filter(self, record: logging.LogRecord) -> bool:
        if not str(record.msg).startswith(ACCEPT_ERROR):
            return True
        now = time.monotonic()
        if now - self.last < self.interval:
            self.dropped += 1
            return False
        if self.dropped:
            record.msg = f"{record.msg} ({self.dropped} more like it since the last line)"
            record.args = ()
        self.last, self.dropped = now, 0
        return True


def quiet_accept_errors(interval: float = 10.0) -> AcceptErrorFilter:
    """Install (once) and return the filter on the event loop's logger."""
    logger = logging.getLogger("asyncio")
    for existing in logger.filters:
        if isinstance(existing, AcceptErrorFilter):
            return existing
    found = AcceptErrorFilter(interval)
    logger.addFilter(found)
    return found
