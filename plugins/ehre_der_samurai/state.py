"""The state of an Ehre der Samurai match, and the options it starts with."""

from __future__ import annotations

from typing import Annotated, Any, Literal

import msgspec

House = Literal["daimyo", "samurai"]
HOUSES: tuple[House, House] = ("daimyo", "samurai")
PROVINCES = ("Owari", "Kai", "Echigo", "Mikawa", "Satsuma", "Aki")
WAITING = ""  # an answer not given yet
PASS = "pass"
PAY = "pay"
SEPPUKU = {"daimyo": "seppuku-daimyo", "samurai": "seppuku-samurai"}


class Options(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """What players choose before a match (rule ids in docs/rules/ehre-der-samurai.md)."""

    honour_target: Annotated[
        int,
        msgspec.Meta(
            ge=1,
            title="Honour to win",
            description="Honour that wins the game at the end of phase 1.",
        ),
    ] = 400
    """Honour that wins at the end of phase 1 (EDS-WIN-1)."""
    start_seat: Annotated[
        int,
        msgspec.Meta(
            ge=0,
            le=5,
            title="Starting player",
            description="The oldest player, who starts (the API counts from 0: 0 is seat 1).",
        ),
    ] = 0
    """The seat of the oldest player, who starts (EDS-SETUP-5)."""
    shogun_obligation: Annotated[
        bool,
        msgspec.Meta(
            title="Shogun must be declared",
            description="A player at 100 honour must declare themself Shogun; off: a choice.",
        ),
    ] = True
    """False makes the Shogun declaration a choice even at 100 honour (EDS-SHOGUN-3)."""
    bystander_save_face: Annotated[
        bool,
        msgspec.Meta(
            title="Anyone may Save Face",
            description="After a Dishonour every other player is asked too and may play Save "
            "Face; off: the victim alone.",
        ),
    ] = True
    """After a Dishonour every other player is asked too, and may play Save Face; False asks
    the victim alone (EDS-DISHONOUR-4)."""
    save_face_cancels_fight: Annotated[
        bool,
        msgspec.Meta(
            title="Save Face cancels the whole fight",
            description="Save Face cancels the fight's whole result, castle and Shogun too.",
        ),
    ] = False
    """True makes Save Face cancel the whole result of a fight, castle and Shogun too
    (EDS-ATTACK-8)."""
    dishonour_ends_alliance: Annotated[
        Literal["any", "partner"],
        msgspec.Meta(
            title="Dishonour that ends an alliance",
            description="any: anyone's Dishonour ends it; partner: only the other partner's.",
        ),
    ] = "any"
    """Whose Dishonour ends an alliance: anyone's, or only the other partner's (EDS-ALLY-6)."""
    dishonour_actions: Annotated[
        Literal[1, 2],
        msgspec.Meta(
            title="Dishonour's card actions",
            description="1: playing Dishonour is one card action, as any card (the rulebook); "
            "2: two, as an outside summary gives it.",
        ),
    ] = 1
    """Card actions playing Dishonour costs (EDS-DISHONOUR-1)."""


class Player(msgspec.Struct, frozen=True, gc=False):
    """One player: the Samurai house, the Daimyo house (none for a Ronin), hand and honour.

    A house lists the cards played into it, its head (Samurai or Daimyo card) apart.
    """

    samurai: str
    samurai_house: tuple[str, ...] = ()
    daimyo: str | None = None
    daimyo_house: tuple[str, ...] = ()
    hand: tuple[str, ...] = ()
    honour: int = 0
    ally: int | None = None
    leaving: bool = False

    @property
    def is_ronin(self) -> bool:
        """Tell whether the Samurai has no Daimyo (the card shows its Ronin side)."""
        return self.daimyo is None

    def house(self, house: House) -> tuple[str, ...]:
        """Return the cards played into one house."""
        return self.daimyo_house if house == "daimyo" else self.samurai_house

    def has_house(self, house: House) -> bool:
        """Tell whether the player has this house."""
        return house == "samurai" or self.daimyo is not None

    def heads(self) -> tuple[str, ...]:
        """Return the head cards of the player's houses."""
        return (self.samurai,) if self.daimyo is None else (self.daimyo, self.samurai)


class Fight(msgspec.Struct, frozen=True, gc=False):
    """A fight after its dice: the Save Face window, then the winner's castle choice.

    ``answers`` holds one answer per seat: "" while awaited, "pass", or a Save Face card.
    """

    attacker: int
    defender: int
    winner: int
    loser: int
    answers: tuple[str, ...]
    stage: Literal["window", "castle"] = "window"
    saved_by: int | None = None


class Insult(msgspec.Struct, frozen=True, gc=False):
    """A Dishonour waiting for its answers: the victim's, and bystanders' Save Face or pass.

    ``answers`` per seat: ``None`` not asked, "" awaited, else "pass", "pay",
    "seppuku-daimyo", "seppuku-samurai" or a Save Face card.
    """

    dishonourer: int
    victim: int
    card: str
    answers: tuple[str | None, ...]


class State(msgspec.Struct, frozen=True):
    """Everything in a match; seats' views hide parts of it (see ``view.py``).

    The deck is drawn from its front; ``shogun`` is the seat whose Daimyo house holds the
    Shogun card, ``None`` while it lies in the middle.
    """

    options: Options
    players: tuple[Player, ...]
    reserve: tuple[str, ...] = ()
    deck: tuple[str, ...] = ()
    discard: tuple[str, ...] = ()
    shogun: int | None = None
    turn: int = 0
    round: int = 1
    actions_used: int = 0
    declared: bool = False
    fight: Fight | None = None
    insult: Insult | None = None
    winner: int | None = None
    ext: dict[str, Any] = {}

    @property
    def over(self) -> bool:
        """Tell whether someone has won."""
        return self.winner is not None

    @property
    def count(self) -> int:
        """Return the number of players."""
        return len(self.players)


def put(players: tuple[Player, ...], seat: int, player: Player) -> tuple[Player, ...]:
    """Return ``players`` with one seat replaced."""
    return players[:seat] + (player,) + players[seat + 1 :]


def without(cards: tuple[str, ...], card: str) -> tuple[str, ...]:
    """Return ``cards`` without one card."""
    at = cards.index(card)
    return cards[:at] + cards[at + 1 :]


def seat_order(state: State, first: int) -> list[int]:
    """Return every seat in turn order, starting at ``first``."""
    n = state.count
    return [(first + step) % n for step in range(n)]
