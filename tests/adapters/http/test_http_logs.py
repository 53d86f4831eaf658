"""A failing request is logged once, without locals, headers or tokens, and off the event loop."""

from __future__ import annotations

import json
import select
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]

# Serves the buggy game over HTTP in this process; its rules fail on Count(crash=True), so
# the command answers 500. Both the seat token and the admin token travel in headers.
SERVE = textwrap.dedent(
    """
    import json, sys
    import anyio, httpx
    from gamehall.adapters.http import create_app
    from gamehall.core import Registry, logs
    from gamehall.core.hall import Hall
    from gamehall.core.store import MemoryStore
    from tests.core.sample_games import BUGGY, SamplePlugin

    ADMIN = "admin-" + "S3cr3t" * 8
    logs.configure(json=MODE_JSON, level="debug")

    async def main():
        registry = Registry([SamplePlugin(BUGGY)])
        async with Hall(MemoryStore(registry.codec), registry) as hall:
            app = create_app(hall, admin_token=ADMIN, rate_limits=None)
            transport = httpx.ASGITransport(app=app)
            async with httpx.AsyncClient(transport=transport, base_url="http://t") as client:
                created = (await client.post("/matches", json={"game": "buggy"})).json()
                match, token = created["match"], created["seats"][0]["token"]
                body = {"command": {"type": "buggy.Count", "crash": True}, "command_id": "c1"}
                headers = {"authorization": f"Bearer {token}", "x-admin": ADMIN}
                answer = await client.post(f"/matches/{match}/commands", json=body, headers=headers)
                admin = {"authorization": f"Bearer {ADMIN}"}
                await client.post(f"/matches/{match}/fork", json={"at_seq": 99}, headers=admin)
        logs.flush()
        print(json.dumps({"status": answer.status_code, "token": token, "admin": ADMIN}))

    anyio.run(main)
    """
)


def serve_once(json_mode: bool) -> tuple[dict[str, object], str]:
    code = SERVE.replace("MODE_JSON", str(json_mode))
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=60,
        check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.strip().splitlines()[-1]), done.stderr


@pytest.mark.parametrize("json_mode", [False, True], ids=["console", "json"])
def test_a_500_logs_one_traceback_without_locals_headers_or_tokens(json_mode: bool) -> None:
    report, stderr = serve_once(json_mode)
    assert report["status"] == 500
    assert stderr.strip(), "nothing was logged"
    for secret in (report["token"], report["admin"]):
        assert str(secret) not in stderr
    assert "authorization" not in stderr.lower() and "x-admin" not in stderr.lower()
    # the rules error once, with its traceback; the HTTP line names only the incident
    tracebacks = stderr.count("Traceback (most recent call last)")
    if json_mode:
        lines = [json.loads(line) for line in stderr.splitlines()]
        with_trace = [line for line in lines if "exception" in line]
        assert len(with_trace) == 1 and with_trace[0]["event"] == "rules error"
        frames = [f for e in with_trace[0]["exception"] for f in e["frames"]]
        assert frames and all("locals" not in f for f in frames)
    else:
        assert tracebacks == 1
        assert "locals" not in stderr and "│" not in stderr  # no rich box of variables
    assert len(stderr) < 8_000, "a failed request should cost a few lines, not pages"


STALLED = textwrap.dedent(
    """
    import sys, time
    import structlog
    from gamehall.core import logs
    logs.configure(json=True, level="info")
    log = structlog.get_logger("gamehall.test")
    started = time.perf_counter()
    for n in range(20_000):
        log.error("request failed", n=n, error="x" * 200)
    print(f"{time.perf_counter() - started:.3f}", flush=True)
    sys.stdout.close()
    time.sleep(30)
    """
)


def test_log_calls_do_not_wait_for_a_stalled_stderr() -> None:
    # Nobody reads the child's stderr: a pipe fills after 64 KiB, and a log call that wrote
    # there itself would block for ever. Queued, 20,000 calls take a fraction of a second.
    proc = subprocess.Popen(
        [sys.executable, "-c", STALLED], cwd=ROOT, stdout=subprocess.PIPE,
        stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    try:
        assert proc.stdout is not None
        ready, _, _ = select.select([proc.stdout], [], [], 30)
        assert ready, "the log calls blocked on the stalled stderr"
        line = proc.stdout.readline()
        assert line and float(line) < 5.0
    finally:
        proc.kill()
        proc.wait()
        for pipe in (proc.stdout, proc.stderr):
            if pipe is not None:
                pipe.close()
