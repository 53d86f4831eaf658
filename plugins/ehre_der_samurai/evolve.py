"""Apply Ehre der Samurai's events to the state: pure, no randomness, no rules checked."""

from __future__ import annotations

from typing import Any

import msgspec
from gamehall.core import Rules, evolves

from . import events as ev
from .cards import SHOGUN
from .houses import Numbers
from .state import WAITING, Fight, House, Insult, Player, State, put, without

replace = msgspec.structs.replace


def _player(state: State, seat: int, **changes: Any) -> State:
    players = put(state.players, seat, replace(state.players[seat], **changes))
    return replace(state, players=players)


def _into(player: Player, house: House, cards: tuple[str, ...]) -> Player:
    if house == "daimyo":
        return replace(player, daimyo_house=cards)
    return replace(player, samurai_house=cards)


def _spend(state: State, seat: int, card: str, cost: int, actions: int = 1) -> State:
    """Discard an action card from a hand, pay its honour and count its card actions."""
    player = state.players[seat]
    state = _player(state, seat, hand=without(player.hand, card), honour=player.honour - cost)
    return replace(
        state, discard=state.discard + (card,), actions_used=state.actions_used + actions
    )


def _house_field(house: House, cards: tuple[str, ...]) -> dict[str, tuple[str, ...]]:
    return {"daimyo_house" if house == "daimyo" else "samurai_house": cards}


def _dishonour(state: State, e: ev.DishonourPlayed, actions: int, bystanders: bool) -> State:
    state = _spend(state, e.seat, e.card, 0, actions)
    answers = tuple(
        WAITING if s == e.victim or (bystanders and s != e.seat) else None
        for s in range(state.count)
    )
    return replace(state, insult=Insult(e.seat, e.victim, e.card, answers))


def _set(values: tuple[Any, ...], index: int, value: Any) -> tuple[Any, ...]:
    return values[:index] + (value,) + values[index + 1 :]


