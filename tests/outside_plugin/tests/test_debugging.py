"""gamehall's debugging tools on this package's game: why, shrink, whatif, to-test and the
state diff of replay, through the ``gamehall`` command as an outside author uses them."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from gamehall.adapters.file.tools import write
from gamehall.core import RandomBot, Registry, Table, default_registry

GAMEHALL = [sys.executable, "-m", "gamehall.adapters.cli"]


def registry_and_flags() -> tuple[Registry, list[str]]:
    """The installed registry (this package installed), else one that loads it by module."""
    installed = default_registry()
    if "outside-nim" in installed.games:
        return installed, []
    import outside_nim

    return Registry([outside_nim]), ["--plugin", "outside_nim"]


def gamehall(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*GAMEHALL, *args], cwd=cwd, capture_output=True, text=True, timeout=120)


def test_every_debugging_tool_works_on_an_outside_game(tmp_path: Path) -> None:
    registry, flags = registry_and_flags()
    table = Table(registry.ruleset("outside-nim"), registry.ruleset("outside-nim").started(seed=4),
                  stream="nim")  # fmt: skip
    table.play(RandomBot(4))
    records = table.records()
    write(str(tmp_path / "nim.jsonl"), records, None, registry)
    last = records[-1].seq

    why = gamehall("why", "nim.jsonl", str(last), *flags, cwd=tmp_path)
    assert why.returncode == 0, why.stderr
    assert "rule NIM-2:" in why.stdout and "emitted by: outside-nim" in why.stdout

    shrunk = gamehall("shrink", "nim.jsonl", "--until", "outcome=over", "-o", "small.jsonl",
                      *flags, cwd=tmp_path)  # fmt: skip
    assert shrunk.returncode == 0, shrunk.stderr
    assert (tmp_path / "small.jsonl").is_file() and "shrunk" in shrunk.stdout

    whatif = gamehall("whatif", "nim.jsonl", "--at", "2", "--drop", *flags, cwd=tmp_path)
    assert whatif.returncode == 0, whatif.stderr
    assert "first difference at event 2" in whatif.stdout

    made = gamehall("to-test", "nim.jsonl", "-o", "test_nim.py", *flags, cwd=tmp_path)
    assert made.returncode == 0, made.stderr
    ran = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                          "test_nim.py"], cwd=tmp_path, capture_output=True, text=True,
                         timeout=120)  # fmt: skip
    assert ran.returncode == 0 or flags, (
        ran.stdout
    )  # (a module loaded by --plugin must be importable)

    bad = gamehall("why", "nim.jsonl", str(last + 5), *flags, cwd=tmp_path)
    assert bad.returncode == 2 and bad.stderr.startswith("error: ")
