"""The msgspec types of the HTTP API: request bodies, answers and errors.

Request bodies refuse unknown fields, so a typo is a 400 that names the field instead of an
option silently ignored. The same Structs decode requests, encode answers and make the OpenAPI
document.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

import msgspec
from gamehall.core.codec import EventLine
from gamehall.core.rules import Decision, Outcome

CommandId = Annotated[
    str,
    msgspec.Meta(
        min_length=1,
        max_length=64,
        pattern=r"^[A-Za-z0-9._~:-]+$",
        description="chosen by the client; a retry with the same id gets the first answer",
    ),
]
Seed = Annotated[int, msgspec.Meta(ge=0, le=2**63 - 1, description="makes the match reproducible")]
Seating = Literal["tokens", "open"]


class Request(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """Base of every request body: unknown fields are refused by name."""


class CreateMatch(Request, frozen=True):
    """Start a match.

    ``seating`` is ``tokens`` to get one token per seat now (the creator hands them out), or
    ``open`` to let players claim the seats one by one through ``POST /matches/{match}/seats``.
    """

    game: str
    players: int | None = None
    expansions: list[str] = []
    options: dict[str, Any] = {}
    expansion_options: dict[str, dict[str, Any]] = {}
    seed: Seed | None = None
    seating: Seating = "tokens"


class ClaimSeat(Request, frozen=True):
    """Claim a free seat of an open match: ``seat`` or, without it, the lowest free one."""

    seat: int | None = None


class PostCommand(Request, frozen=True):
    """A seat's command, e.g. ``{"type": "tictactoe.PlaceMark", "cell": 4}``, with its id."""

    command: dict[str, Any]
    command_id: CommandId


class ForkMatch(Request, frozen=True):
    """Start a new match from the first ``at_seq`` events of this one."""

    at_seq: Annotated[int, msgspec.Meta(ge=1)]
    seating: Seating = "tokens"
    seed: Seed | None = None


class SeatToken(msgspec.Struct, frozen=True):
    """The secret that lets its holder act for one seat; shown once, stored only hashed."""

    seat: int
    token: str


class Created(msgspec.Struct, frozen=True):
    """A new match: its id and, with ``tokens`` seating, one token per seat."""

    match: str
    game: str
    players: int
    seating: Seating
    seats: list[SeatToken]


class ExpansionOut(msgspec.Struct, frozen=True):
    """An installed expansion and the JSON schema of its options."""

    id: str
    name: str
    version: str
    description: str
    requires: list[str]
    conflicts: list[str]
    min_players: int | None
    max_players: int | None
    options: dict[str, Any] | None


class GameOut(msgspec.Struct, frozen=True):
    """An installed game: players, options (JSON schema), expansions and command schemas."""

    id: str
    name: str
    version: str
    description: str
    min_players: int
    max_players: int
    hidden_information: bool
    options: dict[str, Any] | None
    expansions: list[ExpansionOut]
    commands: dict[str, Any]


class CalculatorOut(msgspec.Struct, frozen=True):
    """A calculator a game offers: what it does, and the JSON schemas of its request and answer."""

    game: str
    name: str
    description: str
    request: dict[str, Any]
    answer: dict[str, Any]


class CalculationOut(msgspec.Struct, frozen=True):
    """A calculator's answer, as data and in words."""

    game: str
    calculator: str
    answer: dict[str, Any]
    text: str


class SeatOut(msgspec.Struct, frozen=True):
    """Whether a seat has been given a token."""

    seat: int
    claimed: bool


class MatchOut(msgspec.Struct, frozen=True):
    """A match as anyone may see it: no view, no hidden fact."""

    match: str
    game: str
    expansions: list[str]
    players: int
    seq: int
    created: float
    updated: float
    awaiting: dict[int, Decision]
    outcome: Outcome | None
    seats: list[SeatOut]
    forked_from: str | None = None
    fork_seq: int | None = None


class ViewOut(msgspec.Struct, frozen=True):
    """What the asker may see now, what is awaited, and the commands it may send."""

    match: str
    seq: int
    seat: int | None
    view: Any
    awaiting: dict[int, Decision]
    legal: list[dict[str, Any]]
    outcome: Outcome | None


class AckOut(msgspec.Struct, frozen=True):
    """An accepted command: the seqs of its events and the events as the sender sees them."""

    match: str
    command_id: str
    first_seq: int
    last_seq: int
    duplicate: bool
    events: list[EventLine]


class HistoryOut(msgspec.Struct, frozen=True):
    """The asker's events with ``after < seq <= upto``, each with its ``text`` for the asker;
    ask again from ``upto`` for more."""

    match: str
    seat: int | None
    after: int
    upto: int
    events: list[EventLine]


class Health(msgspec.Struct, frozen=True):
    """The server answers and its hall runs."""

    status: str
    games: int
    active_matches: int


class ErrorOut(msgspec.Struct, frozen=True, omit_defaults=True):
    """Every error: a stable code for programs and a message for people."""

    status: int
    error: str
    message: str
    rule: str | None = None


class BareOk(msgspec.Struct, frozen=True):
    """The answer of the benchmark's bare endpoint."""

    ok: bool
