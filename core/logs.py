"""Logging for programs that run gamehall (the library itself never configures logging).

The engine logs through ``structlog.get_logger("gamehall.…")`` and binds the match id to every
actor line, with the seq of the match at that moment. Applications configure structlog as they
like; the CLI calls :func:`configure` to print to stderr as console text or JSON lines.
"""

from __future__ import annotations

import logging
import sys

import structlog


def configure(*, json: bool = False, level: str = "warning") -> None:
    """Send log lines to stderr, as JSON lines or for a console, at ``level`` and above."""
    processors: list[structlog.typing.Processor] = [
        structlog.contextvars.merge_contextvars,
        structlog.processors.add_log_level,
        structlog.processors.TimeStamper(fmt="iso", utc=True),
    ]
    if json:
        processors += [structlog.processors.dict_tracebacks, structlog.processors.JSONRenderer()]
    else:
        processors.append(structlog.dev.ConsoleRenderer(colors=sys.stderr.isatty()))
    structlog.configure(
        processors=processors,
        wrapper_class=structlog.make_filtering_bound_logger(logging.getLevelName(level.upper())),
        logger_factory=structlog.WriteLoggerFactory(file=sys.stderr),
        cache_logger_on_first_use=True,
    )
