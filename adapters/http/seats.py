"""Seat tokens: who may act for which seat of which match, kept by the core with the match.

A token is 32 random bytes from :mod:`secrets`, shown to its holder once. Only its SHA-256
digest is stored, by the core store in the same transaction as the seat it acts for (the
match's first events for the seats of a new match, the ``SeatTaken`` event for a claimed one),
so a restarted server, or another node, knows every seat, and a copy of the database hands out
no usable token. A fast hash is enough: tokens have 256 bits of entropy and cannot be guessed
from their digest. The adapter asks the core (:meth:`Lobby.seat_of_token`); it issues no SQL.
"""

from __future__ import annotations

import hmac
import secrets
from typing import TYPE_CHECKING

from gamehall.core.lobby import NoFreeSeat, digest

if TYPE_CHECKING:
    from gamehall.core.hall import Hall

__all__ = ["NoFreeSeat", "SeatTokens", "digest", "new_token", "same_secret"]


def new_token() -> str:
    """Return a fresh seat or admin token."""
    return secrets.token_urlsafe(32)


def same_secret(given: str, expected: str) -> bool:
    """Compare two secrets in constant time."""
    return hmac.compare_digest(digest(given), digest(expected))


class SeatTokens:
    """The seat tokens of a hall's matches, as the routes use them (kept by the core)."""

    def __init__(self, hall: Hall) -> None:
        self.hall = hall

    def issue(self, seats: list[int]) -> tuple[dict[int, str], dict[int, bytes]]:
        """Return a new token for each seat, and their digests for the store."""
        tokens = {seat: new_token() for seat in seats}
        return tokens, {seat: digest(token) for seat, token in tokens.items()}

    async def claim(self, match: str, player: str | None, seat: int | None) -> tuple[int, str]:
        """Take an open seat (``seat`` or the lowest open one) with a new token; return both.

        The match decides who wins (one of any number of takers); the token's digest is stored
        with the seat in one transaction, so only the winner's token acts for it.
        """
        token = new_token()
        taken = await self.hall.lobby.take_seat(match, player, seat, digest(token))
        return taken, token

    def seats(self, match: str) -> set[int]:
        """Return the seats of a match a seat token acts for."""
        return self.hall.lobby.token_seats(match)

    def seat_of(self, match: str, token: str) -> int | None:
        """Return the seat a token belongs to in a match, or ``None``."""
        return self.hall.lobby.seat_of_token(match, token)

    def close(self) -> None:
        """Nothing to release: the store belongs to the hall."""

    def ping(self) -> None:
        """Read the seat tokens' table once: raise if the store does not answer (readiness)."""
        self.hall.lobby.token_seats("")
