"""What the routes share: the hall, the seat tokens, the admin token and who is asking."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, TypeVar

import anyio
import msgspec
from gamehall.core import names, nodes, reads
from gamehall.core.errors import UnknownGame, UnknownMatch, UnknownPlayer
from gamehall.core.hall import Hall, MatchInfo
from gamehall.core.limits import INT64_MAX, known_match_id
from gamehall.core.lobby import Player
from gamehall.core.registry import Registry
from litestar import Request

from .errors import ApiError
from .guard import Limiter
from .schemas import Created, ExpansionOut, GameOut, Seating, SeatToken
from .seats import SeatTokens, same_secret

T = TypeVar("T")
# A read or command that names the match version of the asker's last acknowledgement (its
# last_seq) is answered only from state at least that new: read your own writes on any node.
VERSION_HEADER = "X-Gamehall-Version"


class Asker(msgspec.Struct, frozen=True):
    """Who sent a request: a seat, a spectator (``seat is None``) or the operator (``admin``)."""

    seat: int | None
    admin: bool = False
    player: Player | None = None


SPECTATOR = Asker(None)
ADMIN = Asker(None, admin=True)


class Gateway:
    """The hall as the HTTP routes use it."""

    def __init__(
        self,
        hall: Hall,
        seats: SeatTokens,
        admin_token: str | None,
        heartbeat: float,
        limiter: Limiter | None = None,
    ) -> None:
        self.hall = hall
        self.seats = seats
        self.admin_token = admin_token or None
        self.heartbeat = heartbeat
        self.limiter = limiter
        if limiter is not None and self.admin_token is not None:
            limiter.accepted(self.admin_token)
        self._games: dict[str, GameOut] | None = None

    # -- who asks ----------------------------------------------------------------------------

    def asker(
        self, request: Request[Any, Any, Any], match: str, *, query_token: bool = False
    ) -> Asker:
        """Return who sends a request about ``match``: no token is a spectator."""
        token = bearer(request)
        if token is None and query_token:
            token = request.query_params.get("token") or None
        asker = self._who(match, token)
        if token is not None:
            self.accepted(request, token)
        return asker

    async def asker_off_loop(
        self, request: Request[Any, Any, Any], match: str, *, query_token: bool = False
    ) -> Asker:
        """:meth:`asker`, with the store read in a worker thread (the match, the player, the
        seat tokens)."""
        token = bearer(request)
        if token is None and query_token:
            token = request.query_params.get("token") or None
        asker = await reads.io(self.hall, self._who, match, token)
        if token is not None:
            self.accepted(request, token)
        return asker

    def _who(self, match: str, token: str | None) -> Asker:
        """Return who holds ``token`` for ``match``, or refuse it (reads the store only)."""
        if token is None:
            self.check_match(match)
            return SPECTATOR
        if self.admin_token is not None and same_secret(token, self.admin_token):
            self.check_match(match)
            return ADMIN
        if self.hall.lobby.is_player_token(token):
            player = self.player(token)
            self.check_match(match)
            held = self.hall.lobby.seats_of(match, player.player)
            return Asker(held[0] if held else None, player=player)
        seat = self.seats.seat_of(check_id(match), token)
        if seat is None:
            self.check_match(match)
            raise ApiError(401, "unauthorized", f"the token is not a seat token of match {match!r}")
        return Asker(seat)

    def player(self, token: str) -> Player:
        """Return the player of a player token, or refuse it as unauthorized."""
        try:
            return self.hall.lobby.player_of(token)
        except UnknownPlayer:
            raise ApiError(401, "unauthorized", "the token is not a player token") from None

    def player_of(self, request: Request[Any, Any, Any], required: bool = True) -> Player | None:
        """Return the player whose token the request carries (``None`` without a token)."""
        token = bearer(request)
        if token is None or not self.hall.lobby.is_player_token(token):
            if required:
                raise ApiError(
                    401,
                    "unauthorized",
                    "this needs a player token: 'Authorization: Bearer <token>'",
                )
            return None  # another kind of token: not a player's
        player = self.player(token)
        self.accepted(request, token)
        return player

    async def player_of_off_loop(
        self, request: Request[Any, Any, Any], required: bool = True
    ) -> Player | None:
        """:meth:`player_of`, with the player record read in a worker thread."""
        token = bearer(request)
        if token is None or not self.hall.lobby.is_player_token(token):
            return self.player_of(request, required)  # refused or ``None``: nothing to read
        player = await reads.io(self.hall, self.player, token)
        self.accepted(request, token)
        return player

    async def caught_up(
        self, request: Request[Any, Any, Any], match: str, version: int | None = None
    ) -> None:
        """Wait until this node holds ``match`` at ``version`` or, without one, at the version
        the request names in ``X-Gamehall-Version``, if any (see
        :func:`gamehall.core.nodes.caught_up`)."""
        if version is None:
            version = requested_version(request)
        await nodes.caught_up(self.hall, check_id(match), version)

    async def check_match_off_loop(self, match: str) -> None:
        """:meth:`check_match`, with the store read in a worker thread."""
        await reads.io(self.hall, self.check_match, match)

    def accepted(self, request: Request[Any, Any, Any] | None, token: str) -> None:
        """Let the rate limiter count this token's requests against the token from now on."""
        if self.limiter is not None:
            self.limiter.accepted(token)

    def seat_of(
        self, request: Request[Any, Any, Any], match: str, wanted: int | None = None
    ) -> int:
        """Return the seat the request acts for, or refuse.

        A seat token acts for its seat. A player token acts for a seat its player holds:
        ``wanted`` when the request names one, else the seat awaited now (the first held seat
        when none of them is), so a player holding two seats acts for either.
        """
        return self._acts_for(self.asker(request, match), match, wanted)

    async def seat_of_off_loop(
        self, request: Request[Any, Any, Any], match: str, wanted: int | None = None
    ) -> int:
        """:meth:`seat_of`, with the store read in a worker thread (the match activated
        first, once)."""
        await self.hall.activate(check_id(match))
        asker = await self.asker_off_loop(request, match)
        return await reads.io(self.hall, self._acts_for, asker, match, wanted)

    def _acts_for(self, asker: Asker, match: str, wanted: int | None) -> int:
        if asker.player is not None and not asker.admin:
            held = self.hall.lobby.seats_of(match, asker.player.player)
            if wanted is not None:
                if wanted not in held:
                    raise ApiError(
                        403, "forbidden", f"you hold no seat {wanted} of match {match!r}"
                    )
                return wanted
            if len(held) > 1:
                awaiting = self.hall.view(match, None).awaiting
                return next((s for s in held if s in awaiting), held[0])
        if wanted is not None and asker.seat is not None and wanted != asker.seat:
            raise ApiError(
                403, "forbidden", f"this token acts for seat {asker.seat}, not seat {wanted}"
            )
        if asker.admin:
            raise ApiError(403, "forbidden", "the admin token acts for no seat: use a seat token")
        if asker.seat is None:
            if asker.player is not None:
                raise ApiError(403, "forbidden", f"you hold no seat of match {match!r}")
            raise ApiError(
                401, "unauthorized", "no seat token: send 'Authorization: Bearer <token>'"
            )
        return asker.seat

    def check_distinct(self, match: str, name: str | None, player: str | None) -> None:
        """Refuse a name that looks like that of another seat's holder in the match."""
        if name is None:
            return  # an erased name shows as the seat's own
        others = [
            e.name for e in self.hall.lobby.entry(check_id(match)).seats
            if e.player is not None and e.player != player and e.name
        ]  # fmt: skip
        like = names.look_alike(name, others)
        if like is not None:
            raise ApiError(
                409, "look_alike_name", f"your name {name!r} looks like {like!r}, who "
                "holds another seat of this match: choose another name first",
            )  # fmt: skip

    def check_match(self, match: str) -> None:
        """Raise :class:`UnknownMatch` unless the store holds the match."""
        if self.hall.store.stream_info(check_id(match)) is None:
            raise UnknownMatch(match)

    async def ended(self, match: str) -> bool:
        """Tell whether a match has an outcome (the match activated off the event loop)."""
        actor = await self.hall.activate(check_id(match))
        return actor.ruleset.rules.outcome(actor.state) is not None

    async def may_see_all(self, asker: Asker, match: str, what: str) -> None:
        """Refuse the whole truth of a running match to anyone but the operator."""
        if not asker.admin and not await self.ended(match):
            raise ApiError(
                403,
                "forbidden",
                f"{what} is given only once the match has ended, or with the admin token",
            )

    async def run_sync(self, fn: Callable[..., T], *args: Any) -> T:
        """Run a blocking call (a seat-table write) in a worker thread."""
        return await anyio.to_thread.run_sync(fn, *args)

    # -- seats -------------------------------------------------------------------------------

    def created(self, info: MatchInfo, seating: Seating, tokens: Mapping[int, str]) -> Created:
        """Return the answer for a new match's creator (``info`` read with
        :func:`gamehall.core.reads.info`), with the tokens its seats were given (stored with
        the match's first events)."""
        seats = [SeatToken(seat, token) for seat, token in sorted(tokens.items())]
        for token in tokens.values():  # issued here, so known good from the first request on
            self.accepted(None, token)
        return Created(info.match, info.game, info.players, seating, seats, info.bots)

    # -- games -------------------------------------------------------------------------------

    def games(self) -> dict[str, GameOut]:
        """Return every installed game as the API lists it."""
        if self._games is None:
            registry = self.hall.registry
            self._games = {gid: game_out(registry, gid) for gid in sorted(registry.games)}
        return self._games

    def game(self, game_id: str) -> GameOut:
        """Return one game, or a 404 that lists the installed ones."""
        game = self.games().get(game_id)
        if game is None:
            known = ", ".join(self.games()) or "none"
            raise ApiError(404, UnknownGame.code, f"unknown game {game_id!r} (installed: {known})")
        return game


