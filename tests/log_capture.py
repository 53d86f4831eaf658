"""Every log line the suite's servers write, kept and searched for every token the suite issued.

Each test process (every xdist worker, or the one process without xdist) logs through
gamehall's own configuration (:func:`gamehall.core.logs.configure`, JSON, from ``debug`` on)
into a file of a folder the whole session shares, and notes every seat token the HTTP adapter
issues and every admin token an app is given. When the session ends, the process that ran it
reads every file: a line holding any of those tokens, or anything token-shaped, fails the run.
"""

from __future__ import annotations

import logging
import tempfile
from pathlib import Path
from typing import Any

import pytest
import structlog
from gamehall.adapters.http import seats
from gamehall.core import logs

FOLDER_KEY = "gamehall_log_folder"


def start(config: pytest.Config) -> None:
    """Point logging at this process's file and start noting tokens."""
    workerinput = getattr(config, "workerinput", None)
    if workerinput is not None:
        folder = Path(workerinput[FOLDER_KEY])
        name = workerinput.get("workerid", "worker")
    else:
        folder = Path(tempfile.mkdtemp(prefix="gamehall-suite-logs-"))
        name = "main"
    config.stash[_folder] = folder
    stream = open(folder / f"{name}.log", "a", encoding="utf-8")  # noqa: SIM115 - for the session
    config.stash[_stream] = stream
    tokens = open(folder / f"{name}.tokens", "a", encoding="utf-8")  # noqa: SIM115
    config.stash[_tokens] = tokens
    configure = logs.configure

    def captured(**options: Any) -> None:
        # Whatever a test asks for, the lines still go to the session's file.
        configure(**{**options, "json": True, "level": "debug", "stream": stream})
        logging.getLogger().setLevel(logging.WARNING)  # httpx notes every request at info
        # A logger cached on its first use keeps these processors for good, and a later
        # test's structlog.testing.capture_logs would then hear nothing from it: in the suite
        # every log call looks the configuration up again, whatever ran before.
        structlog.configure(cache_logger_on_first_use=False)

    captured(json=True)
    logs.configure = captured  # type: ignore[assignment]
    from gamehall.adapters import cli

    cli.configure = captured  # type: ignore[attr-defined]
    new_token, add_secret = seats.new_token, logs.add_secret

    def noted_token() -> str:
        token = new_token()
        tokens.write(token + "\n")
        tokens.flush()
        return token

    def noted_secret(value: str | None) -> None:
        if value:
            tokens.write(value + "\n")
            tokens.flush()
        add_secret(value)

    seats.new_token = noted_token  # type: ignore[assignment]
    logs.add_secret = noted_secret  # type: ignore[assignment]


def share(node: Any) -> None:
    """Tell an xdist worker the session's folder."""
    node.workerinput[FOLDER_KEY] = str(node.config.stash[_folder])


def finish(session: pytest.Session) -> None:
    """Flush this process's lines; in the process that ran the session, search them all."""
    logs.flush(5.0)
    config = session.config
    config.stash[_stream].flush()
    config.stash[_tokens].flush()
    if getattr(config, "workerinput", None) is not None:
        return
    leaks, lines, tokens = search(config.stash[_folder])
    reporter = config.pluginmanager.get_plugin("terminalreporter")
    if reporter is not None:
        reporter.write_line(
            f"log lines of the suite's servers: {lines} searched for {tokens} issued tokens, "
            f"{len(leaks)} held one"
        )
        for leak in leaks[:20]:
            reporter.write_line(f"token in a log line: {leak}", red=True)
    if leaks:
        session.exitstatus = pytest.ExitCode.TESTS_FAILED


def search(folder: Path) -> tuple[list[str], int, int]:
    """Return every log line holding an issued token or anything token-shaped, and counts."""
    issued = set()
    for path in folder.glob("*.tokens"):
        issued |= {line for line in path.read_text(encoding="utf-8").splitlines() if line}
    found = []
    lines = 0
    for path in folder.glob("*.log"):
        for line in path.read_text(encoding="utf-8", errors="replace").splitlines():
            lines += 1
            if logs.TOKEN_SHAPED.search(line) or any(token in line for token in issued):
                found.append(f"{path.name}: {line[:300]}")
    return found, lines, len(issued)


_folder = pytest.StashKey[Path]()
_stream = pytest.StashKey[Any]()
_tokens = pytest.StashKey[Any]()
