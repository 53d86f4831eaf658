"""Turn clocks at work: a feature on top of the kernel that fires expired seats' fallbacks.

A timed match's clocks travel in its events' metadata (the kernel stamps them through its
``timing``, :mod:`gamehall.core.clock`). This feature watches them: it keeps the next expiry of
each resting timed match as a timer entry (no actor needed until then), wakes the match when it
comes, and sends the seat's fallback command as an ordinary command with the id
``clock-SEAT-SEQ``, so a repeat is answered with the first answer.
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
from .store.base import MatchQuery, Store

log = structlog.get_logger("gamehall.hall")


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
        self.timers: dict[str, float] = {}  # the next expiry of each resting timed match
        self.resumed = anyio.Event()  # set once a resume has looked at every stored match
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

    def rest(self, actor: Actor) -> None:
        # A timed match at rest is a timer entry, not an actor: its expiry wakes it.
        deadline = clocks.next_deadline(actor.clock) if actor.timed and actor.clock else None
        if deadline is not None:
            self.timers[actor.match] = deadline

    async def fire_expired(self, now: float | None = None) -> int:
        """Send the fallback command of every seat of an active match whose time ran out.

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

    async def _wake_due(self, now: float) -> None:
        """Activate each resting timed match whose next expiry has come (loaded off the loop)."""
        for match, deadline in list(self.timers.items()):
            if match in self.actors:
                del self.timers[match]  # active again: its actor keeps its clock
            elif deadline <= now:
                del self.timers[match]
                try:
                    await self._activate(match)
                except GamehallError as exc:  # deleted or damaged meanwhile
                    log.info("timed match not woken", match=match, error=str(exc))

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
        """Activate every running timed match of the store, so that its clock is kept (a
        restarted hall does this at start); return how many were activated."""
        try:
            return await self._resume()
        finally:
            self.resumed.set()  # looked at every stored match, or stopped: nothing more comes

    async def _resume(self) -> int:
        activated, cursor = 0, None
        while not self.closed:
            query = MatchQuery(finished=False, cursor=cursor, limit=200)
            try:
                if self.store.threaded:  # the listing is read off the event loop
                    page = await anyio.to_thread.run_sync(self.store.find_matches, query)
                else:
                    page = self.store.find_matches(query)
            except GamehallError as exc:  # the store fails now: the matches activate on use
                log.warning("timed matches not resumed", error=str(exc))
                break
            for entry in page.matches:
                if entry.info.get("clock") and entry.stream not in self.actors:
                    try:
                        await self._activate(entry.stream)  # loaded off the event loop
                    except GamehallError as exc:
                        log.warning("timed match not resumed", match=entry.stream, error=str(exc))
                        continue
                    activated += 1
            cursor = page.next
            if cursor is None:
                break
            await anyio.sleep(0)
        return activated

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
        ] + list(self.timers.values())  # fmt: skip
        if not deadlines:
            return self.clock_poll
        return min(max(min(deadlines) - self.now(), 0.01), self.clock_poll)
