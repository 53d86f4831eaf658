"""The lobby: players with a token and a name, who sits where, and the listing of matches.

A player is a person, not a seat: one token (shown once; only its SHA-256 is stored, as for
seat tokens) creates matches, takes seats and lists "my matches", and carries a display name
that every view, board text, stream and export header shows. Who holds which seat is kept in
the match's stored info (``seat_players``, ``open``), which the store indexes for
:meth:`Lobby.find`; names are read from the player records when shown, so a name erased for
retention disappears from everything at once. Spectators are counted per match while they
follow it.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import time
import unicodedata
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, Protocol, TypeVar

import anyio
import msgspec

from . import limits, names, seating
from .bots.driver import seat_bots
from .bots.spec import BotSpec
from .errors import InvalidOptions, UnknownMatch, UnknownPlayer
from .events import AbandonMatch, GiveSeatToBot, ReleaseSeat, SeatTaken, TakeSeat
from .seating import Forbidden as Forbidden
from .seating import NoFreeSeat as NoFreeSeat
from .seating import SeatAlreadyTaken as SeatAlreadyTaken
from .store.base import MatchQuery, PlayerRecord, StreamInfo

if TYPE_CHECKING:
    from .bots.driver import BotDriver
    from .events import LobbyCommand
    from .kernel.actor import Ack, Actor
    from .kernel.system import Kernel
    from .store.base import Store

T = TypeVar("T")
NAME_MAX = 40
TOKEN_PREFIX = "gp_"  # tells a player token from a seat token at a glance


class Player(msgspec.Struct, frozen=True):
    """A player as others see them: an id and a display name (``None`` once erased)."""

    player: str
    name: str | None


class SeatEntry(msgspec.Struct, frozen=True):
    """One seat in a listing: who holds it (a player, a bot, a token) or that it is open."""

    seat: int
    name: str | None
    player: str | None = None
    bot: str | None = None
    open: bool = False


class Spectator(msgspec.Struct, frozen=True):
    """Someone following a match without a seat: a named player or anonymous."""

    player: str | None
    name: str | None


class LobbyEntry(msgspec.Struct, frozen=True):
    """A match as the lobby lists it."""

    match: str
    game: str
    expansions: list[str]
    players: int
    seats: list[SeatEntry]
    open_seats: int
    finished: bool
    version: int
    created: float
    updated: float
    spectators: int = 0
    clock: str | None = None
    rematch_of: str | None = None
    rematch: str | None = None
    seat_names: list[str] | None = None
    """What the game calls each seat (colours, clans), as recorded when the match started."""
    ended: str | None = None
    """How a match ended outside its game: ``abandoned`` by its creator, or ``expired``
    waiting for players (``finished`` is true for both); ``None`` otherwise."""
    creator: str | None = None
    """The player id of who created the match with a player token, if anyone did."""


class LobbyPage(msgspec.Struct, frozen=True):
    """One page of the lobby: matches newest first, how many pass the filters, the next cursor."""

    matches: list[LobbyEntry]
    total: int
    next: str | None = None


def digest(token: str) -> bytes:
    """Return the stored form of a token."""
    return hashlib.sha256(token.encode()).digest()


def check_name(name: object) -> str:
    """Return a display name cleaned of outer spaces, or refuse it with the reason."""
    if not isinstance(name, str):
        raise InvalidOptions("a name is text")
    name = " ".join(name.split())
    if not name:
        raise InvalidOptions("a name needs at least one letter or digit")
    if len(name) > NAME_MAX:
        raise InvalidOptions(f"a name has at most {NAME_MAX} characters, not {len(name)}")
    if any(unicodedata.category(c).startswith("C") for c in name):
        raise InvalidOptions("a name may not hold control characters")
    try:
        names.check_shows(name)  # blank-looking names and stacked marks
    except names.NameProblem as exc:
        raise InvalidOptions(str(exc)) from None
    return name


def _names_of(given: Any, players: int) -> list[str] | None:
    if isinstance(given, list) and len(given) == players and all(isinstance(n, str) for n in given):
        return list(given)
    return None


def seat_info(
    players: int,
    seat_players: Mapping[int, str] | None = None,
    open_seats: Sequence[int] = (),
) -> dict[str, Any]:
    """Return the info keys that say who holds each seat of a new match."""
    holders: list[str | None] = [None] * players
    for seat, player in (seat_players or {}).items():
        holders[seat] = player
    free = sorted(set(open_seats) - set((seat_players or {}).keys()))
    return {"seat_players": holders, "open": free, "open_seats": len(free)}


class LobbyHost(Protocol):
    """What the lobby asks of the hall it serves (the Hall provides it)."""

    store: Store
    now: Callable[[], float]
    retain_for: float | None
    kernel: Kernel  # a match's actor: who sits where, as it holds it
    bots: BotDriver  # the bot seats this hall plays

    async def activate(self, match: str) -> Actor:
        """Return a match's actor, loading it if needed."""
        ...

    async def lobby_command(
        self, match: str, command: LobbyCommand, credential: bytes | None = None
    ) -> Ack:
        """Have a match's actor decide a lobby command; return its events once durable."""
        ...


