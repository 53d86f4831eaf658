"""docs/http-api.md runs: every shell example, in order, against a live ``gamehall serve``."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest
from http_helpers import gamehall_serve

DOC = Path(__file__).resolve().parents[3] / "docs" / "http-api.md"
BLOCK = re.compile(r"```sh\n(.*?)```", re.DOTALL)
EXPECT = re.compile(r"^# expect: (\w+)$", re.MULTILINE)
MARK = "@@@ example {} @@@"


def examples() -> list[str]:
    return BLOCK.findall(DOC.read_text())


def test_the_doc_has_examples_for_every_route_family() -> None:
    text = "\n".join(examples())
    for route in ("/health", "/games", "/matches", "/seats", "/view", "/commands", "/board",
                  "/history", "/events", "/log", "/fork", "/openapi.json"):  # fmt: skip
        assert route in text, f"docs/http-api.md shows no curl example of {route}"


def test_every_curl_example_runs_against_a_live_server(tmp_path: Path) -> None:
    missing = [tool for tool in ("curl", "jq", "bash") if shutil.which(tool) is None]
    if missing:
        pytest.skip(f"the doc's examples need {', '.join(missing)}, not installed here")
    blocks = examples()
    with gamehall_serve(str(tmp_path / "doc.db")) as url:
        script = ["set -euo pipefail"]
        for n, block in enumerate(blocks):
            script += [f"echo '{MARK.format(n)}'", block.replace("http://127.0.0.1:8000", url)]
        run = subprocess.run(
            ["bash", "-c", "\n".join(script)],
            cwd=tmp_path,
            capture_output=True,
            check=False,
            text=True,
            timeout=60,
        )
    assert run.returncode == 0, f"the examples failed:\n{run.stdout}\n{run.stderr}"
    outputs = re.split(r"@@@ example \d+ @@@\n", run.stdout)[1:]
    assert len(outputs) == len(blocks)
    for block, output in zip(blocks, outputs, strict=True):
        assert output.strip(), f"no output from:\n{block}"
        expected = EXPECT.search(block)
        if expected:
            assert f'"error":"{expected.group(1)}"' in output, f"{block}\n->\n{output}"
        else:
            assert '"error":' not in output, f"{block}\n->\n{output}"
        if "jq .duplicate" in block:
            assert output.strip().endswith("true"), "a retry with the same id is not a duplicate"
    assert "event: end" in run.stdout, "the stream of the finished match did not end"


def test_the_error_table_lists_every_status_and_code_the_server_answers() -> None:
    from gamehall.adapters.http.errors import HTTP_CODES, STATUS

    text = (Path(__file__).resolve().parents[3] / "docs" / "http-api.md").read_text()
    table = text.split("## Errors", 1)[1].split("\n## ", 1)[0]
    rows = [line for line in table.splitlines() if line.startswith("| ")]
    for status, code in [*((s, e.code) for e, s in STATUS.items()), *HTTP_CODES.items()]:
        row = [r for r in rows if r.startswith(f"| {status} |") and f"`{code}`" in r]
        assert row, f"docs/http-api.md has no row for {status} {code}"
