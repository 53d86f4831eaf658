"""Apply River of Gold's events to the state: pure, no randomness, no checks."""

from __future__ import annotations

from typing import Any

from gamehall.core import Event, Rules, evolves
from msgspec.structs import replace

from . import events as ev
from .components import GOODS
from .state import Player, State, deck_of


def _player(state: State, seat: int, **changes: Any) -> State:
    players = list(state.players)
    players[seat] = replace(players[seat], **changes)
    return replace(state, players=tuple(players))


def _at(items: tuple[Any, ...], index: int, value: Any) -> tuple[Any, ...]:
    return items[:index] + (value,) + items[index + 1 :]


def _hand_decks(player: Player, deck: int, change: int) -> tuple[int, ...]:
    counts = list(player.hand_decks) + [0] * (deck + 1 - len(player.hand_decks))
    counts[deck] = max(0, counts[deck] + change)
    return tuple(counts)


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


def new_player(koku: int) -> Player:
    """Return a clan as personal setup leaves it (ROG-SETUP-8)."""
    return Player(koku=koku)


class RiverOfGoldEvents(Rules[State]):
    """How each of River of Gold's events changes the state: one ``@evolves`` method per
    event; :class:`~.rules.RiverOfGold` inherits them. An expansion's event goes to
    ``evolve_other``, which asks the expansions (``river_of_gold_evolve``)."""

    @evolves(ev.BoardDealt)
    def board_dealt(self, state: State, e: ev.BoardDealt) -> State:
        tiles = list(state.tiles)
        for space, tile in e.placed:
            tiles[space - 1] = tile
        return replace(state, tiles=tuple(tiles), score_tiles=e.score_tiles, masteries=e.masteries)

    @evolves(ev.StacksDealt)
    def stacks_dealt(self, state: State, e: ev.StacksDealt) -> State:
        return replace(state, era1=e.era1, era2=e.era2)

    @evolves(ev.DeckShuffled)
    def deck_shuffled(self, state: State, e: ev.DeckShuffled) -> State:
        # A deck shuffled from the discards holds cards everyone saw: remember which (not the order).
        shuffles = (*state.shuffles, tuple(sorted(e.order))) if state.discard else state.shuffles
        return replace(state, deck=e.order, discard=(), shuffles=shuffles)

    @evolves(ev.ShipsLaunched)
    def ships_launched(self, state: State, e: ev.ShipsLaunched) -> State:
        starts = state.players[e.seat].ships
        return _player(
            state, e.seat, ships=tuple(s + r for s, r in zip(starts, e.rolls, strict=True))
        )

    @evolves(ev.CustomersDrawn)
    def customers_drawn(self, state: State, e: ev.CustomersDrawn) -> State:
        p = state.players[e.seat]
        decks = _hand_decks(p, len(state.shuffles), len(e.cards))
        state = _player(state, e.seat, hand=p.hand + e.cards, hand_decks=decks)
        return replace(state, deck=state.deck[len(e.cards) :])

    @evolves(ev.DieRolled, ev.DieShifted)
    def die_set(self, state: State, e: ev.DieRolled | ev.DieShifted) -> State:
        return _player(state, e.seat, die=e.face)

    @evolves(ev.RowRefilled)
    def row_refilled(self, state: State, e: ev.RowRefilled) -> State:
        row = (e.tile, *state.row)
        if state.era1:
            era1 = state.era1[1:]
            return replace(state, row=row, era1=era1, visit_due=state.visit_due or not era1)
        era2 = state.era2[1:]
        return replace(state, row=row, era2=era2, end_due=state.end_due or not era2)

    @evolves(ev.SetupFinished)
    def setup_finished(self, state: State, e: ev.SetupFinished) -> State:
        return replace(state, started=True)

    @evolves(ev.ResourcesChanged)
    def resources_changed(self, state: State, e: ev.ResourcesChanged) -> State:
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

    @evolves(ev.FavourCapRaised)
    def favour_cap_raised(self, state: State, e: ev.FavourCapRaised) -> State:
        return _player(state, e.seat, favour_cap=e.cap)

    @evolves(ev.InfluenceMoved)
    def influence_moved(self, state: State, e: ev.InfluenceMoved) -> State:
        influence = _at(state.players[e.seat].influence, e.region - 1, e.to)
        return _player(state, e.seat, influence=influence)

    @evolves(ev.BuildingBuilt)
    def building_built(self, state: State, e: ev.BuildingBuilt) -> State:
        row = tuple(t for t in state.row if t != e.tile)
        return replace(
            state,
            tiles=_at(state.tiles, e.space - 1, e.tile),
            markers=_at(state.markers, e.space - 1, (e.seat,)),
            row=row,
            acted=True,
        )

    @evolves(ev.TileDiscarded)
    def tile_discarded(self, state: State, e: ev.TileDiscarded) -> State:
        row = tuple(t for t in state.row if t != e.tile)
        return replace(state, row=row, gone=(*state.gone, e.tile))

    @evolves(ev.ShipSailed)
    def ship_sailed(self, state: State, e: ev.ShipSailed) -> State:
        ships = _at(state.players[e.seat].ships, e.ship, e.to)
        return replace(_player(state, e.seat, ships=ships), acted=True)

    @evolves(ev.CustomerDelivered)
    def customer_delivered(self, state: State, e: ev.CustomerDelivered) -> State:
        p = state.players[e.seat]
        hand = tuple(c for c in p.hand if c != e.card)
        decks = _hand_decks(p, deck_of(state, e.card), -1)
        state = _player(
            state, e.seat, hand=hand, delivered=(*p.delivered, e.card), hand_decks=decks
        )
        return replace(state, acted=True)

    @evolves(ev.CustomerDiscarded)
    def customer_discarded(self, state: State, e: ev.CustomerDiscarded) -> State:
        p = state.players[e.seat]
        hand = tuple(c for c in p.hand if c != e.card)
        state = _player(
            state, e.seat, hand=hand, hand_decks=_hand_decks(p, deck_of(state, e.card), -1)
        )
        return replace(state, discard=(*state.discard, e.card))

    @evolves(ev.MarkerPlaced)
    def marker_placed(self, state: State, e: ev.MarkerPlaced) -> State:
        marks = (*state.markers[e.space - 1], e.seat)
        return replace(state, markers=_at(state.markers, e.space - 1, marks))

    @evolves(ev.ShipUpgraded)
    def ship_upgraded(self, state: State, e: ev.ShipUpgraded) -> State:
        return _player(state, e.seat, royal=e.ship)

    @evolves(ev.MasteryClaimed)
    def mastery_claimed(self, state: State, e: ev.MasteryClaimed) -> State:
        index = state.masteries.index(e.mastery)
        claims = _at(state.claims, index, (*state.claims[index], e.seat))
        return replace(state, claims=claims)

    @evolves(ev.ChoiceOpened)
    def choice_opened(self, state: State, e: ev.ChoiceOpened) -> State:
        return replace(state, choices=(*state.choices, e.choice))

    @evolves(ev.ChoiceClosed)
    def choice_closed(self, state: State, e: ev.ChoiceClosed) -> State:
        return replace(state, choices=state.choices[1:])

    @evolves(ev.TurnEnded)
    def turn_ended(self, state: State, e: ev.TurnEnded) -> State:
        left = state.turns_left
        if state.ended_by is not None and e.seat != state.ended_by:
            left -= 1
        return replace(state, turn=e.next, acted=False, turns_left=left)

    @evolves(ev.ImperialVisitPaid)
    def imperial_visit_paid(self, state: State, e: ev.ImperialVisitPaid) -> State:
        return replace(state, era=2, visit_due=False)

    @evolves(ev.EndTriggered)
    def end_triggered(self, state: State, e: ev.EndTriggered) -> State:
        return replace(state, ended_by=e.seat, turns_left=state.count - 1)

    @evolves(ev.GameEnded)
    def game_ended(self, state: State, e: ev.GameEnded) -> State:
        return replace(state, over=True, final=e.scores, winners=e.winners)

    def evolve_other(self, state: State, event: Event) -> State:
        """Apply an expansion's event (``river_of_gold_evolve``); unchanged when none knows it."""
        result = self.hook.river_of_gold_evolve(state=state, event=event)
        return state if result is None else result
