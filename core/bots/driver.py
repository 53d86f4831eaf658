"""The engine's bot player: it plays the bot seats of a hall's active matches.

A match's bot seats are chosen when it is created (``Hall.create(..., bots=...)``) and kept
with it in the store's listing (its ``info``), each with a seed of its own, so every adapter
(terminal, stdio, HTTP, an embedding service) gets bots without playing them itself, and a
restarted hall plays them again as soon as the match is active. Whenever a match's state
changes (a commit, an activation), the driver looks at who is awaited; for each bot seat, it
gives the bot the seat's view and legal commands (never the state), lets it think in a
worker thread, and sends its command with the id ``bot-SEAT-SEQ`` (SEQ: the version the bot
decided on). A retry after a failure or a restart sends the same id for the same decision,
which the actor answers with the first answer: a bot never plays twice.

On a shared store (several nodes), only the node holding a match's lease plays its bots
(:meth:`Store.try_lease`); the others see the moves as other nodes' commits. A node that
dies gives its leases up, and the followers of the others wake the bots again.

A bot decides only when awaited; it takes free actions when it is asked anyway (its legal
commands include them). ``hold`` keeps a match's bots waiting while a person is asked
something out of turn (the terminal does this), ``release`` lets them go on.
"""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Callable, Coroutine, Mapping
from typing import TYPE_CHECKING, Any, Protocol

import anyio
import msgspec
import structlog

from ..errors import GamehallError, IllegalCommand, StoreClosed
from .base import BotError
from .fair import FairThinkers
from .spec import BotSpec, check_bot, make_bot, parse_bot

if TYPE_CHECKING:
    from ..events import Command
    from ..kernel.actor import Ack
    from ..kernel.context import Committed
    from ..kernel.supervisor import Supervisor
    from ..registry import Ruleset
    from ..rules import Decision
    from ..store.base import Store
    from ..views import SeatView

log = structlog.get_logger("gamehall.bots")

THINKERS = 2  # bots that think at once: one per core of a small machine


class SeatBot(msgspec.Struct, frozen=True):
    """A bot seat as the match remembers it: the bot in words and its own seed."""

    bot: str
    seed: int


def bot_seed(base: int | None, *key: int) -> int:
    """Return a bot's seed: drawn afresh, or derived from ``base`` and ``key`` (a seat, …),
    never equal to ``base``, so a bot seeded from a match's seed cannot know that seed."""
    if base is None:
        return secrets.randbits(63)
    digest = hashlib.sha256(":".join(map(str, ("gamehall-bot", base, *key))).encode()).digest()
    return int.from_bytes(digest[:8], "big") >> 1


def seat_bots(
    ruleset: Ruleset,
    players: int,
    bots: Mapping[int, str | BotSpec],
    base_seed: int | None = None,
) -> dict[int, SeatBot]:
    """Check bot seats for a new match and give each its seed; refuse what cannot play."""
    seats: dict[int, SeatBot] = {}
    for seat, given in bots.items():
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < players:
            raise BotError(f"bot seat {seat!r} does not exist: seats are 0 to {players - 1}")
        spec = parse_bot(given) if isinstance(given, str) else given
        check_bot(spec, ruleset)
        seats[seat] = SeatBot(str(spec), bot_seed(base_seed, seat))
    return seats


def stored(seats: Mapping[int, SeatBot]) -> dict[str, Any]:
    """Return bot seats as the match's stored info keeps them."""
    return {str(seat): msgspec.to_builtins(bot) for seat, bot in sorted(seats.items())}


def from_info(info: Mapping[str, Any]) -> dict[int, SeatBot]:
    """Return the bot seats a match's stored info names (none for older matches)."""
    raw = info.get("bots") or {}
    try:
        return {int(seat): msgspec.convert(bot, SeatBot) for seat, bot in raw.items()}
    except (ValueError, TypeError, AttributeError, msgspec.ValidationError):
        log.warning("bot seats in the match info are unreadable; the seats wait for people")
        return {}


