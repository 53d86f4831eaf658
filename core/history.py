"""A match's events as one seat may see them: stored, told in words, and live.

Every record leaves redacted for the asking seat (:func:`gamehall.core.engine.redact_record`);
the live streams follow the stored records without a gap and none twice
(:meth:`gamehall.core.kernel.system.Kernel.follow`).
"""

from __future__ import annotations

from collections.abc import AsyncGenerator

from . import engine, limits
from .events import Recorded
from .kernel.system import Kernel
from .narration import Narrator
from .words import Narrated


def history(
    kernel: Kernel, match: str, seat: int | None, after: int = 0, limit: int | None = None
) -> list[Recorded]:
    """Return a match's events after ``after`` as ``seat`` may see them (``limit`` bounds the
    stored events read)."""
    limits.check_seq("after", after)
    limits.check_limit("limit", limit)
    ruleset = kernel.actor(match).ruleset
    return engine.redact_records(ruleset, kernel.read(match, after, limit=limit), seat)


def narrated(
    kernel: Kernel, match: str, seat: int | None, after: int = 0, limit: int | None = None
) -> list[Narrated]:
    """Return a seat's events after ``after`` with what each tells it, in words (``limit``
    bounds the stored events read after ``after``, as for :func:`history`)."""
    limits.check_seq("after", after)
    limits.check_limit("limit", limit)
    ruleset = kernel.actor(match).ruleset
    upto = None if limit is None else min(after + limit, limits.INT64_MAX)
    return Narrator(ruleset, seat).tell_all(kernel.read(match, 0, upto), after)


async def watch(
    kernel: Kernel, match: str, seat: int | None, after: int = 0
) -> AsyncGenerator[Recorded, None]:
    """Yield a seat's redacted events from ``after`` on, then live ones, until the hall closes."""
    limits.check_seq("after", after)
    ruleset = (await kernel.activate(match)).ruleset
    async for record in kernel.follow(match, after):
        shown = engine.redact_record(ruleset, record, seat)
        if shown is not None:
            yield shown


async def watch_narrated(
    kernel: Kernel, match: str, seat: int | None, after: int = 0
) -> AsyncGenerator[Narrated, None]:
    """Like :func:`watch`, with what each event tells the seat, in words."""
    narrator = Narrator((await kernel.activate(match)).ruleset, seat)
    async for record in kernel.follow(match, 0):
        told = narrator.tell(record)
        if told is not None and record.seq > after:
            yield told
