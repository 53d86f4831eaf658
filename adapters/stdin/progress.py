"""A tiny progress bar on stderr, drawn only when stderr is a terminal."""

from __future__ import annotations

import sys
import time
from typing import Self, TextIO


class Progress:
    """Show ``label [#####.....] done/total`` on one line, redrawn at most ten times a second.

    Quiet when the stream is not a terminal (pipes, files, tests), unless ``force`` is set.
    """

    def __init__(
        self, label: str, total: int, *, stream: TextIO | None = None, force: bool | None = None
    ) -> None:
        self.label = label
        self.total = max(total, 0)
        self.stream = stream if stream is not None else sys.stderr
        isatty = getattr(self.stream, "isatty", None)
        self.enabled = force if force is not None else bool(isatty and isatty())
        self.done = 0
        self._drawn = 0.0
        self._shown = False
        self._shown_done = -1

    def advance(self, steps: int = 1) -> None:
        """Count ``steps`` more units of work done."""
        self.update(self.done + steps)

    def update(self, done: int) -> None:
        """Set the units of work done so far."""
        self.done = min(max(done, self.done), self.total) if self.total else done
        if not self.enabled:
            return
        now = time.monotonic()
        if now - self._drawn >= 0.1 or self.done == self.total:
            self._drawn = now
            self._draw()

    def _draw(self) -> None:
        width = 30
        filled = width * self.done // self.total if self.total else width
        bar = "#" * filled + "." * (width - filled)
        self.stream.write(f"\r{self.label} [{bar}] {self.done}/{self.total}")
        self.stream.flush()
        self._shown = True
        self._shown_done = self.done

    def close(self) -> None:
        """Finish the line so that later output starts on a fresh one."""
        if self.enabled and self._shown:
            if self._shown_done != self.done:
                self._draw()
            self.stream.write("\n")
            self.stream.flush()
            self._shown = False

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