class BotHost(Protocol):
    """What the bot driver asks of the hall whose bots it plays (the Hall provides it)."""

    actors: Supervisor
    store: Store

    @property
    def closed(self) -> bool:
        """Tell whether the hall has stopped taking work."""
        ...

    def spawn(self, fn: Callable[..., Coroutine[Any, Any, Any]], *args: Any) -> None:
        """Run a task in the hall's task group."""
        ...

    def awaiting(self, match: str) -> Mapping[int, Decision]:
        """Return the decisions a match waits for, by seat."""
        ...

    def view(self, match: str, seat: int | None) -> SeatView:
        """Return what a seat may know of a match now."""
        ...

    def ruleset(self, match: str) -> Ruleset:
        """Return a match's ruleset."""
        ...

    async def send(
        self,
        match: str,
        seat: int,
        command: Command | Mapping[str, Any],
        command_id: str | None = None,
    ) -> Ack:
        """Send a seat's command; return its events once durable."""
        ...


class BotDriver:
    """Play the bot seats of a hall's matches whenever the rules await them."""

    def __init__(self, hall: BotHost) -> None:
        self.hall = hall
        self.seats: dict[str, dict[int, SeatBot]] = {}
        self.failed: dict[str, str] = {}
        self.played = 0
        self._held: set[str] = set()
        self._allowed: dict[str, int] = {}
        self._running: set[str] = set()
        self._again: set[str] = set()
        self._scopes: dict[str, anyio.CancelScope] = {}
        self._changes: dict[str, anyio.Event] = {}  # what step and settled wait on
        self.thinkers = FairThinkers(THINKERS)

    # -- which seats are bots ----------------------------------------------------------------

    def attach(self, match: str, seats: Mapping[int, SeatBot]) -> None:
        """Let the driver play these seats of a match (replacing what it played there)."""
        if seats:
            self.seats[match] = dict(seats)
        else:
            self.seats.pop(match, None)
        self.failed.pop(match, None)
        self.wake(match)

    def activated(self, match: str) -> None:
        """Read a match's bot seats from its listing entry when its actor starts (the actor
        holds it, read with its events: no store read here)."""
        if match in self.seats:
            self.wake(match)
            return
        actor = self.hall.actors.get(match)
        if actor is not None:
            seats = from_info(actor.info)
        else:
            entry = self.hall.store.stream_info(match)
            seats = from_info(entry.info) if entry is not None else {}
        if seats:
            self.attach(match, seats)

    def committed(self, batch: Committed) -> None:
        """Hear of a durable batch (the driver subscribes to the kernel's commits): a seat given
        to a bot starts being played; any other batch wakes the match's bots."""
        if "bots" in batch.changed:
            self.attach(batch.match, from_info(batch.info))
        elif batch.match in self.seats or batch.match in self._changes:
            self.wake(batch.match)  # else nothing to wake: no bot plays it, nobody waits on it

    def bots_of(self, match: str) -> dict[int, str]:
        """Return the bot seats of a match, each with its bot in words."""
        return {seat: bot.bot for seat, bot in sorted(self.seats.get(match, {}).items())}

    # -- holding -----------------------------------------------------------------------------

    def hold(self, match: str) -> None:
        """Keep a match's bots from moving until :meth:`release` (a person is being asked)."""
        self._held.add(match)

    def release(self, match: str) -> None:
        """Let a match's bots move again."""
        self._held.discard(match)
        self._allowed.pop(match, None)
        self.wake(match)

    async def step(self, match: str) -> None:
        """Let one command of a held match's bots through and wait for it (or for no bot to
        be awaited); raise if the bot failed."""
        self._allowed[match] = 1
        self.wake(match)
        try:
            while self._allowed.get(match, 0) > 0:
                failure = self.failed.get(match)
                if failure is not None:
                    raise GamehallError(failure)
                if not self.due(match):
                    return
                await self._changed(match)
        finally:
            self._allowed.pop(match, None)

    async def _changed(self, match: str) -> None:
        """Wait until something a bot of the match depends on changed (a commit, a bot's
        move or failure, a release)."""
        event = self._changes.get(match)
        if event is None:
            event = self._changes[match] = anyio.Event()
        await event.wait()

    def _tell(self, match: str) -> None:
        event = self._changes.pop(match, None)
        if event is not None:
            event.set()

    def due(self, match: str) -> list[int]:
        """Return the bot seats a match awaits now (none while held or failed).

        Asking activates the match, which reads its bot seats from the store.
        """
        awaited = self.hall.awaiting(match)
        seats = self.seats.get(match)
        if not seats or match in self.failed:
            return []
        if match in self._held and not self._allowed.get(match):
            return []
        due = [seat for seat in sorted(awaited) if seat in seats]
        if due and not self.hall.store.try_lease(match):
            return []  # another node holds the match's lease: its bots move there
        return due

    async def settled(self, match: str) -> None:
        """Wait until no bot seat of a match is awaited; raise if its bot failed."""
        while True:
            failure = self.failed.get(match)
            if failure is not None:
                raise GamehallError(failure)
            if not self.due(match):
                return
            await self._changed(match)

    # -- playing -----------------------------------------------------------------------------

    def wake(self, match: str) -> None:
        """Look at a match again soon: its state changed, or its bots were set or released."""
        self._tell(match)
        if match not in self.seats or self.hall.closed:
            return
        if match in self._running:
            self._again.add(match)
            return
        self._running.add(match)
        self.hall.spawn(self._play, match)

    def close(self) -> None:
        """Stop every bot at once (a bot thinking in a thread is left to finish alone)."""
        for scope in list(self._scopes.values()):
            scope.cancel()

    async def _play(self, match: str) -> None:
        with anyio.CancelScope() as scope:
            self._scopes[match] = scope
            try:
                while True:
                    self._again.discard(match)
                    while await self._play_one(match):
                        pass
                    if not self.hall.awaiting(match):
                        self.seats.pop(match, None)  # over: the store still names its bots
                        return
                    if match not in self._again:
                        return
            except StoreClosed:
                return
            except Exception as exc:  # noqa: BLE001 - a bot (a plugin's) bug stops its match's bots, not the hall
                log.exception("bot failed", match=match)
                self.failed[match] = f"the bot of match {match} failed: {type(exc).__name__}"
            finally:
                self._running.discard(match)
                self._scopes.pop(match, None)
                self._tell(match)

    async def _play_one(self, match: str) -> bool:
        """Play one awaited bot seat; return whether one was played."""
        due = self.due(match)
        if not due or self.hall.closed:
            return False
        seat = due[0]
        bot_seat = self.seats[match][seat]
        seen = self.hall.view(match, seat)
        if not seen.legal:
            return False
        ruleset = self.hall.ruleset(match)
        bot = make_bot(bot_seat.bot, ruleset, f"{bot_seat.seed}:{seat}:{seen.seq}")
        command = await self.thinkers.think(match, bot, seat, seen.legal, lambda: seen.view)
        if self.hall.closed or self.hall.view(match, None).seq != seen.seq:
            return True  # the match moved while the bot thought: decide again on the new state
        try:
            await self.hall.send(match, seat, command, f"bot-{seat}-{seen.seq}")
        except IllegalCommand as exc:
            if self.hall.view(match, None).seq != seen.seq:
                return True  # another command came first: decide again on the new state
            # The rules refused a command they listed: a game bug; say so once and stop.
            self.failed[match] = f"the bot of seat {seat + 1} was refused: {exc}"
            log.warning("bot refused", match=match, seat=seat, error=str(exc))
            self._tell(match)
            return False
        self.played += 1
        if match in self._allowed:
            self._allowed[match] -= 1
        self._tell(match)
        return True
