"""Thinking slots shared in turn by the matches whose bots think.

A server has a few thinking slots (one per core of a small machine). A bot that searches
thinks in slices (:meth:`~.mcts.SearchBot.thinking`): after each slice it gives its slot back
and waits behind every match that asked for one meanwhile, so two matches whose bots think
for minutes never keep a third match's bot from moving: it waits for a slice, not for a
decision. A bot that cannot think in slices (the random bot, a plugin's own) takes a slot for
its whole decision.
"""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Callable, Generator, Sequence
from typing import Any

import anyio

from ..events import Command
from .base import Bot

SLICE = 0.05  # seconds of thinking before a bot gives its slot to the next match in line


class FairThinkers:
    """``slots`` thinking slots, handed out first come, first served, one slice at a time."""

    def __init__(self, slots: int, slice_seconds: float = SLICE) -> None:
        self.slots = slots
        self.slice = slice_seconds
        self.busy = 0
        self.slices = 0  # slices given so far
        self.thinking: dict[str, int] = {}  # match: its slices in the decision it is making
        self._queue: deque[anyio.Event] = deque()

    @property
    def waiting(self) -> int:
        """Return how many decisions wait for a slot."""
        return len(self._queue)

    async def think(
        self, match: str, bot: Bot, seat: int, legal: Sequence[Command], view: Callable[[], Any]
    ) -> Command:
        """Return the bot's command, thought in slices that take turns with other matches."""
        steps = getattr(bot, "thinking", None)
        self.thinking[match] = 0
        try:
            if steps is None:
                async with self._slot(match):
                    return await anyio.to_thread.run_sync(
                        bot.choose, seat, legal, view, abandon_on_cancel=True
                    )
            thought: Generator[None, None, Command] = steps(seat, legal, view)
            while True:
                async with self._slot(match):
                    done, command = await anyio.to_thread.run_sync(
                        _advance, thought, self.slice, abandon_on_cancel=True
                    )
                if done:
                    assert command is not None
                    return command
        finally:
            self.thinking.pop(match, None)

    def _slot(self, match: str) -> _Slot:
        return _Slot(self, match)

    async def _acquire(self) -> None:
        if self.busy < self.slots and not self._queue:
            self.busy += 1
            return
        turn = anyio.Event()
        self._queue.append(turn)
        try:
            await turn.wait()
        except anyio.get_cancelled_exc_class():  # the only thing a wait raises
            if turn.is_set():  # the slot came as the wait was cancelled: hand it on
                self._release()
            else:
                self._queue.remove(turn)
            raise

    def _release(self) -> None:
        if self._queue:
            self._queue.popleft().set()  # the slot goes straight to the first in line
        else:
            self.busy -= 1


class _Slot:
    """One slice's hold on a thinking slot."""

    __slots__ = ("match", "owner")

    def __init__(self, owner: FairThinkers, match: str) -> None:
        self.owner = owner
        self.match = match

    async def __aenter__(self) -> None:
        await self.owner._acquire()
        self.owner.slices += 1
        if self.match in self.owner.thinking:
            self.owner.thinking[self.match] += 1

    async def __aexit__(self, *exc: object) -> None:
        self.owner._release()


def _advance(
    thought: Generator[None, None, Command], seconds: float
) -> tuple[bool, Command | None]:
    """Run a bot's thinking for about ``seconds`` (in a worker thread); return whether it is
    done, and its command when it is."""
    end = time.perf_counter() + seconds
    try:
        while True:
            next(thought)
            if time.perf_counter() >= end:
                return False, None
    except StopIteration as stop:
        return True, stop.value
