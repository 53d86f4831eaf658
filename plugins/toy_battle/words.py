"""Toy Battle in words: commands, events, seat colours, menu headings and endings.

Everything here reads a seat's :class:`~.view.View` (or a redacted event), never the state, so
no sentence can tell a seat what it may not see. Troops are named by kind and colour ("Red Roxy
(7)"), never by token; spots by number with what is special about them.
"""

from __future__ import annotations

from functools import cache

from gamehall.core import Command, Event, Outcome, ScoreLine
from gamehall.core.words import listed, plural

from . import events as ev
from .commands import ChooseTarget, DrawTroops, MoveTroop, PlaceTroop, SkipEffect, UseEffect
from .placement import RACK_LIMIT
from .terrain import Board, load_terrains
from .troops import KINDS, Army, TroopKind
from .view import View

EFFECT_NAMES = {
    "skully": "Skully",
    "capn": "Cap'n",
    "jumbo": "Jumbo",
    "xb42": "XB-42",
    "star": "Star",
    "castle": "the Castle",
    "cemetery": "the Cemetery",
    "clouds": "the City of Clouds",
    "jungle": "the Jungle",
    "battlefield": "the Battlefield",
}
BASE_NAMES = {
    "castle": "Castle",
    "cemetery": "Cemetery",
    "clouds": "Cloud",
    "jungle": "Jungle",
    "battlefield": "Battlefield",
}
BASE_EFFECTS = {
    "castle": "the player may take one of its other visible troops back to its rack",
    "cemetery": "the player may take one of its troops from the discard pile back to its rack",
    "clouds": "the player may draw 1 troop",
    "jungle": "the player may move a visible enemy troop next to it onto a base next to that troop",
    "battlefield": "a random standing troop on the opponent's rack is laid face down for a turn",
}
TROOP_EFFECTS = {
    "kwak": "covers any enemy troop, and any enemy troop covers it",
    "skully": "you may draw 2 troops",
    "capn": "you may place 1 more troop",
    "jumbo": "you may discard a visible enemy troop one path away",
    "hook": "may go on a base without a connection",
    "xb42": "you may discard a random troop from the opponent's rack",
    "star": "you may draw 1 troop",
    "roxy": "no effect; the strongest",
}
CAUSES = {"setup": "for the opening rack", "draw": ""}


@cache
def _army(added: tuple[TroopKind, ...]) -> Army:
    return Army([*KINDS, *added])


def army_of(view: View) -> Army:
    """Return the box's army with the kinds an expansion added (they come in the view)."""
    return _army(view.added_kinds)


@cache
def boards() -> dict[str, Board]:
    """Return the boxed terrains by key."""
    return {t.key: Board(t) for t in load_terrains()}


def board_of(view: View) -> Board | None:
    """Return the view's terrain, if it is one of the box."""
    return boards().get(view.terrain)


def cap(text: str) -> str:
    """Return ``text`` with its first letter upper case, the rest as it is."""
    return text[:1].upper() + text[1:]


def colour_name(view: View, seat: int) -> str:
    """Return a seat's colour as a name: ``Blue`` or ``Red``."""
    return view.players[seat].colour.capitalize()


def seat_names(view: View) -> list[str]:
    """Name the seats by colour."""
    return [colour_name(view, seat) for seat in (0, 1)]


def _owner(view: View, troop: str) -> int:
    army = army_of(view)
    colour = army.colour.get(troop, "blue" if troop.startswith("b") else "red")
    return 0 if view.players[0].colour == colour else 1


def kind_label(view: View, troop: str | None) -> str:
    """Return a troop's kind as printed on the tile, ``Roxy (7)``, or ``a troop`` when hidden."""
    if troop is None:
        return "a troop"
    kind = army_of(view).kind.get(troop)
    return kind.label if kind else "an unknown troop"


def troop_name(view: View, troop: str) -> str:
    """Return a troop with its colour: ``Red Roxy (7)``."""
    return f"{colour_name(view, _owner(view, troop))} {kind_label(view, troop)}"


