"""Errors the engine raises; every one names what is wrong in words a caller can act on."""

from __future__ import annotations


class GamehallError(Exception):
    """Base of every error gamehall raises on purpose."""

    code = "error"

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message

    def __str__(self) -> str:
        return self.message


class IllegalCommand(GamehallError):
    """A well-formed command that the rules refuse in the current state.

    ``reason`` is written for the player; ``rule`` is the rule id (``TB-PLACE-3``) where the
    game numbers its rules. Raising it guarantees that nothing was stored or changed.
    """

    code = "illegal_command"

    def __init__(self, reason: str, rule: str | None = None) -> None:
        super().__init__(f"{rule}: {reason}" if rule else reason)
        self.reason = reason
        self.rule = rule


class NotAwaited(IllegalCommand):
    """A command from a seat that the match is not waiting for."""

    code = "not_awaited"


class MatchOver(IllegalCommand):
    """A command sent to a match that has ended."""

    code = "match_over"


class InvalidCommand(GamehallError):
    """A command that does not decode: unknown type, missing or mistyped field."""

    code = "invalid_command"


class CommandIdConflict(GamehallError):
    """A command id that already names another command of the match (or another seat's)."""

    code = "command_id_conflict"


class InvalidOptions(GamehallError):
    """Options, players or expansions that a game cannot start with."""

    code = "invalid_options"


class UnknownGame(GamehallError):
    """A game or expansion id that no installed plugin registers."""

    code = "unknown_game"


class UnknownMatch(GamehallError):
    """A match id that the store does not hold."""

    code = "unknown_match"

    def __init__(self, match: str) -> None:
        shown = match if len(match) <= 80 else match[:80] + "…"
        super().__init__(f"unknown match {shown!r}")
        self.match = match


class UnknownPlayer(GamehallError):
    """A player token or id that the store does not know."""

    code = "unknown_player"


class InvalidQuery(GamehallError):
    """A listing asked with a filter, cursor or limit that cannot be used."""

    code = "invalid_query"


class ConcurrencyError(GamehallError):
    """An append whose expected version is not the stream's version (someone wrote first)."""

    code = "concurrency_conflict"

    def __init__(self, stream: str, expected: int, actual: int) -> None:
        super().__init__(
            f"stream {stream!r} is at version {actual}, the append expected {expected}"
        )
        self.stream = stream
        self.expected = expected
        self.actual = actual


class DuplicateMatch(ConcurrencyError):
    """A new match whose id is already taken."""

    code = "duplicate_match"

    def __init__(self, stream: str, expected: int, actual: int) -> None:
        super().__init__(stream, expected, actual)
        self.message = (
            f"match {stream!r} already exists ({actual} events): choose another id, "
            "or leave the id out to get a fresh one"
        )


class UnknownVersion(InvalidQuery):
    """A read or command that names a match version the match never had."""

    code = "unknown_version"

    def __init__(self, match: str, version: int, stored: int) -> None:
        super().__init__(
            f"match {match!r} has no version {version}: its last stored version is {stored} "
            "(name the version an acknowledgement gave: its last seq)"
        )
        self.match = match
        self.version = version
        self.stored = stored


class NotCaughtUp(GamehallError):
    """A read or command that names a match version this node did not catch up with in time
    (another node stored it); nothing was answered from older state. Asking again may succeed."""

    code = "not_caught_up"

    def __init__(self, match: str, version: int, held: int, seconds: float) -> None:
        super().__init__(
            f"this node holds match {match!r} at version {held} and did not catch up with "
            f"version {version} within {seconds:g} s: try again in a moment"
        )
        self.match = match
        self.version = version
        self.held = held


class InvalidFork(GamehallError):
    """A fork point that does not end a command's events, or lies past the end of the match."""

    code = "invalid_fork"


class UnknownEventType(GamehallError):
    """A stored event whose type no loaded plugin declares; never skipped silently."""

    code = "unknown_event_type"

    def __init__(self, tag: str, stream: str, seq: int, position: int | None = None) -> None:
        where = f"stream {stream!r} seq {seq}"
        if position is not None:
            where += f" (position {position})"
        super().__init__(
            f"unknown event type {tag!r} at {where}: is the plugin that declares it installed?"
        )
        self.tag = tag
        self.stream = stream
        self.seq = seq
        self.position = position


class CorruptRecord(GamehallError):
    """A stored row that cannot be decoded (truncated, edited or written by something else)."""

    code = "corrupt_record"

    def __init__(self, stream: str, seq: int, reason: str) -> None:
        super().__init__(f"corrupt record at stream {stream!r} seq {seq}: {reason}")
        self.stream = stream
        self.seq = seq
        self.reason = reason


class PluginError(GamehallError):
    """A plugin that cannot be loaded or that contradicts another one."""

    code = "plugin_error"


class MatchFailed(GamehallError):
    """An unexpected error inside the rules; the match was rebuilt from the store, nothing kept."""

    code = "internal_error"


class MatchQuarantined(GamehallError):
    """A match whose stored rows fail their checks: it is not served until it is repaired."""

    code = "match_quarantined"

    def __init__(self, match: str, reason: str) -> None:
        super().__init__(
            f"match {match!r} is quarantined: its stored events fail their checks ({reason}); "
            "nothing is read from it or written to it until the store is repaired "
            "(see 'gamehall check-store')"
        )
        self.match = match
        self.reason = reason


class DamagedStore(GamehallError):
    """A store file that fails the check made when it is opened: it is neither read nor written."""

    code = "damaged_store"


class StoreFailed(GamehallError):
    """The store could not do what was asked (disk full, I/O error); nothing was acknowledged."""

    code = "store_failed"


class StoreBusy(StoreFailed):
    """Every connection the store may use for this was in use, and none came free in time;
    nothing was stored or read. Asking again in a moment may succeed."""

    code = "store_busy"


class StoreClosed(GamehallError):
    """An operation on a store or hall that was closed."""

    code = "closed"
