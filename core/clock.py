"""Turn clocks: per-move or per-match time (with a Fischer increment), kept in the log.

A timed match records a :class:`~gamehall.core.events.Clock` on the last event of every batch:
when the batch was decided (by the hall's injected clock) and each seat's time left. Each one
follows from the previous one, the batch's time, the seat that sent it and the seats awaited
afterwards (:func:`advance`), so replaying the log gives the same clocks (:func:`recompute`),
and an actor rebuilt from the store reads its clock from the last record.

A seat whose time runs out does not stall the match: the holder of the match's actor sends a
fallback command for it (``Hall.fire_expired``), with the id ``clock-SEAT-SEQ``, as an ordinary
recorded command: the game's pass (``Rules.timeout``) where it has one, else a bot's move from
the seat's own view. A seat out of time keeps playing that way (what BGA calls a zombie), with
the increment, if any, as its time for each move.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Mapping, Sequence
from typing import Any, Literal

import msgspec

from .errors import InvalidOptions
from .events import Clock, Recorded

MAX_SECONDS = 30 * 24 * 3600.0  # a correspondence match: a month per move at most
_WRITTEN = re.compile(r"^(move|match):(\d+(?:\.\d+)?)(?:\+(\d+(?:\.\d+)?))?$")


class ClockSpec(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """A match's time control: ``move`` gives ``seconds`` to each move; ``match`` gives
    ``seconds`` for the whole match and ``increment`` more after each move (Fischer)."""

    seconds: float
    mode: Literal["move", "match"] = "match"
    increment: float = 0.0

    def __str__(self) -> str:
        extra = f"+{self.increment:g}" if self.increment else ""
        return f"{self.mode}:{self.seconds:g}{extra}"


def parse_clock(given: ClockSpec | Mapping[str, Any] | str | None) -> ClockSpec | None:
    """Return a time control from ``move:30``, ``match:300+5``, a mapping or a spec; refuse a bad one."""
    if given is None or isinstance(given, ClockSpec):
        spec = given
    elif isinstance(given, str):
        found = _WRITTEN.match(given.strip())
        if found is None:
            raise InvalidOptions(
                f"clock {given[:40]!r} is not 'move:SECONDS' or 'match:SECONDS[+INCREMENT]'"
            )
        mode, seconds, increment = found.groups()
        spec = ClockSpec(float(seconds), mode, float(increment or 0))  # type: ignore[arg-type]
    else:
        try:
            spec = msgspec.convert(dict(given), ClockSpec)
        except (msgspec.ValidationError, TypeError, ValueError) as exc:
            raise InvalidOptions(f"clock: {exc}") from None
    if spec is None:
        return None
    if not 0 < spec.seconds <= MAX_SECONDS:
        raise InvalidOptions(f"clock seconds must be above 0 and at most {MAX_SECONDS:g}")
    if not 0 <= spec.increment <= MAX_SECONDS:
        raise InvalidOptions(f"clock increment must be 0 to {MAX_SECONDS:g}")
    if spec.mode == "move" and spec.increment:
        raise InvalidOptions("an increment goes with 'match' time, not 'move' time")
    return spec


def start(spec: ClockSpec, players: int, at: float, running: Collection[int]) -> Clock:
    """Return the clocks of a new match, started at ``at``."""
    return Clock(
        spec.mode,
        spec.seconds,
        spec.increment,
        at,
        (spec.seconds,) * players,
        tuple(sorted(running)),
    )


def advance(clock: Clock, at: float, seat: int | None, running: Collection[int]) -> Clock:
    """Return the clocks after ``seat`` sent a command at ``at``, leaving ``running`` awaited.

    Every seat that was running is charged the time since the last record; the seat that
    acted while awaited gets the increment (match time) or a fresh move's time (move time,
    if it is still awaited); a seat that starts to be awaited gets a fresh move's time.
    """
    elapsed = max(0.0, at - clock.at)
    remaining = list(clock.remaining)
    for s in clock.running:
        remaining[s] = max(0.0, remaining[s] - elapsed)
    if clock.mode == "match":
        if seat is not None and seat in clock.running:
            remaining[seat] += clock.increment
    else:
        for s in running:
            if s not in clock.running or s == seat:
                remaining[s] = clock.seconds
    shown = tuple(round(r, 6) for r in remaining)
    return Clock(clock.mode, clock.seconds, clock.increment, at, shown, tuple(sorted(running)))


def left(clock: Clock, now: float) -> list[float]:
    """Return each seat's time left at ``now`` (the running seats' clocks keep going)."""
    elapsed = max(0.0, now - clock.at)
    return [
        max(0.0, r - elapsed) if seat in clock.running else r
        for seat, r in enumerate(clock.remaining)
    ]


def expired(clock: Clock, now: float) -> list[int]:
    """Return the running seats whose time has run out at ``now``."""
    return [seat for seat in clock.running if clock.at + clock.remaining[seat] <= now]


def next_deadline(clock: Clock) -> float | None:
    """Return when the first running seat runs out of time, if any seat is running."""
    return clock.next_deadline()


class ClockView(msgspec.Struct, frozen=True):
    """A match's clocks as every seat and spectator sees them (public)."""

    mode: str
    seconds: float
    increment: float
    at: float
    remaining: list[float]
    running: list[int]
    deadline: float | None
    now: float


def view(clock: Clock | None, now: float) -> ClockView | None:
    """Return the clocks as a view shows them at ``now``."""
    if clock is None:
        return None
    return ClockView(
        clock.mode, clock.seconds, clock.increment, clock.at, left(clock, now),
        list(clock.running), next_deadline(clock), now,
    )  # fmt: skip


def last_clock(records: Sequence[Recorded]) -> Clock | None:
    """Return the clock recorded last among some records."""
    for record in reversed(records):
        if record.meta.clock is not None:
            return record.meta.clock
    return None


def recompute(awaited: Sequence[Collection[int]], records: Sequence[Recorded]) -> list[Clock]:
    """Return the clocks a log implies, from its first record's clock and each batch's time.

    ``awaited`` holds the seats awaited after each batch (as a fold gives them), in order;
    the result has one clock per batch and equals the recorded ones when the log is sound.
    """
    out: list[Clock] = []
    current: Clock | None = None
    index = 0
    for record in records:
        recorded = record.meta.clock
        if recorded is None:
            continue
        if current is None:
            current = recorded
        else:
            current = advance(current, recorded.at, _seat_of(records, record), awaited[index])
        out.append(current)
        index += 1
    return out


def _seat_of(records: Sequence[Recorded], last: Recorded) -> int | None:
    # The batch's seat is on every event of it; the last one is enough.
    return last.meta.seat
