"""Split a MessagePack stream (objects one after another) into the bytes of each object.

msgspec decodes one whole object at a time; a log file holds many, so this finds where each
ends by walking the type bytes of the format, without decoding anything.
"""

from __future__ import annotations

from collections.abc import Iterator

# type byte -> (bytes of the length field, extra bytes after it) for the sized types
_SIZED = {
    0xC4: (1, 0), 0xC5: (2, 0), 0xC6: (4, 0),  # bin
    0xC7: (1, 1), 0xC8: (2, 1), 0xC9: (4, 1),  # ext (+ type byte)
    0xD9: (1, 0), 0xDA: (2, 0), 0xDB: (4, 0),  # str
}  # fmt: skip
_FIXED = {
    0xCA: 4, 0xCB: 8, 0xCC: 1, 0xCD: 2, 0xCE: 4, 0xCF: 8,
    0xD0: 1, 0xD1: 2, 0xD2: 4, 0xD3: 8, 0xD4: 2, 0xD5: 3, 0xD6: 5, 0xD7: 9, 0xD8: 17,
}  # fmt: skip
_CONTAINERS = {0xDC: (2, 1), 0xDD: (4, 1), 0xDE: (2, 2), 0xDF: (4, 2)}  # array, map


class Truncated(ValueError):
    """The stream ends inside an object."""


def _uint(data: bytes, pos: int, size: int) -> int:
    if pos + size > len(data):
        raise Truncated("the stream ends inside an object")
    return int.from_bytes(data[pos : pos + size], "big")


def object_end(data: bytes, pos: int) -> int:
    """Return the offset just after the object that starts at ``pos``."""
    need = 1
    end = len(data)
    while need:
        if pos >= end:
            raise Truncated("the stream ends inside an object")
        kind = data[pos]
        pos += 1
        need -= 1
        if kind <= 0x7F or kind >= 0xE0 or kind in (0xC0, 0xC2, 0xC3):
            continue
        if kind <= 0x8F:
            need += 2 * (kind & 0x0F)
        elif kind <= 0x9F:
            need += kind & 0x0F
        elif kind <= 0xBF:
            pos += kind & 0x1F
        elif kind in _SIZED:
            size, extra = _SIZED[kind]
            pos += size + extra + _uint(data, pos, size)
        elif kind in _FIXED:
            pos += _FIXED[kind]
        elif kind in _CONTAINERS:
            size, per_item = _CONTAINERS[kind]
            need += per_item * _uint(data, pos, size)
            pos += size
        else:
            raise ValueError(f"byte 0x{kind:02x} at offset {pos - 1} starts no MessagePack object")
    if pos > end:
        raise Truncated("the stream ends inside an object")
    return pos


def split(data: bytes) -> Iterator[bytes]:
    """Yield the bytes of each object of a stream, in order."""
    pos = 0
    while pos < len(data):
        end = object_end(data, pos)
        yield data[pos:end]
        pos = end
