"""``gamehall serve`` nodes as subprocesses on one store, killed and restarted at will."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
from collections.abc import Sequence


class Node:
    """One ``gamehall serve`` process on a free port."""

    def __init__(self, db: str, extra: Sequence[str] = (), env: dict[str, str] | None = None):
        self.db, self.extra, self.env = db, list(extra), env or {}
        self.proc: subprocess.Popen[str] | None = None
        self.url = ""
        self.starts = 0

    @property
    def alive(self) -> bool:
        """Tell whether the process runs and listens."""
        return self.proc is not None and self.proc.poll() is None and bool(self.url)

    def start(self) -> str:
        """Start the process; return its URL once it listens."""
        command = [
            sys.executable, "-m", "gamehall.adapters.cli", "serve", "--port", "0",
            "--db", self.db, "--anonymous-rate", "0", *self.extra,
        ]  # fmt: skip
        self.proc = subprocess.Popen(
            command,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
            env={**os.environ, **self.env},
        )
        assert self.proc.stdout is not None
        line = self.proc.stdout.readline()
        found = re.search(r"http://\S+", line)
        if not found:
            self.proc.kill()
            self.proc.wait()
            raise AssertionError(f"gamehall serve did not start: {line!r}")
        self.starts += 1
        self.url = found.group(0)
        return self.url

    def kill(self) -> None:
        """SIGKILL the process: nothing of it is shut down in order."""
        assert self.proc is not None
        self.url = ""
        self.proc.kill()
        self.proc.wait()
        self._close_pipes()

    def stop(self) -> int:
        """Stop the process with SIGINT; return its exit code."""
        if self.proc is None or self.proc.poll() is not None:
            self._close_pipes()
            return self.proc.returncode if self.proc else 0
        self.url = ""
        self.proc.send_signal(signal.SIGINT)
        try:
            code = self.proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            code = self.proc.wait()
        self._close_pipes()
        return code

    def _close_pipes(self) -> None:
        if self.proc is not None and self.proc.stdout is not None:
            self.proc.stdout.close()
