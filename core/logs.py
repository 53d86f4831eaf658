"""Logging for programs that run gamehall (the library itself never configures logging).

The engine logs through ``structlog.get_logger("gamehall.…")`` and binds the match id to every
actor line, with the seq of the match at that moment. Applications configure structlog as they
like; the CLI calls :func:`configure`, which prints to stderr as console text or JSON lines.

What :func:`configure` sets up keeps logging off the serving path, on the standard library's
:class:`~logging.handlers.QueueHandler` and :class:`~logging.handlers.QueueListener`: a log
call only puts a record in a bounded queue, and the listener's thread renders it with structlog
(tracebacks without local variables), redacts it and writes it. A stalled stderr stalls that thread, never the event
loop; past the queue's bound lines are dropped and counted. Every line, structlog's and the
standard library's (uvicorn's), passes :func:`redact_text`: anything shaped like a token, a
``Bearer`` credential and every value given to :func:`add_secret` become ``[redacted]``.
"""

from __future__ import annotations

import atexit
import logging
import logging.handlers
import queue
import re
import sys
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
# The attribute of a queued record that carries a structlog event (rendered by structlog).
STRUCTLOG_EVENT = "gamehall_event"
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


# -- the queue and its listener -------------------------------------------------------------


class DroppingQueueHandler(logging.handlers.QueueHandler):
    """The standard library's queue handler, bounded: a full queue drops the record and counts it.

    Records are queued as they are (nothing is formatted on the caller's thread): the
    listener's handler renders them, structlog's events and other libraries' records alike.
    """

    def __init__(self, bound: queue.Queue[Any]) -> None:
        super().__init__(bound)
        self.dropped = 0

    def prepare(self, record: logging.LogRecord) -> logging.LogRecord:
        """Queue the record untouched: it is rendered on the listener's thread."""
        return record

    def enqueue(self, record: logging.LogRecord) -> None:
        """Queue without ever waiting; count the record if the queue is full."""
        try:
            self.queue.put_nowait(record)
        except queue.Full:
            self.dropped += 1


class LineHandler(logging.Handler):
    """The listener's one handler: render a record as a line, redact it, write it."""

    def __init__(
        self,
        stream: TextIO,
        render: Callable[[logging.LogRecord], str],
        front: DroppingQueueHandler,
    ) -> None:
        super().__init__()
        self.stream = stream
        self.render = render
        self.front = front

    def emit(self, record: logging.LogRecord) -> None:
        """Write one line, then say how many were dropped since the last one written."""
        try:
            line = self.render(record)
        except Exception as exc:  # noqa: BLE001 - logging never raises: a value's repr may fail
            line = f"a log line could not be rendered: {type(exc).__name__}"
        self._write(redact_text(line))
        if self.front.dropped:
            dropped, self.front.dropped = self.front.dropped, 0
            self._write(f"{dropped} log lines were dropped: the output did not keep up")

    def _write(self, line: str) -> None:
        try:
            self.stream.write(line + "\n")
            self.stream.flush()
        except (OSError, ValueError):
            pass  # a closed or broken stderr: nobody is left to tell


class Output:
    """What :func:`configure` installed: the bounded queue, its handler and its listener."""

    def __init__(self, stream: TextIO, render: Callable[[logging.LogRecord], str]) -> None:
        self.queue: queue.Queue[Any] = queue.Queue(QUEUE_SIZE)
        self.handler = DroppingQueueHandler(self.queue)
        self.listener = logging.handlers.QueueListener(
            self.queue, LineHandler(stream, render, self.handler)
        )
        self.listener.start()

    def drain(self, timeout: float = 2.0) -> None:
        """Wait until every queued line is written (at most ``timeout`` seconds)."""
        deadline = time.monotonic() + timeout
        done = self.queue.all_tasks_done  # notified by the listener's task_done
        with done:
            while self.queue.unfinished_tasks:
                left = deadline - time.monotonic()
                if left <= 0 or not done.wait(left):
                    return

    def close(self, timeout: float = 2.0) -> None:
        """Write what is queued (at most ``timeout`` seconds), then stop the listener.

        Unlike :meth:`QueueListener.stop`, a stalled output cannot hold the caller: the
        listener's thread is a daemon and is left behind after the timeout.
        """
        listener = self.listener
        thread = listener._thread  # noqa: SLF001 - stop() has no timeout
        if thread is None:
            return
        deadline = time.monotonic() + timeout
        try:
            self.queue.put(None, timeout=timeout)  # the listener's sentinel
        except queue.Full:
            return
        thread.join(max(0.0, deadline - time.monotonic()))
        listener._thread = None  # noqa: SLF001


