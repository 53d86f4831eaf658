"""The docs stay true: included code is the tested code, README commands are the two."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.docs.includes import ROOT, blocks

DOCS = sorted((ROOT / "docs").rglob("*.md"))
INCLUDES = [(doc, path, body) for doc in DOCS for path, body in blocks(doc)]


def test_docs_include_code() -> None:
    assert any(doc.name == "writing-a-game.md" for doc, _, _ in INCLUDES)


@pytest.mark.parametrize(
    ("doc", "path", "body"), INCLUDES, ids=[f"{d.name}:{p}" for d, p, _ in INCLUDES]
)
def test_included_code_is_the_tested_file(doc: Path, path: str, body: str) -> None:
    assert body == (ROOT / path).read_text(), (
        f"{doc.name} includes an old copy of {path}: run python -m tests.docs.includes"
    )


def test_required_docs_exist() -> None:
    for name in ["architecture.md", "writing-a-game.md", "writing-an-expansion.md", "events.md"]:
        assert (ROOT / "docs" / name).stat().st_size > 1000, name


def test_readme_quickstart_has_exactly_the_two_commands() -> None:
    text = (ROOT / "README.md").read_text()
    section = text.split("## Quickstart", 1)[1].split("\n## ", 1)[0]
    commands = re.findall(r"```\n(.*?)```", section, re.S)
    assert commands and [
        line for block in commands for line in block.splitlines() if line.strip()
    ] == [
        "make run",
        "make test",
    ]


def test_every_core_hook_is_named_in_the_docs() -> None:
    import gamehall.core.hookspecs as specs

    hooks = [name for name in dir(specs) if name.startswith("gamehall_")]
    text = "".join(doc.read_text() for doc in DOCS)
    missing = [h for h in hooks if h not in text]
    assert not missing, f"hooks not named in docs/: {missing}"


def test_readme_embedding_example_runs(tmp_path: Path) -> None:
    import subprocess
    import sys

    text = (ROOT / "README.md").read_text()
    code = re.findall(r"```python\n(.*?)```", text, re.S)
    assert code, "the README has no Python example"
    done = subprocess.run(
        [sys.executable, "-c", code[0]], cwd=tmp_path, capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("2 ") and "O to move" in done.stdout
    assert (tmp_path / "gamehall.db").exists()


def test_readme_tells_how_to_reach_the_command_and_how_make_run_stops() -> None:
    text = (ROOT / "README.md").read_text()
    start = text.split("## What is inside", 1)[0]
    assert ".venv/bin/gamehall" in start and ". .venv/bin/activate" in start
    assert "Ctrl+C" in start and "keeps running" in start


def test_the_log_version_in_the_cli_doc_is_the_one_its_examples_print() -> None:
    from gamehall.core.logformat import FORMAT_VERSION

    text = (ROOT / "docs" / "cli.md").read_text()
    printed = set(re.findall(r'"format":"gamehall-log","version":(\d+)', text))
    told = set(re.findall(r"\(`gamehall-log`\) and its version \((\d+)\)", text))
    assert printed == told == {str(FORMAT_VERSION)}, (printed, told)


def test_writing_a_game_does_not_deny_the_drawing_hook_it_documents() -> None:
    text = (ROOT / "docs" / "writing-a-game.md").read_text()
    assert "gamehall_draw_board" in text
    assert "no core hook for it exists" not in text
    for helper in ("shape(tag", "group(*children", "label(x, y, words", "canvas(width, height",
                   "extend(drawing, height"):  # fmt: skip
        assert helper in text, f"the drawing helper {helper}…) is not documented"
    for topic in ("ctx.seat", "forbid_unknown_fields", "reveals(", "msgspec.Meta(", "title=",
                  "a hidden token"):  # fmt: skip
        assert topic in text, topic