def seated(info: Mapping[str, Any]) -> list[str]:
    """Return the ids of the players holding a seat in a listing entry."""
    held = seating.holders(info, int(info.get("players") or 0))
    return [player for player in held if player is not None]


def player_names(store: Store, players: Sequence[str]) -> dict[str, str | None]:
    """Return the display name of each player id (``None``: erased or unknown); reads the
    player records, so call it off the event loop where the store blocks."""
    out: dict[str, str | None] = {}
    for player in players:
        record = store.player(player)
        out[player] = record.name if record is not None else None
    return out


def names_of_seats(info: Mapping[str, Any], names: Mapping[str, str | None]) -> list[str | None]:
    """Return each seat's name from a listing entry: its player's, its bot's, or ``None``."""
    players = int(info.get("players") or 0)
    bots = {int(s): b.get("bot") for s, b in (info.get("bots") or {}).items()}
    out: list[str | None] = []
    for seat, player in enumerate(seating.holders(info, players)):
        if player is not None:
            out.append(names.get(player))
        else:
            out.append(f"bot ({bots[seat]})" if seat in bots else None)
    return out


class Lobby:
    """Players, seats and the match listing of a hall."""

    def __init__(self, hall: LobbyHost) -> None:
        self.hall = hall
        self.spectators: dict[str, dict[int, Spectator]] = {}
        self._next_watcher = 0

    async def _io(self, fn: Callable[..., T], *args: Any) -> T:
        if self.hall.store.threaded:
            return await anyio.to_thread.run_sync(fn, *args)
        return fn(*args)

    # -- players -----------------------------------------------------------------------------

    async def register(self, name: str) -> tuple[Player, str]:
        """Make a player with a display name; return them and their token (shown only once)."""
        clean = check_name(name)
        token = TOKEN_PREFIX + secrets.token_urlsafe(32)
        record = PlayerRecord(secrets.token_hex(8), digest(token), clean, time.time())
        await self._io(self.hall.store.save_player, record)
        return Player(record.id, clean), token

    def player_of(self, token: str) -> Player:
        """Return the player a token belongs to, or raise :class:`UnknownPlayer`."""
        record = self.hall.store.player_by_digest(digest(token)) if token else None
        if record is None:
            raise UnknownPlayer("the token is not a player token")
        return Player(record.id, record.name)

    def is_player_token(self, token: str) -> bool:
        """Tell whether a token has the form of a player token (it may still be unknown)."""
        return token.startswith(TOKEN_PREFIX)

    def player(self, player_id: str) -> Player:
        """Return a player by id."""
        record = self.hall.store.player(player_id)
        if record is None:
            raise UnknownPlayer(f"unknown player {player_id[:40]!r}")
        return Player(record.id, record.name)

    async def rename(self, player_id: str, name: str | None) -> Player:
        """Give a player another display name, or erase it (``None``: retention)."""
        clean = None if name is None else check_name(name)
        record = await self._io(self.hall.store.player, player_id)
        if record is None:
            raise UnknownPlayer(f"unknown player {player_id[:40]!r}")
        if clean is not None:
            await self._io(self._check_distinct, player_id, clean)
        await self._io(self.hall.store.save_player, msgspec.structs.replace(record, name=clean))
        return Player(record.id, clean)

    def _check_distinct(self, player_id: str, name: str) -> None:
        """Refuse a new name that looks like that of another seat's holder in a running match
        where the player holds a seat (as taking a seat does)."""
        cursor: str | None = None
        seen: dict[str, str | None] = {}
        while True:
            page = self.hall.store.find_matches(
                MatchQuery(finished=False, player=player_id, cursor=cursor, limit=200)
            )
            for entry in page.matches:
                listed = self._listed(entry, seen)
                others = [
                    s.name for s in listed.seats
                    if s.player is not None and s.player != player_id and s.name
                ]  # fmt: skip
                like = names.look_alike(name, others)
                if like is not None:
                    raise names.LookAlikeName(
                        f"the name {name!r} looks like {like!r}, who holds another seat of "
                        f"match {entry.stream}: choose another name"
                    )
            if page.next is None:
                return
            cursor = page.next

    # -- seats -------------------------------------------------------------------------------

    def holders(self, match: str) -> list[str | None]:
        """Return the player id holding each seat of a match (``None``: no player)."""
        info = self._entry(match).info
        raw = info.get("seat_players") or []
        players = int(info.get("players") or len(raw))
        return [
            raw[s] if s < len(raw) and isinstance(raw[s], str) else None for s in range(players)
        ]

    async def give_seat_to_bot(
        self, match: str, seat: int, bot: str | BotSpec, seed: int | None = None
    ) -> None:
        """Give an open seat to a bot the engine plays (``mcts:2000``, see
        :func:`gamehall.core.bots.parse_bot`); its seed is drawn afresh, or derived from
        ``seed``, and recorded with it. Stored as a ``SeatGivenToBot`` event of the match."""
        actor = await self.hall.activate(limits.known_match_id(match))
        if isinstance(seat, bool) or not isinstance(seat, int):
            raise NoFreeSeat(f"seat {seat!r} is not a seat number")
        if not 0 <= seat < actor.players:
            raise NoFreeSeat(f"seat {seat} does not exist: seats are 0 to {actor.players - 1}")
        chosen = seat_bots(actor.ruleset, actor.players, {seat: bot}, seed)[seat]
        await self.hall.lobby_command(
            match, GiveSeatToBot(seat=seat, bot=chosen.bot, seed=chosen.seed)
        )

    def seat_of_token(self, match: str, token: str) -> int | None:
        """Return the seat a seat token acts for in a match, or ``None``.

        The digest is compared with every seat's, in constant time and without stopping at
        the first match, so timing tells nothing. Read from the store each time: a seat taken
        on another node is known at once.
        """
        given = digest(token)
        found = None
        for seat, stored in sorted(self.hall.store.seat_tokens(match).items()):
            if hmac.compare_digest(given, stored) and found is None:
                found = seat
        if found is not None:
            # A seat left since its token was given is open: the token acts for it no more
            # (the next taker's token replaces it).
            entry = self.hall.store.stream_info(match)
            if entry is not None and found in seating.open_seats(entry.info):
                return None
        return found

    def token_seats(self, match: str) -> set[int]:
        """Return the seats of a match that a seat token acts for."""
        return set(self.hall.store.seat_tokens(match))

    def seats_of(self, match: str, player_id: str) -> list[int]:
        """Return the seats a player holds in a match."""
        return [seat for seat, held in enumerate(self.holders(match)) if held == player_id]

    async def take_seat(
        self,
        match: str,
        player_id: str | None,
        seat: int | None = None,
        credential: bytes | None = None,
    ) -> int:
        """Seat a player (``None``: a seat token's holder) in an open seat (``seat``, or the
        lowest open one); return it.

        The match's actor decides and appends a ``SeatTaken`` event at the match's version:
        of any number of takers of one seat exactly one wins, the others get
        :class:`~gamehall.core.seating.SeatAlreadyTaken` (``seat_taken``) naming the seat.
        ``credential`` (the digest of a new token, see :func:`digest`) is stored for the seat
        in the same transaction, so only the winner's token ever acts for it.
        """
        if player_id is not None:
            await self._io(self.player, player_id)
        limits.known_match_id(match)
        if seat is not None and (not isinstance(seat, int) or isinstance(seat, bool)):
            raise NoFreeSeat(f"seat {seat!r} is not a seat number")
        command = TakeSeat(seat=seat, player=player_id)
        ack = await self.hall.lobby_command(match, command, credential)
        taken = ack.events[0].event
        assert isinstance(taken, SeatTaken)
        return taken.seat

    async def leave_seat(self, match: str, player_id: str, seat: int) -> None:
        """Open a seat again: its player leaves it, or the match's creator frees it.

        Only while the match waits for players (a seat of it is open, so it has not started)
        and only a seat a player holds (not a bot's, not a seat token's). Stored as a
        ``SeatReleased`` event decided by the match's actor; refused with words otherwise."""
        await self._io(self.player, player_id)
        limits.known_match_id(match)
        if isinstance(seat, bool) or not isinstance(seat, int):
            raise NoFreeSeat(f"seat {seat!r} is not a seat number")
        await self.hall.lobby_command(match, ReleaseSeat(seat=seat, by=player_id))

    async def abandon(self, match: str, player_id: str) -> None:
        """End a match for its creator while nobody else joined it (every seat is open, a
        bot's or the creator's): a ``MatchAbandoned`` event; the match is over, without an
        outcome, and leaves the listings after the hall's retention time."""
        await self._io(self.player, player_id)
        limits.known_match_id(match)
        await self.hall.lobby_command(match, AbandonMatch(by=player_id))

    def names(self, match: str) -> list[str | None]:
        """Return the display name of each seat: its player's, its bot's, or ``None``.

        Who sits where is the match actor's (current with its log, on every node); names are
        read from the player records each time, so a rename or an erasure on another node
        shows at once: no cache here can disagree with the store.
        """
        info = self.hall.kernel.actor(match).info
        return names_of_seats(info, player_names(self.hall.store, seated(info)))

    def undo_policy(self, match: str) -> str:
        """Return a match's take-back policy: ``consent``, ``free`` or ``off``."""
        return str(self._entry(match).info.get("undo") or "consent")

    # -- listing -----------------------------------------------------------------------------

    def find(
        self,
        *,
        game: str | None = None,
        finished: bool | None = None,
        open_seats: bool | None = None,
        player: str | None = None,
        cursor: str | None = None,
        limit: int = 50,
    ) -> LobbyPage:
        """Return one page of matches passing every filter given, newest first.

        A match that is over (finished, abandoned or expired) is listed for the hall's
        retention time after its last event, then no more (its log stays until deleted)."""
        kept = self.hall.retain_for
        since = None if kept is None else self.hall.now() - kept
        query = MatchQuery(game, finished, open_seats, player, cursor, limit, ended_after=since)
        page = self.hall.store.find_matches(query)
        names: dict[str, str | None] = {}
        return LobbyPage([self._listed(e, names) for e in page.matches], page.total, page.next)

    async def listing(
        self,
        *,
        game: str | None = None,
        finished: bool | None = None,
        open_seats: bool | None = None,
        player: str | None = None,
        cursor: str | None = None,
        limit: int = 50,
    ) -> LobbyPage:
        """:meth:`find`, with the store read in a worker thread (off the event loop)."""
        return await self._io(
            lambda: self.find(
                game=game, finished=finished, open_seats=open_seats, player=player,
                cursor=cursor, limit=limit,
            )
        )  # fmt: skip

    def entry(self, match: str) -> LobbyEntry:
        """Return one match as the lobby lists it."""
        return self._listed(self._entry(match), {})

    def _entry(self, match: str) -> StreamInfo:
        entry = self.hall.store.stream_info(limits.known_match_id(match))
        if entry is None:
            raise UnknownMatch(match)
        return entry

    def _listed(self, entry: StreamInfo, names: dict[str, str | None]) -> LobbyEntry:
        info = entry.info
        players = int(info.get("players") or 0)
        raw = info.get("seat_players") or []
        free = set(info.get("open") or [])
        bots = {int(s): b.get("bot") for s, b in (info.get("bots") or {}).items()}
        seats = []
        for seat in range(players):
            held = raw[seat] if seat < len(raw) and isinstance(raw[seat], str) else None
            if held is not None and held not in names:
                record = self.hall.store.player(held)
                names[held] = record.name if record is not None else None
            name = names.get(held) if held else (f"bot ({bots[seat]})" if seat in bots else None)
            seats.append(SeatEntry(seat, name, held, bots.get(seat), seat in free))
        return LobbyEntry(
            entry.stream,
            str(info.get("game", "")),
            list(info.get("expansions") or []),
            players,
            seats,
            0 if info.get("finished") else len(free),
            bool(info.get("finished")),
            entry.version,
            entry.created,
            entry.updated,
            len(self.spectators.get(entry.stream, {})),
            info.get("clock"),
            info.get("rematch_of"),
            info.get("rematch"),
            _names_of(info.get("seat_names"), players),
            seating.ending(info),
            seating.creator(info),
        )

    # -- spectators --------------------------------------------------------------------------

    def follow(self, match: str, player: Player | None) -> int:
        """Count someone following a match without a seat; return the key to :meth:`leave`."""
        self._next_watcher += 1
        shown = Spectator(player.player, player.name) if player else Spectator(None, None)
        self.spectators.setdefault(match, {})[self._next_watcher] = shown
        return self._next_watcher

    def leave(self, match: str, key: int) -> None:
        """Stop counting a spectator."""
        watching = self.spectators.get(match)
        if watching is not None:
            watching.pop(key, None)
            if not watching:
                del self.spectators[match]

    def watching(self, match: str) -> list[Spectator]:
        """Return who follows a match without a seat now."""
        return list(self.spectators.get(match, {}).values())

    # -- retention, rematch ------------------------------------------------------------------

    async def delete(self, match: str, *, unstarted: bool = False) -> None:
        """Delete a finished match from the store (its actor stops first); ``unstarted`` also
        deletes one nobody could have used yet (a rematch another asker's beat)."""
        entry = await self._io(self._entry, match)
        over = bool(entry.info.get("finished"))
        if not over:
            actor = await self.hall.activate(match)
            over = actor.ruleset.rules.outcome(actor.state) is not None
        if not over and not unstarted:
            raise Forbidden(f"match {match!r} is still running: only a finished match is deleted")
        self.hall.kernel.actors.stop(match)
        self.hall.bots.seats.pop(match, None)  # and its bots
        await self._io(self.hall.store.delete_stream, match)
        self.spectators.pop(match, None)
