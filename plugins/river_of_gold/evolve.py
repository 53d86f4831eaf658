"""Apply River of Gold's events to the state: pure, no randomness, no checks."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from msgspec.structs import replace

from . import events as ev
from .components import GOODS
from .state import Player, State


def _player(state: State, seat: int, **changes: Any) -> State:
    players = list(state.players)
    players[seat] = replace(players[seat], **changes)
    return replace(state, players=tuple(players))


def _at(items: tuple[Any, ...], index: int, value: Any) -> tuple[Any, ...]:
    return items[:index] + (value,) + items[index + 1 :]


def board_dealt(state: State, e: ev.BoardDealt) -> State:
    tiles = list(state.tiles)
    for space, tile in e.placed:
        tiles[space - 1] = tile
    return replace(state, tiles=tuple(tiles), score_tiles=e.score_tiles, masteries=e.masteries)


def stacks_dealt(state: State, e: ev.StacksDealt) -> State:
    return replace(state, era1=e.era1, era2=e.era2)


def deck_shuffled(state: State, e: ev.DeckShuffled) -> State:
    return replace(state, deck=e.order, discard=())


def ships_launched(state: State, e: ev.ShipsLaunched) -> State:
    starts = state.players[e.seat].ships
    return _player(state, e.seat, ships=tuple(s + r for s, r in zip(starts, e.rolls, strict=True)))


def customers_drawn(state: State, e: ev.CustomersDrawn) -> State:
    hand = state.players[e.seat].hand + e.cards
    return replace(_player(state, e.seat, hand=hand), deck=state.deck[len(e.cards) :])


def die_set(state: State, e: ev.DieRolled | ev.DieShifted) -> State:
    return _player(state, e.seat, die=e.face)


def setup_finished(state: State, e: ev.SetupFinished) -> State:
    return replace(state, started=True)


def row_refilled(state: State, e: ev.RowRefilled) -> State:
    row = (e.tile, *state.row)
    if state.era1:
        era1 = state.era1[1:]
        return replace(state, row=row, era1=era1, visit_due=state.visit_due or not era1)
    era2 = state.era2[1:]
    return replace(state, row=row, era2=era2, end_due=state.end_due or not era2)


def resources_changed(state: State, e: ev.ResourcesChanged) -> State:
    p = state.players[e.seat]
    goods = tuple(have + getattr(e, good) for have, good in zip(p.goods, GOODS, strict=True))
    earned = p.earned
    if e.points:
        category = play_category(e.reason)
        earned = {**earned, category: earned.get(category, 0) + e.points}
    return _player(
        state,
        e.seat,
        koku=p.koku + e.koku,
        favour=p.favour + e.favour,
        goods=goods,
        points=p.points + e.points,
        earned=earned,
    )


PLAY_POINTS = "during play"
MASTERY_POINTS = "masteries"
END_POINTS = "ending the game"
# Reasons of the base game's point gains; an expansion's reasons are kept as they are.
_BASE_REASONS = ("visit space", "owner of space", "influence track", "merchant", "imperial")


def play_category(reason: str) -> str:
    """Return the scoring category of points gained during play for ``reason``."""
    if reason.startswith("mastery "):
        return MASTERY_POINTS
    if reason == "end of the game":
        return END_POINTS
    if reason.startswith(_BASE_REASONS) or not reason:
        return PLAY_POINTS
    return reason


def favour_cap_raised(state: State, e: ev.FavourCapRaised) -> State:
    return _player(state, e.seat, favour_cap=e.cap)


def influence_moved(state: State, e: ev.InfluenceMoved) -> State:
    influence = _at(state.players[e.seat].influence, e.region - 1, e.to)
    return _player(state, e.seat, influence=influence)


def building_built(state: State, e: ev.BuildingBuilt) -> State:
    row = tuple(t for t in state.row if t != e.tile)
    return replace(
        state,
        tiles=_at(state.tiles, e.space - 1, e.tile),
        markers=_at(state.markers, e.space - 1, (e.seat,)),
        row=row,
        acted=True,
    )


def tile_discarded(state: State, e: ev.TileDiscarded) -> State:
    return replace(state, row=tuple(t for t in state.row if t != e.tile))


def ship_sailed(state: State, e: ev.ShipSailed) -> State:
    ships = _at(state.players[e.seat].ships, e.ship, e.to)
    return replace(_player(state, e.seat, ships=ships), acted=True)


def customer_delivered(state: State, e: ev.CustomerDelivered) -> State:
    p = state.players[e.seat]
    hand = tuple(c for c in p.hand if c != e.card)
    state = _player(state, e.seat, hand=hand, delivered=(*p.delivered, e.card))
    return replace(state, acted=True)


def customer_discarded(state: State, e: ev.CustomerDiscarded) -> State:
    hand = tuple(c for c in state.players[e.seat].hand if c != e.card)
    return replace(_player(state, e.seat, hand=hand), discard=(*state.discard, e.card))


def marker_placed(state: State, e: ev.MarkerPlaced) -> State:
    marks = (*state.markers[e.space - 1], e.seat)
    return replace(state, markers=_at(state.markers, e.space - 1, marks))


def ship_upgraded(state: State, e: ev.ShipUpgraded) -> State:
    return _player(state, e.seat, royal=e.ship)


def mastery_claimed(state: State, e: ev.MasteryClaimed) -> State:
    index = state.masteries.index(e.mastery)
    claims = _at(state.claims, index, (*state.claims[index], e.seat))
    return replace(state, claims=claims)


def choice_opened(state: State, e: ev.ChoiceOpened) -> State:
    return replace(state, choices=(*state.choices, e.choice))


def choice_closed(state: State, e: ev.ChoiceClosed) -> State:
    return replace(state, choices=state.choices[1:])


def turn_ended(state: State, e: ev.TurnEnded) -> State:
    left = state.turns_left
    if state.ended_by is not None and e.seat != state.ended_by:
        left -= 1
    return replace(state, turn=e.next, acted=False, turns_left=left)


def imperial_visit_paid(state: State, e: ev.ImperialVisitPaid) -> State:
    return replace(state, era=2, visit_due=False)


def end_triggered(state: State, e: ev.EndTriggered) -> State:
    return replace(state, ended_by=e.seat, turns_left=state.count - 1)


def game_ended(state: State, e: ev.GameEnded) -> State:
    return replace(state, over=True, final=e.scores, winners=e.winners)


EVOLVE: dict[type[Any], Callable[[State, Any], State]] = {
    ev.BoardDealt: board_dealt,
    ev.StacksDealt: stacks_dealt,
    ev.DeckShuffled: deck_shuffled,
    ev.ShipsLaunched: ships_launched,
    ev.CustomersDrawn: customers_drawn,
    ev.DieRolled: die_set,
    ev.DieShifted: die_set,
    ev.RowRefilled: row_refilled,
    ev.SetupFinished: setup_finished,
    ev.ResourcesChanged: resources_changed,
    ev.FavourCapRaised: favour_cap_raised,
    ev.InfluenceMoved: influence_moved,
    ev.BuildingBuilt: building_built,
    ev.TileDiscarded: tile_discarded,
    ev.ShipSailed: ship_sailed,
    ev.CustomerDelivered: customer_delivered,
    ev.CustomerDiscarded: customer_discarded,
    ev.MarkerPlaced: marker_placed,
    ev.ShipUpgraded: ship_upgraded,
    ev.MasteryClaimed: mastery_claimed,
    ev.ChoiceOpened: choice_opened,
    ev.ChoiceClosed: choice_closed,
    ev.TurnEnded: turn_ended,
    ev.ImperialVisitPaid: imperial_visit_paid,
    ev.EndTriggered: end_triggered,
    ev.GameEnded: game_ended,
}


def new_player(koku: int) -> Player:
    """Return a clan as personal setup leaves it (ROG-SETUP-8)."""
    return Player(koku=koku)
