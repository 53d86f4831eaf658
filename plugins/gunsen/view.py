"""What each seat may see (GUN-HIDDEN-1..4), and states drawn to fit a seat's view.

Hidden: the order of the order deck, face-down village tokens (from everyone), and each
clan's unbought neutral tactics (from the other clans). Everything else is public.
"""

from __future__ import annotations

import random
from collections import Counter

from gamehall.core import Event
from msgspec.structs import replace

from . import events as ev
from .catalog import Catalog
from .state import HIDDEN, State


def _masked(items: tuple[str, ...]) -> tuple[str, ...]:
    return (HIDDEN,) * len(items)


def view(state: State, seat: int | None) -> State:
    """Return the state with every component ``seat`` may not see replaced by ``?``."""
    players = tuple(
        p if i == seat or not p.hand else replace(p, hand=_masked(p.hand))
        for i, p in enumerate(state.players)
    )
    villages = tuple((space, HIDDEN if token else "") for space, token in state.villages)
    return replace(state, players=players, deck=_masked(state.deck), villages=villages)


def redact(event: Event, seat: int | None) -> Event:
    """Blank what an event shows that ``seat`` may not see."""
    if isinstance(event, ev.DeckShuffled):
        return replace(event, order=())
    if isinstance(event, ev.VillagesDealt):
        return replace(event, tokens=_masked(event.tokens))
    if isinstance(event, ev.TacticsDealt) and event.seat != seat:
        return replace(event, cards=())
    return event


def hidden(state: State, seat: int | None) -> set[str]:
    """Return the ids of the cards, tokens and tactics hidden from ``seat``."""
    # A reshuffled deck holds only cards everyone has seen: only its order is hidden.
    tokens = set() if state.reshuffled else set(state.deck)
    tokens.update(token for _, token in state.villages if token)
    for i, player in enumerate(state.players):
        if i != seat:
            tokens.update(player.hand)
    tokens.discard(HIDDEN)
    return tokens


def _unseen(pool: list[str], seen: list[str]) -> list[str]:
    left = Counter(pool)
    left.subtract(seen)
    return sorted(left.elements())


def sample(cat: Catalog, seen: State, seat: int, rng: random.Random) -> State:
    """Return a state ``seat`` could be in: hidden parts drawn uniformly from what it has not
    seen, the rest exactly as its view shows."""
    shown_cards = [*seen.row, *seen.discard, *([seen.card] if seen.card else [])]
    for player in seen.players:
        shown_cards += [c for column in player.columns for c in column if c in cat.cards]
        shown_cards += [c for c in player.noble if c]
    deck = _unseen(list(cat.deck_for(seen.count)), shown_cards)
    rng.shuffle(deck)
    if len(deck) != len(seen.deck):
        raise ValueError(f"the view shows {len(seen.deck)} cards in the deck, {len(deck)} unseen")
    shown_tokens = [*seen.boxed, *(t for p in seen.players for t in p.tokens)]
    tokens = _unseen(list(cat.tokens), shown_tokens)
    faces_down = sum(1 for _, token in seen.villages if token == HIDDEN)
    drawn = iter(rng.sample(tokens, faces_down))
    villages = tuple((s, next(drawn) if t == HIDDEN else t) for s, t in seen.villages)
    own = list(seen.players[seat].hand)
    bought = [t for p in seen.players for t in p.tactics]
    neutral = [t for t in _unseen(list(cat.neutral), own + bought) if t in cat.neutral]
    rng.shuffle(neutral)
    pool = iter(neutral)
    players = tuple(
        p if i == seat else replace(p, hand=tuple(next(pool) for _ in p.hand))
        for i, p in enumerate(seen.players)
    )
    return replace(seen, deck=tuple(deck), villages=villages, players=players)
