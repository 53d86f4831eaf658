"""The ``gamehall`` command's allocator: ``serve`` runs on the C library's unless told otherwise."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from gamehall.adapters.launch import ALLOCATOR_ENV, allocator_asked, command_of, wants_restart

pytestmark = pytest.mark.skipif(not Path("/proc/self/environ").exists(), reason="needs /proc")


@pytest.mark.parametrize(
    ("argv", "command"),
    [
        (["serve", "--port", "0"], "serve"),
        (["--log-level", "info", "serve"], "serve"),
        (["--log-level=info", "--log-json", "serve"], "serve"),
        (["--log-level", "serve", "matches"], "matches"),  # "serve" is the level's value here
        (["play", "tictactoe"], "play"),
        (["--help"], None),
        ([], None),
    ],
)
def test_the_command_is_the_first_word_that_is_no_option(
    argv: list[str], command: str | None
) -> None:
    assert command_of(argv)[0] == command


@pytest.mark.parametrize(
    ("argv", "env", "restart"),
    [
        (["serve"], {}, True),
        (["serve", "--allocator", "c"], {}, True),
        (["serve", "--allocator", "python"], {}, False),
        (["serve", "--allocator=python"], {}, False),
        (["serve"], {ALLOCATOR_ENV: "python"}, False),
        (["serve", "--allocator", "c"], {ALLOCATOR_ENV: "python"}, True),  # the flag wins
        (["serve"], {"PYTHONMALLOC": "pymalloc"}, False),  # the operator chose
        (["serve"], {"PYTHONMALLOC": "malloc"}, False),  # restarted already
        (["serve", "--allocator", "bogus"], {}, False),  # serve's own parser refuses it
        (["serve-stdio", "--memory"], {}, True),  # the other server
        (["play", "tictactoe"], {}, False),  # only the servers
        (["matches", "--", "serve"], {}, False),
    ],
)
def test_only_serve_starts_again_on_the_c_allocator(
    argv: list[str], env: dict[str, str], restart: bool
) -> None:
    assert wants_restart(argv, env) is restart


def test_an_allocator_after_the_end_of_options_is_not_read() -> None:
    assert allocator_asked(["--", "--allocator", "python"], {}) == "c"


def _serve_environment(tmp_path: Path, args: list[str], env: dict[str, str]) -> dict[str, str]:
    """Start ``gamehall serve`` with ``args``; return the environment of the process that
    serves once it listens (read from /proc: the same process id after a restart)."""
    base = {k: v for k, v in os.environ.items() if k not in ("PYTHONMALLOC", ALLOCATOR_ENV)}
    command = [sys.executable, "-m", "gamehall.adapters.cli", "serve", "--port", "0"]
    command += ["--db", str(tmp_path / "serve.db"), *args]
    proc = subprocess.Popen(
        command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env={**base, **env}
    )
    try:
        assert proc.stdout is not None
        line = proc.stdout.readline()
        assert re.search(r"http://\S+", line), (line, proc.stderr and proc.stderr.read())
        raw = Path(f"/proc/{proc.pid}/environ").read_bytes()
    finally:
        proc.send_signal(signal.SIGINT)
        code = proc.wait(timeout=30)
        for pipe in (proc.stdout, proc.stderr):
            if pipe is not None:
                pipe.close()
    assert code == 0
    pairs = (item.decode().partition("=") for item in raw.split(b"\0") if item)
    return {key: value for key, _, value in pairs}


def test_serve_runs_on_the_c_allocator_by_default(tmp_path: Path) -> None:
    assert _serve_environment(tmp_path, [], {}).get("PYTHONMALLOC") == "malloc"


def test_serve_keeps_pythons_allocator_when_asked(tmp_path: Path) -> None:
    assert "PYTHONMALLOC" not in _serve_environment(tmp_path, ["--allocator", "python"], {})
    assert "PYTHONMALLOC" not in _serve_environment(tmp_path, [], {ALLOCATOR_ENV: "python"})
    chosen = _serve_environment(tmp_path, [], {"PYTHONMALLOC": "pymalloc"})
    assert chosen.get("PYTHONMALLOC") == "pymalloc"


def test_a_wrong_allocator_is_refused_in_words(tmp_path: Path) -> None:
    base = {k: v for k, v in os.environ.items() if k not in ("PYTHONMALLOC", ALLOCATOR_ENV)}
    command = [sys.executable, "-m", "gamehall.adapters.cli", "serve", "--port", "0"]
    command += ["--db", str(tmp_path / "serve.db")]
    done = subprocess.run(
        command, capture_output=True, text=True, timeout=60, env={**base, ALLOCATOR_ENV: "fast"}
    )
    assert done.returncode != 0
    assert f"{ALLOCATOR_ENV} is 'fast'" in done.stderr
    assert "Traceback" not in done.stderr
    done = subprocess.run(
        [*command, "--allocator", "fast"], capture_output=True, text=True, timeout=60, env=base
    )
    assert done.returncode == 2 and "--allocator" in done.stderr
    assert "Traceback" not in done.stderr


def test_serve_stdio_runs_on_the_c_allocator_and_refuses_a_wrong_one(tmp_path: Path) -> None:
    base = {k: v for k, v in os.environ.items() if k not in ("PYTHONMALLOC", ALLOCATOR_ENV)}
    command = [sys.executable, "-m", "gamehall.adapters.cli", "serve-stdio", "--memory"]
    proc = subprocess.Popen(
        command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        text=True, env=base,
    )  # fmt: skip
    try:
        assert proc.stdin is not None and proc.stdout is not None
        proc.stdin.write('{"id": 1, "op": "games"}\n')
        proc.stdin.flush()
        assert proc.stdout.readline()  # it answers: started, and started again before that
        raw = Path(f"/proc/{proc.pid}/environ").read_bytes()
        proc.stdin.close()
        assert proc.wait(timeout=30) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
        for pipe in (proc.stdout, proc.stderr):
            if pipe is not None:
                pipe.close()
    assert b"PYTHONMALLOC=malloc" in raw.split(b"\0")
    done = subprocess.run(
        command, input="", capture_output=True, text=True, timeout=60,
        env={**base, ALLOCATOR_ENV: "fast"},
    )  # fmt: skip
    assert done.returncode != 0 and f"{ALLOCATOR_ENV} is 'fast'" in done.stderr
