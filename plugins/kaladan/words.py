"""Words for people: commands, events and seats as the rulebook names them.

Every function gets the reading seat's view, never the state, so words cannot tell what the
seat may not see. Components are named from the game's own data; a component an expansion adds
is named from its key.
"""

from __future__ import annotations

from functools import cache, partial

from gamehall.core import Command, Event
from gamehall.core.words import plural

from . import commands as cmd
from . import events as ev
from .components import (
    Catalogue,
    kind_of,
    load_event_cards,
    load_realms,
    load_terrains,
    load_units,
    load_worlds,
    realm_of,
)
from .view import View

PHASES = {
    "income": "Income",
    "spawn": "Free Spawn",
    "action": "Action",
    "purchase": "Purchase",
    "reinforce": "Reinforcement",
    "castles": "Castle placement",
}


@cache
def catalogue() -> Catalogue:
    """Return the game's own components, for names."""
    return Catalogue(
        list(load_units()),
        list(load_terrains()),
        list(load_worlds()),
        list(load_realms()),
        list(load_event_cards()),
    )


def _title(key: str) -> str:
    return key.replace("-", " ").capitalize()


def kind_name(kind: str) -> str:
    """Return a unit kind's name ("Sword", "Zhoji")."""
    found = catalogue().units.get(kind)
    return found.name if found else _title(kind)


def realm_name(realm: str) -> str:
    """Return a realm's name."""
    found = catalogue().realms.get(realm)
    return found.name if found else _title(realm)


def unit_name(unit: str, view: View | None = None) -> str:
    """Return a unit as a player names it ("Khalisia's Sword")."""
    upgraded = view is not None and unit in view.state.upgraded
    name = kind_name(kind_of(unit))
    return f"{realm_name(realm_of(unit))}'s {'upgraded ' if upgraded else ''}{name}"


def units_named(units: tuple[str, ...], view: View | None = None) -> str:
    """Return units as a list in words."""
    if not units:
        return "no unit"
    return ", ".join(unit_name(u, view) for u in units)


def card_name(card: str) -> str:
    """Return a magic card's name."""
    found = catalogue().cards.get(card)
    return found.name if found else _title(card.split("/")[-1])


def event_name(card: str) -> str:
    """Return an event card's name."""
    found = catalogue().events.get(card.split("#", 1)[0])
    return found.name if found else _title(card.split("#", 1)[0])


def seat_name(view: View, seat: int) -> str:
    """Return a seat by its realm, or by its number before realms are chosen."""
    if seat < 0:
        return "nobody"
    realms = view.state.realms
    return realm_name(realms[seat]) if seat < len(realms) and realms[seat] else f"Seat {seat + 1}"


def tile_name(view: View, tile: int) -> str:
    """Return a tile with its terrain ("tile 3, a Forest")."""
    state = view.state
    if tile >= len(state.terrain):
        return f"tile {tile}"
    terrain = catalogue().terrains.get(state.terrain[tile])
    kind = terrain.name if terrain else _title(state.terrain[tile])
    castle = " with a Castle" if tile in state.castles else ""
    return f"tile {tile} ({kind}{castle})"


def describe_command(command: Command, view: View, seat: int | None) -> str | None:
    """Describe a command in the rulebook's words."""
    t = partial(tile_name, view)
    if isinstance(command, cmd.ChooseRealm):
        realm = catalogue().realms.get(command.realm)
        title = f", {realm.title}" if realm else ""
        return f"play {realm_name(command.realm)}{title}"
    if isinstance(command, cmd.PlaceCastle):
        return f"place your Castle on {t(command.tile)}"
    if isinstance(command, cmd.AddEventUnit):
        return f"add the event's unit on {t(command.tile)}"
    if isinstance(command, cmd.UpgradeUnit):
        return f"upgrade a {kind_name(command.kind)} on {t(command.tile)}"
    if isinstance(command, cmd.RaiseUnit):
        grave = seat_name(view, command.graveyard)
        return f"raise a {kind_name(command.kind)} from {grave}'s graveyard"
    if isinstance(command, cmd.TakeGold):
        return "take 1 gold instead"
    if isinstance(command, cmd.Spawn):
        return f"spawn a free {kind_name(command.kind)} on {t(command.tile)}"
    if isinstance(command, cmd.SkipSpawn):
        return "spawn nothing"
    if isinstance(command, cmd.MoveUnit):
        up = "upgraded " if command.upgraded else ""
        return f"move a {up}{kind_name(command.kind)} from {t(command.origin)} to {t(command.to)}"
    if isinstance(command, cmd.Attack):
        defender = (
            view.state.holder[command.target] if command.target < len(view.state.holder) else -1
        )
        return f"attack {seat_name(view, defender)} on {t(command.target)} from {t(command.origin)}"
    if isinstance(command, cmd.EndActions):
        return "end your actions"
    if isinstance(command, cmd.DeclareMagic):
        return f"use {card_name(command.card)}" if command.card else "use no magic card"
    return _battle_command(command, view)


