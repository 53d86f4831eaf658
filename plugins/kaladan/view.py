"""What each seat may see: views, redacted events, hidden tokens and the sampler (KAL-HIDDEN-1 … 4).

A seat sees the whole board, every reserve, graveyard and purse, its own hand, the piles it may
buy from, and the spent cards. It never sees another hand, another realm's pile, the event
deck's order or a card declared against it before both declarations are final; it sees the
sizes of all of these.
"""

from __future__ import annotations

import random
from collections.abc import Collection

import msgspec

from .components import Catalogue
from .state import NOBODY, State

replace = msgspec.structs.replace


class View(msgspec.Struct, frozen=True):
    """The match as one seat (``None``: a spectator) may see it: the state with its secrets
    blanked, and the sizes of what is blanked."""

    seat: int | None
    state: State
    hand_sizes: tuple[int, ...]
    pile_sizes: dict[str, int]
    deck_size: int
    uses: tuple[bool, bool] = (False, False)


def _sees_card(state: State, seat: int | None, side: int) -> bool:
    battle = state.battle
    return battle is not None and (battle.revealed or battle.seats[side] == seat)


def view(state: State, seat: int | None) -> View:
    """Return the match as ``seat`` may see it."""
    hands = tuple(h if s == seat else () for s, h in enumerate(state.hands))
    piles = {r: (p if state.pile_owner.get(r) == seat else ()) for r, p in state.piles.items()}
    battle, uses = state.battle, (False, False)
    if battle is not None:
        uses = (bool(battle.cards[0]), bool(battle.cards[1]))
        cards = tuple(c if _sees_card(state, seat, i) else "" for i, c in enumerate(battle.cards))
        battle = replace(battle, cards=cards)
    blanked = replace(state, hands=hands, piles=piles, deck=(), battle=battle)
    return View(
        seat=seat,
        state=blanked,
        hand_sizes=tuple(len(h) for h in state.hands),
        pile_sizes={r: len(p) for r, p in state.piles.items()},
        deck_size=len(state.deck),
        uses=uses,
    )


def hidden(state: State, seat: int | None) -> Collection[str]:
    """Return the ids of every card ``seat`` may not see: hands, piles, deck, declarations."""
    out = set(state.deck)
    for other, hand in enumerate(state.hands):
        if other != seat:
            out.update(hand)
    for realm, pile in state.piles.items():
        if state.pile_owner.get(realm) != seat:
            out.update(pile)
    battle = state.battle
    if battle is not None:
        out.update(c for i, c in enumerate(battle.cards) if c and not _sees_card(state, seat, i))
    return out


def sample(catalogue: Catalogue, seen: View, rng: random.Random) -> State:
    """Return a whole state consistent with a seat's view, its secrets drawn uniformly."""
    state, seat = seen.state, seen.seat
    drawn = set(state.discard)
    deck = [c for c in catalogue.deck() if c not in drawn]
    rng.shuffle(deck)
    hands = [list(h) for h in state.hands]
    piles = dict(state.piles)
    battle = state.battle
    hidden_sides = [
        i for i in (0, 1) if battle is not None and seen.uses[i] and not battle.cards[i]
    ]
    spent = set(state.spent) | set(battle.cards if battle is not None else ())
    pools: dict[int, list[str]] = {}
    for realm, owner in state.pile_owner.items():
        if owner == seat and seat is not None:
            continue
        cards = [f"{realm}/{c.key}" for c in catalogue.realms[realm].cards]
        unknown = [c for c in cards if c not in spent and (seat is None or c not in hands[seat])]
        rng.shuffle(unknown)
        size = seen.pile_sizes[realm]
        piles[realm] = tuple(sorted(unknown[:size]))
        pools.setdefault(owner, []).extend(unknown[size:])
    cards = list(battle.cards) if battle is not None else ["", ""]
    for side in hidden_sides:
        assert battle is not None
        owner = battle.seats[side]
        pool = pools[owner]
        cards[side] = pool.pop(rng.randrange(len(pool)))
    for owner, pool in pools.items():
        if owner != NOBODY:
            hands[owner] = sorted(pool)
    if battle is not None:
        battle = replace(battle, cards=(cards[0], cards[1]))
    return replace(
        state,
        hands=tuple(tuple(h) for h in hands),
        piles=piles,
        deck=tuple(deck),
        battle=battle,
    )
