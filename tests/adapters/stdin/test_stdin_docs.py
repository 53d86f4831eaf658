"""Every example in docs/cli.md and docs/stdio-protocol.md runs, and prints what the docs show."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
CLI_DOC = ROOT / "docs" / "cli.md"
PROTOCOL_DOC = ROOT / "docs" / "stdio-protocol.md"
BIN = Path(sys.executable).parent
GAMEHALL = [sys.executable, "-m", "gamehall.adapters.cli"]


def console_examples(text: str) -> list[tuple[str, list[str]]]:
    """Return each ``$ command`` of the fenced console blocks with the lines it should print."""
    examples: list[tuple[str, list[str]]] = []
    for block in re.findall(r"```console\n(.*?)```", text, re.DOTALL):
        for line in block.splitlines():
            if line.startswith("$ "):
                examples.append((line[2:], []))
            else:
                assert examples, f"output before any command: {line!r}"
                examples[-1][1].append(line)
    return examples


def run_shell(command: str, cwd: Path) -> list[str]:
    """Run a documented command; return its output lines, with ``[exit N]`` when it fails."""
    env = dict(os.environ, PATH=f"{BIN}{os.pathsep}{os.environ.get('PATH', '')}", COLUMNS="100")
    env["GAMEHALL_RULES_ROOT"] = str(ROOT)  # the rules documents, for an installed package
    done = subprocess.run(
        command,
        shell=True,
        cwd=cwd,
        env=env,
        capture_output=True,
        check=False,
        text=True,
        timeout=60,
        stdin=subprocess.DEVNULL,
    )
    lines = (done.stdout + done.stderr).splitlines()
    if done.returncode:
        lines.append(f"[exit {done.returncode}]")
    return lines


def _line_matches(expected: str, actual: str) -> bool:
    pattern = ".*".join(re.escape(part) for part in expected.split("..."))
    return re.fullmatch(pattern, actual) is not None


def matches(expected: list[str], actual: list[str]) -> bool:
    """Compare output lines; ``...`` in a line is any text, a line of ``...`` any lines."""
    if not expected:
        return not actual
    head, rest = expected[0], expected[1:]
    if head == "...":
        return any(matches(rest, actual[i:]) for i in range(len(actual) + 1))
    return bool(actual) and _line_matches(head, actual[0]) and matches(rest, actual[1:])


def test_matcher_rejects_what_differs() -> None:
    assert matches(["a ... c"], ["a b c"])
    assert matches(["...", "x"], ["1", "2", "x"])
    assert not matches(["a"], ["b"])
    assert not matches(["a"], ["a", "extra"])
    assert not matches(["...", "x"], ["x", "y"])


def test_cli_doc_has_examples_of_every_command() -> None:
    examples = console_examples(CLI_DOC.read_text())
    commands = {name for cmd, _ in examples for name in re.findall(r"\bgamehall ([\w-]+)", cmd)}
    wanted = {"games", "play", "matches", "resume", "simulate", "export", "import", "replay",
              "verify", "diff", "bisect", "run", "serve-stdio"}  # fmt: skip
    assert wanted <= commands, wanted - commands


def test_cli_doc_examples_run(tmp_path: Path) -> None:
    failures = []
    for command, expected in console_examples(CLI_DOC.read_text()):
        actual = run_shell(command, tmp_path)
        if not matches(expected, actual):
            failures.append(f"$ {command}\n--- expected\n" + "\n".join(expected)
                            + "\n--- actual\n" + "\n".join(actual))  # fmt: skip
    assert not failures, "\n\n".join(failures)


if __name__ == "__main__":  # print what each example prints, to write the docs
    import tempfile

    with tempfile.TemporaryDirectory() as tmp:
        for command, _ in console_examples(Path(sys.argv[1]).read_text()):
            print(f"$ {command}")
            print("\n".join(run_shell(command, Path(tmp))))
