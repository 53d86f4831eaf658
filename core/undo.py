"""Undo by consent: a seat takes back its last command when the seats concerned agree.

The match stays the same match (id, seat tokens, streams, lobby entry). Nothing is removed
from the log: the hall records a ``gamehall.TakeBack`` batch whose ``TakenBack`` event voids
the taken-back batches, and every fold skips them (:func:`gamehall.core.engine.live`), so a
replay, ``verify`` and a restarted actor all reach the state before that command.

A take-back never reaches past chance or hidden information: not when any event of the
command or after it reveals (the game's ``Rules.reveals``), is seen otherwise by one seat than
by another, or shows a seat something :meth:`Rules.hidden` hid from it. The seats that must
agree are every other seat that acted since or was shown an event since (bots agree at once);
batches of other seats after the command (free actions) go back with it, so their seats are
among those asked. With the match option ``undo="free"`` a take-back that no other seat's
command follows and that nothing revealed happens at once; ``undo="off"`` allows none.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, Protocol

import msgspec

from . import clock as clocks
from . import engine, seating
from .errors import IllegalCommand, InvalidOptions
from .events import LobbyEvent, MatchStarted, Meta, Recorded, TakeBack, TakenBack
from .kernel.system import check_seat
from .registry import Ruleset

if TYPE_CHECKING:
    from .kernel.actor import Actor
    from .kernel.system import Kernel
    from .views import MatchInfo

POLICIES = ("consent", "free", "off")


class UndoRefused(IllegalCommand):
    """A take-back that cannot happen (nothing to take back, something was revealed, …)."""

    code = "undo_refused"


class UndoStatus(msgspec.Struct, frozen=True):
    """A take-back asked for: by whom, from which seq, who must agree and who has.

    ``state`` is ``pending`` (waiting for seats), ``done`` (recorded) or ``declined``.
    """

    match: str
    seat: int
    first: int
    seq: int
    needed: list[int]
    agreed: list[int]
    state: str


def check_policy(policy: str) -> str:
    """Return an undo policy, or refuse one that does not exist."""
    if policy not in POLICIES:
        raise InvalidOptions(f"undo must be one of {', '.join(POLICIES)}, not {policy!r}")
    return policy


class Plan(msgspec.Struct, frozen=True):
    """What a take-back would void and who must agree."""

    first: int
    last: int
    needed: list[int]
    others_acted: bool


def plan(ruleset: Ruleset, records: Sequence[Recorded], seat: int, players: int) -> Plan:
    """Return what taking back ``seat``'s last command would void, or refuse why not."""
    batches = _live_batches(records)
    mine = [b for b in batches if b[0].meta.seat == seat and b[0].meta.command is not None]
    if not mine:
        raise UndoRefused("you have no command to take back")
    target = mine[-1]
    first, last = target[0].seq, records[-1].seq
    voided = [r for b in batches if b[0].seq >= first for r in b]
    reason = revealed(ruleset, records, voided, players)
    if reason is not None:
        raise UndoRefused(f"the move cannot be taken back: {reason}")
    acted = {b[0].meta.seat for b in batches if b[0].seq > first and b[0].meta.seat is not None}
    shown = {
        s
        for s in range(players)
        for r in voided
        if s != seat and engine.redact_record(ruleset, r, s) is not None
    }
    needed = sorted((acted | shown) - {seat})
    return Plan(first, last, needed, bool(acted - {seat}))


def revealed(
    ruleset: Ruleset, records: Sequence[Recorded], voided: Sequence[Recorded], players: int
) -> str | None:
    """Return what the voided records revealed (in words), or ``None`` when nothing did."""
    rules = ruleset.rules
    if not voided:
        return None
    state = _state_before(ruleset, records, voided[0].seq)
    seats: list[int | None] = [*range(players), None]
    for record in voided:
        event = record.event
        if rules.reveals(event):
            return f"{_name(event)} revealed chance or hidden information"
        shown = [rules.redact(event, s) for s in seats]
        if any(v != shown[0] for v in shown):
            return f"{_name(event)} showed some seats what others do not see"
        before = [set(rules.hidden(state, s)) for s in seats]
        state = rules.evolve(state, event)
        after = [set(rules.hidden(state, s)) for s in seats]
        if any(b - a for b, a in zip(before, after, strict=True)):
            return f"{_name(event)} showed something that was hidden"
    return None


def take_back_event(plan_: Plan, seat: int, agreed: Sequence[int]) -> tuple[TakenBack, Meta]:
    """Return the event and the metadata that record a take-back."""
    command = TakeBack(first=plan_.first, agreed=tuple(sorted(agreed)))
    event = TakenBack(plan_.first, plan_.last, seat, tuple(sorted(agreed)))
    return event, Meta(f"undo-{seat}-{plan_.last}", seat, command)


def state_after(ruleset: Ruleset, records: Sequence[Recorded], extra: TakenBack) -> Any:
    """Return the state after a log and one more take-back."""
    started = records[0].event
    assert isinstance(started, MatchStarted)
    events = [r.event for r in records[1:]] + [extra]
    return engine.fold(ruleset, engine.initial_state(ruleset, started), engine.live(events, 2))


def _state_before(ruleset: Ruleset, records: Sequence[Recorded], seq: int) -> Any:
    started = records[0].event
    assert isinstance(started, MatchStarted)
    events = [r.event for r in records[1 : seq - 1]]
    return engine.fold(ruleset, engine.initial_state(ruleset, started), engine.live(events, 2))


