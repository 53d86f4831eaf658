"""Which heroes and special orders a clan may take now, and where a hero may stand."""

from __future__ import annotations

from .catalog import Catalog
from .components import COLOURS
from .queries import heroes_at
from .state import State


def recruited(state: State) -> set[str]:
    """Return every hero in play, whatever the clan."""
    return {hero for player in state.players for hero, _ in player.heroes}


def hero_candidates(cat: Catalog, state: State, seat: int) -> list[str]:
    """Return the heroes the pending recruit may bring (GUN-HERO-1, GUN-NOBLE-3).

    The noble action of two influence brings one of the clan's own heroes; a tactic brings one
    of them too, and a Mercenary tactic the mercenary it names.
    """
    player = state.players[seat]
    taken = recruited(state)
    if state.activation is None and state.noble == 2:
        source = "hero"
    else:
        tactic = cat.tactics[player.tactics[-1]]
        if tactic.effect == "mercenary":
            return [tactic.hero] if tactic.hero not in taken else []
        source = tactic.effect
    if source != "hero":
        return []
    return [h.id for h in cat.clans[player.clan].heroes if h.id not in taken]


def hero_spaces(state: State, seat: int) -> list[int]:
    """Return where a recruited hero may stand: the fort or a space with an own army."""
    fort = state.forts[seat]
    out = [fort]
    for space, troops in enumerate(state.troops[seat]):
        if troops and space != fort and not heroes_at(state, seat, space):
            out.append(space)
    return out


def special_candidates(cat: Catalog, state: State, seat: int) -> list[str]:
    """Return the clan's special orders not taken yet (GUN-SPECIAL-1)."""
    player = state.players[seat]
    return [s.id for s in cat.clans[player.clan].specials if s.id not in player.specials]


def special_columns(cat: Catalog, card: str) -> list[int]:
    """Return the columns a special order may lie on: its colour, or any for four colours."""
    return [COLOURS.index(c) for c in cat.cards[card].colour_set]
