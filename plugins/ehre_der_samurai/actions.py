"""Phase 2's card actions: draw, discard, play a card, send a Ninja, play Dishonour."""

from __future__ import annotations

from . import commands as cmd
from .cards import HOUSE_KINDS
from .events import (
    AssassinSent,
    AssassinStopped,
    CardDiscarded,
    CardDrawn,
    CardPlayed,
    DaimyoRaised,
    DeckRebuilt,
    DishonourPlayed,
    HouseTakenOver,
    ThiefSent,
)
from .game import Game
from .houses import bodyguard_of, dishonour_cost, limit_refusal, partners
from .losses import empty_samurai_house, lose_daimyo_house
from .state import House, Player, State
from .turn import Turn, end_alliance, game_of, refuse

ACTION_RULES = {
    "thief": ("send a Ninja thief after a warrior or a possession", "EDS-NINJA-1"),
    "assassin": ("send a Ninja assassin against a house", "EDS-NINJA-3"),
    "dishonour": ("play Dishonour on a player", "EDS-DISHONOUR-1"),
    "save-face": (
        "Save Face is only played in answer to a lost fight or a Dishonour",
        "EDS-SAVE-1",
    ),
}


def actions_allowed(game: Game, state: State) -> int:
    """Return the card actions of the active seat now: ki / 3, at most five (EDS-ACTION-1)."""
    numbers = game.numbers
    ki = game.values.ki_of(state.players[state.turn])
    return min(numbers.max_actions, ki // numbers.ki_per_action)


def actions_left(game: Game, state: State) -> int:
    """Return the card actions the active seat may still take (EDS-ACTION-1, -5)."""
    return actions_allowed(game, state) - state.actions_used


def _spend(turn: Turn, count: int = 1, rule: str = "EDS-ACTION-1") -> None:
    left = max(0, actions_left(game_of(turn), turn.state))
    if left < count:
        allowed = actions_allowed(game_of(turn), turn.state)
        needs = "" if count == 1 else f"this takes {count} card actions; "
        refuse(
            f"{needs}your ki gives {allowed} card action{'s' if allowed != 1 else ''} this "
            f"turn and {left or 'none'} {'is' if left == 1 else 'are'} left",
            rule,
        )


def _in_hand(player: Player, card: str) -> None:
    if card not in player.hand:
        refuse(f"{card} is not in your hand", "EDS-ACTION-4")


def draw(turn: Turn, seat: int, command: cmd.Draw) -> None:
    """Draw the top card; rebuild the deck from the discard pile when it is empty (EDS-ACTION-2)."""
    _spend(turn)
    player, numbers = turn.state.players[seat], game_of(turn).numbers
    if len(player.hand) >= numbers.hand_limit:
        refuse(f"a hand holds at most {numbers.hand_limit} cards", "EDS-ACTION-3")
    state = turn.state
    if not state.deck:
        if not state.discard:
            refuse("the deck and the discard pile are empty", "EDS-ACTION-2")
        order = list(state.discard)
        turn.rng.shuffle(order)
        turn.emit(DeckRebuilt(size=len(order), order=tuple(order)))  # EDS-ACTION-2
    turn.emit(CardDrawn(seat=seat, card=turn.state.deck[0]))


def discard(turn: Turn, seat: int, command: cmd.Discard) -> None:
    """Put a card from the hand on the discard pile without effect (EDS-ACTION-6)."""
    _spend(turn)
    _in_hand(turn.state.players[seat], command.card)
    turn.emit(CardDiscarded(seat=seat, card=command.card))


def play_refusal(game: Game, state: State, seat: int, command: cmd.Play) -> None:
    """Refuse a card that may not go into the named house (EDS-ACTION-4, EDS-HOUSE)."""
    kind = game.cards.kind(command.card)
    if kind in ACTION_RULES:
        reason, rule = ACTION_RULES[kind]
        refuse(reason, rule)
    if kind == "daimyo":
        if command.owner != seat or command.house != "daimyo":
            refuse("a Daimyo founds your own Daimyo house", "EDS-HOUSE-5")
        if state.players[seat].daimyo is not None:
            refuse("you already have a Daimyo", "EDS-HOUSE-5")
        return
    if kind not in HOUSE_KINDS:
        refuse(f"a {kind} card is not played from a hand", "EDS-ACTION-4")
    if command.owner >= state.count or command.owner not in partners(state, seat):
        refuse("cards go into your own houses or your ally's", "EDS-ALLY-4")
    found = limit_refusal(game.cards, game.numbers, state.players[command.owner], command.house,
                          command.card)  # fmt: skip
    if found is not None:
        refuse(*found)


def play(turn: Turn, seat: int, command: cmd.Play) -> None:
    """Play a card from the hand into a house under its conditions (EDS-ACTION-4)."""
    _spend(turn)
    _in_hand(turn.state.players[seat], command.card)
    play_refusal(game_of(turn), turn.state, seat, command)
    if game_of(turn).cards.kind(command.card) == "daimyo":
        end_alliance(turn, seat, "new-daimyo")  # EDS-ALLY-8
        turn.emit(DaimyoRaised(seat=seat, card=command.card))
        return
    turn.emit(CardPlayed(seat=seat, card=command.card, owner=command.owner, house=command.house))


def _kind_in_hand(turn: Turn, seat: int, card: str, kind: str) -> None:
    _in_hand(turn.state.players[seat], card)
    if game_of(turn).cards.kind(card) != kind:
        reason, rule = ACTION_RULES[kind]
        refuse(f"{card} is not a {game_of(turn).cards[card].name}: {reason}", rule)


def where(state: State, card: str) -> tuple[int, House] | None:
    """Return the owner and house of a card played into a house."""
    for seat, player in enumerate(state.players):
        if card in player.samurai_house:
            return seat, "samurai"
        if card in player.daimyo_house:
            return seat, "daimyo"
    return None


def theft_refusal(game: Game, state: State, seat: int, command: cmd.SendThief) -> None:
    """Refuse loot a thief may not take, or a house it may not go into (EDS-NINJA-1)."""
    found = where(state, command.loot)
    if found is None or game.cards.kind(command.loot) not in ("warrior", "possession"):
        refuse("a Ninja thief steals a warrior or a possession from a house", "EDS-NINJA-1")
    if found == (seat, command.to):
        refuse("the loot is in that house already", "EDS-NINJA-1")
    limit = limit_refusal(game.cards, game.numbers, state.players[seat], command.to, command.loot)
    if limit is not None:
        refuse(*limit)


def send_thief(turn: Turn, seat: int, command: cmd.SendThief) -> None:
    """Steal a warrior or a possession into one of your houses, for honour (EDS-NINJA-1, -2)."""
    _spend(turn)
    _kind_in_hand(turn, seat, command.card, "thief")
    theft_refusal(game_of(turn), turn.state, seat, command)
    owner, house = where(turn.state, command.loot) or (seat, "samurai")
    price = game_of(turn).numbers.thief_price
    turn.emit(ThiefSent(seat=seat, card=command.card, loot=command.loot, owner=owner,
                        house=house, to=command.to, cost=price))  # fmt: skip


def takeover(state: State, seat: int, owner: int, house: House) -> bool:
    """Tell whether an assassin of a Ronin goes after its ally's Samurai (EDS-ALLY-9)."""
    player = state.players[seat]
    return player.is_ronin and player.ally == owner and house == "samurai"


def send_assassin(turn: Turn, seat: int, command: cmd.SendAssassin) -> None:
    """Send an assassin against a house: a bodyguard stops it, else the house falls.

    Rule EDS-NINJA-3.
    """
    _spend(turn)
    _kind_in_hand(turn, seat, command.card, "assassin")
    owner, house, state = command.owner, command.house, turn.state
    if owner >= state.count or not state.players[owner].has_house(house):
        refuse("that player has no such house", "EDS-NINJA-3")
    numbers = game_of(turn).numbers
    taking = takeover(state, seat, owner, house)
    price = numbers.takeover_price if taking else numbers.assassin_price
    turn.emit(AssassinSent(seat=seat, card=command.card, owner=owner, house=house, cost=price))
    guard = bodyguard_of(game_of(turn).cards, turn.state.players[owner], house)
    if guard is not None:
        turn.emit(AssassinStopped(owner=owner, house=house, bodyguard=guard))  # EDS-NINJA-5
        return
    if house == "daimyo":
        lose_daimyo_house(turn, owner, "assassination")  # EDS-NINJA-3, EDS-ALLY-7
        return
    empty_samurai_house(turn, owner)
    if taking:
        end_alliance(turn, seat, "takeover")
        turn.emit(HouseTakenOver(seat=seat, ally=owner))  # EDS-ALLY-9
    elif turn.state.players[owner].is_ronin:
        end_alliance(turn, owner, "assassination")  # EDS-ALLY-7


def play_dishonour(turn: Turn, seat: int, command: cmd.PlayDishonour) -> None:
    """Play Dishonour on another player for its card actions (EDS-DISHONOUR-1)."""
    _spend(turn, dishonour_cost(game_of(turn).numbers, turn.state.options), "EDS-DISHONOUR-1")
    _kind_in_hand(turn, seat, command.card, "dishonour")
    if command.victim == seat or command.victim >= turn.state.count:
        refuse("Dishonour is played on another player", "EDS-DISHONOUR-1")
    turn.emit(DishonourPlayed(seat=seat, card=command.card, victim=command.victim))