def spot_name(view: View, spot: int) -> str:
    """Return a spot with what makes it special: ``spot 15 (Castle base)``."""
    board = board_of(view)
    if board is None:
        return f"spot {spot}"
    owner = board.hq_owner.get(spot)
    if owner is not None:
        return f"{owner.capitalize()}'s headquarters (spot {spot})"
    marks = []
    if view.special_bases:
        effect = board.effect_at.get(spot)
        if effect:
            marks.append(f"{BASE_NAMES.get(effect, effect)} base")
        if spot in board.muted:
            marks.append("Metal-X base")
        allowed = board.allowed.get(spot)
        if allowed:
            marks.append("values " + "/".join(map(str, allowed)))
    return f"spot {spot}" + (f" ({', '.join(marks)})" if marks else "")


def effect_name(view: View | None, effect: str) -> str:
    """Return the name of an effect: ``Jumbo``, ``the Castle``."""
    if effect in EFFECT_NAMES:
        return EFFECT_NAMES[effect]
    prompt = view.prompt if view is not None else ""
    return prompt.split(":", 1)[0] if ":" in prompt else effect.replace("-", " ").capitalize()


def draw_count(view: View, seat: int, wanted: int) -> int:
    """Return how many troops a draw of ``wanted`` takes, as the view shows rack and supply."""
    player = view.players[seat]
    return max(0, min(wanted, RACK_LIMIT - player.rack_size, player.supply))


def _pending_effect(view: View) -> str:
    return view.queue[0].effect if view.queue else ""


def _stack_spot(view: View, troop: str) -> int | None:
    return next((s for s, stack in view.stacks.items() if stack and stack[-1] == troop), None)


# -- commands ----------------------------------------------------------------------------------


def whose(view: View, reader: int | None, owner: int) -> str:
    """Return ``your`` for the reader's own things, ``Red's`` for anyone else's."""
    return "your" if owner == reader else f"{colour_name(view, owner)}'s"


def describe_command(command: Command, view: View, seat: int | None) -> str | None:
    """Describe a command of the seat to move, as ``seat`` reads it ("your" is that seat's)."""
    mover = view.turn
    if isinstance(command, DrawTroops):
        return f"Draw {plural(draw_count(view, mover, 2), 'troop')}"
    if isinstance(command, PlaceTroop):
        return _place(view, command, seat)
    if isinstance(command, UseEffect):
        return _use(view, mover, seat)
    if isinstance(command, ChooseTarget):
        return _target(view, command.troop, seat)
    if isinstance(command, MoveTroop):
        source = _stack_spot(view, command.troop)
        where = f" from spot {source}" if source is not None else ""
        stack = view.stacks.get(command.to)
        onto = f", onto {_owned(view, seat, stack[-1])}" if stack else ""
        return (
            f"Jungle: move {_owned(view, seat, command.troop)}{where} to "
            f"{spot_name(view, command.to)}{onto}"
        )
    if isinstance(command, SkipEffect):
        return f"Skip {effect_name(view, _pending_effect(view))}'s effect"
    return None


def _owned(view: View, reader: int | None, troop: str) -> str:
    return f"{whose(view, reader, _owner(view, troop))} {kind_label(view, troop)}"


def _covering(view: View, spot: int, reader: int | None) -> str:
    stack = view.stacks.get(spot)
    if not stack:
        return ""
    top = stack[-1]
    verb = "on" if _owner(view, top) == view.turn else "covering"
    return f", {verb} {_owned(view, reader, top)}"


def _place(view: View, command: PlaceTroop, reader: int | None) -> str:
    label = kind_label(view, command.troop)
    spot = spot_name(view, command.spot)
    rack = f"{whose(view, reader, view.turn)} rack"
    board = board_of(view)
    if board is not None and command.spot in board.hq_owner:
        return f"Place {label} from {rack} on {spot} and win"
    return f"Place {label} from {rack} on {spot}{_covering(view, command.spot, reader)}"


