"""Generals of Kaladan: realms fight tile against tile with dice pools until one Crown stands.

Rules: docs/rules/kaladan.md (rule ids ``KAL-…``); components: ``data/*.toml``.
"""

from __future__ import annotations

from functools import partial
from typing import Any

from gamehall.core import Command, Event, GameSpec, Invariant, hookimpl
from gamehall.core.calculators import Calculator
from gamehall.core.drawing import Drawing
from gamehall.core.registry import Ruleset
from gamehall.core.words import seat_label

from . import draw, odds, words
from .commands import COMMANDS
from .components import Catalogue, realm_of
from .events import EVENTS
from .hooks import Defaults, KaladanSpecs
from .render import render
from .rules import Kaladan
from .state import NOBODY, Options, State
from .view import View
from .world import capacity


def _release(version: str) -> tuple[int, ...]:
    return tuple(int(part) for part in version.split(".")[:2] if part.isdigit())


def upcast_options(version: str, options: dict[str, Any]) -> dict[str, Any]:
    """Read the options of a match an older version recorded, keeping its old meaning.

    Before 1.1 a plain Forest held 3 (the compendium's figure) and the castle bonus die, when
    chosen, went only to a player defending its own Castle; neither had an option, so a match
    recorded then goes on as it began (docs/rules/kaladan.md, "Options").
    """
    if _release(version) < (1, 1):
        options.setdefault("terrain_capacity", "compendium")
        options.setdefault("castle_die_defender", "owner")
        options.setdefault("castle_defence_die", 0)
    return options


GAME = GameSpec(
    id="kaladan",
    name="Generals of Kaladan",
    version="1.1.0",
    rules=Kaladan,
    state=State,
    min_players=2,
    max_players=6,
    options=Options,
    hookspecs=(KaladanSpecs,),
    hookimpls=(Defaults(),),
    hidden_information=True,
    description="Realms fight tile against tile with dice pools until one Crown stands.",
    rules_doc="docs/rules/kaladan.md",
    upcast_options=upcast_options,
)


@hookimpl
def gamehall_games() -> list[GameSpec]:
    """Register Generals of Kaladan."""
    return [GAME]


def _catalogue(ruleset: Ruleset) -> Catalogue:
    rules = ruleset.rules
    assert isinstance(rules, Kaladan)
    return rules.catalogue


def _odds(request: odds.OddsRequest, ruleset: Ruleset) -> odds.OddsAnswer:
    return odds.calculate(request, _catalogue(ruleset))


ODDS = Calculator(
    game="kaladan",
    name="odds",
    description="Win, loss and casualty chances of one battle between two given armies.",
    request=odds.OddsRequest,
    answer=odds.OddsAnswer,
    run=_odds,
    text=odds.describe,
    values=lambda ruleset: odds.allowed_values(_catalogue(ruleset)),
    uses_ruleset=True,
)


@hookimpl
def gamehall_calculators() -> list[Calculator]:
    """Offer the battle odds calculator."""
    return [ODDS]


@hookimpl
def gamehall_event_types() -> list[type]:
    """Declare the game's events."""
    return list(EVENTS)


@hookimpl
def gamehall_command_types() -> list[type]:
    """Declare the game's commands."""
    return list(COMMANDS)


def two_armies_never_share(catalogue: Catalogue, state: State) -> str | None:
    """Check that every unit on a tile is of the tile's holder, and tiles respect capacity
    (the terrains of the match's ruleset, an expansion's included)."""
    for tile, units in enumerate(state.board):
        holder = state.holder[tile]
        if bool(units) != (holder != NOBODY):
            return f"tile {tile} has holder {holder} but units {units}"
        if holder != NOBODY and state.realms[holder]:
            foreign = [u for u in units if not _belongs(state, holder, u)]
            if foreign:
                return f"tile {tile} of {seat_label(holder)} holds {foreign[0]}"
        cap = capacity(catalogue, state, tile)
        if len(units) > cap:
            return f"tile {tile} holds {len(units)} units, more than its capacity {cap}"
    return None


def _belongs(state: State, seat: int, unit: str) -> bool:
    # Special units change hands when a Crown falls; every other unit stays in its realm.
    return realm_of(unit) == state.realms[seat] or not unit.rpartition("-")[2].isdigit()


def every_unit_once(state: State) -> str | None:
    """Check that no unit is in two places (tiles, reserves, paid, graveyards)."""
    places = [u for units in state.board for u in units]
    for group in (state.reserve, state.ready, state.graveyard):
        places += [u for units in group for u in units]
    if len(places) != len(set(places)):
        return "a unit is in two places at once"
    return None


def every_card_once(state: State) -> str | None:
    """Check that every magic card is in exactly one hand, pile, declaration or the spent pile."""
    cards = [c for hand in state.hands for c in hand] + [c for p in state.piles.values() for c in p]
    cards += list(state.spent)
    if state.battle is not None and not state.battle.revealed:
        cards += [c for c in state.battle.cards if c]
    if len(cards) != len(set(cards)):
        return "a magic card is in two places at once"
    return None


@hookimpl
def gamehall_invariants(rules: Any) -> list[Invariant]:
    """Declare what must hold after every event."""
    catalogue = rules.catalogue if isinstance(rules, Kaladan) else words.catalogue()
    return [
        Invariant(
            "kaladan-armies-apart",
            partial(two_armies_never_share, catalogue),
            "KAL-BATTLE-6 and capacity",
        ),
        Invariant("kaladan-units-once", every_unit_once),
        Invariant("kaladan-cards-once", every_card_once),
    ]


@hookimpl
def gamehall_draw_board(view: Any, seat: int | None, legal: list[Command]) -> Drawing | None:
    """Draw the world, the realms and the battle, commands on the tiles they aim at."""
    return draw.draw(view, seat, legal) if isinstance(view, View) else None


@hookimpl
def gamehall_render_text(view: Any, seat: int | None) -> str | None:
    """Draw the world, the realms and the battle as ``seat`` may see them."""
    return render(view) if isinstance(view, View) else None


@hookimpl
def gamehall_describe_command(command: Command, view: Any, seat: int | None) -> str | None:
    """Describe a command in the rulebook's words."""
    return words.describe_command(command, view, seat) if isinstance(view, View) else None


@hookimpl
def gamehall_describe_event(event: Event, view: Any, seat: int | None) -> str | None:
    """Tell an event in words."""
    return words.describe_event(event, view, seat) if isinstance(view, View) else None


@hookimpl
def gamehall_seat_names(view: Any) -> list[str] | None:
    """Name the seats by their realms."""
    if not isinstance(view, View):
        return None
    return [words.seat_name(view, s) for s in range(view.state.players)]


@hookimpl
def gamehall_command_group(command: Command, view: Any, seat: int | None) -> str | None:
    """Group long menus by tile and kind of action."""
    return words.command_group(command, view, seat) if isinstance(view, View) else None
