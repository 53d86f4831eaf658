"""The features of a hall, on top of its kernel: built together, started and stopped together.

Matches coming in (:mod:`~gamehall.core.matches`), the lobby, take-backs
(:mod:`~gamehall.core.undo`), the bot driver, turn clocks (:mod:`~gamehall.core.timers`), the
expiry sweep (:mod:`~gamehall.core.lifecycle`) and, on a shared store, the follower of other
nodes (:mod:`~gamehall.core.nodes`). Each is given the hall it serves, typed by the few methods
it asks of it (its ``Host`` protocol), and subscribes to the kernel what it must hear of: the
bot driver every committed batch and every activation, take-backs and leases every actor that
stops. The Hall builds one :class:`Features` and hands each call to the feature that does it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

from anyio.abc import TaskGroup

from .bots.driver import BotDriver, BotHost
from .kernel.system import Kernel
from .lifecycle import Lifecycle, LifecycleHost
from .lobby import Lobby, LobbyHost
from .matches import Matches, MatchesHost
from .nodes import Follower, NodeHost
from .timers import TurnClocks
from .undo import UndoHost, Undos


class FeatureHost(LobbyHost, UndoHost, MatchesHost, BotHost, NodeHost, LifecycleHost, Protocol):
    """What the features together ask of the hall they serve (the Hall provides it)."""


class Features:
    """The features of one hall, each reachable by name (the Hall also offers each as its own
    attribute: ``hall.lobby``, ``hall.bots``, ``hall.undos``...)."""

    def __init__(
        self,
        hall: FeatureHost,
        kernel: Kernel,
        *,
        clock_guard: Callable[[str], bool] | None,
        clock_poll: float,
        expire_after: float | None,
        sweep_every: float,
    ) -> None:
        """``clock_guard`` says whether this hall may fire a match's expired clock; without
        one, on a shared store, the node holding the match's lease does (as for its bots)."""
        store = kernel.store
        if clock_guard is None and store.shared:
            clock_guard = store.try_lease
        self.store = store
        self.kernel = kernel
        self.turn_clocks = TurnClocks(
            actors=kernel.actors,
            store=store,
            now=hall.now,
            clock_guard=clock_guard,
            poll=clock_poll,
            activate=hall.activate,
            send=hall.send,
            closed=kernel.closed,
        )
        self.bots = BotDriver(hall)
        self.follower = Follower(hall) if store.shared else None
        self.lobby = Lobby(hall)
        self.undos = Undos(hall)
        self.incoming = Matches(hall)
        self.lifecycle = Lifecycle(hall, expire_after, sweep_every)
        kernel.context.subscribers.append(self.bots.committed)
        kernel.activated.append(self.bots.activated)
        kernel.stopped.append(self.stopped)

    async def start(self, tg: TaskGroup) -> None:
        """Start the features' background work in the hall's task group: the follower (once
        it knows the store's head), the clocks' watch and the look for clocks that ran out
        while no hall watched them, the expiry sweep."""
        if self.follower is not None:
            await tg.start(self.follower.run)
        tg.start_soon(self.turn_clocks.watch)
        tg.start_soon(self.turn_clocks.resume)
        tg.start_soon(self.lifecycle.run)

    def stop(self) -> None:
        """Stop every feature's background work (the hall is closing)."""
        self.bots.close()
        if self.follower is not None:
            self.follower.stop()
        self.turn_clocks.stop()
        self.lifecycle.stop()

    def stopped(self, match: str) -> None:
        """Hear that a match's actor stopped: what belongs to the match and no person goes
        with it on this node (its lease, a pending take-back, what the store caches)."""
        if self.kernel.actors.get(match) is not None:
            return  # a new actor runs the match already
        if self.store.shared:
            self.store.release_lease(match)
        self.undos.pending.pop(match, None)
        self.store.forget(match)
