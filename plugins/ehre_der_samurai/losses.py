"""How houses are lost: to a fight, an assassin or seppuku, and what goes with them."""

from __future__ import annotations

from .cards import SHOGUN
from .events import AllianceEnd, HouseDiscarded, ShogunPassed, ShogunReturned
from .turn import Turn, end_alliance


def lose_daimyo_house(
    turn: Turn, owner: int, reason: AllianceEnd, shogun_to: int | None = None
) -> None:
    """Discard a Daimyo house with its Daimyo; the Samurai becomes a Ronin (EDS-ATTACK-6).

    The Shogun card passes to ``shogun_to`` (a fight's winner) or back to the middle
    (EDS-SHOGUN-5); an alliance of the owner ends (EDS-ALLY-7).
    """
    if turn.state.shogun == owner:
        if shogun_to is not None:
            turn.emit(ShogunPassed(loser=owner, winner=shogun_to))
        else:
            turn.emit(ShogunReturned(seat=owner))
    player = turn.state.players[owner]
    if player.daimyo is None:
        return
    end_alliance(turn, owner, reason)  # first: an alliance pairs a Ronin with a Daimyo
    cards = (player.daimyo, *(c for c in player.daimyo_house if c != SHOGUN))
    turn.emit(HouseDiscarded(owner=owner, house="daimyo", cards=cards))


def empty_samurai_house(turn: Turn, owner: int) -> None:
    """Discard every card of a Samurai house; the Samurai (or Ronin) card stays (EDS-ATTACK-6)."""
    cards = turn.state.players[owner].samurai_house
    turn.emit(HouseDiscarded(owner=owner, house="samurai", cards=cards))