def bearer(request: Request[Any, Any, Any]) -> str | None:
    """Return the token of an ``Authorization: Bearer`` header."""
    header = request.headers.get("authorization")
    if not header:
        return None
    scheme, _, token = header.partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise ApiError(401, "unauthorized", "the Authorization header must be 'Bearer <token>'")
    return token.strip()


def requested_version(request: Request[Any, Any, Any]) -> int | None:
    """Return the match version a request names in ``X-Gamehall-Version`` (``None``: none)."""
    text = request.headers.get(VERSION_HEADER)
    if text is None or not text.strip():
        return None
    text = text.strip()
    if not (text.isascii() and text.isdigit()) or int(text) > INT64_MAX:
        raise ApiError(
            400, "invalid_request", f"{VERSION_HEADER} must be a match version (a whole number "
            f"from 0, the last_seq of an acknowledgement), not {text[:40]!r}",
        )  # fmt: skip
    return int(text)


def check_id(match: str) -> str:
    """Return a match id, or raise :class:`UnknownMatch` for one that cannot exist."""
    return known_match_id(match)


def _schema(struct: type[Any] | None) -> dict[str, Any] | None:
    return msgspec.json.schema(struct) if struct is not None else None


def game_out(registry: Registry, game_id: str) -> GameOut:
    """Describe an installed game with its expansions and the schema of every command."""
    spec = registry.games[game_id]
    commands = sorted(registry.ruleset(game_id).command_types, key=lambda c: c.__name__)
    schemas = {str(c.__struct_config__.tag): msgspec.json.schema(c) for c in commands}
    expansions = [
        ExpansionOut(
            e.id, e.name, e.version, e.description, list(e.requires), list(e.conflicts),
            e.min_players, e.max_players, _schema(e.options),
        )
        for e in sorted(registry.expansions_of(game_id), key=lambda e: e.id)
    ]  # fmt: skip
    return GameOut(
        spec.id, spec.name, spec.version, spec.description, spec.min_players, spec.max_players,
        spec.hidden_information, _schema(spec.options), expansions, schemas,
    )  # fmt: skip
