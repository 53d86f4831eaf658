"""Steps 1-3 of a turn: take an order card, place it, activate a column or a noble action."""

from __future__ import annotations

from gamehall.core import Command, IllegalCommand

from . import events as ev
from .activation import activate, proceed
from .catalog import Catalog
from .commands import ChooseColumn, PlaceCard, RecruitHero, ReplaceRow, TakeCard, TakeSpecial
from .components import COLOURS
from .heroes import hero_candidates, hero_spaces, special_candidates, special_columns
from .orders import affordable, ask_choose, can_replace, replace_row, takeable
from .play import Play, ask, catalog_of
from .state import State

NOBLE_PHASES = {1: "noble_card", 2: "hero", 3: "special"}


# -- step 1: choose an order card --------------------------------------------------------------


def choose_options(cat: Catalog, state: State, seat: int) -> list[Command]:
    """Return the row's affordable cards, and replacing the row where allowed."""
    options: list[Command] = [TakeCard(card=c) for c in takeable(cat, state, seat)]
    if state.phase == "choose" and can_replace(cat, state):
        options.append(ReplaceRow())
    return options


def take_card(p: Play, seat: int, command: TakeCard) -> None:
    """Take a card from the row, paying its price (GUN-ORDER-1, GUN-ORDER-2)."""
    state = p.state
    if command.card not in state.row:
        raise IllegalCommand("that card is not in the open row", "GUN-ORDER-1")
    if not affordable(catalog_of(p), state.players[seat], command.card):
        price = catalog_of(p).cards[command.card].price
        raise IllegalCommand(f"that card's price of one {price} cannot be paid", "GUN-ORDER-2")
    price = catalog_of(p).cards[command.card].price
    p.emit(ev.CardTaken(seat=seat, card=command.card, price=price))
    ask(p, seat, "column" if state.noble == 1 else "place")


def replace(p: Play, seat: int) -> None:
    """Replace the whole row, then choose again (GUN-ORDER-4)."""
    if not can_replace(catalog_of(p), p.state):
        raise IllegalCommand(
            "the row may be replaced once, when four of its five cards share a colour or have "
            "a price",
            "GUN-ORDER-4",
        )
    replace_row(p, seat)
    ask_choose(p)


# -- step 2: place it --------------------------------------------------------------------------


def noble_possible(cat: Catalog, state: State, seat: int, level: int) -> bool:
    """Tell whether a noble action is free, paid for and has something to do (GUN-NOBLE-1..4)."""
    player = state.players[seat]
    if player.noble[level - 1] or player.influence < level:
        return False
    if level == 1:
        return any(affordable(cat, player, c, extra_influence=1) for c in state.row)
    if level == 2:
        return bool(hero_candidates_noble(cat, state, seat))
    return bool(special_candidates(cat, state, seat))


def hero_candidates_noble(cat: Catalog, state: State, seat: int) -> list[str]:
    """Return the clan heroes not yet recruited (the noble action brings no mercenary)."""
    taken = {h for player in state.players for h, _ in player.heroes}
    return [h.id for h in cat.clans[state.players[seat].clan].heroes if h.id not in taken]


def place_options(cat: Catalog, state: State, seat: int) -> list[Command]:
    """Return the card's own column and the free, affordable noble-action spaces."""
    colour = cat.cards[state.card].colour
    options: list[Command] = [PlaceCard(column=COLOURS.index(colour))]
    options.extend(PlaceCard(noble=k) for k in (1, 2, 3) if noble_possible(cat, state, seat, k))
    return options


def place(p: Play, seat: int, command: PlaceCard) -> None:
    """Place the card on its column and activate it, or begin a noble action (GUN-PLACE-1..3)."""
    state, cat = p.state, catalog_of(p)
    if (command.column is None) == (command.noble is None):
        raise IllegalCommand("name either a column or a noble-action space", "GUN-PLACE-1")
    if command.column is not None:
        if COLOURS[command.column] != cat.cards[state.card].colour:
            raise IllegalCommand(
                "an order card goes on the column of its own colour", "GUN-PLACE-1"
            )
        p.emit(ev.CardPlaced(seat=seat, card=state.card, column=command.column))
        activate(p, seat, command.column)
        return
    level = command.noble
    assert level is not None
    player = state.players[seat]
    if player.noble[level - 1]:
        raise IllegalCommand("each noble action is used once per game", "GUN-NOBLE-1")
    if player.influence < level:
        raise IllegalCommand(f"this noble action costs {level} influence", "GUN-NOBLE-1")
    if not noble_possible(cat, state, seat, level):
        raise IllegalCommand("this noble action has nothing to take now", "GUN-NOBLE-5")
    p.emit(ev.NobleActionBegun(seat=seat, level=level, card=state.card))
    ask(p, seat, NOBLE_PHASES[level])


# -- noble actions and the column to activate --------------------------------------------------


def column_options(cat: Catalog, state: State, seat: int) -> list[Command]:
    """Return the four columns."""
    return [ChooseColumn(column=c) for c in range(4)]


def choose_column(p: Play, seat: int, command: ChooseColumn) -> None:
    """Put the card in hand (noble action 1) on any column, then activate it (GUN-NOBLE-2)."""
    if p.state.card:
        p.emit(ev.CardPlaced(seat=seat, card=p.state.card, column=command.column))
    activate(p, seat, command.column)


def hero_options(cat: Catalog, state: State, seat: int) -> list[Command]:
    """Return every hero the pending recruit may bring, on every space it may stand."""
    spaces = hero_spaces(state, seat)
    return [RecruitHero(hero=h, space=s) for h in hero_candidates(cat, state, seat) for s in spaces]


def recruit_hero(p: Play, seat: int, command: RecruitHero) -> None:
    """Recruit a hero onto the fort or a space with an own army (GUN-HERO-1, GUN-HERO-4)."""
    if command.hero not in hero_candidates(catalog_of(p), p.state, seat):
        raise IllegalCommand("that hero cannot be recruited now", "GUN-HERO-1")
    if command.space not in hero_spaces(p.state, seat):
        if p.state.troops[seat][command.space]:
            raise IllegalCommand("a clan has one hero per space outside its fort", "GUN-HERO-4")
        raise IllegalCommand("a hero goes on the fort or on a space with an own army", "GUN-HERO-1")
    p.emit(ev.HeroRecruited(seat=seat, hero=command.hero, space=command.space))
    if p.state.activation is not None:
        ask(p, seat, "act")
        proceed(p)
    else:
        ask(p, seat, "column")


def special_options(cat: Catalog, state: State, seat: int) -> list[Command]:
    """Return every special order not taken yet, on every column its colours allow."""
    return [
        TakeSpecial(card=card, column=column)
        for card in special_candidates(cat, state, seat)
        for column in special_columns(cat, card)
    ]


def take_special(p: Play, seat: int, command: TakeSpecial) -> None:
    """Put a special order on a column: activate it (noble 3) or not (Innovation) (GUN-NOBLE-4)."""
    if command.card not in special_candidates(catalog_of(p), p.state, seat):
        raise IllegalCommand(
            "that is not one of the clan's special orders still to take", "GUN-SPECIAL-1"
        )
    if command.column not in special_columns(catalog_of(p), command.card):
        raise IllegalCommand("a special order goes on a column of its colour", "GUN-SPECIAL-2")
    p.emit(ev.SpecialOrderTaken(seat=seat, card=command.card, column=command.column))
    if p.state.activation is not None:
        ask(p, seat, "act")
        proceed(p)
    else:
        activate(p, seat, command.column)
