"""Who sits where, decided by a match's actor and recorded as events of the match.

The lobby's commands (:class:`~gamehall.core.events.TakeSeat`,
:class:`~gamehall.core.events.LinkRematch`) go through the match's mailbox like a seat's
command: the actor decides them against the seating it holds (the match's listing entry, kept
in step with the log), appends their events at its version, and only then answers. Two takers
of one seat are decided one after the other, so the second finds it taken (``seat_taken``);
on several nodes an append beaten by another node's commit is decided again after catching up.

The listing entry is updated in the same transaction as the append (the changes go with the
batch as its ``info``), so a seat is never shown open and taken at once.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .errors import GamehallError, MatchOver
from .events import LinkRematch, LobbyCommand, LobbyEvent, RematchLinked, SeatTaken, TakeSeat


class NoFreeSeat(GamehallError):
    """A seat that does not exist or is not open to be taken, or a match without one."""

    code = "no_free_seat"


class RematchExists(GamehallError):
    """A finished match whose rematch was started already (by someone else, just now)."""

    code = "rematch_exists"

    def __init__(self, match: str, rematch: str) -> None:
        super().__init__(f"match {match!r} already has the rematch {rematch!r}")
        self.rematch = rematch


class SeatAlreadyTaken(NoFreeSeat):
    """Someone else holds the seat asked for (they took it first)."""

    code = "seat_taken"


def holders(info: Mapping[str, Any], players: int) -> list[str | None]:
    """Return the player id holding each seat (``None``: no player)."""
    raw = info.get("seat_players") or []
    return [raw[s] if s < len(raw) and isinstance(raw[s], str) else None for s in range(players)]


def open_seats(info: Mapping[str, Any]) -> list[int]:
    """Return the seats nobody holds yet, lowest first."""
    return sorted(s for s in info.get("open") or [] if isinstance(s, int))


def bot_seats(info: Mapping[str, Any]) -> set[int]:
    """Return the seats a bot plays."""
    return {int(s) for s in info.get("bots") or {}}


def decide(
    match: str, players: int, info: Mapping[str, Any], command: LobbyCommand
) -> tuple[list[LobbyEvent], dict[str, Any]]:
    """Return the events of a lobby command and the changes to the listing entry they make,
    or refuse it (nothing changes) with an error that names the problem."""
    if isinstance(command, TakeSeat):
        return _take(match, players, info, command)
    if isinstance(command, LinkRematch):
        if info.get("rematch") not in (None, command.rematch):
            raise RematchExists(match, str(info["rematch"]))
        return [RematchLinked(rematch=command.rematch)], {"rematch": command.rematch}
    raise GamehallError(f"the lobby cannot decide {type(command).__name__}")


def _take(
    match: str, players: int, info: Mapping[str, Any], command: TakeSeat
) -> tuple[list[LobbyEvent], dict[str, Any]]:
    if info.get("finished"):
        raise MatchOver(f"match {match!r} is over: its seats are not taken any more")
    free = open_seats(info)
    seat = command.seat
    if seat is None:
        if not free:
            raise NoFreeSeat(f"every seat of match {match!r} is taken: it has no open seat")
        seat = free[0]
    elif isinstance(seat, bool) or not 0 <= seat < players:
        raise NoFreeSeat(f"seat {seat} does not exist: seats are 0 to {players - 1}")
    elif seat in bot_seats(info):
        raise NoFreeSeat(f"seat {seat} of match {match!r} is taken: a bot plays it")
    elif seat not in free:
        raise SeatAlreadyTaken(f"seat {seat} of match {match!r} is taken")
    changes: dict[str, Any] = {}
    if command.player is not None:
        held = holders(info, players)
        held[seat] = command.player
        changes["seat_players"] = held
    left = [s for s in free if s != seat]
    changes["open"] = left
    changes["open_seats"] = len(left)
    return [SeatTaken(seat=seat, player=command.player)], changes


def apply(info: Mapping[str, Any], players: int, event: LobbyEvent) -> dict[str, Any]:
    """Return the listing entry after a lobby event (what a rebuild folds)."""
    out = dict(info)
    if isinstance(event, SeatTaken):
        left = [s for s in open_seats(info) if s != event.seat]
        out["open"], out["open_seats"] = left, len(left)
        if event.player is not None:
            held = holders(info, players)
            held[event.seat] = event.player
            out["seat_players"] = held
    elif isinstance(event, RematchLinked):
        out["rematch"] = event.rematch
    return out
