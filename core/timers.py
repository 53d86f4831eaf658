"""Turn clocks at work: a feature on top of the kernel that fires expired seats' fallbacks.

A timed match's clocks travel in its events' metadata (the kernel stamps them through its
``timing``, :mod:`gamehall.core.clock`), and the store keeps each running match's next expiry
beside its listing entry, written with its events (:meth:`Store.due_matches`). This feature
watches them: an active match's clock in its actor, a resting one's in the store (no actor
and nothing in memory until then). It wakes a match whose time has come and sends the seat's
fallback command as an ordinary command with the id ``clock-SEAT-SEQ``, so a repeat is
answered with the first answer.
"""

from __future__ import annotations

from collections.abc import Callable, Coroutine
from typing import Any

import anyio
import structlog

from . import clock as clocks
from . import seating
from .bots.spec import make_bot
from .errors import GamehallError, IllegalCommand
from .events import Command
from .kernel.actor import Actor
from .kernel.supervisor import Supervisor
from .store.base import Due, Store

log = structlog.get_logger("gamehall.hall")
WAKE_PAGE = 200  # due matches read from the store at a time
WAKE_AT_ONCE = 1_000  # resting matches woken in one look at the clocks (the rest at the next)


class TurnClocks:
    """Fire the fallback of every seat whose time ran out, in the matches of one hall."""

    def __init__(
        self,
        *,
        actors: Supervisor,
        store: Store,
        now: Callable[[], float],
        clock_guard: Callable[[str], bool] | None,
        poll: float,
        activate: Callable[[str], Coroutine[Any, Any, Actor]],
        send: Callable[[str, int, Command, str], Coroutine[Any, Any, Any]],
        closed: Callable[[], bool],
    ) -> None:
        self.actors = actors
        self.store = store
        self.now = now
        self.clock_guard = clock_guard
        self.clock_poll = poll
        self._activate = activate
        self._send = send
        self._closed = closed
        self.upcoming: float | None = None  # the next stored expiry within a poll, if any
        self.resumed = anyio.Event()  # set once the start-up look at the store is done
        self._scope: anyio.CancelScope | None = None
        self._stopped = False

    @property
    def closed(self) -> bool:
        """Tell whether the hall has stopped taking work."""
        return self._closed()

    def stop(self) -> None:
        """Stop watching the clocks."""
        self._stopped = True
        if self._scope is not None:
            self._scope.cancel()

    async def fire_expired(self, now: float | None = None) -> int:
        """Send the fallback command of every seat whose time ran out: a resting match whose
        stored expiry has come is woken first (:meth:`Store.due_matches`).

        The one place an expiry is fired: by the hall holding the match's actor, and only
        where ``clock_guard`` allows it (a lease). Each fallback is an ordinary command with
        the id ``clock-SEAT-SEQ``, so a repeat is answered with the first answer. Return how
        many commands were sent.
        """
        now = self.now() if now is None else now
        await self._wake_due(now)
        fired = 0
        for actor in self.actors.all():
            if actor.clock is None or not actor.clock.running or seating.ending(actor.info):
                continue  # untimed, stopped, or abandoned or expired while waiting for players
            if self.clock_guard is not None and not self.clock_guard(actor.match):
                continue
            for seat in clocks.expired(actor.clock, now):
                if await self._time_out(actor.match, seat, actor.version):
                    fired += 1
                    break  # the match moved: look at its new clock on the next round
        return fired

    async def _wake_due(self, now: float) -> int:
        """Activate each resting match whose next expiry the store says has come (read and
        loaded off the event loop); note the next one due before the next look. Return how
        many were woken."""
        woken, after, upcoming = 0, None, None
        while woken < WAKE_AT_ONCE and not self.closed:
            page = await self._due(now + self.clock_poll, after)
            for due in page:
                if due.deadline > now:
                    upcoming = due.deadline if upcoming is None else min(upcoming, due.deadline)
                    continue
                if due.stream in self.actors:
                    continue  # active: its actor keeps its clock
                if self.clock_guard is not None and not self.clock_guard(due.stream):
                    continue  # another node holds the match: it fires the clock
                try:
                    await self._activate(due.stream)
                except GamehallError as exc:  # deleted or damaged meanwhile
                    log.info("timed match not woken", match=due.stream, error=str(exc))
                    if self.store.shared and due.stream not in self.actors:
                        self.store.release_lease(due.stream)
                    continue
                woken += 1
            if len(page) < WAKE_PAGE:
                break
            after = page[-1]
        else:
            if woken >= WAKE_AT_ONCE:
                upcoming = now  # more are due: look again at once
        self.upcoming = upcoming
        return woken

    async def _due(self, before: float, after: Due | None) -> list[Due]:
        if self.store.threaded:  # the index is read off the event loop
            return await anyio.to_thread.run_sync(self.store.due_matches, before, after, WAKE_PAGE)
        return self.store.due_matches(before, after, WAKE_PAGE)

    async def _time_out(self, match: str, seat: int, version: int) -> bool:
        actor = await self._activate(match)
        if actor.version != version or actor.busy or actor.committing or actor.queued:
            return False  # a command is on its way: its clock decides
        rules, state = actor.ruleset.rules, actor.state
        legal = list(rules.legal(state, seat))
        if not legal:
            return False
        command = rules.timeout(state, seat)
        if command is None or command not in legal:
            view = rules.view(state, seat)
            bot = make_bot("random", actor.ruleset, f"clock:{match}:{seat}:{version}")
            command = bot.choose(seat, legal, lambda: view)
        try:
            await self._send(match, seat, command, f"clock-{seat}-{version}")
        except IllegalCommand as exc:
            log.warning("clock fallback refused", match=match, seat=seat, error=str(exc))
            return False
        return True

    async def resume(self) -> int:
        """Wake every resting timed match whose time ran out while no hall watched it (a
        restarted hall does this at start); return how many were woken. The others need
        nothing until their expiry: the store keeps it."""
        try:
            return await self._wake_due(self.now())
        except GamehallError as exc:  # the store fails now: the next look tries again
            log.warning("timed matches not resumed", error=str(exc))
            return 0
        finally:
            self.resumed.set()  # looked at the store, or stopped: nothing more comes

    async def watch(self) -> None:
        # Real time between looks; what is due is decided by the injected clock alone.
        if self._stopped:
            return
        self._scope = anyio.CancelScope()
        with self._scope:
            while not self.closed:
                await anyio.sleep(self._wait())
                try:
                    await self.fire_expired()
                except GamehallError as exc:
                    log.warning("clock fallback failed", error=str(exc))

    def _wait(self) -> float:
        deadlines = [
            d for a in self.actors.all()
            if a.clock is not None and (d := clocks.next_deadline(a.clock)) is not None
        ] + ([self.upcoming] if self.upcoming is not None else [])  # fmt: skip
        if not deadlines:
            return self.clock_poll
        return min(max(min(deadlines) - self.now(), 0.01), self.clock_poll)
