"""Apply events to the state: pure, no randomness, no rules beyond bookkeeping."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import msgspec
from gamehall.core import Event

from . import events as ev
from .components import Catalogue
from .state import NOBODY, Battle, State, Units, put, without

replace = msgspec.structs.replace
Apply = Callable[[State, Any], State]


class Evolver:
    """Fold events into states, with the catalogue of the ruleset at hand."""

    def __init__(self, catalogue: Catalogue) -> None:
        self.catalogue = catalogue
        self.table: dict[type, Apply] = {
            ev.TurnOrderRolled: lambda s, e: replace(s, order=e.order, phase="realms"),
            ev.TilesShuffled: lambda s, e: s,
            ev.TilePlaced: _tile_placed,
            ev.RealmChosen: self._realm_chosen,
            ev.MagicDealt: self._card_drawn,
            ev.EventDeckShuffled: lambda s, e: replace(s, deck=e.order or (), discard=()),
            ev.CastlePlaced: _castle_placed,
            ev.TurnBegan: lambda s, e: replace(
                s, turn=e.seat, round=e.round, phase="event", moved=(), battled=False
            ),
            ev.PhaseBegan: lambda s, e: replace(s, phase=e.phase),
            ev.EventDrawn: lambda s, e: replace(
                s, deck=s.deck[1:], discard=(*s.discard, e.card), event=e.card, queue=e.seats
            ),
            ev.EventAnswered: lambda s, e: replace(
                s, queue=tuple(q for q in s.queue if q != e.seat)
            ),
            ev.GoldGained: lambda s, e: replace(
                s, gold=put(s.gold, e.seat, s.gold[e.seat] + e.gold)
            ),
            ev.UnitPlaced: _unit_placed,
            ev.UnitUpgraded: lambda s, e: replace(
                s,
                upgraded=tuple(sorted((*s.upgraded, e.unit))),
                gold=put(s.gold, e.seat, s.gold[e.seat] - e.cost),
            ),
            ev.UnitRaised: _unit_raised,
            ev.UnitMoved: lambda s, e: replace(
                _move(s, e.seat, (e.unit,), e.origin, e.to), moved=(*s.moved, e.unit)
            ),
            ev.UnitRecruited: _unit_recruited,
            ev.MagicSwapped: self._magic_swapped,
            ev.MagicBought: self._card_bought,
            ev.TurnEnded: lambda s, e: s,
            ev.AttackDeclared: lambda s, e: replace(
                s,
                battled=True,
                phase="battle",
                battle=Battle(seats=(e.seat, e.defender), tiles=(e.origin, e.target)),
            ),
            ev.MagicDeclared: _magic_declared,
            ev.MagicRevealed: lambda s, e: _battle(
                replace(s, spent=(*s.spent, *(c for c in (e.attacker, e.defender) if c))),
                revealed=True,
                step="reveal",
            ),
            ev.MagicInEffect: lambda s, e: _battle(
                s, step=e.step, effect_side=e.side, effect_left=e.left
            ),
            ev.UnitShifted: lambda s, e: _move(s, e.seat, (e.unit,), e.origin, e.to),
            ev.UnitAssassinated: _unit_assassinated,
            ev.MagicFinished: lambda s, e: _battle(
                s, step="keep-done" if s.battle and s.battle.step == "keep" else "effects-done"
            ),
            ev.BattleJoined: lambda s, e: _battle(
                s, fighters=(e.attackers, e.defenders), step="dice"
            ),
            ev.DiceRolled: lambda s, e: s,
            ev.DiceCompared: _dice_compared,
            ev.UnitsDefeated: _units_defeated,
            ev.UnitsRestored: _units_restored,
            ev.InvasionOrdered: lambda s, e: _battle(s, step="invade", effect_left=e.capacity),
            ev.Invaded: lambda s, e: replace(
                _move(s, e.seat, e.units, e.origin, e.target), moved=(*s.moved, *e.units)
            ),
            ev.CrownFell: _crown_fell,
            ev.BattleEnded: lambda s, e: replace(s, battle=None, phase="action"),
            ev.MatchEnded: lambda s, e: replace(
                s, over=True, phase="over", winners=e.winners, reason=e.reason, battle=None
            ),
        }

    def evolve(self, state: State, event: Event) -> State:
        """Return the state after one event."""
        apply = self.table.get(type(event))
        return state if apply is None else apply(state, event)

    def _realm_chosen(self, state: State, event: ev.RealmChosen) -> State:
        realm = self.catalogue.realms[event.realm]
        cards = tuple(sorted(f"{realm.key}/{c.key}" for c in realm.cards))
        return replace(
            state,
            realms=put(state.realms, event.seat, event.realm),
            reserve=put(state.reserve, event.seat, event.army),
            piles={**state.piles, event.realm: cards},
            pile_owner={**state.pile_owner, event.realm: event.seat},
        )

    def _card_drawn(self, state: State, event: ev.MagicDealt) -> State:
        return _take_card(self.catalogue, state, event.seat, event.card)

    def _card_bought(self, state: State, event: ev.MagicBought) -> State:
        state = _take_card(self.catalogue, state, event.seat, event.card)
        return replace(state, gold=put(state.gold, event.seat, state.gold[event.seat] - 4))

    def _magic_swapped(self, state: State, event: ev.MagicSwapped) -> State:
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


def _tile_placed(state: State, event: ev.TilePlaced) -> State:
    return replace(
        state,
        terrain=(*state.terrain, event.terrain),
        board=(*state.board, ()),
        holder=(*state.holder, NOBODY),
    )


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


def _castle_placed(state: State, event: ev.CastlePlaced) -> State:
    reserve = without(state.reserve[event.seat], *event.units)
    state = replace(
        state,
        castles={**state.castles, event.tile: event.seat},
        reserve=put(state.reserve, event.seat, reserve),
    )
    return _add(state, event.seat, event.units, event.tile)


def _unit_placed(state: State, event: ev.UnitPlaced) -> State:
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


def _unit_raised(state: State, event: ev.UnitRaised) -> State:
    grave = without(state.graveyard[event.graveyard], event.unit)
    return replace(
        state,
        graveyard=put(state.graveyard, event.graveyard, grave),
        reserve=put(state.reserve, event.seat, (*state.reserve[event.seat], event.unit)),
    )


def _unit_recruited(state: State, event: ev.UnitRecruited) -> State:
    seat = event.seat
    return replace(
        state,
        reserve=put(state.reserve, seat, without(state.reserve[seat], event.unit)),
        ready=put(state.ready, seat, (*state.ready[seat], event.unit)),
        gold=put(state.gold, seat, state.gold[seat] - event.cost),
    )


def _magic_declared(state: State, event: ev.MagicDeclared) -> State:
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


def _unit_assassinated(state: State, event: ev.UnitAssassinated) -> State:
    state = _killed(
        _defeat(state, event.owner, event.seat, (event.unit,)), event.owner, (event.unit,)
    )
    assert state.battle is not None
    return _battle(state, effect_left=state.battle.effect_left - 1)


def _dice_compared(state: State, event: ev.DiceCompared) -> State:
    battle = state.battle
    assert battle is not None
    owed = (
        min(event.attacker_losses, len(battle.fighters[0])),
        min(event.defender_losses, len(battle.fighters[1])),
    )
    return _battle(
        state, step="losses", owed=owed, chosen=(owed[0] == 0, owed[1] == 0), warded=event.warded
    )


def _units_defeated(state: State, event: ev.UnitsDefeated) -> State:
    state = _killed(_defeat(state, event.seat, event.by, event.units), event.seat, event.units)
    battle = state.battle
    if battle is not None and battle.step == "losses" and event.seat in battle.seats:
        side = battle.seats.index(event.seat)
        return _battle(state, chosen=put(battle.chosen, side, True))
    return state


def _units_restored(state: State, event: ev.UnitsRestored) -> State:
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


def _crown_fell(state: State, event: ev.CrownFell) -> State:
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
