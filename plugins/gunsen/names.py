"""Names people read: spaces, clans, cards, heroes, symbols, from a seat's view.

Words use the components of the box; a component an expansion adds is named from its id
unless the expansion names it itself through the word hooks (which it may wrap).
"""

from __future__ import annotations

from functools import cache

from .board import load_sides
from .catalog import Catalog
from .components import COLUMN_NAMES, SYMBOLS, Action, Symbols, load_pieces
from .hooks import Defaults
from .state import NOBODY, State

PROMPTS = {
    "clan": "choose your clan",
    "choose": "take an order card from the row",
    "place": "place the order card on its column or on a noble-action space",
    "noble_card": "take a second order card from the row",
    "column": "choose the column to activate",
    "hero": "recruit a hero and place it",
    "special": "put a special order on a column",
    "act": "use or skip the column's next action",
    "tribute": "pay Bayushi Aramoro's tribute or lose your heroes' symbols",
    "ride": "let Moto Chagatai ride to the combat or not",
    "reroll": "reroll dice or stop",
    "keep": "keep your dice",
    "swap": "swap two kept dice with Togashi Yokuni or not",
    "retreat": "retreat your troops",
    "relocate": "place your hero left without troops",
    "steal": "take a village token of the loser",
}


@cache
def box() -> Catalog:
    """Return the catalog of the box (no expansion)."""
    defaults = Defaults()
    return Catalog(
        defaults.gunsen_clans(),
        defaults.gunsen_order_cards(),
        defaults.gunsen_neutral_tactics(),
        defaults.gunsen_mercenaries(),
        load_sides(),
        load_pieces(),
    )


def pretty(component: str) -> str:
    """Return words for an id no catalog knows: ``kaiu-siege-engine`` -> ``kaiu siege engine``."""
    return component.replace("-", " ")


def name(component: str) -> str:
    """Return a component's printed name."""
    found = box().name(component)
    return pretty(found) if found == component and component not in box().cards else found


def seat_name(view: State, seat: int) -> str:
    """Return a seat's clan, or "player N" before the clans are chosen."""
    if 0 <= seat < view.count and view.players[seat].clan:
        return name(view.players[seat].clan)
    return f"seat {seat + 1}" if seat != NOBODY else "nobody"


def space_name(view: State, space: int) -> str:
    """Return a space as players name it: its label, with what it is."""
    cat = box()
    board = cat.boards.get(view.side)
    if board is None or not 0 <= space < len(board.spaces):
        return f"space {space}"
    label = board.labels[space]
    kind = board.kinds[space]
    if kind == "toshi_ranbo":
        return f"Toshi Ranbo ({label})"
    if kind == "fort":
        owner = [s for s, f in enumerate(view.forts) if f == space]
        return f"{seat_name(view, owner[0])} fort ({label})" if owner else f"unused fort {label}"
    if kind == "watchtower" and space in view.towers:
        return f"watchtower {label}"
    if kind == "shrine":
        colour = dict(view.shrines).get(space)
        return f"shrine {label}" + (f" ({COLUMN_NAMES[_colour(colour)]})" if colour else "")
    if kind == "village":
        return f"village {label}"
    return label


def _colour(colour: str) -> int:
    return ("blue", "yellow", "purple", "brown").index(colour)


def symbols_text(symbols: Symbols) -> str:
    """Return combat symbols as words: "+1 strength, +2 armour"."""
    parts = [f"+{getattr(symbols, s)} {s}" for s in SYMBOLS if getattr(symbols, s)]
    return ", ".join(parts)


def action_text(action: Action) -> str:
    """Return what an action does."""
    kind, amount = action.kind, action.amount
    if kind in ("koku", "wood", "influence"):
        return f"{amount} {kind}"
    if kind == "wood_or_koku":
        return f"{amount} wood or {amount} koku"
    if kind == "recruit":
        return f"recruit {amount}" if amount > 1 else "recruit a troop"
    if kind == "move":
        return f"{amount} moves" if amount > 1 else "1 move"
    if kind == "buy_move":
        return f"extra moves for 1 {action.resource} each"
    if kind == "build":
        return "buildings for wood"
    return "tactics for koku"


def card_text(component: str) -> str:
    """Return an order card or special order with what it does and costs."""
    cat = box()
    card = cat.cards.get(component)
    if card is None:
        return pretty(component)
    parts = [action_text(a) for a in card.actions]
    if card.symbols:
        parts.append(f"in combat {symbols_text(card.symbols)}")
    if card.colours:
        where = "any column" if len(card.colours) == 4 else COLUMN_NAMES[_colour(card.colours[0])]
        where += ", once" if card.one_shot else ""
    else:
        where = COLUMN_NAMES[_colour(card.colour)]
    if card.price:
        parts.append(f"costs 1 {card.price}")
    return f"{cat.name(component)} ({where}: {', '.join(parts) or 'nothing'})"


def column_text(cards: tuple[str, ...]) -> str:
    """Return what a column's cards give together: their actions and combat symbols."""
    cat = box()
    actions: dict[str, int] = {}
    symbols = Symbols()
    names = []
    for component in cards:
        card = cat.cards.get(component)
        if card is None:
            names.append(pretty(component))
            continue
        if card.name:
            names.append(card.name + (" (once)" if card.one_shot else ""))
        for action in card.actions:
            text = action_text(Action(action.kind, 1, action.resource)).removeprefix("1 ")
            actions[text] = actions.get(text, 0) + action.amount
        symbols = symbols + card.symbols
    parts = [f"{n} x {text}" if n > 1 else text for text, n in actions.items()]
    if symbols:
        parts.append(f"in combat {symbols_text(symbols)}")
    head = f"{len(cards)} card{'s' if len(cards) > 1 else ''}"
    if names:
        head += f" incl. {', '.join(names)}"
    return f"{head}: {'; '.join(parts) or 'nothing'}"


def hero_text(hero: str) -> str:
    """Return a hero with its symbols."""
    found = box().heroes.get(hero)
    if found is None:
        return pretty(hero)
    extra = symbols_text(found.symbols)
    return f"{found.name} ({extra})" if extra else found.name


def tactic_text(tactic: str) -> str:
    """Return a tactic with its cost and effect."""
    found = box().tactics.get(tactic)
    if found is None:
        return pretty(tactic)
    effect = {
        "hero": "recruit a clan hero",
        "mercenary": f"recruit {name(found.hero)}",
        "innovation": "put a special order on a column",
        "": symbols_text(found.symbols),
    }[found.effect]
    return f"{found.name} ({found.cost} koku: {effect})"