class EhreEvents(Rules[State]):
    """How each of Ehre der Samurai's events changes the state: one ``@evolves`` method per
    event; :class:`~.rules.EhreDerSamurai` inherits them."""

    numbers: Numbers

    @evolves(ev.HousesFounded)
    def houses_founded(self, state: State, e: ev.HousesFounded) -> State:
        players = tuple(
            Player(samurai=s, daimyo=d) for d, s in zip(e.daimyo, e.samurai, strict=True)
        )
        return replace(state, players=players, reserve=e.reserve)

    @evolves(ev.DeckShuffled, ev.DeckRebuilt)
    def deck_shuffled(self, state: State, e: ev.DeckShuffled | ev.DeckRebuilt) -> State:
        discard = () if isinstance(e, ev.DeckRebuilt) else state.discard
        return replace(state, deck=e.order or (), discard=discard)

    @evolves(ev.HandDealt)
    def hand_dealt(self, state: State, e: ev.HandDealt) -> State:
        state = _player(state, e.seat, hand=e.cards or ())
        return replace(state, deck=state.deck[e.size :])

    @evolves(ev.TurnBegan)
    def turn_began(self, state: State, e: ev.TurnBegan) -> State:
        return replace(state, turn=e.seat, round=e.round, actions_used=0, declared=False)

    @evolves(ev.HonourCollected)
    def honour_collected(self, state: State, e: ev.HonourCollected) -> State:
        return _player(state, e.seat, honour=e.total)

    @evolves(ev.MatchWon)
    def match_won(self, state: State, e: ev.MatchWon) -> State:
        return replace(state, winner=e.seat)

    @evolves(ev.CardDrawn)
    def card_drawn(self, state: State, e: ev.CardDrawn) -> State:
        card = state.deck[0]
        state = _player(state, e.seat, hand=state.players[e.seat].hand + (card,))
        return replace(state, deck=state.deck[1:], actions_used=state.actions_used + 1)

    @evolves(ev.CardDiscarded)
    def card_discarded(self, state: State, e: ev.CardDiscarded) -> State:
        state = _player(state, e.seat, hand=without(state.players[e.seat].hand, e.card))
        return replace(
            state, discard=state.discard + (e.card,), actions_used=state.actions_used + 1
        )

    @evolves(ev.CardPlayed)
    def card_played(self, state: State, e: ev.CardPlayed) -> State:
        state = _player(state, e.seat, hand=without(state.players[e.seat].hand, e.card))
        owner = state.players[e.owner]
        owner = _into(owner, e.house, owner.house(e.house) + (e.card,))
        players = put(state.players, e.owner, owner)
        return replace(state, players=players, actions_used=state.actions_used + 1)

    @evolves(ev.DaimyoRaised)
    def daimyo_raised(self, state: State, e: ev.DaimyoRaised) -> State:
        hand = without(state.players[e.seat].hand, e.card)
        state = _player(state, e.seat, hand=hand, daimyo=e.card, daimyo_house=())
        return replace(state, actions_used=state.actions_used + 1)

    @evolves(ev.TurnEnded, ev.SeppukuCommitted, ev.CastleLeft)
    def nothing_changes(self, state: State, e: Any) -> State:
        return state

    @evolves(ev.ThiefSent)
    def thief_sent(self, state: State, e: ev.ThiefSent) -> State:
        state = _spend(state, e.seat, e.card, e.cost)
        owner = state.players[e.owner]
        state = _player(
            state, e.owner, **_house_field(e.house, without(owner.house(e.house), e.loot))
        )
        thief = state.players[e.seat]
        return _player(state, e.seat, **_house_field(e.to, thief.house(e.to) + (e.loot,)))

    @evolves(ev.AssassinSent)
    def assassin_sent(self, state: State, e: ev.AssassinSent) -> State:
        return _spend(state, e.seat, e.card, e.cost)

    @evolves(ev.AssassinStopped)
    def assassin_stopped(self, state: State, e: ev.AssassinStopped) -> State:
        owner = state.players[e.owner]
        cards = without(owner.house(e.house), e.bodyguard)
        state = _player(state, e.owner, **_house_field(e.house, cards))
        return replace(state, discard=state.discard + (e.bodyguard,))

    @evolves(ev.HouseTakenOver)
    def house_taken_over(self, state: State, e: ev.HouseTakenOver) -> State:
        ally = state.players[e.ally]
        state = _player(state, e.seat, daimyo=ally.daimyo, daimyo_house=ally.daimyo_house)
        state = _player(state, e.ally, daimyo=None, daimyo_house=())
        return replace(state, shogun=e.seat) if state.shogun == e.ally else state

    @evolves(ev.HouseDiscarded)
    def house_discarded(self, state: State, e: ev.HouseDiscarded) -> State:
        if e.house == "daimyo":
            state = _player(state, e.owner, daimyo=None, daimyo_house=())
        else:
            state = _player(state, e.owner, samurai_house=())
        return replace(state, discard=state.discard + e.cards)

    @evolves(ev.DishonourPlayed)
    def dishonour_played(self, state: State, e: ev.DishonourPlayed) -> State:
        """Open the Dishonour's window; its cost in card actions is an expansion's
        (``Numbers``) or, where none sets it, the match's option (EDS-DISHONOUR-1)."""
        cost = self.numbers.dishonour_actions
        cost = state.options.dishonour_actions if cost is None else cost
        return _dishonour(state, e, cost, state.options.bystander_save_face)

    @evolves(ev.Answered)
    def answered(self, state: State, e: ev.Answered) -> State:
        answer = e.answer or ""
        if state.fight is not None:
            answers = _set(state.fight.answers, e.seat, answer)
            return replace(state, fight=replace(state.fight, answers=answers))
        assert state.insult is not None
        insult = replace(state.insult, answers=_set(state.insult.answers, e.seat, answer))
        return replace(state, insult=insult)

    @evolves(ev.WindowClosed)
    def window_closed(self, state: State, e: ev.WindowClosed) -> State:
        if e.saved_by is not None and e.card is not None:
            hand = without(state.players[e.saved_by].hand, e.card)
            state = _player(state, e.saved_by, hand=hand)
            state = replace(state, discard=state.discard + (e.card,))
        if state.fight is not None:
            fight = replace(state.fight, stage="castle", saved_by=e.saved_by)
            return replace(state, fight=fight)
        return replace(state, insult=None)

    @evolves(ev.HonourPaid)
    def honour_paid(self, state: State, e: ev.HonourPaid) -> State:
        return _player(state, e.seat, honour=state.players[e.seat].honour - e.honour)

    @evolves(ev.ShogunDeclared)
    def shogun_declared(self, state: State, e: ev.ShogunDeclared) -> State:
        house = state.players[e.seat].daimyo_house + (SHOGUN,)
        state = _player(state, e.seat, daimyo_house=house)
        return replace(state, shogun=e.seat, declared=True)

    @evolves(ev.AttackDeclared)
    def attack_declared(self, state: State, e: ev.AttackDeclared) -> State:
        return replace(state, declared=True)

    @evolves(ev.FightRolled)
    def fight_rolled(self, state: State, e: ev.FightRolled) -> State:
        attacker = state.turn
        defender = e.winner if e.loser == attacker else e.loser
        answers = (WAITING,) * state.count
        return replace(state, fight=Fight(attacker, defender, e.winner, e.loser, answers))

    @evolves(ev.CastleTaken)
    def castle_taken(self, state: State, e: ev.CastleTaken) -> State:
        loser = state.players[e.loser]
        loser_house = without(loser.daimyo_house, e.castle)
        winner = state.players[e.seat]
        winner_house = winner.daimyo_house + (e.castle,)
        if e.swapped is not None:
            winner_house = without(winner_house, e.swapped)
            loser_house = loser_house + (e.swapped,)
        state = _player(state, e.loser, daimyo_house=loser_house)
        return _player(state, e.seat, daimyo_house=winner_house)

    @evolves(ev.ShogunPassed)
    def shogun_passed(self, state: State, e: ev.ShogunPassed) -> State:
        loser = state.players[e.loser]
        state = _player(state, e.loser, daimyo_house=without(loser.daimyo_house, SHOGUN))
        winner = state.players[e.winner]
        state = _player(state, e.winner, daimyo_house=winner.daimyo_house + (SHOGUN,))
        return replace(state, shogun=e.winner)

    @evolves(ev.ShogunReturned)
    def shogun_returned(self, state: State, e: ev.ShogunReturned) -> State:
        house = without(state.players[e.seat].daimyo_house, SHOGUN)
        return replace(_player(state, e.seat, daimyo_house=house), shogun=None)

    @evolves(ev.FightEnded)
    def fight_ended(self, state: State, e: ev.FightEnded) -> State:
        return replace(state, fight=None)

    @evolves(ev.AllianceFormed)
    def alliance_formed(self, state: State, e: ev.AllianceFormed) -> State:
        state = _player(state, e.ronin, ally=e.daimyo)
        return replace(_player(state, e.daimyo, ally=e.ronin), declared=True)

    @evolves(ev.AllianceLeaving)
    def alliance_leaving(self, state: State, e: ev.AllianceLeaving) -> State:
        honour = state.players[e.seat].honour - e.cost
        return replace(_player(state, e.seat, leaving=True, honour=honour), declared=True)

    @evolves(ev.AllianceEnded)
    def alliance_ended(self, state: State, e: ev.AllianceEnded) -> State:
        for seat in e.seats:
            state = _player(state, seat, ally=None, leaving=False)
        return state
