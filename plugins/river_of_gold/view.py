"""What each seat may see: hands, the deck and the era stacks are hidden (ROG-HIDDEN-1)."""

from __future__ import annotations

from gamehall.core import Event
from msgspec.structs import replace

from .events import CustomersDrawn, DeckShuffled, StacksDealt
from .state import HIDDEN, State


def _masked(cards: tuple[str, ...]) -> tuple[str, ...]:
    return (HIDDEN,) * len(cards)


def view(state: State, seat: int | None) -> State:
    """Return the state with every component ``seat`` may not see replaced by ``?``."""
    players = tuple(
        p if i == seat else replace(p, hand=_masked(p.hand)) for i, p in enumerate(state.players)
    )
    return replace(
        state,
        players=players,
        deck=_masked(state.deck),
        era1=_masked(state.era1),
        era2=_masked(state.era2),
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
    """Return the ids of the cards and tiles hidden from ``seat``."""
    tokens = set(state.deck) | set(state.era1) | set(state.era2)
    for i, player in enumerate(state.players):
        if i != seat:
            tokens.update(player.hand)
    tokens.discard(HIDDEN)
    return tokens
