"""Questions the rules ask about a state: control, caps, buildings, heroes, strength.

Pure functions of a catalog and a state; nothing here changes anything.
"""

from __future__ import annotations

from .catalog import Catalog
from .components import Symbols
from .state import NOBODY, State

UNLIMITED = 10_000


def troops_at(state: State, seat: int, space: int) -> int:
    """Return how many troops of a seat stand on a space."""
    return state.troops[seat][space]


def occupants(state: State, space: int) -> list[int]:
    """Return the seats with troops on a space."""
    return [seat for seat, row in enumerate(state.troops) if row[space]]


def building_at(state: State, space: int) -> tuple[int, str] | None:
    """Return (builder, building) of the clan building on a space, if any."""
    for seat, player in enumerate(state.players):
        for building, where in player.buildings:
            if where == space:
                return seat, building
    return None


def controller(state: State, space: int) -> int:
    """Return the seat that controls a space (GUN-CONTROL-1), or ``NOBODY``.

    Only an army alone on the space controls it; an empty space with a clan building is
    controlled by the clan that built it.
    """
    here = occupants(state, space)
    if len(here) == 1:
        return here[0]
    if here:
        return NOBODY
    found = building_at(state, space)
    return found[0] if found is not None else NOBODY


def controls_army(state: State, seat: int, space: int) -> bool:
    """Tell whether a seat alone has troops on a space."""
    if not state.troops[seat][space]:
        return False
    return all(not row[space] for other, row in enumerate(state.troops) if other != seat)


def heroes_at(state: State, seat: int, space: int) -> list[str]:
    """Return a seat's heroes on a space."""
    return [hero for hero, where in state.players[seat].heroes if where == space]


def hero_space(state: State, seat: int, hero: str) -> int:
    """Return where a seat's hero stands (-1: not recruited)."""
    for name, where in state.players[seat].heroes:
        if name == hero:
            return where
    return -1


def on_board(state: State, seat: int) -> int:
    """Return how many troops of a seat stand on the board."""
    return sum(state.troops[seat])


def has_ability(cat: Catalog, state: State, seat: int, space: int, ability: str) -> str:
    """Return the seat's hero with an ability on a space ("" if none)."""
    for hero in heroes_at(state, seat, space):
        if cat.heroes[hero].ability == ability:
            return hero
    return ""


def cap(cat: Catalog, state: State, seat: int, space: int, hero: str = "") -> int:
    """Return how many troops of a seat a space may hold (GUN-MOVE-2, GUN-HERO-11).

    The fort and a camp the seat controls hold any number; Toturi the Black (arriving or
    already there) raises the cap by one.
    """
    if space == state.forts[seat]:
        return UNLIMITED
    found = building_at(state, space)
    camp = found is not None and cat.buildings[found[1]].kind == "camp"
    if camp and not _enemies(state, seat, space):
        return UNLIMITED  # an army arriving on a camp without enemies controls it (GUN-BUILD-4)
    limit = cat.limits.army
    if (hero and cat.heroes[hero].ability == "ronin") or has_ability(
        cat, state, seat, space, "ronin"
    ):
        limit += 1
    return limit


def _enemies(state: State, seat: int, space: int) -> bool:
    return any(row[space] for other, row in enumerate(state.troops) if other != seat)


def recruit_spaces(cat: Catalog, state: State, seat: int) -> list[int]:
    """Return where a seat may put a recruited troop: fort or controlled clan buildings."""
    out = [state.forts[seat]]
    for player in state.players:
        for _, space in player.buildings:
            if controller(state, space) == seat and state.troops[seat][space] < cap(
                cat, state, seat, space
            ):
                out.append(space)
    return out


def retreat_spaces(cat: Catalog, state: State, seat: int, troops: int, origin: int) -> list[int]:
    """Return where a beaten army of ``troops`` may retreat: its fort or a controlled building."""
    out = [state.forts[seat]]
    for player in state.players:
        for _, space in player.buildings:
            if space == origin or controller(state, space) != seat:
                continue
            if state.troops[seat][space] + troops <= cap(cat, state, seat, space):
                out.append(space)
    return out


def own_symbols(cat: Catalog, state: State, seat: int) -> Symbols:
    """Return the symbols of a seat's clan board: printed Armory, upgrade, cards, tactics."""
    player = state.players[seat]
    armory = cat.columns[0]
    total = armory.upgrade.symbols if state.upgrades[0] == seat else armory.top.symbols
    for column in player.columns:
        for card in column:
            total = total + cat.cards[card].symbols
    for tactic in player.tactics:
        total = total + cat.tactics[tactic].symbols
    for other in state.players:
        for building, space in other.buildings:
            if controller(state, space) == seat:
                total = total + cat.buildings[building].symbols
    return total


def card_strength(cat: Catalog, state: State, seat: int) -> int:
    """Return the strength symbols on the order cards of a seat's clan board."""
    return sum(cat.cards[c].symbols.strength for col in state.players[seat].columns for c in col)


def markers(state: State, seat: int) -> int:
    """Return how many achievement markers a seat has placed (the Toshi Ranbo tile included)."""
    return len(state.players[seat].achievements) + (state.holder == seat)


def turn_order(state: State) -> list[int]:
    """Return the seats from the active player onwards, clockwise."""
    n = state.count
    return [(state.turn + i) % n for i in range(n)]