class QueuedLogger:
    """The structlog logger :func:`configure` installs: each event becomes a queued record.

    structlog's bound logger has filtered by level already, so the event skips the standard
    library's logger lookup and goes straight to the queue handler.
    """

    def __init__(self, handler: DroppingQueueHandler) -> None:
        self._handler = handler

    def msg(self, event_dict: dict[str, Any]) -> None:
        """Queue one event."""
        record = logging.LogRecord("structlog", logging.INFO, "", 0, "", None, None)
        setattr(record, STRUCTLOG_EVENT, event_dict)
        self._handler.enqueue(record)

    log = debug = info = warning = warn = error = critical = exception = fatal = msg


def _keep_exc_info(_: Any, __: str, event_dict: MutableMapping[str, Any]) -> Any:
    # ``exc_info=True`` means "the exception being handled now": resolve it here, on the
    # caller's thread, since the listener renders it later on its own.
    exc_info = event_dict.get("exc_info")
    if exc_info is True:
        event_dict["exc_info"] = sys.exc_info()
    elif isinstance(exc_info, BaseException):
        event_dict["exc_info"] = (type(exc_info), exc_info, exc_info.__traceback__)
    return event_dict


def _as_event(_: Any, __: str, event_dict: MutableMapping[str, Any]) -> Any:
    return (dict(event_dict),), {}


def _renderer(json: bool, colors: bool) -> Callable[[logging.LogRecord], str]:
    if json:
        exceptions: Any = structlog.processors.ExceptionRenderer(
            ExceptionDictTransformer(show_locals=False)
        )
        final: Any = structlog.processors.JSONRenderer()
    else:
        exceptions = structlog.processors.format_exc_info
        final = structlog.dev.ConsoleRenderer(colors=colors, exception_formatter=plain)
    stamp = structlog.processors.TimeStamper(fmt="iso", utc=True)

    def render(record: logging.LogRecord) -> str:
        payload = getattr(record, STRUCTLOG_EVENT, None)
        if payload is None:  # another library's record (uvicorn's, say)
            payload = stamp(None, "", _from_record(record))
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


_output: Output | None = None


def configure(*, json: bool = False, level: str = "warning", stream: TextIO | None = None) -> None:
    """Send log lines to ``stream`` (stderr), as JSON lines or for a console, from ``level`` on.

    The standard library's loggers (uvicorn's among them) go the same way, redacted alike.
    """
    global _output
    root = logging.getLogger()
    if _output is not None:
        root.removeHandler(_output.handler)
        _output.close()
    stream = stream or sys.stderr
    colors = bool(getattr(stream, "isatty", lambda: False)())
    _output = output = Output(stream, _renderer(json, colors))
    numeric = logging.getLevelName(level.upper())
    structlog.configure(
        processors=[
            structlog.contextvars.merge_contextvars,
            structlog.processors.add_log_level,
            structlog.processors.TimeStamper(fmt="iso", utc=True),
            _keep_exc_info,
            _as_event,
        ],
        wrapper_class=structlog.make_filtering_bound_logger(numeric),
        logger_factory=lambda *_: QueuedLogger(output.handler),
        cache_logger_on_first_use=True,
    )
    for handler in [h for h in root.handlers if isinstance(h, DroppingQueueHandler)]:
        root.removeHandler(handler)
    root.addHandler(output.handler)
    root.setLevel(numeric)


def flush(timeout: float = 2.0) -> None:
    """Wait until every queued line is written (before reading the output, say)."""
    if _output is not None:
        _output.drain(timeout)


def _close() -> None:
    if _output is not None:
        _output.close()


atexit.register(_close)
