"""The order row: which cards a player may take, replacing and refilling the row, new turns."""

from __future__ import annotations

from collections import Counter

from . import events as ev
from .catalog import Catalog
from .play import Play, ask, catalog_of
from .state import Player, State


def affordable(cat: Catalog, player: Player, card: str, extra_influence: int = 0) -> bool:
    """Tell whether a player can pay a card's price (after spending ``extra_influence``)."""
    price = cat.cards[card].price
    if price == "influence":
        return player.influence >= 1 + extra_influence
    if price == "wood":
        return player.wood >= 1 and player.influence >= extra_influence
    return player.influence >= extra_influence


def takeable(cat: Catalog, state: State, seat: int) -> list[str]:
    """Return the row's cards the seat can pay for (GUN-ORDER-2)."""
    player = state.players[seat]
    return [card for card in state.row if affordable(cat, player, card)]


def can_replace(cat: Catalog, state: State) -> bool:
    """Tell whether the row may be replaced now (GUN-ORDER-4)."""
    if state.replaced and state.options.row_replacements == "once":
        return False
    if len(state.row) < 4 or not (state.deck or state.discard or state.row):
        return False
    colours = Counter(cat.cards[c].colour for c in state.row)
    priced = sum(1 for c in state.row if cat.cards[c].price)
    return max(colours.values()) >= 4 or priced >= 4


def refill_row(p: Play) -> None:
    """Lay cards from the deck until the row holds five, reshuffling the discard (GUN-ORDER-5)."""
    size = catalog_of(p).limits.row
    while len(p.state.row) < size:
        state = p.state
        if not state.deck:
            if not state.discard:
                return
            order = list(state.discard)
            p.rng.shuffle(order)
            p.emit(ev.DeckShuffled(order=tuple(order), size=len(order), reshuffle=True))
            state = p.state
        need = min(size - len(state.row), len(state.deck))
        p.emit(ev.RowRefilled(cards=state.deck[:need]))


def replace_row(p: Play, seat: int) -> None:
    """Discard the whole row and lay five new cards."""
    p.emit(ev.RowReplaced(seat=seat, discarded=p.state.row))
    refill_row(p)


def ask_choose(p: Play) -> None:
    """Ask the active player for step 1; with nothing to take, for a column (GUN-ORDER-6)."""
    state = p.state
    cat = catalog_of(p)
    if takeable(cat, state, state.turn) or can_replace(cat, state):
        ask(p, state.turn, "choose")
    else:
        ask(p, state.turn, "column")


def begin_turn(p: Play, seat: int) -> None:
    """Start a player's turn (GUN-TURN-1)."""
    p.emit(ev.TurnBegan(seat=seat))
    ask_choose(p)
