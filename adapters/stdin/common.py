"""What the terminal commands share beyond the CLI's common options: seat roles, option help."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

# Shared by every adapter's commands; kept importable from here for the terminal's modules.
from gamehall.adapters.cli.common import (
    COUNT,
    DEFAULT_DB,
    SEAT,
    SEED,
    SEQ,
    add_db_option,
    int_arg,
    open_store,
    parse_options,
    parse_value,
)
from gamehall.core import InvalidOptions, words
from gamehall.core.bots import BotError, BotSpec, parse_role

_NO_ROLE = BotSpec("none")


def parse_seats(pairs: Sequence[str], players: int) -> dict[int, str]:
    """Read ``S=human`` / ``S=bot`` / ``S=bot:mcts:2000`` flags into a role per seat.

    People count seats from 1 (``--seat 1=human`` is the first seat); the roles returned are
    keyed by the API's seat, from 0. ``0=...``, the form of earlier versions, is refused with
    a message saying that seats now count from 1.
    """
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
        if seat == 0:
            raise InvalidOptions(
                f"--seat {pair!r}: seats are counted from 1 now (the first seat is "
                f"--seat 1={role}); this match has seats 1 to {players}"
            )
        if not 1 <= seat <= players:
            raise InvalidOptions(f"--seat {pair!r}: this match has seats 1 to {players}")
        roles[seat - 1] = "human" if spec is None else role_of(spec)
    return roles


def role_of(spec: BotSpec) -> str:
    """Return a bot's seat role: ``bot`` for the random bot, else ``bot:KIND[:BUDGET]``."""
    return "bot" if spec == BotSpec() else f"bot:{spec}"


def bots_of(roles: Mapping[int, str]) -> dict[int, str]:
    """Return the bot of each seat whose role is a bot (``random`` for plain ``bot``)."""
    return {seat: role[4:] or "random" for seat, role in roles.items() if role.startswith("bot")}


def describe_options(schema: Any, prefix: str = "", choices: Any = None) -> list[str]:
    """Return, for each option of an options Struct, a line ``KEY (Label): kind, default X``
    and, when the game gives one, its one-line help indented below: types and defaults in
    words, never a Python type. ``choices``: the ruleset's closed sets of values
    (``Rules.option_choices``)."""
    out = []
    for option in words.option_help(schema, choices):
        label = "" if option.label == option.name.replace("_", " ") else f" ({option.label})"
        default = "required" if option.default is None else f"default {option.default}"
        out.append(f"{prefix}{option.name}{label}: {option.kind}; {default}")
        if option.help:
            out.append(f"    {option.help}")
    return out


__all__ = [
    "COUNT",
    "DEFAULT_DB",
    "SEAT",
    "SEED",
    "SEQ",
    "add_db_option",
    "bots_of",
    "describe_options",
    "int_arg",
    "open_store",
    "parse_options",
    "parse_seats",
    "parse_value",
    "role_of",
]
