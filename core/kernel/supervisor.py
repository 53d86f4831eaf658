"""The supervisor: the running actors of a hall, one per active match."""

from __future__ import annotations

import heapq
import time
from collections.abc import Callable

from .actor import Actor, ActorContext, Loaded


class Supervisor:
    """The running actors of a hall, one per active match: starts, stops and drops them.

    The hall asks it for a match's actor; it stops actors that rest (nothing queued, decided
    or committed) for a while, and drops one whose state cannot be trusted, so that its match
    reloads from the store on the next use. An actor owns no task: starting one only keeps its
    state here, and stopping one lets it finish what it holds.
    """

    def __init__(
        self,
        ctx: ActorContext,
        on_stop: Callable[[str], None] | None = None,
    ) -> None:
        self.ctx = ctx
        ctx.forget = self.forget
        ctx.kept = self.kept
        self._actors: dict[str, Actor] = {}
        self._on_stop = on_stop  # told the match of every actor that stops or is dropped
        # Return the running actor of a match, if any: the dictionary's own look-up, asked
        # three times a command (the seats awaited, the legal commands, the send).
        self.get: Callable[[str], Actor | None] = self._actors.get

    def __len__(self) -> int:
        return len(self._actors)

    def start(self, match: str, loaded: Loaded) -> Actor:
        """Start the actor of a match from what activation loaded."""
        actor = Actor(self.ctx, match, loaded)
        self._actors[match] = actor
        return actor

    def kept(self, actor: Actor) -> bool:
        """Tell whether an actor still owns its match here (it was not dropped)."""
        return self._actors.get(actor.match) is actor

    def _remove(self, actor: Actor) -> None:
        del self._actors[actor.match]
        if self._on_stop is not None:
            self._on_stop(actor.match)

    def forget(self, actor: Actor) -> None:
        """Drop an actor whose state cannot be trusted; its match reloads on the next use."""
        if self._actors.get(actor.match) is actor:
            self._remove(actor)
            actor.stop()

    def stop(self, match: str) -> None:
        """Stop a match's actor, if it runs (a quarantined match)."""
        actor = self._actors.get(match)
        if actor is not None:
            self._remove(actor)
            actor.stop()

    def passivate(self, idle_for: float) -> int:
        """Stop every actor that has rested for ``idle_for`` seconds; return how many.

        A timed match rests too: the store keeps its next expiry, which wakes it.
        """
        now = time.monotonic()
        return self._rest(
            [a for a in self._actors.values() if not a.working and a.idle_since(now) >= idle_for]
        )

    def trim(self, limit: int) -> int:
        """Passivate the least recently used resting actors while more than ``limit`` run, down
        to nine tenths of it (so that it is not done again at the next start); return how many
        stopped. Actors at work stay, even past the limit."""
        if len(self._actors) <= limit:
            return 0
        excess = len(self._actors) - max(limit * 9 // 10, 1)
        resting = [a for a in self._actors.values() if not a.working]
        return self._rest(heapq.nsmallest(excess, resting, key=lambda a: a.touched))

    def _rest(self, actors: list[Actor]) -> int:
        """Stop resting actors; return how many."""
        for actor in actors:
            self._remove(actor)
            actor.stop()
        return len(actors)

    def compact(self) -> None:
        """Make the table of actors afresh: a dict keeps the size of its peak, and the memory
        of thousands of passivated matches' entries would stay with it."""
        self._actors = dict(self._actors)

    def all(self) -> list[Actor]:
        """Return the running actors."""
        return list(self._actors.values())

    def __contains__(self, match: object) -> bool:
        return match in self._actors

    async def stop_all(self) -> None:
        """Stop every actor and wait until each has decided and committed what it held."""
        actors = list(self._actors.values())
        for actor in actors:
            actor.stop()
        for actor in actors:
            await actor.quiet()
            if self._actors.get(actor.match) is actor:
                self._remove(actor)
