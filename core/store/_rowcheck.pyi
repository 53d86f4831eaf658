"""The checksum loop of replay's fast path in C (see _rowcheck.c and base._check_rows)."""

from typing import Any

def check_rows(
    rows: list[tuple[Any, ...]], events: list[Any], heads: dict[type, bytes], start: int, /
) -> dict[str, tuple[int, int]] | None: ...
def crc32(data: bytes, value: int, /) -> int: ...
