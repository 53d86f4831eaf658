"""What input from outside may be: match ids, the range of every number, how deep JSON nests.

Every adapter (HTTP, stdio, CLI, files) checks what it is given against these rules before the
engine sees it, so an out-of-range number or a hostile document is refused with a message that
names the field, never passed on to SQLite or to a recursive decoder.
"""

from __future__ import annotations

import hashlib
import json
import math
import re
from collections.abc import Iterator
from typing import Annotated, Any

import msgspec

from .errors import GamehallError, UnknownMatch

INT64_MAX = 2**63 - 1
INT64_MIN = -(2**63)
MAX_JSON_DEPTH = 32
MATCH_ID_MAX = 64
MATCH_ID_PATTERN = r"^[A-Za-z0-9_-]{1,64}$"
MATCH_ID_RULE = "1 to 64 letters, digits, '-' or '_'"
_MATCH_ID = re.compile(MATCH_ID_PATTERN)

MatchId = Annotated[
    str,
    msgspec.Meta(
        min_length=1, max_length=MATCH_ID_MAX, pattern=MATCH_ID_PATTERN,
        description=f"a match id: {MATCH_ID_RULE}",
    ),
]  # fmt: skip
Seq = Annotated[int, msgspec.Meta(ge=0, le=INT64_MAX, description="a seq (0: before the first)")]
Count = Annotated[int, msgspec.Meta(ge=0, le=INT64_MAX)]
Seed = Annotated[int, msgspec.Meta(ge=0, le=INT64_MAX, description="makes the match reproducible")]
Seat = Annotated[int, msgspec.Meta(ge=0, le=INT64_MAX, description="a seat, counted from 0")]
Players = Annotated[int, msgspec.Meta(ge=1, le=INT64_MAX)]
COMMAND_ID_MAX = 64
COMMAND_ID_PATTERN = r"^[A-Za-z0-9._~:-]{1,64}$"
COMMAND_ID_RULE = "1 to 64 letters, digits, '.', '_', '~', ':' or '-'"
_COMMAND_ID = re.compile(COMMAND_ID_PATTERN)
CommandId = Annotated[
    str,
    msgspec.Meta(
        min_length=1, max_length=COMMAND_ID_MAX, pattern=COMMAND_ID_PATTERN,
        description="chosen by the client; a retry with the same id gets the first answer",
    ),
]  # fmt: skip
NUMBER_TEXT_MAX = 19  # the digits of the largest signed 64-bit integer


class InvalidInput(GamehallError):
    """A value from outside that no request may carry: out of range, malformed, too deep."""

    code = "invalid_request"


class InvalidMatchId(InvalidInput):
    """A match id that breaks the one rule for ids."""

    code = "invalid_match_id"


class InvalidJson(InvalidInput):
    """A JSON document that is refused before decoding: too deep, duplicate keys, bad numbers."""

    code = "invalid_json"


def is_match_id(match: object) -> bool:
    """Tell whether a value is a well-formed match id."""
    return isinstance(match, str) and _MATCH_ID.fullmatch(match) is not None


def shown(text: str, limit: int = 80) -> str:
    """Return text short enough to quote in a message."""
    return text if len(text) <= limit else text[:limit] + "…"


def check_match_id(match: str, what: str = "match id") -> str:
    """Return a match id for a new match, or raise :class:`InvalidMatchId`."""
    if not is_match_id(match):
        given = shown(match) if isinstance(match, str) else type(match).__name__
        raise InvalidMatchId(f"{what} {given!r} is not valid: a match id is {MATCH_ID_RULE}")
    return match


def known_match_id(match: str) -> str:
    """Return an id to look up, or raise :class:`UnknownMatch` for one that cannot exist."""
    if not is_match_id(match):
        raise UnknownMatch(match)
    return match


def is_command_id(command_id: object) -> bool:
    """Tell whether a value is a well-formed command id (the one rule of every adapter)."""
    return isinstance(command_id, str) and _COMMAND_ID.fullmatch(command_id) is not None


def check_command_id(command_id: object, what: str = "command_id") -> str:
    """Return a command id, or raise :class:`InvalidInput` naming the rule."""
    if not is_command_id(command_id):
        given = shown(command_id, 20) if isinstance(command_id, str) else type(command_id).__name__
        raise InvalidInput(f"{what} {given!r} is not valid: a command id is {COMMAND_ID_RULE}")
    assert isinstance(command_id, str)
    return command_id


def request_match_id(scope: str, request_id: str) -> str:
    """Return the match id a create's request id stands for: the same on every node and
    after a restart, so a retried create can never make a second match."""
    check_command_id(request_id, "request_id")
    return hashlib.sha256(f"{scope}\x00{request_id}".encode()).hexdigest()[:32]


