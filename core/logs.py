"""Logging for programs that run gamehall (the library itself never configures logging).

The engine logs through ``structlog.get_logger("gamehall.…")`` and binds the match id to every
actor line, with the seq of the match at that moment. Applications configure structlog as they
like; the CLI calls :func:`configure`, which prints to stderr as console text or JSON lines.

What :func:`configure` sets up keeps logging off the serving path: a log call only puts the
event in a bounded queue, and one writer thread renders it (tracebacks without local
variables), redacts it and writes it. A stalled stderr stalls that thread, never the event
loop; past the queue's bound lines are dropped and counted. Every line, structlog's and the
standard library's (uvicorn's), passes :func:`redact_text`: anything shaped like a token, a
``Bearer`` credential and every value given to :func:`add_secret` become ``[redacted]``.
"""

from __future__ import annotations

import atexit
import logging
import queue
import re
import sys
import threading
import time
from collections.abc import Callable, MutableMapping
from typing import Any, TextIO

import structlog
from structlog.tracebacks import ExceptionDictTransformer

REDACTED = "[redacted]"
# Seat tokens are secrets.token_urlsafe(32): 43 URL-safe characters. Anything of 32 or more
# such characters in a row is taken for a secret; match ids (16) and incident ids (12) are not.
TOKEN_SHAPED = re.compile(r"(?<![A-Za-z0-9_-])[A-Za-z0-9_-]{32,}(?![A-Za-z0-9_-])")
BEARER = re.compile(r"(?i)\b(bearer)(\s+)\S+")
QUEUE_SIZE = 10_000
_secrets: set[str] = set()


def add_secret(value: str | None) -> None:
    """Redact this exact value from every later log line (the admin token, say)."""
    if value:
        _secrets.add(value)


def redact_text(text: str) -> str:
    """Return text with every secret and anything token-shaped replaced."""
    for secret in _secrets:
        if secret in text:
            text = text.replace(secret, REDACTED)
    text = BEARER.sub(rf"\1\2{REDACTED}", text)
    return TOKEN_SHAPED.sub(REDACTED, text)