def _battle_command(command: Command, view: View) -> str | None:
    if isinstance(command, cmd.ShiftUnit):
        return f"shift {unit_name(command.unit, view)} to {tile_name(view, command.to)}"
    if isinstance(command, cmd.LevyUnit):
        return f"levy a {kind_name(command.kind)} from your reserve"
    if isinstance(command, cmd.AssassinateUnit):
        return f"assassinate {unit_name(command.unit, view)}"
    if isinstance(command, cmd.RestoreUnit):
        return f"bring back {unit_name(command.unit, view)}"
    if isinstance(command, cmd.FinishMagic):
        return "finish your magic card"
    if isinstance(command, cmd.ChooseLosses):
        return f"lose {units_named(command.units, view)}"
    if isinstance(command, cmd.Invade):
        return f"invade with {units_named(command.units, view)}"
    if isinstance(command, cmd.Recruit):
        cost = catalogue().units[command.kind].cost if command.kind in catalogue().units else 0
        return f"buy a {kind_name(command.kind)} for {cost} gold"
    if isinstance(command, cmd.UpgradeSpecial):
        return f"upgrade {unit_name(command.unit, view)} for 2 gold"
    if isinstance(command, cmd.SwapMagic):
        return f"swap {card_name(command.card)} for an unused card (2 gold)"
    if isinstance(command, cmd.BuyMagic):
        return f"buy a magic card of {realm_name(command.realm)} (4 gold)"
    if isinstance(command, cmd.EndPurchase):
        return "end your purchases"
    if isinstance(command, cmd.Deploy):
        return f"place a {kind_name(command.kind)} on {tile_name(view, command.tile)}"
    return None


def command_group(command: Command, view: View, seat: int | None) -> str | None:
    """Return the menu heading of a command."""
    if isinstance(command, cmd.MoveUnit):
        return f"Move from {tile_name(view, command.origin)}"
    if isinstance(command, (cmd.Attack, cmd.EndActions)):
        return "Attack or end"
    if isinstance(command, cmd.Recruit):
        return "Buy units"
    if isinstance(command, (cmd.SwapMagic, cmd.BuyMagic, cmd.UpgradeSpecial)):
        return "Magic and upgrades"
    return None


def describe_event(event: Event, view: View, seat: int | None) -> str | None:
    """Tell what an event was, as ``seat`` may know it."""
    name = partial(seat_name, view)
    t = partial(tile_name, view)
    if isinstance(event, ev.TurnOrderRolled):
        last = ", ".join(f"{name(s)} {v}" for s, v in event.rounds[-1])
        return f"Everyone rolled a D10 ({last}); {name(event.order[0])} plays first."
    if isinstance(event, ev.TilesShuffled):
        return f"The {event.count} terrain tiles were shuffled face down."
    if isinstance(event, ev.TilePlaced):
        return f"{name(event.seat)} drew {t(event.tile)} and placed it."
    if isinstance(event, ev.RealmChosen):
        return f"{name(event.seat)} chose {realm_name(event.realm)}."
    if isinstance(event, ev.MagicDealt):
        card = f" ({card_name(event.card)})" if event.card else ""
        return f"{name(event.seat)} drew a magic card{card}."
    if isinstance(event, ev.EventDeckShuffled):
        return f"The event deck of {event.size} cards was shuffled."
    if isinstance(event, ev.CastlePlaced):
        return f"{name(event.seat)} placed its Castle on {t(event.tile)} with {units_named(event.units)}."
    if isinstance(event, ev.TurnBegan):
        return f"Round {event.round}: {name(event.seat)}'s turn."
    if isinstance(event, ev.PhaseBegan):
        phase = PHASES.get(event.phase, event.phase)
        return f"{phase} begins." if event.seat < 0 else f"{name(event.seat)}'s {phase} phase."
    return _turn_event(event, view) or _battle_event(event, view)


