"""What a seat may ask for in Ehre der Samurai (rule ids in docs/rules/ehre-der-samurai.md)."""

from __future__ import annotations

from typing import Annotated

import msgspec
from gamehall.core import Command, namespaced

from .state import House

Seat = Annotated[int, msgspec.Meta(ge=0, le=5, description="a seat, 0-5")]
CardId = Annotated[str, msgspec.Meta(min_length=1, max_length=40, description="a card token")]


class EhreCommand(Command, frozen=True, gc=False, tag=namespaced("ehre_der_samurai")):
    """Base of the game's commands."""


# -- card actions (EDS-ACTION) -----------------------------------------------------------------


class Draw(EhreCommand, frozen=True):
    """Card action: draw the top card of the deck."""


class Discard(EhreCommand, frozen=True):
    """Card action: put a card from your hand on the discard pile without effect."""

    card: CardId


class Play(EhreCommand, frozen=True):
    """Card action: play a card into a house (a Daimyo founds your Daimyo house)."""

    card: CardId
    owner: Seat
    house: House


class SendThief(EhreCommand, frozen=True):
    """Card action: a Ninja thief steals a warrior or possession into one of your houses."""

    card: CardId
    loot: CardId
    to: House


class SendAssassin(EhreCommand, frozen=True):
    """Card action: a Ninja assassin against a house."""

    card: CardId
    owner: Seat
    house: House


class PlayDishonour(EhreCommand, frozen=True):
    """Play Dishonour on another player (one card action, or two: option dishonour_actions)."""

    card: CardId
    victim: Seat


# -- declarations (EDS-DECLARE) ----------------------------------------------------------------


class DeclareShogun(EhreCommand, frozen=True):
    """Declare: "My Daimyo is now Shogun"."""


class Attack(EhreCommand, frozen=True):
    """Declare: "I attack" a player holding the Shogun or a castle."""

    target: Seat


class Ally(EhreCommand, frozen=True):
    """Declare, as a Ronin: "I ally with" a player who has a Daimyo and no ally."""

    target: Seat


class LeaveAlliance(EhreCommand, frozen=True):
    """Declare: "I leave the alliance" (it ends a round later)."""


class EndTurn(EhreCommand, frozen=True):
    """Phase 3: announce the end of your turn."""


# -- answers out of turn (EDS-SAVE, EDS-DISHONOUR, EDS-ATTACK) ---------------------------------


class SaveFace(EhreCommand, frozen=True):
    """Answer a window with a Save Face card."""

    card: CardId


class Pass(EhreCommand, frozen=True):
    """Answer a window without Save Face."""


class PayHonour(EhreCommand, frozen=True):
    """Answer a Dishonour by paying 75 honour."""


class Seppuku(EhreCommand, frozen=True):
    """Answer a Dishonour: your Daimyo or your Samurai commits seppuku."""

    house: House


class TakeCastle(EhreCommand, frozen=True):
    """After a won fight: take the loser's castle (swapping your own, if you have one)."""


class LeaveCastle(EhreCommand, frozen=True):
    """After a won fight: leave the loser's castle."""


COMMANDS = (
    Draw,
    Discard,
    Play,
    SendThief,
    SendAssassin,
    PlayDishonour,
    DeclareShogun,
    Attack,
    Ally,
    LeaveAlliance,
    EndTurn,
    SaveFace,
    Pass,
    PayHonour,
    Seppuku,
    TakeCastle,
    LeaveCastle,
)