def redact_value(value: Any) -> Any:
    """Return a log value (strings, lists, dicts of them) with secrets redacted."""
    if isinstance(value, str):
        return redact_text(value)
    if isinstance(value, dict):
        return {redact_value(k): redact_value(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [redact_value(v) for v in value]
    return value


def redact_secrets(_: Any, __: str, event_dict: MutableMapping[str, Any]) -> Any:
    """Redact every value of an event: a structlog processor, for any configuration."""
    return {key: redact_value(value) for key, value in event_dict.items()}


class RedactingFilter(logging.Filter):
    """Redact a standard-library record's message and traceback before any handler sees it."""

    def filter(self, record: logging.LogRecord) -> bool:
        """Rewrite the record in place; never drop it."""
        record.msg = redact_text(record.getMessage())
        record.args = None
        if record.exc_info:
            record.exc_text = redact_text(logging.Formatter().formatException(record.exc_info))
            record.exc_info = None
        return True


# -- the writer thread -------------------------------------------------------------------------


class Writer:
    """One thread that renders queued log events and writes them as lines."""

    def __init__(self, stream: TextIO, render: Callable[[Any], str]) -> None:
        self.stream = stream
        self.render = render
        self.queue: queue.Queue[Any] = queue.Queue(QUEUE_SIZE)
        self.dropped = 0
        self._thread = threading.Thread(target=self._run, name="gamehall-log", daemon=True)
        self._thread.start()

    def put(self, item: Any) -> None:
        """Queue an event without ever waiting; count it if the queue is full."""
        try:
            self.queue.put_nowait(item)
        except queue.Full:
            self.dropped += 1

    def _run(self) -> None:
        while True:
            item = self.queue.get()
            try:
                if item is None:
                    return
                self._handle(item)
            finally:
                self.queue.task_done()

    def _handle(self, item: Any) -> None:
        try:
            line = self.render(item)
        except Exception as exc:  # noqa: BLE001 - a line that cannot render is still told
            line = f"a log line could not be rendered: {type(exc).__name__}"
        self._write(redact_text(line))
        if self.dropped:
            dropped, self.dropped = self.dropped, 0
            self._write(f"{dropped} log lines were dropped: the output did not keep up")

    def drain(self, timeout: float = 2.0) -> None:
        """Wait until every queued line is written (at most ``timeout`` seconds)."""
        deadline = time.monotonic() + timeout
        done = self.queue.all_tasks_done  # notified by the writer thread's task_done
        with done:
            while self.queue.unfinished_tasks:
                left = deadline - time.monotonic()
                if left <= 0 or not done.wait(left):
                    return

    def _write(self, line: str) -> None:
        try:
            self.stream.write(line + "\n")
            self.stream.flush()
        except (OSError, ValueError):
            pass  # a closed or broken stderr: nobody is left to tell

    def close(self, timeout: float = 2.0) -> None:
        """Write what is queued (waiting at most ``timeout`` seconds), then stop."""
        deadline = time.monotonic() + timeout
        while self._thread.is_alive() and time.monotonic() < deadline:
            try:
                self.queue.put(None, timeout=0.05)
                break
            except queue.Full:
                continue
        self._thread.join(max(0.0, deadline - time.monotonic()))


class QueuedLogger:
    """The structlog logger :func:`configure` installs: it hands events to the writer."""

    def __init__(self, writer: Writer) -> None:
        self._writer = writer

    def msg(self, event_dict: dict[str, Any]) -> None:
        """Queue one event."""
        self._writer.put(("structlog", event_dict))

    log = debug = info = warning = warn = error = critical = exception = fatal = msg


class QueueHandler(logging.Handler):
    """A standard-library handler that hands records to the writer."""

    def __init__(self, writer: Writer) -> None:
        super().__init__()
        self._writer = writer

    def emit(self, record: logging.LogRecord) -> None:
        """Queue one record."""
        self._writer.put(("logging", record))


def _keep_exc_info(_: Any, __: str, event_dict: MutableMapping[str, Any]) -> Any:
    # ``exc_info=True`` means "the exception being handled now": resolve it here, on the
    # caller's thread, since the writer renders it later on its own.
    exc_info = event_dict.get("exc_info")
    if exc_info is True:
        event_dict["exc_info"] = sys.exc_info()
    elif isinstance(exc_info, BaseException):
        event_dict["exc_info"] = (type(exc_info), exc_info, exc_info.__traceback__)
    return event_dict


def _to_queue(_: Any, __: str, event_dict: MutableMapping[str, Any]) -> Any:
    return (dict(event_dict),), {}


def _renderer(json: bool, colors: bool) -> Callable[[Any], str]:
    if json:
        exceptions: Any = structlog.processors.ExceptionRenderer(
            ExceptionDictTransformer(show_locals=False)
        )
        final: Any = structlog.processors.JSONRenderer()
    else:
        exceptions = structlog.processors.format_exc_info
        final = structlog.dev.ConsoleRenderer(colors=colors, exception_formatter=plain)
    stamp = structlog.processors.TimeStamper(fmt="iso", utc=True)

    def render(item: Any) -> str:
        kind, payload = item
        if kind == "logging":
            payload = _from_record(payload)
            payload = stamp(None, "", payload)
        event = redact_secrets(None, "", exceptions(None, "", payload))
        return str(final(None, "", event))

    return render


def plain(sio: TextIO, exc_info: Any) -> None:
    """Write a plain traceback: no local variables, no colours."""
    structlog.dev.plain_traceback(sio, exc_info)


def _from_record(record: logging.LogRecord) -> dict[str, Any]:
    event: dict[str, Any] = {
        "event": record.getMessage(),
        "level": record.levelname.lower(),
        "logger": record.name,
    }
    if record.exc_info:
        event["exc_info"] = record.exc_info
    return event


_writer: Writer | None = None


def configure(*, json: bool = False, level: str = "warning", stream: TextIO | None = None) -> None:
    """Send log lines to ``stream`` (stderr), as JSON lines or for a console, from ``level`` on.

    The standard library's loggers (uvicorn's among them) go the same way, redacted alike.
    """
    global _writer
    if _writer is not None:
        _writer.close()
    stream = stream or sys.stderr
    colors = bool(getattr(stream, "isatty", lambda: False)())
    _writer = writer = Writer(stream, _renderer(json, colors))
    numeric = logging.getLevelName(level.upper())
    structlog.configure(
        processors=[
            structlog.contextvars.merge_contextvars,
            structlog.processors.add_log_level,
            structlog.processors.TimeStamper(fmt="iso", utc=True),
            _keep_exc_info,
            _to_queue,
        ],
        wrapper_class=structlog.make_filtering_bound_logger(numeric),
        logger_factory=lambda *_: QueuedLogger(writer),
        cache_logger_on_first_use=True,
    )
    root = logging.getLogger()
    for handler in [h for h in root.handlers if isinstance(h, QueueHandler)]:
        root.removeHandler(handler)
    root.addHandler(QueueHandler(writer))
    root.setLevel(numeric)


def flush(timeout: float = 2.0) -> None:
    """Wait until every queued line is written (before reading the output, say)."""
    if _writer is not None:
        _writer.drain(timeout)


def _close() -> None:
    if _writer is not None:
        _writer.close()


atexit.register(_close)
