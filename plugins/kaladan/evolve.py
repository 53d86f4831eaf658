"""Apply events to the state: pure, no randomness, no rules beyond bookkeeping.

:class:`KaladanEvents` is the base of the rules class (``rules.py``): one ``@evolves`` method
per event, which ``Rules.evolve`` finds by the event's type. The helpers below it move units
and cards.
"""

from __future__ import annotations

from typing import Any

import msgspec
from gamehall.core import Rules, evolves

from . import events as ev
from .components import Catalogue
from .state import NOBODY, Battle, State, Units, put, without

replace = msgspec.structs.replace


class KaladanEvents(Rules[State]):
    """Fold Kaladan's events into states, with the ruleset's catalogue at hand."""

    catalogue: Catalogue

    # -- setup --------------------------------------------------------------------------------

    @evolves(ev.TurnOrderRolled)
    def turn_order_rolled(self, state: State, event: ev.TurnOrderRolled) -> State:
        """Fix the order of play; the realms are chosen next."""
        return replace(state, order=event.order, phase="realms")

    @evolves(ev.TilesShuffled, ev.TurnEnded, ev.DiceRolled)
    def nothing_to_keep(self, state: State, event: ev.KaladanEvent) -> State:
        """Keep nothing: what the event tells is in the events that follow it."""
        return state

    @evolves(ev.TilePlaced)
    def tile_placed(self, state: State, event: ev.TilePlaced) -> State:
        """Add an empty tile of its terrain to the world."""
        return replace(
            state,
            terrain=(*state.terrain, event.terrain),
            board=(*state.board, ()),
            holder=(*state.holder, NOBODY),
        )

    @evolves(ev.RealmChosen)
    def realm_chosen(self, state: State, event: ev.RealmChosen) -> State:
        """Give the seat its realm, its army in reserve and the realm's pile of magic."""
        realm = self.catalogue.realms[event.realm]
        cards = tuple(sorted(f"{realm.key}/{c.key}" for c in realm.cards))
        return replace(
            state,
            realms=put(state.realms, event.seat, event.realm),
            reserve=put(state.reserve, event.seat, event.army),
            piles={**state.piles, event.realm: cards},
            pile_owner={**state.pile_owner, event.realm: event.seat},
        )

    @evolves(ev.MagicDealt)
    def magic_dealt(self, state: State, event: ev.MagicDealt) -> State:
        """Move a dealt card from its pile to the seat's hand."""
        return _take_card(self.catalogue, state, event.seat, event.card)

    @evolves(ev.EventDeckShuffled)
    def event_deck_shuffled(self, state: State, event: ev.EventDeckShuffled) -> State:
        """Lay the event deck out in its shuffled order, the discard pile empty."""
        return replace(state, deck=event.order or (), discard=())

    @evolves(ev.CastlePlaced)
    def castle_placed(self, state: State, event: ev.CastlePlaced) -> State:
        """Build the Castle on its tile with the units that guard it."""
        reserve = without(state.reserve[event.seat], *event.units)
        state = replace(
            state,
            castles={**state.castles, event.tile: event.seat},
            reserve=put(state.reserve, event.seat, reserve),
        )
        return _add(state, event.seat, event.units, event.tile)

    # -- turns --------------------------------------------------------------------------------

    @evolves(ev.TurnBegan)
    def turn_began(self, state: State, event: ev.TurnBegan) -> State:
        """Give the turn to the seat, in its event phase, nothing moved yet."""
        return replace(
            state, turn=event.seat, round=event.round, phase="event", moved=(), battled=False
        )

    @evolves(ev.PhaseBegan)
    def phase_began(self, state: State, event: ev.PhaseBegan) -> State:
        """Go on to the next phase of the turn."""
        return replace(state, phase=event.phase)

    @evolves(ev.EventDrawn)
    def event_drawn(self, state: State, event: ev.EventDrawn) -> State:
        """Draw the event card; the seats it asks answer in turn."""
        return replace(
            state,
            deck=state.deck[1:],
            discard=(*state.discard, event.card),
            event=event.card,
            queue=event.seats,
        )

    @evolves(ev.EventAnswered)
    def event_answered(self, state: State, event: ev.EventAnswered) -> State:
        """Take the seat that answered off the queue."""
        return replace(state, queue=tuple(q for q in state.queue if q != event.seat))

    @evolves(ev.GoldGained)
    def gold_gained(self, state: State, event: ev.GoldGained) -> State:
        """Add gold to the seat's purse."""
        return replace(state, gold=put(state.gold, event.seat, state.gold[event.seat] + event.gold))

    @evolves(ev.UnitPlaced)
    def unit_placed(self, state: State, event: ev.UnitPlaced) -> State:
        """Put a unit from the reserve (or paid for) on a tile; a levy counts down its card."""
        seat, unit = event.seat, event.unit
        state = replace(
            state,
            reserve=put(state.reserve, seat, without(state.reserve[seat], unit)),
            ready=put(state.ready, seat, without(state.ready[seat], unit)),
        )
        state = _add(state, seat, (unit,), event.tile)
        if event.cause == "levy" and state.battle is not None:
            return _battle(state, effect_left=state.battle.effect_left - 1)
        return state

    @evolves(ev.UnitUpgraded)
    def unit_upgraded(self, state: State, event: ev.UnitUpgraded) -> State:
        """Mark a special unit upgraded and take its price."""
        return replace(
            state,
            upgraded=tuple(sorted((*state.upgraded, event.unit))),
            gold=put(state.gold, event.seat, state.gold[event.seat] - event.cost),
        )

    @evolves(ev.UnitRaised)
    def unit_raised(self, state: State, event: ev.UnitRaised) -> State:
        """Bring a unit back from a graveyard to the seat's reserve."""
        grave = without(state.graveyard[event.graveyard], event.unit)
        return replace(
            state,
            graveyard=put(state.graveyard, event.graveyard, grave),
            reserve=put(state.reserve, event.seat, (*state.reserve[event.seat], event.unit)),
        )

    @evolves(ev.UnitMoved)
    def unit_moved(self, state: State, event: ev.UnitMoved) -> State:
        """Move a unit to the next tile; it has moved this turn."""
        state = _move(state, event.seat, (event.unit,), event.origin, event.to)
        return replace(state, moved=(*state.moved, event.unit))

    @evolves(ev.UnitRecruited)
    def unit_recruited(self, state: State, event: ev.UnitRecruited) -> State:
        """Pay for a unit of the reserve; it waits to be placed."""
        seat = event.seat
        return replace(
            state,
            reserve=put(state.reserve, seat, without(state.reserve[seat], event.unit)),
            ready=put(state.ready, seat, (*state.ready[seat], event.unit)),
            gold=put(state.gold, seat, state.gold[seat] - event.cost),
        )

    @evolves(ev.MagicSwapped)
    def magic_swapped(self, state: State, event: ev.MagicSwapped) -> State:
        """Return a card to its pile and take the one drawn, for 2 gold."""
        state = _take_card(self.catalogue, state, event.seat, event.drawn)
        returned = event.returned or ""
        hand = without(state.hands[event.seat], returned)
        pile = tuple(sorted((*state.piles[event.realm], returned)))
        return replace(
            state,
            hands=put(state.hands, event.seat, hand),
            piles={**state.piles, event.realm: pile},
            gold=put(state.gold, event.seat, state.gold[event.seat] - 2),
        )

    @evolves(ev.MagicBought)
    def magic_bought(self, state: State, event: ev.MagicBought) -> State:
        """Take the card bought into the hand, for 4 gold."""
        state = _take_card(self.catalogue, state, event.seat, event.card)
        return replace(state, gold=put(state.gold, event.seat, state.gold[event.seat] - 4))

    # -- battles ------------------------------------------------------------------------------

    @evolves(ev.AttackDeclared)
    def attack_declared(self, state: State, event: ev.AttackDeclared) -> State:
        """Open the turn's battle between the two tiles."""
        battle = Battle(seats=(event.seat, event.defender), tiles=(event.origin, event.target))
        return replace(state, battled=True, phase="battle", battle=battle)

    @evolves(ev.MagicDeclared)
    def magic_declared(self, state: State, event: ev.MagicDeclared) -> State:
        """Lay a side's card face down (or its pass) in the battle."""
        battle = state.battle
        assert battle is not None
        side = battle.seats.index(event.seat)
        card = event.card or ""
        state = replace(
            state, hands=put(state.hands, event.seat, without(state.hands[event.seat], card))
        )
        return _battle(
            state, declared=put(battle.declared, side, True), cards=put(battle.cards, side, card)
        )

    @evolves(ev.MagicRevealed)
    def magic_revealed(self, state: State, event: ev.MagicRevealed) -> State:
        """Turn both cards over: they are spent."""
        spent = (*state.spent, *(c for c in (event.attacker, event.defender) if c))
        return _battle(replace(state, spent=spent), revealed=True, step="reveal")

    @evolves(ev.MagicInEffect)
    def magic_in_effect(self, state: State, event: ev.MagicInEffect) -> State:
        """Let a side use its card: which step, and how many uses are left."""
        return _battle(state, step=event.step, effect_side=event.side, effect_left=event.left)

    @evolves(ev.UnitShifted)
    def unit_shifted(self, state: State, event: ev.UnitShifted) -> State:
        """Move a unit by a card's effect."""
        return _move(state, event.seat, (event.unit,), event.origin, event.to)

    @evolves(ev.UnitAssassinated)
    def unit_assassinated(self, state: State, event: ev.UnitAssassinated) -> State:
        """Kill a unit by a card's effect; the card has one use less."""
        unit = (event.unit,)
        state = _killed(_defeat(state, event.owner, event.seat, unit), event.owner, unit)
        assert state.battle is not None
        return _battle(state, effect_left=state.battle.effect_left - 1)

    @evolves(ev.MagicFinished)
    def magic_finished(self, state: State, event: ev.MagicFinished) -> State:
        """End the use of a card: the effects, or the keeping after the dice."""
        keeping = state.battle is not None and state.battle.step == "keep"
        return _battle(state, step="keep-done" if keeping else "effects-done")

    @evolves(ev.BattleJoined)
    def battle_joined(self, state: State, event: ev.BattleJoined) -> State:
        """Fix the units that fight on each side; the dice are next."""
        return _battle(state, fighters=(event.attackers, event.defenders), step="dice")

    @evolves(ev.DiceCompared)
    def dice_compared(self, state: State, event: ev.DiceCompared) -> State:
        """Owe the losses the dice dealt, at most the units that fought."""
        battle = state.battle
        assert battle is not None
        owed = (
            min(event.attacker_losses, len(battle.fighters[0])),
            min(event.defender_losses, len(battle.fighters[1])),
        )
        chosen = (owed[0] == 0, owed[1] == 0)
        return _battle(state, step="losses", owed=owed, chosen=chosen, warded=event.warded)

    @evolves(ev.UnitsDefeated)
    def units_defeated(self, state: State, event: ev.UnitsDefeated) -> State:
        """Take the units lost off the board; a side that chose its losses is done."""
        state = _killed(_defeat(state, event.seat, event.by, event.units), event.seat, event.units)
        battle = state.battle
        if battle is not None and battle.step == "losses" and event.seat in battle.seats:
            side = battle.seats.index(event.seat)
            return _battle(state, chosen=put(battle.chosen, side, True))
        return state

    @evolves(ev.UnitsRestored)
    def units_restored(self, state: State, event: ev.UnitsRestored) -> State:
        """Bring units killed in the battle back onto a tile."""
        graveyard = tuple(without(g, *event.units) for g in state.graveyard)
        reserve = put(state.reserve, event.seat, without(state.reserve[event.seat], *event.units))
        state = replace(state, graveyard=graveyard, reserve=reserve)
        state = _add(state, event.seat, event.units, event.tile)
        battle = state.battle
        if battle is None:
            return state
        side = battle.seats.index(event.seat)
        return _battle(
            state,
            killed=put(battle.killed, side, without(battle.killed[side], *event.units)),
            effect_left=battle.effect_left - len(event.units),
        )

    @evolves(ev.InvasionOrdered)
    def invasion_ordered(self, state: State, event: ev.InvasionOrdered) -> State:
        """Let the attacker choose who invades, as many as the tile holds."""
        return _battle(state, step="invade", effect_left=event.capacity)

    @evolves(ev.Invaded)
    def invaded(self, state: State, event: ev.Invaded) -> State:
        """Move the invaders onto the tile taken; they have moved this turn."""
        state = _move(state, event.seat, event.units, event.origin, event.target)
        return replace(state, moved=(*state.moved, *event.units))

    @evolves(ev.CrownFell)
    def crown_fell(self, state: State, event: ev.CrownFell) -> State:
        """Take a fallen realm off the board: its cards back, its piles and Castles to the victor."""
        seat, by = event.seat, event.by
        for tile, units in enumerate(state.board):
            if state.holder[tile] == seat:
                state = _remove(state, units, tile)
        reserve = put(state.reserve, seat, ())
        if by != NOBODY:
            reserve = put(reserve, by, (*reserve[by], *event.specials))
        piles, owners = dict(state.piles), dict(state.pile_owner)
        for card in state.hands[seat]:
            realm = card.split("/", 1)[0]
            piles[realm] = tuple(sorted((*piles[realm], card)))
        for realm, owner in state.pile_owner.items():
            if owner == seat:
                owners[realm] = by
        return replace(
            state,
            alive=put(state.alive, seat, False),
            reserve=reserve,
            ready=put(state.ready, seat, ()),
            hands=put(state.hands, seat, ()),
            piles=piles,
            pile_owner=owners,
            castles={**state.castles, **dict(event.castles)},
            upgraded=without(state.upgraded, *event.removed, *event.specials),
        )

    @evolves(ev.BattleEnded)
    def battle_ended(self, state: State, event: ev.BattleEnded) -> State:
        """Close the battle; the turn's actions go on."""
        return replace(state, battle=None, phase="action")

    @evolves(ev.MatchEnded)
    def match_ended(self, state: State, event: ev.MatchEnded) -> State:
        """End the match with its winners and why."""
        return replace(
            state, over=True, phase="over", winners=event.winners, reason=event.reason, battle=None
        )


