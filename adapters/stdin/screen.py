"""What the terminal commands draw: tables, seat colours and progress bars, through rich.

On a terminal, output gets colour per seat and boxed tables; when it is not a terminal (a pipe,
a file, a test) the same calls write plain text: no escape codes, no box characters, so logs
and scripts stay readable.
"""

from __future__ import annotations

import io
import sys
from collections.abc import Sequence
from typing import Self, TextIO

from rich import box
from rich.console import Console
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, TextColumn, TimeRemainingColumn
from rich.progress import Progress as RichProgress
from rich.progress import TaskID
from rich.table import Table

PALETTE = ("bold blue", "bold red", "bold green", "bold yellow", "bold magenta", "bold cyan")
COLOURS = {
    name: f"bold {name}" for name in ("blue", "red", "green", "yellow", "magenta", "cyan", "white")
}


def is_terminal(stream: TextIO) -> bool:
    """Tell whether a stream is an interactive terminal."""
    isatty = getattr(stream, "isatty", None)
    return bool(isatty and isatty())


def console(stream: TextIO, *, tty: bool | None = None) -> Console:
    """Return a console on ``stream``: styled on a terminal, plain text otherwise."""
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


def seat_style(seat: int | None, name: str = "") -> str:
    """Return the style of a seat: its colour when the game names seats by colour."""
    if seat is None:
        return "bold"
    first = name.split()[0].lower() if name else ""
    return COLOURS.get(first, PALETTE[seat % len(PALETTE)])


def marked(text: str, style: str) -> str:
    """Return text in rich markup with a style (the text itself is never read as markup)."""
    return f"[{style}]{escape(text)}[/]"


def table(
    headers: Sequence[str], rows: Sequence[Sequence[str]], *, styled: bool, title: str = ""
) -> Table:
    """Return a table: boxed on a terminal, columns separated by two spaces otherwise."""
    out = Table(
        title=title or None,
        box=box.SIMPLE_HEAD if styled else None,
        show_edge=False,
        pad_edge=False,
        padding=(0, 2, 0, 0) if not styled else (0, 1),
        header_style="bold" if styled else "",
        title_justify="left",
    )
    for header in headers:
        out.add_column(header, overflow="fold")
    for row in rows:
        out.add_row(*(escape(str(cell)) for cell in row))
    return out


def print_table(
    stream: TextIO, headers: Sequence[str], rows: Sequence[Sequence[str]], title: str = ""
) -> None:
    """Print a table on ``stream`` (plain when it is not a terminal)."""
    styled = is_terminal(stream)
    if styled:
        console(stream).print(table(headers, rows, styled=True, title=title))
        return
    buffer = io.StringIO()
    console(buffer, tty=False).print(table(headers, rows, styled=False, title=title))
    stream.write("".join(line.rstrip() + "\n" for line in buffer.getvalue().splitlines()))


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
        self.enabled = force if force is not None else is_terminal(self.stream)
        self.done = 0
        self._bar: RichProgress | None = None
        self._task: TaskID | None = None

    def _start(self) -> RichProgress:
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
