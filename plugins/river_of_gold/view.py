"""What each seat may see: hands, the deck and the era stacks are hidden (ROG-HIDDEN-1), and
the sampler that draws a whole state from a view, for bots that must not peek.

A view keeps what a seat knows beyond what lies open: which cards each reshuffled deck holds
(``State.shuffles``), from which deck each hand's cards came (``Player.hand_decks``) and the
tiles discarded from the row (``State.gone``), so a sample never puts a card or tile where
the seat knows it cannot be.
"""

from __future__ import annotations

import random
from typing import Any

from gamehall.core import Event
from msgspec.structs import replace

from .components import CUSTOMERS, TILES
from .events import CustomersDrawn, DeckShuffled, StacksDealt
from .state import HIDDEN, Player, State, deck_of


def _masked(cards: tuple[str, ...]) -> tuple[str, ...]:
    return (HIDDEN,) * len(cards)


def view(state: State, seat: int | None, hook: Any = None) -> State:
    """Return the state with every component ``seat`` may not see replaced by ``?``.

    An expansion hides its own parts of ``ext`` through ``river_of_gold_view``.
    """
    players = tuple(
        p if i == seat else replace(p, hand=_masked(p.hand)) for i, p in enumerate(state.players)
    )
    ext = state.ext
    if hook is not None and ext:
        for shown in hook.river_of_gold_view(state=state, seat=seat):
            ext = {**ext, **shown}
    return replace(
        state,
        players=players,
        deck=_masked(state.deck),
        era1=_masked(state.era1),
        era2=_masked(state.era2),
        ext=ext,
    )


def redact(event: Event, seat: int | None) -> Event:
    """Blank the cards and tiles an event shows that ``seat`` may not see."""
    if type(event) is StacksDealt:
        return StacksDealt(era1=(), era2=(), sizes=(len(event.era1), len(event.era2)))
    if type(event) is DeckShuffled:
        return DeckShuffled(order=(), size=len(event.order))
    if type(event) is CustomersDrawn and event.seat != seat:
        return CustomersDrawn(seat=event.seat, cards=(), count=len(event.cards))
    return event


def hidden(state: State, seat: int | None) -> set[str]:
    """Return the ids of the cards and tiles hidden from ``seat``.

    A card of a reshuffled deck is named in the view (everyone saw it discarded), so only
    where it went is hidden, which no token can show: such cards are not counted here.
    """
    tokens = set(state.deck) | set(state.era1) | set(state.era2)
    for i, player in enumerate(state.players):
        if i != seat:
            tokens.update(player.hand)
    tokens.discard(HIDDEN)
    for deck in state.shuffles:
        tokens.difference_update(deck)
    return tokens


def sample(seen: State, seat: int, rng: random.Random, hook: Any = None) -> State:
    """Return a state ``seat`` could be in, given its view: what it cannot see drawn at random.

    Customers it has not seen are shuffled per deck they belong to and dealt into the deck and
    the other hands as the view counts them; the era stacks are drawn from the tiles of their
    era that are nowhere in sight; an expansion draws its own hidden parts (``river_of_gold_sample``).
    """
    pools = _customer_pools(seen, seat, rng)
    players = tuple(
        p if i == seat else replace(p, hand=_deal_hand(p, pools))
        for i, p in enumerate(seen.players)
    )
    latest = pools.get(len(seen.shuffles), [])
    deck = tuple(_take(latest, len(seen.deck), pools))
    on_table = {t for t in seen.tiles if t is not None} | set(seen.row) | set(seen.gone)
    state = replace(
        seen,
        players=players,
        deck=deck,
        era1=_draw_tiles(1, len(seen.era1), on_table, rng),
        era2=_draw_tiles(2, len(seen.era2), on_table, rng),
    )
    if hook is not None and seen.ext:
        ext = dict(seen.ext)
        for drawn in hook.river_of_gold_sample(view=seen, seat=seat, rng=rng):
            ext.update(drawn)
        state = replace(state, ext=ext)
    return state


def _customer_pools(seen: State, seat: int, rng: random.Random) -> dict[int, list[str]]:
    shown = set(seen.discard) | set(seen.players[seat].hand)
    for player in seen.players:
        shown.update(player.delivered)
    pools: dict[int, list[str]] = {}
    for card in CUSTOMERS:
        if card not in shown:
            pools.setdefault(deck_of(seen, card), []).append(card)
    for pool in pools.values():
        rng.shuffle(pool)
    return pools


def _deal_hand(player: Player, pools: dict[int, list[str]]) -> tuple[str, ...]:
    hand: list[str] = []
    for deck, count in enumerate(player.hand_decks):
        hand.extend(_take(pools.get(deck, []), count, pools))
    # A hand whose decks are not counted (a state folded by an older version) takes any card.
    hand.extend(_take([], len(player.hand) - len(hand), pools))
    return tuple(hand)


def _take(pool: list[str], count: int, pools: dict[int, list[str]]) -> list[str]:
    taken = [pool.pop() for _ in range(min(count, len(pool)))]
    for other in pools.values():
        while len(taken) < count and other:
            taken.append(other.pop())
    return taken


def _draw_tiles(era: int, size: int, on_table: set[str], rng: random.Random) -> tuple[str, ...]:
    unseen = [t.id for t in TILES.values() if t.era == era and t.id not in on_table]
    return tuple(rng.sample(unseen, size))
