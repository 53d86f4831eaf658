"""What the terminal commands share: the store, options given as K=V, seat roles."""

from __future__ import annotations

import argparse
import json
import sqlite3
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from gamehall.core import GamehallError, InvalidOptions, Registry, default_registry
from gamehall.core.bots import BotError, BotSpec, parse_role
from gamehall.core.limits import INT64_MAX
from gamehall.core.store import Store
from gamehall.core.store.url import open_store_url

DEFAULT_DB = "gamehall.db"


def open_store(path: str, registry: Registry | None = None) -> Store:
    """Open (or create) the store ``path`` names: a file path or ``sqlite:///PATH`` (SQLite),
    ``postgresql://…`` (PostgreSQL, with the ``postgres`` extra)."""
    registry = registry or default_registry()
    try:
        return open_store_url(path, registry.codec)
    except sqlite3.Error as exc:  # a directory, a file that is not a database
        raise GamehallError(f"cannot open the store {path!r}: {exc}") from None


def int_arg(low: int = 0, high: int = INT64_MAX) -> Callable[[str], int]:
    """Return an argparse type taking a whole number within ``low..high``."""

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
        if not low <= value <= high:
            raise argparse.ArgumentTypeError(f"{text!r} must be between {low} and {high}")
        return value

    return parse


SEQ = int_arg(0)
SEED = int_arg(0)
SEAT = int_arg(0)
COUNT = int_arg(0)


def parse_value(text: str) -> Any:
    """Read an option value: JSON when it parses (``3``, ``true``, ``[1,2]``), else the text."""
    try:
        return json.loads(text)
    except ValueError:
        return text


def parse_options(pairs: Iterable[str]) -> tuple[dict[str, Any], dict[str, dict[str, Any]]]:
    """Split ``K=V`` options into game options and per-expansion ones (``EXPANSION:K=V``)."""
    options: dict[str, Any] = {}
    per_expansion: dict[str, dict[str, Any]] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key:
            raise InvalidOptions(f"option {pair!r} is not KEY=VALUE")
        owner, colon, name = key.rpartition(":")
        target = per_expansion.setdefault(owner, {}) if colon else options
        target[name if colon else key] = parse_value(value)
    return options, per_expansion


_NO_ROLE = BotSpec("none")


def parse_seats(pairs: Sequence[str], players: int) -> dict[int, str]:
    """Read ``S=human`` / ``S=bot`` / ``S=bot:mcts:2000`` flags into a role per seat (from 0)."""
    roles: dict[int, str] = {}
    for pair in pairs:
        seat_text, sep, role = pair.partition("=")
        try:
            spec = parse_role(role) if sep else _NO_ROLE
        except BotError as exc:
            if role.startswith("bot:"):
                raise InvalidOptions(f"--seat {pair!r}: {exc}") from None
            spec = _NO_ROLE
        if spec is _NO_ROLE:
            raise InvalidOptions(
                f"--seat {pair!r}: expected SEAT=human or SEAT=bot (or SEAT=bot:KIND[:BUDGET], "
                "KIND one of random, mcts, ismcts)"
            )
        try:
            seat = int(seat_text)
        except ValueError:
            raise InvalidOptions(f"--seat {pair!r}: the seat must be a number") from None
        if not 0 <= seat < players:
            raise InvalidOptions(f"--seat {pair!r}: seats are 0 to {players - 1}")
        roles[seat] = "human" if spec is None else role_of(spec)
    return roles


def role_of(spec: BotSpec) -> str:
    """Return a bot's seat role: ``bot`` for the random bot, else ``bot:KIND[:BUDGET]``."""
    return "bot" if spec == BotSpec() else f"bot:{spec}"


def bots_of(roles: Mapping[int, str]) -> dict[int, str]:
    """Return the bot of each seat whose role is a bot (``random`` for plain ``bot``)."""
    return {seat: role[4:] or "random" for seat, role in roles.items() if role.startswith("bot")}


def describe_options(schema: Any) -> list[str]:
    """Return ``name: type = default`` for each field of an options Struct."""
    if schema is None:
        return []
    import msgspec

    out = []
    for field in msgspec.structs.fields(schema):
        kind = _type_name(field.type)
        default = field.default
        if field.default_factory is not msgspec.NODEFAULT:
            default = field.default_factory()
        shown = "required" if field.required else f"= {json.dumps(msgspec.to_builtins(default))}"
        out.append(f"{field.name}: {kind} {shown}")
    return out


def _type_name(kind: Any) -> str:
    import typing

    if typing.get_origin(kind) is typing.Literal:
        return " | ".join(json.dumps(v) for v in typing.get_args(kind))
    return getattr(kind, "__name__", None) or str(kind).replace("typing.", "")
