"""What the terminal commands draw: tables, seat colours and progress bars, through rich.

On a terminal, output gets colour per seat and boxed tables; when it is not a terminal (a pipe,
a file, a test) the same calls write plain text: no escape codes, no box characters, so logs
and scripts stay readable. Without rich (the ``terminal`` extra) tables are plain text always.
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from typing import TYPE_CHECKING, TextIO

from gamehall.adapters.cli.terminal import console, has_rich, is_terminal

if TYPE_CHECKING:
    from rich.table import Table

PALETTE = ("bold blue", "bold red", "bold green", "bold yellow", "bold magenta", "bold cyan")
COLOURS = {
    name: f"bold {name}" for name in ("blue", "red", "green", "yellow", "magenta", "cyan", "white")
}


def seat_style(seat: int | None, name: str = "") -> str:
    """Return the style of a seat: its colour when the game names seats by colour."""
    if seat is None:
        return "bold"
    first = name.split()[0].lower() if name else ""
    return COLOURS.get(first, PALETTE[seat % len(PALETTE)])


def marked(text: str, style: str) -> str:
    """Return text in rich markup with a style (the text itself is never read as markup)."""
    from rich.markup import escape

    return f"[{style}]{escape(text)}[/]"


def table(
    headers: Sequence[str], rows: Sequence[Sequence[str]], *, styled: bool, title: str = ""
) -> Table:
    """Return a table: boxed on a terminal, columns separated by two spaces otherwise."""
    from rich import box
    from rich.markup import escape
    from rich.table import Table

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
    if not has_rich():
        stream.write(plain_table(headers, rows, title))
        return
    styled = is_terminal(stream)
    if styled:
        console(stream).print(table(headers, rows, styled=True, title=title))
        return
    buffer = io.StringIO()
    console(buffer, tty=False).print(table(headers, rows, styled=False, title=title))
    stream.write("".join(line.rstrip() + "\n" for line in buffer.getvalue().splitlines()))


def plain_table(headers: Sequence[str], rows: Sequence[Sequence[str]], title: str = "") -> str:
    """Return a table as plain text: its title, then columns two spaces apart."""
    cells = [[str(h) for h in headers], *[[str(c) for c in row] for row in rows]]
    widths = [max(len(row[i]) for row in cells) for i in range(len(headers))]
    lines = [title] if title else []
    for row in cells:
        lines.append("  ".join(c.ljust(w) for c, w in zip(row, widths, strict=True)).rstrip())
    return "".join(line + "\n" for line in lines)
