"""The Hall: the API for embedding gamehall in a service, a facade over kernel and features.

``async with Hall(store) as hall`` opens the kernel (:class:`.kernel.system.Kernel`: actors, the
journal's group commit, one task group) and starts the features on top of it
(:class:`.features.Features`); each call goes to the one that does it. Matches activate on first
use and passivate when idle; a command is acknowledged once its events are durable; everything
that leaves the hall (views, histories, live streams) is redacted for the asking seat.
"""

from __future__ import annotations

import time
from collections.abc import AsyncGenerator, Callable, Iterable, Iterator, Mapping, Sequence
from typing import Any, Self, Unpack

from . import clock as clocks
from . import engine, history, lifecycle, seating, views
from .bots.driver import seat_bots
from .bots.spec import BotSpec
from .clock import ClockView
from .errors import CorruptRecord, MatchQuarantined
from .events import Command, LobbyCommand, Recorded
from .features import Features
from .kernel.activation import snapshot_key
from .kernel.actor import Ack, Actor, Loaded, SendCommand
from .kernel.journal import new_pending
from .kernel.system import Kernel, check_seat
from .matches import CreateOptions, ForkOptions, ImportOptions, RematchOptions
from .matches import new_match_id as new_match_id
from .registry import Registry, Ruleset, default_registry
from .rules import Decision
from .store.base import Store
from .undo import UndoStatus
from .views import MatchInfo as MatchInfo
from .views import SeatView as SeatView
from .views import Turn as Turn
from .words import Narrated

MAX_ACTIVE = 10_000  # running actors (about 10 KB each) before the least recently used rest


