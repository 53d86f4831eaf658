"""docs/deploy.md: its several-nodes-on-one-machine commands run as written (in a test schema)."""

from __future__ import annotations

import os
import re
import socket
import subprocess
import sys
from pathlib import Path

from tests.docs.includes import ROOT


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _nodes_block() -> str:
    text = (ROOT / "docs" / "deploy.md").read_text()
    found = re.search(r"<!-- deploy:nodes -->\n```sh\n(.*?)```", text, re.S)
    assert found, "docs/deploy.md has no block marked deploy:nodes"
    return found.group(1)


def test_deploy_doc_names_every_store_url_form() -> None:
    text = (ROOT / "docs" / "deploy.md").read_text()
    for form in ["sqlite:///", "postgresql://", "?schema=", "/readyz", "/livez", "/metrics"]:
        assert form in text, form


def test_three_nodes_on_one_postgres_as_the_deploy_doc_says(pg_url: str, tmp_path: Path) -> None:
    schema = pg_url.rsplit("schema=", 1)[1]
    script = _nodes_block().replace("schema=hall", f"schema={schema}")
    for port in ("8001", "8002", "8003"):
        script = script.replace(port, str(_free_port()))
    env = {**os.environ, "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}"}
    done = subprocess.run(
        ["bash", "-euo", "pipefail", "-c", script],
        cwd=tmp_path, env=env, capture_output=True, text=True, timeout=180,
    )  # fmt: skip
    logs = "".join(p.read_text() for p in tmp_path.glob("node-*.log"))
    assert done.returncode == 0, done.stderr + logs
    assert '"first_seq":2' in done.stdout and '"duplicate":false' in done.stdout, done.stdout
    assert "gamehall_actors_active 1" in done.stdout  # the third node activated the match
    assert "Traceback" not in logs


def test_make_run_takes_a_port_and_builds_without_setuptools_warnings() -> None:
    def dry(*args: str) -> str:
        done = subprocess.run(
            ["make", "-n", "-W", "pyproject.toml", "run", *args],
            cwd=ROOT, capture_output=True, text=True, check=True, timeout=60,
        )  # fmt: skip
        return done.stdout

    assert "serve --db gamehall.db --host 127.0.0.1 --port 8080" in dry("PORT=8080")
    assert "--port 8000" in dry()
    install = next(line for line in dry().splitlines() if "pip install" in line)
    assert "PYTHONWARNINGS=ignore::UserWarning:setuptools.command.editable_wheel" in install
    # The causes of setuptools' warnings are gone: an SPDX licence string, and the data and
    # static folders listed as the packages they are.
    project = (ROOT / "pyproject.toml").read_text()
    assert 'license = "MIT"' in project and '"setuptools>=77"' in project
    setup = (ROOT / "setup.py").read_text()
    assert "find_namespace_packages" in setup
