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

from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

import msgspec

from . import engine
from .errors import GamehallError, IllegalCommand, InvalidCommand, MatchOver
from .events import (
    AbandonMatch,
    ExpireMatch,
    GiveSeatToBot,
    LinkRematch,
    LobbyCommand,
    LobbyEvent,
    MatchAbandoned,
    MatchExpired,
    MatchStarted,
    Recorded,
    ReleaseSeat,
    RematchLinked,
    SeatGivenToBot,
    SeatReleased,
    SeatTaken,
    TakeSeat,
)

if TYPE_CHECKING:
    from .registry import Registry
    from .store.base import Store


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


class Forbidden(GamehallError):
    """Something only the operator, the match's creator or the holder of a seat may do."""

    code = "forbidden"


class SeatKept(IllegalCommand):
    """A seat that cannot be left or freed now (the match started, or nobody holds it)."""

    code = "seat_kept"


class SomeoneJoined(IllegalCommand):
    """A match its creator may not abandon: someone else holds a seat."""

    code = "someone_joined"


class NotIdle(IllegalCommand):
    """A match that is not to expire: it moved since it was found idle, or it is not waiting."""

    code = "not_idle"


ENDINGS = {
    "abandoned": "was abandoned by its creator",
    "expired": "expired while waiting for players",
}
ENDED = {"abandoned": "abandoned by its creator", "expired": "expired waiting for players"}
"""How a listing says a match ended outside its game."""


def ending(info: Mapping[str, Any]) -> str | None:
    """Return how a match ended outside its game (``abandoned``, ``expired``), or ``None``."""
    ended = info.get("ended")
    return ended if isinstance(ended, str) else None


def check_live(match: str, info: Mapping[str, Any], what: str) -> None:
    """Refuse anything but reading a match that is over, saying how it ended and ``what``
    that means for the asker (``its seats are not taken any more``)."""
    ended = ending(info)
    if ended is not None:
        raise MatchOver(f"match {match!r} {ENDINGS.get(ended, 'is over')}: {what}")
    if info.get("finished"):
        raise MatchOver(f"match {match!r} is over: {what}")


def waiting(info: Mapping[str, Any]) -> bool:
    """Tell whether a match still waits for players: not over, with a seat nobody holds.

    Such a match has not started: a player may leave it, its creator may free a seat, and
    it expires when nothing happens in it for the hall's expiry time."""
    return not info.get("finished") and bool(open_seats(info))


def creator(info: Mapping[str, Any]) -> str | None:
    """Return the player id of the match's creator (``None``: made without a player)."""
    made = info.get("creator")
    return made if isinstance(made, str) else None


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
    match: str, players: int, info: Mapping[str, Any], command: LobbyCommand, version: int = 0
) -> tuple[list[LobbyEvent], dict[str, Any]]:
    """Return the events of a lobby command and the changes to the listing entry they make,
    or refuse it (nothing changes) with an error that names the problem. ``version`` is the
    match's version the command is decided at (an expiry holds only at the one it saw)."""
    if isinstance(command, TakeSeat):
        return _take(match, players, info, command)
    if isinstance(command, GiveSeatToBot):
        _open_seat(match, players, info, command.seat)
        event = SeatGivenToBot(seat=command.seat, bot=command.bot, seed=command.seed)
        after = apply(info, players, event)
        return [event], {k: after[k] for k in ("bots", "open", "open_seats")}
    if isinstance(command, LinkRematch):
        if info.get("rematch") not in (None, command.rematch):
            raise RematchExists(match, str(info["rematch"]))
        return [RematchLinked(rematch=command.rematch)], {"rematch": command.rematch}
    if isinstance(command, ReleaseSeat):
        return _changed(info, players, _release(match, players, info, command))
    if isinstance(command, AbandonMatch):
        return _changed(info, players, _abandon(match, players, info, command))
    if isinstance(command, ExpireMatch):
        check_live(match, info, "it does not expire")
        if not waiting(info):
            raise NotIdle(f"match {match!r} waits for no player: it does not expire")
        if command.version != version:
            raise NotIdle(f"match {match!r} moved since it was found idle: it does not expire")
        return _changed(info, players, MatchExpired(idle=command.idle))
    raise GamehallError(f"the lobby cannot decide {type(command).__name__}")


def _changed(
    info: Mapping[str, Any], players: int, event: LobbyEvent
) -> tuple[list[LobbyEvent], dict[str, Any]]:
    """Return an event and the listing keys it changes."""
    after = apply(info, players, event)
    return [event], {k: v for k, v in after.items() if info.get(k) != v}


def _release(
    match: str, players: int, info: Mapping[str, Any], command: ReleaseSeat
) -> SeatReleased:
    """Decide a seat left by its player or freed by the match's creator."""
    seat = command.seat
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < players:
        raise InvalidCommand(f"seat {seat!r} does not exist: seats are 0 to {players - 1}")
    check_live(match, info, "its seats stay as they are")
    held = holders(info, players)[seat]
    if seat in bot_seats(info):
        raise SeatKept(f"seat {seat} of match {match!r} is played by a bot: nobody leaves it")
    if seat in open_seats(info):
        raise SeatKept(f"seat {seat} of match {match!r} is open already")
    if held is None:
        raise SeatKept(
            f"seat {seat} of match {match!r} is held by a seat token, not a player: only a "
            "player's seat is left or freed"
        )
    if command.by not in (held, creator(info)):
        raise Forbidden(
            f"seat {seat} of match {match!r} is left by its player or freed by the match's "
            "creator, nobody else"
        )
    if not waiting(info):
        raise SeatKept(
            f"every seat of match {match!r} is taken: the match has started and its seats are kept"
        )
    return SeatReleased(seat=seat, player=held, by=command.by)


