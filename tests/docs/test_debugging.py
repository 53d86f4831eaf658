"""docs/debugging.md's walk-through runs as written and prints what it shows."""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

from tests.docs.includes import ROOT


def test_the_debugging_walk_through_runs(tmp_path: Path) -> None:
    text = (ROOT / "docs" / "debugging.md").read_text()
    blocks = re.findall(r"```console\n(.*?)```", text, re.S)
    assert len(blocks) >= 4
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    gamehall = [sys.executable, "-m", "gamehall.adapters.cli"]
    for block in blocks:
        for chunk in re.split(r"^\$ ", block, flags=re.M)[1:]:
            command, *shown = chunk.rstrip("\n").split("\n")
            argv = shlex.split(command)
            argv = gamehall + argv[1:] if argv[0] == "gamehall" else [sys.executable, *argv[1:]]
            done = subprocess.run(
                argv, cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120
            )
            assert done.returncode == 0, (command, done.stderr)
            for line in shown:
                if " runs" in line and line.startswith("shrunk"):
                    assert done.stdout.startswith(line), (command, done.stdout)
                else:  # a function's line number moves with edits, gamehall's version with releases
                    got = [
                        re.sub(r"\(gamehall [0-9][^)]*\)", "(gamehall ...)",
                               re.sub(r" line \d+$", " line N", x))
                        for x in done.stdout.splitlines()
                    ]  # fmt: skip
                    assert re.sub(r" line \d+$", " line N", line) in got, (
                        command,
                        line,
                        done.stdout,
                    )
    assert (tmp_path / "test_harbour.py").is_file()
