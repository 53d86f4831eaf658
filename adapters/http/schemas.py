"""The msgspec types of the HTTP API: request bodies, answers and errors.

Request bodies refuse unknown fields, so a typo is a 400 that names the field instead of an
option silently ignored. The same Structs decode requests, encode answers and make the OpenAPI
document.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

import msgspec
from gamehall.core.codec import EventLine
from gamehall.core.limits import INT64_MAX, CommandId, Players, Seat, Seed
from gamehall.core.rules import Decision, Outcome

Seating = Literal["tokens", "open"]

ClockText = Annotated[
    str,
    msgspec.Meta(
        pattern=r"^(move|match):[0-9]{1,7}(\.[0-9]{1,3})?(\+[0-9]{1,7}(\.[0-9]{1,3})?)?$",
        description="a time control: move:SECONDS (each move) or match:SECONDS[+INCREMENT]",
    ),
]
PlayerName = Annotated[
    str, msgspec.Meta(min_length=1, max_length=40, description="a display name, 1 to 40 characters")
]
SeatRole = Annotated[
    str,
    msgspec.Meta(
        pattern=r"^(token|open|bot(:[a-z]+(:[0-9.]+s?)?)?)$",
        description="token, open, or bot[:KIND[:BUDGET]] (bot:mcts:2000, bot:ismcts:500)",
    ),
]


class Request(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """Base of every request body: unknown fields are refused by name."""


class CreateMatch(Request, frozen=True):
    """Start a match.

    ``seating`` is ``tokens`` to get one token per seat now (the creator hands them out), or
    ``open`` to let players claim the seats one by one through ``POST /matches/{match}/seats``.
    ``seats``, if given, sets each seat apart (one entry per seat, in order): ``token``,
    ``open``, or a bot (``bot``, ``bot:mcts:2000``, ``bot:ismcts:500``) that the engine plays.
    ``request_id`` makes the create safe to retry: the same id gets the first answer.
    """

    game: str
    players: Players | None = None
    expansions: list[str] = []
    options: dict[str, Any] = {}
    expansion_options: dict[str, dict[str, Any]] = {}
    seed: Seed | None = None
    seating: Seating = "tokens"
    seats: list[SeatRole] | None = None
    seat: Seat | None = None
    clock: ClockText | None = None
    undo: Literal["consent", "free", "off"] = "consent"
    request_id: (
        Annotated[
            str,
            msgspec.Meta(
                min_length=1, max_length=64, pattern=r"^[A-Za-z0-9._~:-]{1,64}$",
                description="chosen by the client: a retry with the same id gets the first "
                "answer and never makes a second match",
            ),
        ]
        | None
    ) = None  # fmt: skip


class NewPlayer(Request, frozen=True):
    """Become a player: a display name that every view of your matches shows."""

    name: PlayerName


class Rename(Request, frozen=True):
    """Change your display name."""

    name: PlayerName


class AnswerUndo(Request, frozen=True):
    """Agree to the take-back waiting in a match (``true``) or decline it (``false``)."""

    agree: bool


class Rematch(Request, frozen=True):
    """Start a rematch of a finished match (the seed: admin only)."""

    seed: Seed | None = None
    bots: (
        Annotated[
            Literal["easy", "medium", "strong"],
            msgspec.Meta(
                description="The strength of the rematch's bots, as the lobby offers them: "
                "easy plays at random, medium and strong search with a budget that suits the "
                "game. Absent: the same bots play again."
            ),
        ]
        | None
    ) = None


class ClaimSeat(Request, frozen=True):
    """Claim a free seat of an open match: ``seat`` or, without it, the lowest free one."""

    seat: Seat | None = None


class PostCommand(Request, frozen=True):
    """A seat's command, e.g. ``{"type": "tictactoe.PlaceMark", "cell": 4}``, with its id.

    ``seat`` names the seat a player token acts for, when its player holds several; without
    it, the seat awaited now.
    """

    command: dict[str, Any]
    command_id: CommandId
    seat: Seat | None = None


class ForkMatch(Request, frozen=True):
    """Start a new match from the first ``at_seq`` events of this one."""

    at_seq: Annotated[int, msgspec.Meta(ge=1, le=INT64_MAX)]
    seating: Seating = "tokens"
    seed: Seed | None = None


class SeatToken(msgspec.Struct, frozen=True):
    """The secret that lets its holder act for one seat; shown once, stored only hashed."""

    seat: int
    token: str


class Created(msgspec.Struct, frozen=True):
    """A new match: its id, a token for each seat seated with one, and the bot seats."""

    match: str
    game: str
    players: int
    seating: Seating
    seats: list[SeatToken]
    bots: dict[int, str] = {}


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
    """Whether a seat has been given a token, and who holds it."""

    seat: int
    claimed: bool
    bot: str | None = None
    name: str | None = None
    player: str | None = None


class PlayerOut(msgspec.Struct, frozen=True):
    """A player: the id others see and the display name (``null`` once erased)."""

    player: str
    name: str | None


class PlayerCreated(msgspec.Struct, frozen=True):
    """A new player and the player token, shown only once."""

    player: str
    name: str
    token: str


class ClockOut(msgspec.Struct, frozen=True):
    """A timed match's clocks: each seat's seconds left at ``now``, the seats whose time runs,
    and when the first of them runs out (Unix seconds)."""

    mode: str
    seconds: float
    increment: float
    at: float
    remaining: list[float]
    running: list[int]
    deadline: float | None
    now: float


class UndoOut(msgspec.Struct, frozen=True):
    """A take-back: who asked, from which seq, who must agree, who did, and its state
    (``pending``, ``done`` or ``declined``)."""

    match: str
    seat: int
    first: int
    seq: int
    needed: list[int]
    agreed: list[int]
    state: str


class LobbySeat(msgspec.Struct, frozen=True):
    """A seat in the lobby: its name, its player or bot, and whether it is open."""

    seat: int
    name: str | None
    player: str | None = None
    bot: str | None = None
    open: bool = False


class LobbyMatch(msgspec.Struct, frozen=True):
    """A match as the lobby lists it."""

    match: str
    game: str
    expansions: list[str]
    players: int
    seats: list[LobbySeat]
    open_seats: int
    finished: bool
    version: int
    created: float
    updated: float
    spectators: int = 0
    clock: str | None = None
    rematch_of: str | None = None
    rematch: str | None = None
    ended: str | None = None
    """``abandoned`` (by its creator) or ``expired`` (waiting for players): over without an
    outcome (``finished`` is true); ``null`` otherwise."""
    creator: str | None = None
    """The player id of who created the match with a player token (they may abandon it while
    nobody else joined, and free its seats while it waits for players)."""
    age: str = ""
    """How long ago the match was created, in words (``created`` is the time)."""
    last_activity: str = ""
    """How long ago its last event was (``updated`` is the time), in words."""


class LobbyOut(msgspec.Struct, frozen=True):
    """One page of the lobby, newest first: pass ``next`` as ``cursor`` for the next page."""

    matches: list[LobbyMatch]
    total: int
    next: str | None = None


class DeletedOut(msgspec.Struct, frozen=True):
    """A match deleted from the store."""

    match: str
    deleted: bool


class SpectatorOut(msgspec.Struct, frozen=True):
    """Someone following a match without a seat (a player, or anonymous)."""

    player: str | None
    name: str | None


class SpectatorsOut(msgspec.Struct, frozen=True):
    """Who follows a match without a seat now."""

    match: str
    count: int
    spectators: list[SpectatorOut]


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
    names: list[str | None] = []
    clock: ClockOut | None = None
    spectators: int = 0
    finished: bool = False
    rematch_of: str | None = None
    rematch: str | None = None
    ended: str | None = None
    """``abandoned`` or ``expired``: over without an outcome (``finished`` is true)."""
    creator: str | None = None


class ViewOut(msgspec.Struct, frozen=True):
    """What the asker may see now, what is awaited, and the commands it may send."""

    match: str
    seq: int
    seat: int | None
    view: Any
    awaiting: dict[int, Decision]
    legal: list[dict[str, Any]]
    outcome: Outcome | None
    names: list[str | None] = []
    clock: ClockOut | None = None
    undo: UndoOut | None = None


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