def _abandon(
    match: str, players: int, info: Mapping[str, Any], command: AbandonMatch
) -> MatchAbandoned:
    """Decide a match abandoned by its creator before anyone else joined."""
    made = creator(info)
    if made is None:
        raise Forbidden(
            f"match {match!r} was not created by a player: nobody may abandon it (waiting "
            "for players, it expires)"
        )
    if command.by != made:
        raise Forbidden(f"only the creator of match {match!r} may abandon it")
    check_live(match, info, "it cannot be abandoned")
    held = holders(info, players)
    free, bots = set(open_seats(info)), bot_seats(info)
    others = [s for s in range(players) if s not in free and s not in bots and held[s] != made]
    if others:
        joined = "someone else holds a seat" if len(others) == 1 else (
            f"others hold {len(others)} seats"
        )  # fmt: skip
        raise SomeoneJoined(
            f"match {match!r} cannot be abandoned: {joined} (a match is abandoned only "
            "while nobody else joined it)"
        )
    return MatchAbandoned(player=made)


def _open_seat(match: str, players: int, info: Mapping[str, Any], seat: int) -> None:
    """Refuse a seat that is not open to be given, naming why."""
    check_live(match, info, "its seats are not given any more")
    if isinstance(seat, bool) or not 0 <= seat < players:
        raise NoFreeSeat(f"seat {seat} does not exist: seats are 0 to {players - 1}")
    if seat in bot_seats(info):
        raise NoFreeSeat(f"seat {seat} of match {match!r} is taken: a bot plays it")
    if seat not in open_seats(info):
        raise SeatAlreadyTaken(f"seat {seat} of match {match!r} is taken")


def _take(
    match: str, players: int, info: Mapping[str, Any], command: TakeSeat
) -> tuple[list[LobbyEvent], dict[str, Any]]:
    check_live(match, info, "its seats are not taken any more")
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
    elif isinstance(event, SeatGivenToBot):
        left = [s for s in open_seats(info) if s != event.seat]
        out["open"], out["open_seats"] = left, len(left)
        bots = dict(info.get("bots") or {})
        bots[str(event.seat)] = {"bot": event.bot, "seed": event.seed}
        out["bots"] = dict(sorted(bots.items(), key=lambda kv: int(kv[0])))
    elif isinstance(event, RematchLinked):
        out["rematch"] = event.rematch
    elif isinstance(event, SeatReleased):
        free = sorted({*open_seats(info), event.seat})
        out["open"], out["open_seats"] = free, len(free)
        held = holders(info, players)
        held[event.seat] = None
        out["seat_players"] = held
    elif isinstance(event, (MatchAbandoned, MatchExpired)):
        out["finished"] = True
        out["ended"] = "abandoned" if isinstance(event, MatchAbandoned) else "expired"
    return out


class Rebuilt(msgspec.Struct, frozen=True):
    """What a rebuild of the lobby did: how many matches it read, whose entry it rewrote,
    which have no listing recorded in their log (written before it was) and which moved while
    being rebuilt (rebuilt again on the next run)."""

    matches: int
    changed: list[str]
    unrecorded: list[str]
    moved: list[str]


def rebuilt_entry(registry: Registry, records: Sequence[Recorded]) -> dict[str, Any] | None:
    """Return a match's listing entry as its log says it (``None``: its first event records
    none, as a match stored before the lobby was in the log): the entry recorded with the first
    event, each lobby event applied, and ``finished`` once the game's own events end it."""
    if not records or records[0].meta.lobby is None:
        return None
    started = records[0].event
    if not isinstance(started, MatchStarted):
        return None
    info = dict(records[0].meta.lobby)
    for record in records[1:]:
        if isinstance(record.event, LobbyEvent):
            info = apply(info, started.players, record.event)
    ruleset = registry.ruleset_of(started)
    state = engine.initial_state(ruleset, started)
    state = engine.fold(ruleset, state, engine.live([r.event for r in records[1:]], 2))
    if ruleset.rules.outcome(state) is not None:
        info["finished"] = True
    return normal(info)


def normal(info: Mapping[str, Any]) -> dict[str, Any]:
    """Return an entry as the store gives it back (lists, not tuples; string keys)."""
    out: dict[str, Any] = msgspec.msgpack.decode(msgspec.msgpack.encode(dict(info)))
    return out


def rebuild_lobby(
    store: Store, registry: Registry, progress: Callable[[int], None] | None = None
) -> Rebuilt:
    """Rebuild every match's listing entry from its log; rewrite those that differ.

    Each entry is written only if its match is still at the version it was rebuilt from, in
    one transaction with its index (a match that moved meanwhile is left to its own append,
    which keeps the entry right, and listed in ``moved``)."""
    changed: list[str] = []
    unrecorded: list[str] = []
    moved: list[str] = []
    count = 0
    after = ""
    while True:
        page = store.streams(after, limit=200)
        if not page:
            break
        for entry in page:
            count += 1
            records = store.read(entry.stream)
            rebuilt = rebuilt_entry(registry, records)
            if rebuilt is None:
                unrecorded.append(entry.stream)
                continue
            current = store.stream_info(entry.stream)
            if current is not None and normal(current.info) == rebuilt:
                continue
            if store.put_entry(entry.stream, rebuilt, records[-1].seq):
                changed.append(entry.stream)
            else:
                moved.append(entry.stream)
            if progress is not None:
                progress(count)
        after = page[-1].stream
    return Rebuilt(count, changed, unrecorded, moved)