def _use(view: View, mover: int, reader: int | None) -> str:
    effect = _pending_effect(view)
    other = f"{whose(view, reader, 1 - mover)} rack"
    if effect in ("skully", "star", "clouds"):
        count = draw_count(view, mover, 2 if effect == "skully" else 1)
        return f"Use {effect_name(view, effect)}: draw {plural(count, 'troop')}"
    if effect == "xb42":
        return f"Use XB-42: discard a random troop from {other}"
    if effect == "battlefield":
        return f"Use the Battlefield: lay a random troop on {other} face down"
    prompt = view.prompt.removesuffix(", or skip")
    return prompt or f"Use {effect_name(view, effect)}"


def _target(view: View, troop: str, reader: int | None) -> str:
    effect = _pending_effect(view)
    spot = _stack_spot(view, troop)
    where = f" on spot {spot}" if spot is not None else ""
    named = _owned(view, reader, troop)
    if effect == "jumbo":
        return f"Jumbo: discard {named}{where}"
    if effect == "castle":
        return f"Castle: take {named}{where} back to the rack"
    if effect == "cemetery":
        return f"Cemetery: take {named} from the discard pile back to the rack"
    return f"{cap(effect_name(view, effect))}: choose {named}{where}"


def command_group(command: Command, view: View, seat: int | None) -> str | None:
    """Group a long menu: draws, then placements by troop, then effects."""
    if isinstance(command, DrawTroops):
        return "Draw"
    if isinstance(command, PlaceTroop):
        if view.queue:
            return f"Cap'n's extra troop: {kind_label(view, command.troop)}"
        return f"Place {kind_label(view, command.troop)}"
    if isinstance(command, (UseEffect, ChooseTarget, MoveTroop, SkipEffect)):
        name = effect_name(view, _pending_effect(view))
        return f"Effect of {name}"
    return None


# -- events ------------------------------------------------------------------------------------


def _troops(view: View, troops: tuple[str, ...]) -> str:
    return listed([kind_label(view, t) for t in troops])


def _drawn(view: View, e: ev.TroopsDrawn) -> str:
    who = colour_name(view, e.seat)
    cause = CAUSES.get(e.cause, f"with {effect_name(view, e.cause)}")
    tail = f" {cause}" if cause else ""
    if e.troops is None:
        return f"{who} drew {plural(e.count, 'troop')}{tail}."
    return f"{who} drew {_troops(view, e.troops)}{tail}."


def _placed(view: View, e: ev.TroopPlaced) -> str:
    who = colour_name(view, e.seat)
    stack = view.stacks.get(e.spot)
    under = ""
    if stack:
        top = stack[-1]
        under = (
            f", on its {kind_label(view, top)}"
            if _owner(view, top) == e.seat
            else f", covering {troop_name(view, top)}"
        )
    extra = " as Cap'n's extra troop" if view.queue and view.queue[0].effect == "capn" else ""
    return f"{who} placed {kind_label(view, e.troop)}{extra} on {spot_name(view, e.spot)}{under}."


def _finished(view: View, e: ev.EffectFinished) -> str | None:
    name = effect_name(view, e.effect)
    who = colour_name(view, e.seat)
    if e.outcome == "skipped":
        return f"{who} skipped {name}'s effect."
    if e.outcome == "impossible":
        return f"{cap(name)}'s effect could not be used, so it lapsed."
    return f"{who} used {name}'s effect."


def _region(view: View, e: ev.RegionTaken) -> str:
    bases = view.regions[e.region].bases if e.region < len(view.regions) else ()
    now = view.players[e.seat].medals + e.medals
    spots = "+".join(map(str, bases)) or str(e.region)
    return (
        f"{colour_name(view, e.seat)} took region {spots} and its "
        f"{plural(e.medals, 'medal')} ({now} in all)."
    )


def _turned_down(view: View, e: ev.TroopTurnedDown) -> str:
    rack = f"{colour_name(view, e.seat)}'s rack"
    if e.troop is None:
        return f"The Battlefield laid a random troop on {rack} face down until its turn ends."
    return (
        f"The Battlefield laid {kind_label(view, e.troop)} on {rack} face down until its turn ends."
    )