def _turn_event(event: Event, view: View) -> str | None:
    name = partial(seat_name, view)
    t = partial(tile_name, view)
    if isinstance(event, ev.EventDrawn):
        who = "everyone" if len(event.seats) > 1 else name(event.seat)
        return f"{name(event.seat)} drew the event {event_name(event.card)} (for {who})."
    if isinstance(event, ev.EventAnswered):
        return f"{name(event.seat)} is done with the event."
    if isinstance(event, ev.GoldGained):
        return f"{name(event.seat)} gained {event.gold} gold ({event.cause})."
    if isinstance(event, ev.UnitPlaced):
        return f"{name(event.seat)} put {unit_name(event.unit)} on {t(event.tile)} ({event.cause})."
    if isinstance(event, ev.UnitUpgraded):
        paid = f" for {event.cost} gold" if event.cost else ""
        return f"{name(event.seat)} upgraded {unit_name(event.unit)}{paid}."
    if isinstance(event, ev.UnitRaised):
        return f"{name(event.seat)} raised {unit_name(event.unit)} from {name(event.graveyard)}'s graveyard."
    if isinstance(event, ev.UnitMoved):
        return f"{name(event.seat)} moved {unit_name(event.unit, view)} from {t(event.origin)} to {t(event.to)}."
    if isinstance(event, ev.UnitRecruited):
        return f"{name(event.seat)} paid {event.cost} gold for {unit_name(event.unit)}."
    if isinstance(event, ev.MagicSwapped):
        if event.returned and event.drawn:
            return f"{name(event.seat)} swapped {card_name(event.returned)} for {card_name(event.drawn)}."
        return f"{name(event.seat)} swapped a magic card for 2 gold."
    if isinstance(event, ev.MagicBought):
        card = card_name(event.card) if event.card else "a magic card"
        return f"{name(event.seat)} bought {card} of {realm_name(event.realm)} for 4 gold."
    if isinstance(event, ev.TurnEnded):
        return f"{name(event.seat)}'s turn ended; {name(event.next)} is next."
    if isinstance(event, ev.MatchEnded):
        who = " and ".join(name(s) for s in event.winners) or "nobody"
        return f"The match is over: {who} won ({event.reason})."
    return None


def _battle_event(event: Event, view: View) -> str | None:
    name = partial(seat_name, view)
    t = partial(tile_name, view)
    if isinstance(event, ev.AttackDeclared):
        return f"{name(event.seat)} attacks {name(event.defender)} on {t(event.target)} from {t(event.origin)}."
    if isinstance(event, ev.MagicDeclared):
        if not event.uses:
            return f"{name(event.seat)} uses no magic card."
        card = f" ({card_name(event.card)})" if event.card else ""
        return f"{name(event.seat)} declares a magic card{card}."
    if isinstance(event, ev.MagicRevealed):
        shown = [f"{card_name(c)}" for c in (event.attacker, event.defender) if c]
        return (
            f"The magic cards are revealed: {', '.join(shown)}." if shown else "No magic is used."
        )
    if isinstance(event, ev.MagicInEffect):
        return f"{name(event.seat)}'s {card_name(event.card)} takes effect."
    if isinstance(event, ev.UnitShifted):
        return f"{name(event.seat)} shifted {unit_name(event.unit)} to {t(event.to)}."
    if isinstance(event, ev.UnitAssassinated):
        return f"{name(event.seat)} assassinated {unit_name(event.unit)}."
    if isinstance(event, ev.MagicFinished):
        return f"{name(event.seat)}'s {card_name(event.card)} is spent."
    if isinstance(event, ev.BattleJoined):
        return f"Fighting: {units_named(event.attackers)} against {units_named(event.defenders)}."
    if isinstance(event, ev.DiceRolled):

        def roll(dice: tuple[ev.Die, ...]) -> str:
            return ", ".join(f"{d.value} (D{d.sides})" for d in dice)

        return (
            f"All dice rolled at once: attack {roll(event.attack)}; defence {roll(event.defence)}."
        )
    if isinstance(event, ev.DiceCompared):
        saved = " (a Ward saved one)" if any(event.warded) else ""
        return (
            f"Sorted {list(event.attack)} against {list(event.defence)}: the attacker loses "
            f"{event.attacker_losses}, the defender {event.defender_losses}{saved}."
        )
    if isinstance(event, ev.UnitsDefeated):
        return f"{name(event.seat)} lost {units_named(event.units)} to {name(event.by)}."
    if isinstance(event, ev.UnitsRestored):
        return f"{name(event.seat)} brought back {units_named(event.units)} onto {t(event.tile)}."
    if isinstance(event, ev.InvasionOrdered):
        return f"{name(event.seat)} must invade with {plural(event.capacity, 'unit')}."
    if isinstance(event, ev.Invaded):
        return f"{name(event.seat)} invaded {t(event.target)} with {units_named(event.units)}."
    if isinstance(event, ev.CrownFell):
        return f"{name(event.seat)}'s Crown fell to {name(event.by)}: {name(event.seat)} is out."
    if isinstance(event, ev.BattleEnded):
        return {
            "attacker": "The attacker took the tile.",
            "defender": "The defender holds the tile.",
        }.get(event.result, "Both armies are gone from the battle.")
    return None
