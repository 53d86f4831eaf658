"""Logging: the library never configures it; actor lines carry the match and seq; JSON output."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from gamehall.core import ConcurrencyError, MatchFailed, Registry
from gamehall.core.hall import Hall
from gamehall.core.store import MemoryStore, SQLiteStore
from gamehall.plugins.tictactoe.commands import PlaceMark
from structlog.testing import capture_logs

from tests.core.sample_games import BUGGY, Count, SamplePlugin

ROOT = Path(__file__).resolve().parents[2]

# Plays a tic-tac-toe match to the end and makes the buggy game's rules fail once, so the
# engine has logged a "rules error" (error) and a "rebuilt from the store" (info) line.
PLAY = textwrap.dedent(
    """
    import anyio

    from gamehall.core import MatchFailed, Registry
    from gamehall.core.hall import Hall
    from gamehall.core.store import MemoryStore
    from gamehall.plugins.tictactoe.commands import PlaceMark
    from tests.core.sample_games import BUGGY, Count, SamplePlugin

    async def play():
        registry = Registry([SamplePlugin(BUGGY)])
        async with Hall(MemoryStore(registry.codec), registry) as hall:
            match = await hall.create("tictactoe", seed=1)
            for i, cell in enumerate([4, 0, 2, 6, 3, 5, 1, 7, 8]):
                await hall.send(match, i % 2, PlaceMark(cell=cell))
            assert hall.view(match, None).outcome is not None
            buggy = await hall.create("buggy", match_id="buggy-1")
            await hall.send(buggy, 0, Count())
            try:
                await hall.send(buggy, 0, Count(crash=True))
            except MatchFailed:
                pass
            else:
                raise SystemExit("the rules error did not happen")

    anyio.run(play)
    """
)


def run_python(code: str) -> subprocess.CompletedProcess[str]:
    done = subprocess.run(
        [sys.executable, "-c", code],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    return done


def test_using_the_library_configures_no_logging() -> None:
    code = (
        textwrap.dedent(
            """
        import json, logging, structlog
        before = (structlog.is_configured(), list(logging.root.handlers), logging.root.level)
        import gamehall, gamehall.core, gamehall.core.logs, gamehall.adapters.cli
        from gamehall.core import default_registry
        default_registry()
        """
        )
        + PLAY
        + textwrap.dedent(
            """
        loggers = [
            name for name, logger in logging.Logger.manager.loggerDict.items()
            if isinstance(logger, logging.Logger) and logger.handlers
        ]
        print(json.dumps({
            "before": [before[0], len(before[1]), before[2]],
            "configured": structlog.is_configured(),
            "root_handlers": len(logging.root.handlers),
            "root_level": logging.root.level,
            "loggers_with_handlers": loggers,
            "processors": [type(p).__name__ for p in structlog.get_config()["processors"]],
        }))
        """
        )
    )
    done = run_python(code)
    report = json.loads(done.stdout.strip().splitlines()[-1])
    assert report["before"] == [False, 0, 30]
    assert report["configured"] is False
    assert report["root_handlers"] == 0 and report["root_level"] == 30
    assert [n for n in report["loggers_with_handlers"] if n.startswith("gamehall")] == []
    # structlog's defaults are untouched (nobody swapped in a processor chain)
    import structlog

    defaults = [type(p).__name__ for p in structlog.get_config()["processors"]]
    if not structlog.is_configured():
        assert report["processors"] == defaults


def test_cli_log_configuration_happens_only_when_asked() -> None:
    # configure() is the one place that sets structlog up, and only for programs that call it
    done = run_python(
        "import structlog\n"
        "from gamehall.core import logs\n"
        "assert not structlog.is_configured()\n"
        "logs.configure(json=True)\n"
        "print(structlog.is_configured())\n"
    )
    assert done.stdout.strip() == "True"


@pytest.mark.anyio
async def test_actor_lines_carry_the_match_and_seq() -> None:
    registry = Registry([SamplePlugin(BUGGY)])
    async with Hall(MemoryStore(registry.codec), registry) as hall:
        match = await hall.create("buggy", match_id="logged-match")
        await hall.send(match, 0, Count())
        await hall.send(match, 0, Count())
        with capture_logs() as logs, pytest.raises(MatchFailed):
            await hall.send(match, 0, Count(crash=True))
    errors = [line for line in logs if line["event"] == "rules error"]
    assert len(errors) == 1
    assert errors[0]["match"] == "logged-match" and errors[0]["seq"] == 3
    assert errors[0]["log_level"] == "error" and errors[0].get("exc_info")
    assert errors[0]["ruleset"] == "buggy"
    rebuilt = [line for line in logs if line["event"] == "rebuilt from the store"]
    assert rebuilt and rebuilt[0]["match"] == "logged-match" and rebuilt[0]["seq"] == 3
    # every line an actor wrote names its match
    for line in logs:
        if line["event"] in ("rules error", "rebuilt from the store", "append refused"):
            assert line["match"] == "logged-match"


@pytest.mark.anyio
async def test_a_refused_append_is_logged_with_match_and_seq(tmp_path: Path) -> None:
    registry = Registry([SamplePlugin(BUGGY)])
    one = SQLiteStore(tmp_path / "log.db", registry.codec)
    two = SQLiteStore(tmp_path / "log.db", registry.codec)
    try:
        async with Hall(one, registry) as first, Hall(two, registry) as second:
            match = await first.create("tictactoe", match_id="two-halls", seed=1)
            second.view(match, 0)  # active in both halls
            await first.send(match, 0, PlaceMark(cell=4))
            await first.send(match, 1, PlaceMark(cell=0))
            with capture_logs() as logs, pytest.raises(ConcurrencyError):
                await second.send(match, 0, PlaceMark(cell=8))
    finally:
        one.close()
        two.close()
    refused = [line for line in logs if line["event"] == "append refused"]
    assert len(refused) == 1
    assert refused[0]["match"] == "two-halls" and refused[0]["seq"] == 1
    assert refused[0]["log_level"] == "warning" and "two-halls" in refused[0]["error"]


@pytest.mark.anyio
async def test_a_quiet_match_logs_nothing() -> None:
    registry = Registry([SamplePlugin(BUGGY)])
    with capture_logs() as logs:
        async with Hall(MemoryStore(registry.codec), registry) as hall:
            match = await hall.create("tictactoe", seed=1)
            for i, cell in enumerate([4, 0, 2, 6, 3, 5, 1, 7, 8]):
                await hall.send(match, i % 2, PlaceMark(cell=cell))
    assert logs == []  # no line per command


def test_configure_json_prints_json_lines_on_stderr() -> None:
    code = "from gamehall.core import logs\nlogs.configure(json=True, level='info')\n" + PLAY
    done = run_python(code)
    assert done.stdout == ""
    lines = [json.loads(line) for line in done.stderr.splitlines() if line.strip()]
    assert lines, "nothing was logged"
    events = {line["event"]: line for line in lines}
    error = events["rules error"]
    assert error["level"] == "error" and error["match"] == "buggy-1" and error["seq"] == 2
    assert "timestamp" in error and error["timestamp"].endswith("Z")
    assert "boom" in json.dumps(error["exception"])  # the traceback as data, not text
    assert events["rebuilt from the store"]["level"] == "info"


def test_configure_filters_by_level() -> None:
    code = "from gamehall.core import logs\nlogs.configure(json=True, level='warning')\n" + PLAY
    done = run_python(code)
    lines = [json.loads(line) for line in done.stderr.splitlines() if line.strip()]
    assert [line["event"] for line in lines] == ["rules error"]  # the info line is filtered out


def test_configure_console_output_is_not_json() -> None:
    code = "from gamehall.core import logs\nlogs.configure(json=False, level='info')\n" + PLAY
    done = run_python(code)
    assert done.stdout == ""
    assert "rules error" in done.stderr and "buggy-1" in done.stderr
    first = done.stderr.splitlines()[0]
    with pytest.raises(json.JSONDecodeError):
        json.loads(first)


def test_lines_past_the_queue_bound_are_dropped_and_counted() -> None:
    # A stream that holds the listener until it is released: the queue fills, later calls
    # neither wait nor vanish silently, and the first line written after says how many went.
    code = textwrap.dedent(
        """
        import threading, structlog
        from gamehall.core import logs

        class Held:
            def __init__(self):
                self.open = threading.Event()
                self.lines = []
            def write(self, text):
                self.open.wait(10)
                self.lines.append(text)
            def flush(self):
                pass

        logs.QUEUE_SIZE = 5
        held = Held()
        logs.configure(json=True, level="info", stream=held)
        log = structlog.get_logger("gamehall.test")
        for i in range(50):
            log.info("line", i=i)
        held.open.set()
        logs.flush(5.0)
        log.info("after")
        logs.flush(5.0)
        print("".join(held.lines))
        """
    )
    out = run_python(code).stdout
    assert "log lines were dropped: the output did not keep up" in out
    dropped = [line for line in out.splitlines() if "were dropped" in line]
    written = [json.loads(line) for line in out.splitlines() if line.startswith("{")]
    assert int(dropped[0].split()[0]) + len(written) == 51
    assert written[-1]["event"] == "after"