def describe_event(event: Event, view: View, seat: int | None) -> str | None:
    """Tell an event (already redacted for ``seat``) in a sentence."""
    name = colour_name
    if isinstance(event, ev.ColoursChosen):
        return (
            f"Seat {event.blue + 1} plays Blue from the bottom edge, "
            f"seat {2 - event.blue} Red from the top edge."
        )
    if isinstance(event, ev.SupplyShuffled):
        return f"{colour_name(view, event.seat)} shuffled its {event.size} troops into a face-down supply."
    if isinstance(event, ev.TroopsRemoved):
        gone = "" if event.troops is None else f" ({_troops(view, event.troops)})"
        return (
            f"{plural(event.count, 'troop')}{gone} of {colour_name(view, event.seat)} "
            "left the match unseen."
        )
    if isinstance(event, ev.StartPlayerChosen):
        return f"{name(view, event.seat)} starts."
    if isinstance(event, ev.TroopsDrawn):
        return _drawn(view, event)
    if isinstance(event, ev.TroopPlaced):
        return _placed(view, event)
    if isinstance(event, ev.RegionTaken):
        return _region(view, event)
    if isinstance(event, ev.EffectFinished):
        return _finished(view, event)
    if isinstance(event, ev.TroopDiscarded):
        return f"Jumbo discarded {troop_name(view, event.troop)} from spot {event.spot}."
    if isinstance(event, ev.TroopSnatched):
        return (
            f"XB-42 took {kind_label(view, event.troop)} at random from "
            f"{name(view, event.seat)}'s rack and discarded it."
        )
    if isinstance(event, ev.TroopReturned):
        return (
            f"{name(view, event.seat)} took {kind_label(view, event.troop)} from spot "
            f"{event.spot} back to its rack (Castle)."
        )
    if isinstance(event, ev.TroopRecovered):
        return (
            f"{name(view, event.seat)} took {kind_label(view, event.troop)} from the discard "
            "pile back to its rack (Cemetery)."
        )
    if isinstance(event, ev.TroopMoved):
        return (
            f"The Jungle moved {troop_name(view, event.troop)} from spot {event.source} "
            f"to {spot_name(view, event.to)}."
        )
    if isinstance(event, ev.TroopTurnedDown):
        return _turned_down(view, event)
    if isinstance(event, ev.TurnEnded):
        return f"{name(view, event.seat)}'s turn ended; {name(view, event.next)} to move."
    if isinstance(event, ev.MatchEnded):
        why = ending(view, event.winner, event.reason, event.medals, event.stuck, event.ended_by)
        return f"{name(view, event.winner)} wins: {why}."
    return None


# -- the end -----------------------------------------------------------------------------------


def ending(
    view: View,
    winner: int,
    reason: str,
    medals: tuple[int, int],
    stuck: tuple[int, ...],
    ended_by: int | None,
) -> str:
    """Return why ``winner`` won, naming the real cause (TB-END-1 … TB-END-4)."""
    won, lost = colour_name(view, winner), colour_name(view, 1 - winner)
    if reason == "headquarters":
        return f"it placed a troop on {lost}'s headquarters"
    if reason == "medals":
        return f"it reached the medal target of {view.medal_target}"
    if reason != "stuck":
        return reason
    if len(stuck) == 2:
        cause = "neither player can draw or place a troop"
    elif stuck:
        cause = f"{colour_name(view, stuck[0])} can neither draw nor place a troop"
    else:
        cause = "a player can neither draw nor place a troop"
    if medals[0] != medals[1]:
        return f"{cause}, which ends the match, and {won} has more medals"
    ender = colour_name(view, ended_by) if ended_by is not None else lost
    return f"{cause}, which ends the match; medals are tied, so {ender}, who ended it, loses"


def outcome(view: View, board: Board) -> Outcome:
    """Return the ending with its cause and the medals of every region taken, by seat."""
    winner = view.winner if view.winner is not None else view.turn
    medals = (view.players[0].medals, view.players[1].medals)
    lines = []
    for index, region in enumerate(view.regions):
        if region.taken_by is not None:
            worth = board.terrain.regions[index].medals
            points = (worth, 0) if region.taken_by == 0 else (0, worth)
            lines.append(ScoreLine(f"region {'+'.join(map(str, region.bases))}", points))
    why = ending(view, winner, view.reason, medals, view.stuck, view.ended_by)
    return Outcome((winner,), why, medals, tuple(lines))
