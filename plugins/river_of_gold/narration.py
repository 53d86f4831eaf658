"""River of Gold's events in words: one sentence each, for the seat that reads it.

The event is already redacted for that seat and ``view`` is the seat's view just before it, so
a drawn hand reads as cards to their owner and as a count to everyone else.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from gamehall.core import Event
from gamehall.core.words import plural

from . import events as ev
from .components import COMPONENTS, GOODS, MASTERIES, SPACES, TILES
from .state import State
from .words import (
    CHOICES,
    clan,
    customer_name,
    listed,
    mastery_words,
    reason_words,
    region_name,
    tile_kind,
)


def _board(view: State, e: ev.BoardDealt) -> str:
    masteries = listed([mastery_words(m) for m in e.masteries])
    placed = listed([f"{tile_kind(tile)} on space {space}" for space, tile in e.placed])
    return f"The board was set up: masteries {masteries}; {placed}."


def _stacks(view: State, e: ev.StacksDealt) -> str:
    sizes = e.sizes if not e.era1 else (len(e.era1), len(e.era2))
    return f"The era stacks were dealt face down: {sizes[0]} tiles for era 1, {sizes[1]} for era 2."


def _deck(view: State, e: ev.DeckShuffled) -> str:
    size = len(e.order) or e.size
    again = " from the discarded customers" if view.discard else ""
    return f"The customer deck was shuffled{again} ({plural(size, 'card')})."


def _launched(view: State, e: ev.ShipsLaunched) -> str:
    starts = view.players[e.seat].ships
    ends = [s + r for s, r in zip(starts, e.rolls, strict=True)]
    return (
        f"{clan(view, e.seat)}'s ships sailed from the start with rolls of {e.rolls[0]} and "
        f"{e.rolls[1]}, to river spaces {ends[0]} and {ends[1]}."
    )


def _drawn(view: State, e: ev.CustomersDrawn) -> str:
    who = clan(view, e.seat)
    if e.cards:
        return f"{who} drew {listed([customer_name(c) for c in e.cards])}."
    return f"{who} drew {plural(e.count, 'customer')}."


def _rolled(view: State, e: ev.DieRolled) -> str:
    return f"{clan(view, e.seat)} rolled a {e.face} ({COMPONENTS.regions[e.face - 1].name})."


def _setup(view: State, e: ev.SetupFinished) -> str:
    return f"Setup is done; {clan(view, view.turn)} takes the first turn."


def _refilled(view: State, e: ev.RowRefilled) -> str:
    tile = TILES[e.tile]
    return f"A {tile_kind(e.tile)} with build bonus {tile.bonus} entered the row."


def _shifted(view: State, e: ev.DieShifted) -> str:
    return (
        f"{clan(view, e.seat)} turned the die to {e.face} ({COMPONENTS.regions[e.face - 1].name})."
    )


def amounts(e: ev.ResourcesChanged) -> tuple[list[str], list[str]]:
    """Return what a change gains and what it costs, in words."""
    gains, losses = [], []
    named = [("koku", e.koku), ("favour", e.favour), *((g, getattr(e, g)) for g in GOODS)]
    for what, amount in [*named, ("points", e.points)]:
        word = plural(abs(amount), "point") if what == "points" else f"{abs(amount)} {what}"
        if amount > 0:
            gains.append(word)
        elif amount < 0:
            losses.append(word)
    return gains, losses


def _resources(view: State, e: ev.ResourcesChanged) -> str:
    gains, losses = amounts(e)
    parts = []
    if losses:
        parts.append(f"pays {listed(losses)}")
    if gains:
        parts.append(f"gains {listed(gains)}")
    why = f" for {reason_words(e.reason)}" if e.reason else ""
    return f"{clan(view, e.seat)} {' and '.join(parts) or 'gains nothing'}{why}."


def _cap(view: State, e: ev.FavourCapRaised) -> str:
    return f"{clan(view, e.seat)}'s favour cap rose to {e.cap}."


def _influence(view: State, e: ev.InfluenceMoved) -> str:
    why = f" for {reason_words(e.reason)}" if e.reason else ""
    return (
        f"{clan(view, e.seat)} moved up to {e.to} on the influence track of "
        f"{region_name(e.region)}{why}."
    )


def _built(view: State, e: ev.BuildingBuilt) -> str:
    region = region_name(SPACES[e.space].region)
    return f"{clan(view, e.seat)} built a {tile_kind(e.tile)} on space {e.space} in {region}."


def _discarded_tile(view: State, e: ev.TileDiscarded) -> str:
    return f"The {tile_kind(e.tile)} in the row's end slot was discarded."


def _sailed(view: State, e: ev.ShipSailed) -> str:
    player = view.players[e.seat]
    kind = "imperial ship" if player.royal == e.ship else "ship"
    past = " past the river's end, completing a journey," if e.journey else ""
    return f"{clan(view, e.seat)}'s {kind} sailed{past} to river space {e.to}."


def _delivered(view: State, e: ev.CustomerDelivered) -> str:
    return f"{clan(view, e.seat)} delivered to {customer_name(e.card)}."


def _discarded(view: State, e: ev.CustomerDiscarded) -> str:
    return f"{clan(view, e.seat)} discarded {customer_name(e.card)} face up."


def _marker(view: State, e: ev.MarkerPlaced) -> str:
    tile = view.tiles[e.space - 1]
    what = tile_kind(tile) if tile else "building"
    return f"{clan(view, e.seat)} put a second marker on the {what} on space {e.space}."


def _upgraded(view: State, e: ev.ShipUpgraded) -> str:
    at = view.players[e.seat].ships[e.ship]
    return f"{clan(view, e.seat)}'s imperial ship replaced its ship on river space {at}."


def _mastery(view: State, e: ev.MasteryClaimed) -> str:
    name = MASTERIES[e.mastery].name if e.mastery in MASTERIES else e.mastery
    return f"{clan(view, e.seat)} claimed the {name}."


def _opened(view: State, e: ev.ChoiceOpened) -> str:
    choice = e.choice
    what = CHOICES.get(choice.kind, choice.kind)
    why = f" ({reason_words(choice.source)})" if choice.source and choice.kind != "journey" else ""
    return f"{clan(view, choice.seat)} is to {what}{why}."


def _closed(view: State, e: ev.ChoiceClosed) -> str:
    return f"{clan(view, e.seat)} made its choice."


def _turn(view: State, e: ev.TurnEnded) -> str:
    return f"{clan(view, e.seat)}'s turn ended; {clan(view, e.next)} is next."


def _visit(view: State, e: ev.ImperialVisitPaid) -> str:
    return "The imperial visit paid every building's owners; era 2 begins."


def _end(view: State, e: ev.EndTriggered) -> str:
    return (
        f"The last era 2 tile entered the row: {clan(view, e.seat)} ended the game, and "
        "every other clan has one more turn."
    )


def _over(view: State, e: ev.GameEnded) -> str:
    scores = listed([f"{clan(view, s)} {n}" for s, n in enumerate(e.scores)])
    won = listed([clan(view, s) for s in e.winners])
    verb = "wins" if len(e.winners) == 1 else "share the win"
    return f"The game is over ({scores} points): {won} {verb}."


TELL: dict[type[Event], Callable[[State, Any], str]] = {
    ev.BoardDealt: _board,
    ev.StacksDealt: _stacks,
    ev.DeckShuffled: _deck,
    ev.ShipsLaunched: _launched,
    ev.CustomersDrawn: _drawn,
    ev.DieRolled: _rolled,
    ev.SetupFinished: _setup,
    ev.RowRefilled: _refilled,
    ev.DieShifted: _shifted,
    ev.ResourcesChanged: _resources,
    ev.FavourCapRaised: _cap,
    ev.InfluenceMoved: _influence,
    ev.BuildingBuilt: _built,
    ev.TileDiscarded: _discarded_tile,
    ev.ShipSailed: _sailed,
    ev.CustomerDelivered: _delivered,
    ev.CustomerDiscarded: _discarded,
    ev.MarkerPlaced: _marker,
    ev.ShipUpgraded: _upgraded,
    ev.MasteryClaimed: _mastery,
    ev.ChoiceOpened: _opened,
    ev.ChoiceClosed: _closed,
    ev.TurnEnded: _turn,
    ev.ImperialVisitPaid: _visit,
    ev.EndTriggered: _end,
    ev.GameEnded: _over,
}


def describe_event(event: Event, view: State, seat: int | None) -> str | None:
    """Tell one of the base game's events in a sentence."""
    tell = TELL.get(type(event))
    return None if tell is None else tell(view, event)
