"""No traceback for ordinary conditions: every subcommand into a closed pipe, a busy port."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest
from gamehall.adapters.cli import build_parser

GAMEHALL = [sys.executable, "-m", "gamehall.adapters.cli"]
SIGPIPE_EXIT = 141


@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Return a folder with a store of several matches, a log file and a commands file."""
    folder = tmp_path_factory.mktemp("pipes")
    run = [*GAMEHALL, "simulate", "tictactoe", "--games", "30", "--seed", "1", "--db", "m.db"]
    subprocess.run(run, cwd=folder, check=True, capture_output=True, timeout=120)
    commands = [{"game": "toy-battle", "seed": 3, "match": "tb"}]
    (folder / "c.jsonl").write_text("".join(json.dumps(c) + "\n" for c in commands))
    subprocess.run(
        [*GAMEHALL, "run", "c.jsonl", "-o", "tb.jsonl"], cwd=folder, check=True, timeout=60
    )
    subprocess.run(
        [*GAMEHALL, "import", "tb.jsonl", "--db", "m.db"], cwd=folder, check=True, timeout=60
    )
    moves = [{"seat": n % 2, "command": {"type": "tictactoe.PlaceMark", "cell": cell}}
             for n, cell in enumerate([0, 1, 4, 2, 8])]  # fmt: skip
    lines = [{"game": "tictactoe", "seed": 1, "match": "ttt"}, *moves]
    (folder / "t.jsonl").write_text("".join(json.dumps(c) + "\n" for c in lines))
    subprocess.run(
        [*GAMEHALL, "run", "t.jsonl", "-o", "ttt.jsonl"], cwd=folder, check=True, timeout=60
    )
    return folder


# Each subcommand with arguments that make it print (the test below checks that none is missed).
COMMANDS: dict[str, list[str]] = {
    "demo": ["demo", "--db", "demo.db"],
    "games": ["games"],
    "play": ["play", "tictactoe", "--seed", "1", "--db", "play.db"],
    "matches": ["matches", "--db", "m.db"],
    "resume": ["resume", "tb", "--seat", "1=bot", "--seat", "2=bot", "--db", "m.db"],
    "serve-stdio": ["serve-stdio", "--memory"],
    "simulate": ["simulate", "tictactoe", "--games", "20"],
    "export": ["export", "tb", "-o", "out.jsonl", "--db", "m.db"],
    "import": ["import", "tb.jsonl", "--as", "again", "--db", "other.db"],
    "replay": ["replay", "tb.jsonl"],
    "verify": ["verify", "tb.jsonl"],
    "diff": ["diff", "tb.jsonl", "1", "9"],
    "bisect": ["bisect", "tb.jsonl"],
    "run": ["run", "c.jsonl", "-o", "again.jsonl"],
    "serve": ["serve", "--port", "0", "--db", "serve.db"],
    "odds": ["odds", "kaladan", "--fields"],
    "tournament": ["tournament", "tictactoe", "--bots", "random,mcts:20", "--no-chart"],
    "check-store": ["check-store", "--db", "m.db"],
    "why": ["why", "ttt.jsonl", "7"],
    "shrink": ["shrink", "ttt.jsonl", "--until", "outcome=over", "-o", "small.jsonl"],
    "whatif": ["whatif", "ttt.jsonl", "--at", "2", "--drop"],
    "to-test": ["to-test", "ttt.jsonl", "-o", "test_ttt.py"],
    "rebuild-lobby": ["rebuild-lobby", "--db", "m.db"],
    "expire-matches": ["expire-matches", "--db", "m.db"],
}
STDIN = {
    "play": "1\n" * 20,
    "serve-stdio": '{"id": 1, "op": "games"}\n{"id": 2, "op": "matches"}\n',
}


def test_every_subcommand_is_tried() -> None:
    sub = next(a for a in build_parser()._actions if a.dest == "command")
    assert set(sub.choices) == set(COMMANDS)  # type: ignore[arg-type]


@pytest.mark.parametrize("name", sorted(set(COMMANDS) - {"serve"}))
def test_a_closed_pipe_ends_a_command_without_a_traceback(files: Path, name: str) -> None:
    read, write = os.pipe()
    os.close(read)  # as `gamehall ... | head` once head has exited
    try:
        done = subprocess.run(
            [*GAMEHALL, *COMMANDS[name]], cwd=files, stdout=write, stderr=subprocess.PIPE,
            input=STDIN.get(name, "").encode(), timeout=120, check=False,
        )  # fmt: skip
    finally:
        os.close(write)
    err = done.stderr.decode()
    assert "Traceback" not in err and "Exception ignored" not in err, err
    # 141 as after SIGPIPE; the terminal's rich console ends with 1 and says nothing
    assert done.returncode in (0, SIGPIPE_EXIT) or (done.returncode == 1 and not err), err


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def _wait_listening(port: int, server: subprocess.Popen[bytes], seconds: float) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline and server.poll() is None:
        with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as client:
            if client.connect_ex(("127.0.0.1", port)) == 0:
                return
        time.sleep(0.05)
    raise AssertionError(f"serve did not listen on port {port} (exit {server.poll()})")


def test_serve_into_a_closed_pipe_keeps_serving_and_stops_cleanly(files: Path) -> None:
    read, write = os.pipe()
    os.close(read)
    port = _free_port()
    server = subprocess.Popen(
        [*GAMEHALL, "serve", "--port", str(port), "--db", "serve.db"],
        cwd=files, stdout=write, stderr=subprocess.PIPE,
    )  # fmt: skip
    os.close(write)
    try:
        _wait_listening(port, server, 120)
        with pytest.raises(subprocess.TimeoutExpired):
            server.wait(timeout=1)  # still serving after its first line failed
        server.send_signal(signal.SIGINT)
        _, err = server.communicate(timeout=30)
    finally:
        server.kill()
    assert "Traceback" not in err.decode(), err.decode()
    assert server.returncode == 0


EARLY_SIGNAL = """
import signal, sys
from gamehall.adapters.cli import main
from gamehall.adapters.http import cli

real = cli.default_registry

def slow_start():
    signal.raise_signal(signal.SIG{name})  # the signal comes while plugins still load
    return real()

cli.default_registry = slow_start
sys.exit(main(["serve", "--port", "0", "--db", "early.db"]))
"""


@pytest.mark.parametrize("name", ["INT", "TERM"])
def test_a_signal_while_serve_still_starts_stops_it_in_order(tmp_path: Path, name: str) -> None:
    done = subprocess.run(
        [sys.executable, "-c", EARLY_SIGNAL.replace("{name}", name)],
        cwd=tmp_path, capture_output=True, text=True, timeout=60, check=False,
    )  # fmt: skip
    assert "Traceback" not in done.stderr, done.stderr
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "early.db").exists()


def test_a_busy_port_is_one_line_naming_the_port_and_the_option(tmp_path: Path) -> None:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        done = subprocess.run(
            [*GAMEHALL, "serve", "--port", str(port), "--db", str(tmp_path / "s.db")],
            capture_output=True, text=True, timeout=60, check=False,
        )  # fmt: skip
    assert done.returncode == 1
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in done.stderr, done.stderr
    assert f"port {port}" in lines[0] and "--port" in lines[0]