def _live_batches(records: Sequence[Recorded]) -> list[list[Recorded]]:
    """Return the batches of commands still in force (none voided, no take-back itself)."""
    void: set[int] = set()
    for record in records:
        if type(record.event) is TakenBack:
            void.update(range(record.event.first, record.event.last + 1))
            void.add(record.seq)
    out: list[list[Recorded]] = []
    for record in records[1:]:
        if record.meta.command is not None:
            out.append([])
        if out and record.seq not in void and not isinstance(record.event, LobbyEvent):
            out[-1].append(record)
    # The lobby's batches (who sits where) are no moves: left empty, never taken back.
    return [b for b in out if b and b[0].meta.command is not None]


def _name(event: Any) -> str:
    return type(event).__name__


class MatchInfos(Protocol):
    """What take-backs read of a stored match (the hall's matches coming in provide it)."""

    async def info_off_loop(self, match: str) -> MatchInfo:
        """Return a match as listings show it, read in a worker thread."""
        ...


class UndoHost(Protocol):
    """What take-backs ask of the hall they serve (the Hall provides it)."""

    kernel: Kernel
    incoming: MatchInfos
    now: Callable[[], float]


class Undos:
    """The take-backs asked for in a hall's matches, one at a time per match."""

    def __init__(self, hall: UndoHost) -> None:
        self.hall = hall
        self.pending: dict[str, UndoStatus] = {}

    def status(self, match: str) -> UndoStatus | None:
        """Return the take-back waiting in a match, if it is still current."""
        status = self.pending.get(match)
        if status is not None and status.seq != self.hall.kernel.actor(match).version:
            del self.pending[match]  # the match moved on: the request lapsed
            return None
        return status

    async def request(self, match: str, seat: int) -> UndoStatus:
        """Ask to take back ``seat``'s last command; record it now if nobody need agree."""
        kernel, incoming = self.hall.kernel, self.hall.incoming
        actor = await self._seated(match, seat)  # what follows reads the actor, or the store
        info = actor.info
        policy = str(info.get("undo") or "consent")
        if policy == "off":
            raise UndoRefused("this match allows no take-back")
        if seating.ending(info):  # abandoned or expired: over
            seating.check_live(match, info, "nothing in it is taken back")
        records = await kernel.read_off_loop(match)
        described = await incoming.info_off_loop(match)
        found = plan(actor.ruleset, records, seat, described.players)
        bots = set(described.bots)
        agreed = [s for s in found.needed if s in bots]
        free = policy == "free" and not found.others_acted
        status = UndoStatus(match, seat, found.first, records[-1].seq, found.needed, agreed,
                            "pending")  # fmt: skip
        if free or set(agreed) >= set(found.needed):
            return await self._record(status, found)
        self.pending[match] = status
        return status

    async def answer(self, match: str, seat: int, agree: bool) -> UndoStatus:
        """Agree to the pending take-back of a match, or decline it."""
        actor = await self._seated(match, seat)
        status = self.status(match)
        if status is None:
            raise UndoRefused("no take-back is waiting for an answer in this match")
        if seat not in status.needed:
            raise UndoRefused(f"seat {seat + 1} is not asked about this take-back")
        if not agree:
            del self.pending[match]
            return msgspec.structs.replace(status, state="declined")
        agreed = sorted({*status.agreed, seat})
        status = msgspec.structs.replace(status, agreed=agreed)
        if set(agreed) < set(status.needed):
            self.pending[match] = status
            return status
        records = await self.hall.kernel.read_off_loop(match)
        described = await self.hall.incoming.info_off_loop(match)
        found = plan(actor.ruleset, records, status.seat, described.players)
        if found.first != status.first:
            del self.pending[match]
            raise UndoRefused("the match moved on since the take-back was asked")
        return await self._record(status, found)

    async def _seated(self, match: str, seat: int) -> Actor:
        """Return a match's actor, once the hall takes work and ``seat`` is one of its seats."""
        self.hall.kernel.check_open()
        actor = await self.hall.kernel.activate(match)
        check_seat(seat, actor.players)
        return actor

    async def _record(self, status: UndoStatus, found: Plan) -> UndoStatus:
        self.pending.pop(status.match, None)
        event, meta = take_back_event(found, status.seat, status.agreed)
        await self.record(status.match, found.last, event, meta)
        return msgspec.structs.replace(status, state="done")

    async def record(self, match: str, last: int, event: Any, meta: Meta) -> None:
        """Record a take-back the seats agreed to, voiding the events up to ``last``; the
        turn clocks go back to where they stood before the taken-back command."""
        actor = await self.hall.kernel.activate(match)
        records = await self.hall.kernel.read_off_loop(match)
        if records[-1].seq != last:
            raise UndoRefused("the match moved on since the take-back was asked")
        state = state_after(actor.ruleset, records, event)
        if actor.clock is not None:
            before = clocks.last_clock([r for r in records if r.seq < event.first])
            if before is not None:
                running = actor.ruleset.rules.awaiting(state)
                restored = msgspec.structs.replace(
                    before, at=self.hall.now(), running=tuple(sorted(running))
                )
                meta = msgspec.structs.replace(meta, clock=restored)
        await actor.record(last, [event], [meta], state)