def _take_card(catalogue: Catalogue, state: State, seat: int, card: str | None) -> State:
    if not card:
        return state
    realm = catalogue.realm_of_card(card)
    return replace(
        state,
        hands=put(state.hands, seat, tuple(sorted((*state.hands[seat], card)))),
        piles={**state.piles, realm: without(state.piles[realm], card)},
    )


def _battle(state: State, **changes: Any) -> State:
    assert state.battle is not None
    return replace(state, battle=replace(state.battle, **changes))


def _add(state: State, seat: int, units: Units, tile: int) -> State:
    return replace(
        state,
        board=put(state.board, tile, (*state.board[tile], *units)),
        holder=put(state.holder, tile, seat),
    )


def _remove(state: State, units: Units, tile: int) -> State:
    left = without(state.board[tile], *units)
    holder = state.holder[tile] if left else NOBODY
    return replace(
        state, board=put(state.board, tile, left), holder=put(state.holder, tile, holder)
    )


def _move(state: State, seat: int, units: Units, origin: int, to: int) -> State:
    return _add(_remove(state, units, origin), seat, units, to)


def _defeat(state: State, seat: int, by: int, units: Units) -> State:
    """Take units off the board: specials to their owner's reserve, the rest to ``by``'s graveyard."""
    for unit in units:
        tile = state.tile_of(unit)
        if tile != NOBODY:
            state = _remove(state, (unit,), tile)
    specials = tuple(u for u in units if not _numbered(u))
    dead = tuple(u for u in units if u not in specials)
    return replace(
        state,
        reserve=put(state.reserve, seat, (*state.reserve[seat], *specials)),
        graveyard=put(state.graveyard, by, (*state.graveyard[by], *dead)),
        upgraded=without(state.upgraded, *units),
    )


def _numbered(unit: str) -> bool:
    return unit.rpartition("-")[2].isdigit()


def _killed(state: State, seat: int, units: Units) -> State:
    battle = state.battle
    if battle is None or seat not in battle.seats:
        return state
    side = battle.seats.index(seat)
    return _battle(state, killed=put(battle.killed, side, (*battle.killed[side], *units)))
