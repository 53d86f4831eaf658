"""River of Gold: merchants of a samurai clan build, sail and trade along a river (2-4 players)."""

from __future__ import annotations

from typing import Any

from gamehall.core import Command, Event, GameSpec, Invariant, hookimpl
from gamehall.core.drawing import Drawing
from gamehall.core.words import seat_label

from . import draw, narration, words
from .commands import COMMANDS
from .components import COMPONENTS, CUSTOMERS, TILES
from .events import EVENTS
from .hooks import Defaults, RiverOfGoldSpecs
from .render import render
from .rules import RiverOfGold
from .state import Options, State

GAME = GameSpec(
    id="river-of-gold",
    name="River of Gold",
    version="1.1.0",
    rules=RiverOfGold,
    state=State,
    min_players=2,
    max_players=4,
    hookspecs=(RiverOfGoldSpecs,),
    hookimpls=(Defaults(),),
    options=Options,
    hidden_information=True,
    description="Build on the shore, sail the river and deliver to customers in Rokugan.",
    rules_doc="docs/rules/river-of-gold.md",
)


@hookimpl
def gamehall_games() -> list[GameSpec]:
    """Register River of Gold."""
    return [GAME]


@hookimpl
def gamehall_event_types() -> list[type]:
    """Declare River of Gold's events."""
    return list(EVENTS)


@hookimpl
def gamehall_command_types() -> list[type]:
    """Declare River of Gold's commands."""
    return list(COMMANDS)


def supplies_in_range(state: State) -> str | None:
    """Check that no clan holds negative supplies or favour above its cap."""
    for seat, p in enumerate(state.players):
        if p.koku < 0 or min(p.goods) < 0 or not 0 <= p.favour <= p.favour_cap <= 6:
            return f"{seat_label(seat)} holds {p.koku} koku, goods {p.goods}, favour {p.favour}/{p.favour_cap}"
        if not all(0 <= i <= COMPONENTS.track.top for i in p.influence):
            return f"{seat_label(seat)} has influence {p.influence} off the tracks"
    return None


def customers_conserved(state: State) -> str | None:
    """Check that every customer card is in exactly one hand, pile or tableau."""
    cards = list(state.deck) + list(state.discard)
    for p in state.players:
        cards += list(p.hand) + list(p.delivered)
    if cards and sorted(cards) != sorted(CUSTOMERS):
        return f"{len(cards)} customer cards are in play, {len(set(cards))} distinct"
    return None


def markers_on_buildings(state: State) -> str | None:
    """Check that markers sit only on clan buildings, at most two per building."""
    for space, (tile, marks) in enumerate(zip(state.tiles, state.markers, strict=True), start=1):
        if len(marks) > 2 or (marks and (tile is None or TILES[tile].era not in (1, 2))):
            return f"space {space} holds markers {marks} on {tile}"
    return None


def row_holds_four(state: State) -> str | None:
    """Check that the row never holds more than four tiles, each tile once on the table."""
    placed = [t for t in state.tiles if t is not None]
    tiles = list(state.row) + list(state.era1) + list(state.era2) + placed
    if len(state.row) > COMPONENTS.setup.row or len(tiles) != len(set(tiles)):
        return f"the row holds {state.row}; a tile is in two places"
    return None


@hookimpl
def gamehall_invariants() -> list[Invariant]:
    """Declare what must hold after every event."""
    return [
        Invariant("rog-supplies-in-range", supplies_in_range, "caps and non-negative supplies"),
        Invariant("rog-customers-conserved", customers_conserved, "30 customers, each once"),
        Invariant("rog-markers-on-buildings", markers_on_buildings, "two markers at most"),
        Invariant("rog-row-holds-four", row_holds_four, "four slots, each tile in one place"),
    ]


@hookimpl
def gamehall_render_text(view: Any, seat: int | None) -> str | None:
    """Draw the board, the row, the river and every clan, with what each component does."""
    return render(view, seat) if isinstance(view, State) else None


@hookimpl
def gamehall_draw_board(view: Any, seat: int | None, legal: list[Command]) -> Drawing | None:
    """Draw the river, the shore, the row and each clan's holdings, commands as places."""
    return draw.draw(view, seat, legal) if isinstance(view, State) else None


@hookimpl
def gamehall_describe_command(command: Command, view: Any, seat: int | None) -> str | None:
    """Describe a command with the components it touches."""
    return words.describe_command(command, view, seat) if isinstance(view, State) else None


@hookimpl
def gamehall_describe_event(event: Event, view: Any, seat: int | None) -> str | None:
    """Tell an event in a sentence for the seat that reads it."""
    return narration.describe_event(event, view, seat) if isinstance(view, State) else None


@hookimpl
def gamehall_seat_names(view: Any) -> list[str] | None:
    """Call the seats by their clans."""
    return words.seat_names(view) if isinstance(view, State) else None


@hookimpl
def gamehall_command_group(command: Command, view: Any, seat: int | None) -> str | None:
    """Head long menus by action."""
    return words.command_group(command, view, seat) if isinstance(view, State) else None