class Hall:
    """Run matches as actors over a store."""

    def __init__(
        self,
        store: Store,
        registry: Registry | None = None,
        *,
        snapshot_every: int = 200,
        idle_seconds: float = 300.0,
        mailbox_size: int = 1024,
        watch_buffer: int = 256,
        clock: Callable[[], float] = time.time,
        clock_guard: Callable[[str], bool] | None = None,
        clock_poll: float = 1.0,
        expire_after: float | None = lifecycle.EXPIRE_AFTER,
        retain_for: float | None = lifecycle.RETAIN_FOR,
        sweep_every: float = lifecycle.SWEEP_EVERY,
        max_active: int = MAX_ACTIVE,
    ) -> None:
        """``clock`` is what turn clocks read (tests give a fake one); ``clock_guard`` says
        whether this hall may fire a match's expired clock (by default the hall holding its
        actor does; on a shared store, the node holding the match's lease); ``clock_poll`` is
        the longest real time between two looks at the clocks. A match waiting for players
        with no event for ``expire_after`` seconds expires (looked for every ``sweep_every``
        real seconds); one that is over leaves the listings ``retain_for`` seconds after its
        last event (``None``: never). Past ``max_active`` running actors, the least recently
        used resting ones are passivated (a timed one's next expiry is in the store)."""
        self.store, self.now = store, clock
        self.registry = registry or default_registry()
        self.snapshot_every, self.idle_seconds = snapshot_every, idle_seconds
        self.retain_for = lifecycle.check_period("retain_for", retain_for)
        self.kernel = k = Kernel(
            store,
            self.registry,
            now=clock,
            projection=seating,
            timing=clocks,
            snapshot_every=snapshot_every,
            mailbox_size=mailbox_size,
            watch_buffer=watch_buffer,
            max_active=max_active,
        )
        self.journal, self.loader, self.hub, self.metrics = k.journal, k.loader, k.hub, k.metrics
        self.actors, self.quarantined, self.spawn = k.actors, k.quarantined, k.spawn
        self.features = f = Features(
            self,
            k,
            clock_guard=clock_guard,
            clock_poll=clock_poll,
            expire_after=expire_after,
            sweep_every=sweep_every,
        )
        self.lobby, self.undos, self.bots, self.incoming = f.lobby, f.undos, f.bots, f.incoming
        self.turn_clocks, self.lifecycle, self.follower = f.turn_clocks, f.lifecycle, f.follower

    # -- the hall's life: the kernel's task group, the features' background work ---------------

    async def __aenter__(self) -> Self:
        await self.features.start(await self.kernel.open(self.idle_seconds))
        return self

    async def __aexit__(self, *exc_info: Any) -> bool | None:
        self.features.stop()
        return await self.kernel.exit(*exc_info)  # the caller's own error leaves unwrapped

    async def aclose(self) -> None:
        """Let every actor finish its mailbox, then stop the journal and the live streams."""
        self.features.stop()
        await self.kernel.close()

    @property
    def closed(self) -> bool:
        """Tell whether the hall has stopped taking work (or never started)."""
        return not self.kernel.running

    @property
    def active(self) -> int:
        """Return the number of active actors."""
        return len(self.actors)

    def passivate(self, idle_for: float = 0.0) -> int:
        """Stop every actor idle for ``idle_for`` seconds or more; return how many stopped."""
        return self.actors.passivate(idle_for)

    def compact(self) -> None:
        """Shrink the table of active matches after many went to rest (frees memory)."""
        self.actors.compact()

    # -- matches coming in (gamehall.core.matches), commands -----------------------------------

    async def create(
        self, game: str, players: int | None = None, **options: Unpack[CreateOptions]
    ) -> str:
        """Start a match; return its id once its first events are durable (see :mod:`.matches`)."""
        return await self.incoming.create(game, players, **options)

    async def rematch(self, match: str, **options: Unpack[RematchOptions]) -> str:
        """Start a new match of a finished one, the seats rotated by one; return its id."""
        return await self.incoming.rematch(match, **options)

    async def fork(self, match: str, at_seq: int, **options: Unpack[ForkOptions]) -> str:
        """Start a new match from the first ``at_seq`` events of another; return its id."""
        return await self.incoming.fork(match, at_seq, **options)

    async def import_records(
        self, records: Sequence[Recorded], **options: Unpack[ImportOptions]
    ) -> str:
        """Store a whole log (from a file, another store) as a new match; return its id."""
        return await self.incoming.import_records(records, **options)

    async def send(
        self,
        match: str,
        seat: int,
        command: Command | Mapping[str, Any],
        command_id: str | None = None,
    ) -> Ack:
        """Send a seat's command; return its events once durable, or raise why it was refused."""
        kernel = self.kernel
        kernel.check_open()
        actor = kernel.active(match) or await self.activate(match)
        if not isinstance(command, Command):
            command = self.registry.codec.command_from_builtins(command)
        if type(seat) is not int or not 0 <= seat < actor.players:
            check_seat(seat, actor.players)  # says why it is refused
        return await kernel.ask(
            actor, SendCommand(seat, command, command_id, new_pending(kernel.loop))
        )

    async def lobby_command(
        self, match: str, command: LobbyCommand, credential: bytes | None = None
    ) -> Ack:
        """Have a match's actor decide a lobby command (who sits where); return its events
        once durable. ``credential``, a ``TakeSeat``'s token digest, is stored with them."""
        self.kernel.check_open()
        actor = await self.activate(match)
        message = SendCommand(
            -1, command, None, new_pending(self.kernel.loop), credential=credential
        )
        return await self.kernel.ask(actor, message)

    def set_bots(
        self, match: str, bots: Mapping[int, str | BotSpec], bot_seed: int | None = None
    ) -> None:
        """Change which seats of a match the engine plays while this hall runs (not stored)."""
        actor = self.kernel.actor(match)
        self.bots.attach(match, seat_bots(actor.ruleset, actor.players, bots, bot_seed))

    async def request_undo(self, match: str, seat: int) -> UndoStatus:
        """Ask to take back a seat's last command (see :mod:`gamehall.core.undo`)."""
        return await self.undos.request(match, seat)

    async def answer_undo(self, match: str, seat: int, agree: bool) -> UndoStatus:
        """Agree to, or decline, the take-back waiting in a match."""
        return await self.undos.answer(match, seat, agree)

    def undo_status(self, match: str) -> UndoStatus | None:
        """Return the take-back waiting for answers in a match, if any."""
        return self.undos.status(match)

    # -- what a seat may see now (gamehall.core.views) ------------------------------------------

    def view(self, match: str, seat: int | None, names: list[str | None] | None = None) -> SeatView:
        """Return a seat's view of a match (``None``: a spectator), given its names if read."""
        names = self.lobby.names(match) if names is None else names
        return views.seat_view(self.kernel.actor(match), seat, names, self.now())

    def render(self, match: str, seat: int | None, names: list[str | None] | None = None) -> str:
        """Return a seat's board as text (``names`` as for :meth:`view`)."""
        names = self.lobby.names(match) if names is None else names
        return views.render(self.kernel.actor(match), seat, names)

    def clock(self, match: str) -> ClockView | None:
        """Return a match's clocks now (``None`` for a match without a time control)."""
        return clocks.view(self.kernel.actor(match).clock, self.now())

    def turn(self, match: str, seat: int | None) -> Turn:
        """Return whose move it is, as ``seat`` may know it."""
        return views.turn(self.kernel.actor(match), seat)

    def awaiting(self, match: str) -> Mapping[int, Decision]:
        """Return the seats a match waits for (empty once it is over), read-only."""
        return views.awaiting(self.kernel.actor(match))

    def legal(self, match: str, seat: int) -> list[Command]:
        """Return the commands a seat may send now."""
        return views.legal(self.kernel.actor(match), seat)

    def ruleset(self, match: str) -> Ruleset:
        """Return the ruleset a match runs with."""
        return self.kernel.actor(match).ruleset

    def state(self, match: str) -> Any:
        """Return the whole state of a match: for operators and replay tools, never for seats."""
        return self.kernel.actor(match).state

    # -- stored matches and their records (gamehall.core.history) -------------------------------

    def info(self, match: str) -> MatchInfo:
        """Return a match's game, players and version."""
        return self.incoming.info(match)

    def matches(self, after: str = "", limit: int | None = None) -> list[Any]:
        """Return stored matches in id order."""
        return self.store.streams(after, limit)

    def read(
        self, match: str, after: int = 0, upto: int | None = None, limit: int | None = None
    ) -> list[Recorded]:
        """Return a match's stored records, whole: for the operator and for redaction."""
        return self.kernel.read(match, after, upto, limit)

    def history(
        self, match: str, seat: int | None, after: int = 0, limit: int | None = None
    ) -> list[Recorded]:
        """Return a match's events after ``after`` as ``seat`` may see them."""
        return history.history(self.kernel, match, seat, after, limit)

    def narrated_history(
        self, match: str, seat: int | None, after: int = 0, limit: int | None = None
    ) -> list[Narrated]:
        """Return a seat's events after ``after`` with what each tells it, in words."""
        return history.narrated(self.kernel, match, seat, after, limit)

    def watch(self, match: str, seat: int | None, after: int = 0) -> AsyncGenerator[Recorded, None]:
        """Yield a seat's events from ``after`` on, then live ones, until the hall closes."""
        return history.watch(self.kernel, match, seat, after)

    def watch_narrated(
        self, match: str, seat: int | None, after: int = 0
    ) -> AsyncGenerator[Narrated, None]:
        """Like :meth:`watch`, with what each event tells the seat, in words."""
        return history.watch_narrated(self.kernel, match, seat, after)

    # Return a record (or records) as ``seat`` may see it (see :func:`engine.redact_record`).
    redact_record = staticmethod(engine.redact_record)
    redact_records = staticmethod(engine.redact_records)

    # -- actors and clocks, for gamehall's adapters, tools and tests ----------------------------

    async def activate(self, match: str) -> Actor:
        """Return a match's actor, loading the match off the event loop if it rests."""
        return await self.kernel.activate(match)

    def advanced(self, match: str, seq: int) -> None:
        """Hear that another node stored a match up to ``seq``: catch up what runs here."""
        self.kernel.advanced(match, seq)

    def serves(self, match: str) -> bool:
        """Tell whether another node's commit to a match would change anything here."""
        return self.kernel.serves(match)

    def load(self, match: str) -> Loaded:
        """Rebuild a match from its events, starting from a snapshot where one helps."""
        return self.loader.load(match)

    def load_many(self, matches: Iterable[str]) -> Iterator[tuple[str, Loaded | Exception]]:
        """Rebuild stored matches one after the other, each with its state or the error that
        stopped it (see :meth:`Loader.load_many`)."""
        return self.loader.load_many(matches)

    snapshot_key = staticmethod(snapshot_key)  # the plugin versions that wrote a snapshot

    def quarantine(self, match: str, exc: CorruptRecord) -> MatchQuarantined:
        """Stop serving a match whose rows fail their checks; return the error to raise."""
        return self.kernel.quarantine(match, exc)

    async def fire_expired(self, now: float | None = None) -> int:
        """Send the fallback command of every seat whose time ran out; return how many."""
        return await self.turn_clocks.fire_expired(now)

    async def resume_clocks(self) -> int:
        """Wake the resting timed matches whose time ran out unwatched; return how many."""
        return await self.turn_clocks.resume()
