"""Houses and their values: honour, ki and strength, and which card may go where."""

from __future__ import annotations

import msgspec

from .cards import Catalogue
from .state import HOUSES, House, Options, Player, State


class Numbers(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """Every number of the rules that an expansion may change (``ehre_der_samurai_numbers``)."""

    hand_limit: int = 7
    """Cards a hand may hold after a draw (EDS-ACTION-3)."""
    max_actions: int = 5
    """Card actions a turn may hold at most (EDS-ACTION-1)."""
    ki_per_action: int = 3
    """Ki that gives one card action (EDS-ACTION-1)."""
    max_dice: int = 6
    """Dice a side rolls at most (EDS-ATTACK-3)."""
    strength_per_die: int = 3
    """Strength that gives one die (EDS-ATTACK-3)."""
    dishonour_price: int = 75
    """Honour the victim of a Dishonour may pay (EDS-DISHONOUR-2)."""
    dishonour_actions: int | None = None
    """Card actions a Dishonour costs (EDS-DISHONOUR-1); ``None``: the match's option
    ``dishonour_actions`` decides (see :func:`dishonour_cost`)."""
    assassin_price: int = 25
    """Honour an assassin costs its sender (EDS-NINJA-4)."""
    takeover_price: int = 50
    """Honour an assassin costs a Ronin who defeats the allied Samurai (EDS-ALLY-9)."""
    thief_price: int = 10
    """Honour a Ninja thief costs its sender (EDS-NINJA-2)."""
    leave_price: int = 25
    """Honour leaving an alliance costs (EDS-LEAVE-1)."""
    shogun_duty: int = 100
    """Honour from which the Shogun declaration is a duty (EDS-SHOGUN-3)."""
    okugata_per_house: int = 1
    """Okugata a house may hold (EDS-HOUSE-1)."""
    warriors_per_house: int = 5
    """Warriors a house may hold (EDS-HOUSE-2)."""
    bodyguards_per_house: int = 1
    """Bodyguards a house may hold (EDS-HOUSE-4)."""


def dishonour_cost(numbers: Numbers, options: Options) -> int:
    """Return the card actions playing Dishonour costs: an expansion's number, else the option."""
    if numbers.dishonour_actions is not None:
        return numbers.dishonour_actions
    return options.dishonour_actions


class Values:
    """Sums of card values over houses, from one catalogue (built once per ruleset)."""

    __slots__ = ("cards", "honour", "ki", "strength")

    def __init__(self, cards: Catalogue) -> None:
        self.cards = cards
        self.honour = {c.id: c.honour for c in cards.cards}
        self.ki = {c.id: c.ki for c in cards.cards}
        self.strength = {c.id: c.strength for c in cards.cards}

    def house_honour(self, player: Player, house: House) -> int:
        """Return the honour of one house, its head included."""
        honour = self.honour
        head = player.daimyo if house == "daimyo" else player.samurai
        if head is None:
            return 0
        return honour[head] + sum(honour[c] for c in player.house(house))

    def own_honour(self, player: Player) -> int:
        """Return the honour of all of a player's houses."""
        return sum(self.house_honour(player, house) for house in HOUSES)

    def ki_of(self, player: Player) -> int:
        """Return the ki of all of a player's played cards (EDS-ACTION-1)."""
        ki = self.ki
        total = sum(ki[c] for c in player.samurai_house) + ki[player.samurai]
        if player.daimyo is not None:
            total += ki[player.daimyo] + sum(ki[c] for c in player.daimyo_house)
        return total

    def strength_of(self, player: Player) -> int:
        """Return the strength of all of a player's played cards (EDS-ATTACK-3)."""
        strength = self.strength
        total = sum(strength[c] for c in player.samurai_house) + strength[player.samurai]
        if player.daimyo is not None:
            total += strength[player.daimyo] + sum(strength[c] for c in player.daimyo_house)
        return total


def count_kind(cards: Catalogue, house: tuple[str, ...], kind: str) -> int:
    """Return how many cards of a kind a house holds."""
    by_id = cards.by_id
    return sum(1 for c in house if by_id[c].kind == kind)


def castle_of(cards: Catalogue, player: Player) -> str | None:
    """Return the castle in a player's Daimyo house, if any."""
    by_id = cards.by_id
    return next((c for c in player.daimyo_house if by_id[c].kind == "castle"), None)


def bodyguard_of(cards: Catalogue, player: Player, house: House) -> str | None:
    """Return a bodyguard of a house, if it has one."""
    by_id = cards.by_id
    return next((c for c in player.house(house) if by_id[c].kind == "bodyguard"), None)


def limit_refusal(
    cards: Catalogue, numbers: Numbers, player: Player, house: House, card: str
) -> tuple[str, str] | None:
    """Return (reason, rule) when a house card cannot go into a house, else ``None``."""
    kind = cards.kind(card)
    if not player.has_house(house):
        return ("that player has no Daimyo house", "EDS-ACTION-4")
    held = player.house(house)
    if kind == "okugata" and count_kind(cards, held, kind) >= numbers.okugata_per_house:
        return ("a house holds at most one Okugata", "EDS-HOUSE-1")
    if kind == "warrior" and count_kind(cards, held, kind) >= numbers.warriors_per_house:
        return (f"a house holds at most {numbers.warriors_per_house} warriors", "EDS-HOUSE-2")
    if kind == "bodyguard" and count_kind(cards, held, kind) >= numbers.bodyguards_per_house:
        return ("a house holds at most one bodyguard", "EDS-HOUSE-4")
    if kind == "castle":
        if house != "daimyo":
            return ("a castle only goes into a Daimyo house", "EDS-HOUSE-3")
        if count_kind(cards, held, kind):
            return ("a Daimyo house holds one castle", "EDS-HOUSE-3")
    return None


def partners(state: State, seat: int) -> tuple[int, ...]:
    """Return the seats whose houses ``seat`` may play into: its own and its ally's."""
    ally = state.players[seat].ally
    return (seat,) if ally is None else (seat, ally)