def check_count(name: str, value: object, low: int, high: int) -> int:
    """Return a count within the declared ``low..high`` before anything is sized by it."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise InvalidInput(f"{name} must be a whole number, not {type(value).__name__}")
    if not low <= value <= high:
        allowed = f"{low}" if low == high else f"{low} to {high}"
        raise InvalidInput(f"{name} must be {allowed}, not {shown(str(value), 24)}")
    return value


def int_text(name: str, text: str, low: int = 0, high: int = INT64_MAX) -> int:
    """Return the whole number a form field holds within ``low..high``, or raise naming it.

    The length is checked before conversion: a field of a million digits costs nothing.
    """
    digits = text.strip()
    body = digits[1:] if digits[:1] in ("-", "+") else digits
    if not body.isascii() or not body.isdigit() or len(body) > NUMBER_TEXT_MAX:
        if body.isascii() and body.isdigit():
            raise InvalidInput(f"{name} must be between {low} and {high}, not {shown(digits, 24)}")
        raise InvalidInput(f"{name} must be a whole number, not {shown(digits, 24)!r}")
    return check_int(name, int(digits), low, high)


def check_int(name: str, value: int, low: int = 0, high: int = INT64_MAX) -> int:
    """Return an integer within ``low..high``, or raise naming the field."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise InvalidInput(f"{name} must be an integer, not {type(value).__name__}")
    if not low <= value <= high:
        raise InvalidInput(f"{name} must be between {low} and {high}, not {shown(str(value))}")
    return value


def check_seq(name: str, value: int) -> int:
    """Return a seq (``0`` to ``2**63 - 1``), or raise naming the field."""
    return check_int(name, value)


def check_limit(name: str, value: int | None) -> int | None:
    """Return a limit (``None`` or ``0`` to ``2**63 - 1``), or raise naming the field."""
    return None if value is None else check_int(name, value)


def check_seed(value: int | None) -> int | None:
    """Return a seed (``None`` or ``0`` to ``2**63 - 1``), or raise."""
    return None if value is None else check_int("seed", value)


# -- JSON --------------------------------------------------------------------------------------


def depth(value: Any) -> int:
    """Return how deep lists and objects nest in a decoded value (a scalar is 0)."""
    deepest = 0
    stack: list[tuple[Any, int]] = [(value, 1)]
    while stack:
        item, level = stack.pop()
        if isinstance(item, dict):
            children: Any = item.values()
        elif isinstance(item, list | tuple):
            children = item
        else:
            continue
        deepest = max(deepest, level)
        stack.extend((child, level + 1) for child in children)
    return deepest


def too_deep(limit: int) -> InvalidJson:
    """Return the refusal of a document nested deeper than ``limit``."""
    return InvalidJson(f"the JSON nests deeper than {limit} levels of lists and objects")


def check_depth(data: bytes | str, limit: int = MAX_JSON_DEPTH) -> None:
    """Refuse JSON nested deeper than ``limit``; leave syntax errors to the real decoder."""
    raw = data.encode() if isinstance(data, str) else data
    if raw.count(b"[") + raw.count(b"{") <= limit:
        return  # cannot nest deeper than it has brackets: the common case costs two counts
    try:
        value = msgspec.json.decode(raw)
    except RecursionError:
        raise too_deep(limit) from None
    except msgspec.DecodeError:
        return
    if depth(value) > limit:
        raise too_deep(limit)


def parse_json(data: bytes | str, limit: int = MAX_JSON_DEPTH) -> Any:
    """Decode JSON once, refusing what msgspec would take silently: too deep, repeated keys,
    wild numbers; return the decoded value (a dict, a list, a scalar).

    Integers must fit SQLite's signed 64 bits and numbers must be finite; a refusal names
    the key that holds the value. A syntax error raises ``json.JSONDecodeError`` (a
    ``ValueError``) with its line and column. Callers turn the value into their Struct with
    ``msgspec.convert(value, type=..., strict=True)``, which parses nothing again.
    """
    try:
        value = json.loads(
            data,
            object_pairs_hook=_checked_object,
            parse_constant=_refuse_constant,
            parse_float=_finite,
        )
    except RecursionError:
        raise too_deep(limit) from None
    raw = data.encode() if isinstance(data, str) else data
    if raw.count(b"[") + raw.count(b"{") > limit and depth(value) > limit:
        raise too_deep(limit)  # only a document with that many brackets can nest so deep
    for where, number in _numbers("the document", value):  # a bare number or a top list
        if not INT64_MIN <= number <= INT64_MAX:
            raise InvalidJson(
                f"{shown(where)}: {shown(str(number))} is outside the signed 64-bit range"
            )
    return value


def check_json(data: bytes | str, limit: int = MAX_JSON_DEPTH) -> None:
    """Refuse JSON that :func:`parse_json` refuses; leave syntax errors to the real decoder,
    whose message says where they are."""
    try:
        parse_json(data, limit)
    except InvalidJson:
        raise
    except ValueError:
        return


def _checked_object(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in pairs:
        if key in out:
            raise InvalidJson(f"the key {shown(key)!r} appears twice in one JSON object")
        for where, number in _numbers(key, value):
            if not INT64_MIN <= number <= INT64_MAX:
                raise InvalidJson(
                    f"{shown(where)}: {shown(str(number))} is outside the signed 64-bit range"
                )
        out[key] = value
    return out


def _numbers(key: str, value: Any) -> Iterator[tuple[str, int]]:
    # Objects inside were checked when they were built; only lists need looking into here.
    if isinstance(value, int) and not isinstance(value, bool):
        yield key, value
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from _numbers(f"{key}[{index}]", item)


def _refuse_constant(name: str) -> Any:
    raise InvalidJson(f"{name} is not a JSON number")


def _finite(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise InvalidJson(f"the number {shown(text)} is too large")
    return value
