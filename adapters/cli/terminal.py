"""The terminal's plain helpers every command shares: is a stream a terminal, a console on it,
and a progress bar that stays quiet in pipes.

rich comes with the ``terminal`` extra: without it the progress bar stays quiet and the
commands that draw a board (``play``, ``resume``) say which extra to install.
"""

from __future__ import annotations

import importlib.util
import sys
from typing import TYPE_CHECKING, Self, TextIO

if TYPE_CHECKING:
    from rich.console import Console
    from rich.progress import Progress as RichProgress
    from rich.progress import TaskID


def has_rich() -> bool:
    """Tell whether rich (the ``terminal`` extra) is installed."""
    return importlib.util.find_spec("rich") is not None


def is_terminal(stream: TextIO) -> bool:
    """Tell whether a stream is an interactive terminal."""
    isatty = getattr(stream, "isatty", None)
    return bool(isatty and isatty())


def console(stream: TextIO, *, tty: bool | None = None) -> Console:
    """Return a console on ``stream``: styled on a terminal, plain text otherwise."""
    from rich.console import Console

    styled = is_terminal(stream) if tty is None else tty
    return Console(
        file=stream,
        force_terminal=styled,
        no_color=not styled,
        color_system="auto" if styled else None,
        highlight=False,
        emoji=False,
        soft_wrap=True,
        width=None if styled else 10_000,
    )


class Progress:
    """A progress bar with the time left, drawn only when its stream is a terminal.

    Quiet when the stream is not a terminal (pipes, files, tests), unless ``force`` is set.
    """

    def __init__(
        self, label: str, total: int, *, stream: TextIO | None = None, force: bool | None = None
    ) -> None:
        self.label = label
        self.total = max(total, 0)
        self.stream = stream if stream is not None else sys.stderr
        wanted = force if force is not None else is_terminal(self.stream)
        self.enabled = wanted and has_rich()  # without rich: quiet, as in a pipe
        self.done = 0
        self._bar: RichProgress | None = None
        self._task: TaskID | None = None

    def _start(self) -> RichProgress:
        from rich.progress import BarColumn, MofNCompleteColumn, TextColumn, TimeRemainingColumn
        from rich.progress import Progress as RichProgress

        bar = RichProgress(
            TextColumn("{task.description}"),
            BarColumn(),
            MofNCompleteColumn(),
            TimeRemainingColumn(),
            console=console(self.stream, tty=True),
            transient=False,
            refresh_per_second=10,
        )
        self._task = bar.add_task(self.label, total=self.total or None)
        bar.start()
        return bar

    def advance(self, steps: int = 1) -> None:
        """Count ``steps`` more units of work done."""
        self.update(self.done + steps)

    def update(self, done: int) -> None:
        """Set the units of work done so far."""
        self.done = min(max(done, self.done), self.total) if self.total else done
        if not self.enabled:
            return
        if self._bar is None:
            self._bar = self._start()
        assert self._task is not None
        self._bar.update(self._task, completed=self.done)

    def close(self) -> None:
        """Finish the bar so that later output starts on a fresh line."""
        if self._bar is not None:
            assert self._task is not None
            self._bar.update(self._task, completed=self.done)
            self._bar.stop()
            self._bar = None

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
