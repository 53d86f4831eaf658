"""Replay's read and checksum loop, and the journal's commits, in C (see _rowcheck.c,
base._check_rows, sqlite.FAST_READS and sqlite.FAST_WRITES)."""

from collections.abc import Callable
from os import PathLike
from typing import Any

class ReadFailed(Exception): ...

class Reader:
    def __init__(self, path: str | PathLike[str], cache_kib: int) -> None: ...
    def whole(
        self,
        sql: str,
        stream: str,
        decode: Callable[[bytes], list[Any] | None],
        heads: dict[type, bytes],
        unfolded: dict[type, bytes],
        limit: int,
        /,
    ) -> (
        tuple[bytes, int | None, list[Any], dict[str, tuple[int, int]], bytes, bool] | bool | None
    ): ...
    def hold(self, on: bool, /) -> None: ...
    def close(self) -> None: ...
    def release_memory(self) -> None: ...

class Writer:
    def __init__(self, path: str | PathLike[str], synchronous: str, cache_kib: int) -> None: ...
    def submit(
        self,
        base_sql: str | None,
        ops: list[tuple[str, list[tuple[Any, ...]], int]],
        guard: bool = False,
        /,
    ) -> None: ...
    def result(self) -> tuple[int, int, str] | None: ...
    def fileno(self) -> int: ...
    def release_memory(self) -> None: ...
    def close(self) -> None: ...

def bind(path: str, /) -> bool: ...
def check_rows(
    rows: list[tuple[Any, ...]], events: list[Any], heads: dict[type, bytes], start: int, /
) -> dict[str, tuple[int, int]] | None: ...
def crc32(data: bytes, value: int, /) -> int: ...
def joined_payloads(rows: list[tuple[Any, ...]], /) -> bytes | None: ...
def append_arrays(
    batches: list[tuple[int, Any]], binary: bool = False, /
) -> tuple[str | bytes, ...]: ...
def encode_rows(
    start: int,
    expected: int,
    events: list[Any] | tuple[Any, ...],
    metas: list[Any] | tuple[Any, ...],
    tags: dict[type, tuple[str, int]],
    heads: dict[type, bytes],
    encode_event: Callable[[Any], bytes],
    encode_meta: Callable[[Any], bytes],
    /,
) -> list[tuple[str, int, bytes, bytes, str | None, int]]: ...
