"""Gunsen in words: every command and event as a player reads it, and menu headings.

Each function gets the reading seat's view (events already redacted for it), so the words
never tell what that seat may not see.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from gamehall.core import Command, Event
from gamehall.core.words import plural

from . import commands as cmd
from . import events as ev
from .components import COLUMN_NAMES, Action
from .names import (
    action_text,
    box,
    card_text,
    hero_text,
    name,
    pretty,
    seat_name,
    space_name,
    tactic_text,
)
from .state import HIDDEN, NOBODY, State


def _card(card: str) -> str:
    """Return an order card's name, or "a card" where the viewer may not see which."""
    return "a card" if card == HIDDEN else name(card)


def token_text(token: str) -> str:
    """Return a village token with its reward (only ever called for open tokens)."""
    found = box().tokens.get(token)
    if token == HIDDEN or found is None:
        return "a face-down village token"
    return f"village token {token[-2:]} ({'a troop' if found.reward == 'troop' else found.reward})"


def faces(items: tuple[str, ...]) -> str:
    """Return dice faces as words."""
    return ", ".join(items) if items else "no dice"


def step_text(view: State) -> str:
    """Return the current action of the activated column."""
    activation = view.activation
    if activation is None or not activation.steps:
        return "the column"
    head = activation.steps[0]
    if head.kind == "buy_move":
        return f"the extra move for 1 {head.resource}"
    return action_text(Action(head.kind, head.amount, head.resource))  # type: ignore[arg-type]


# -- commands ----------------------------------------------------------------------------------


def _skip(view: State) -> str:
    if view.phase == "reroll":
        return "keep the dice as they lie (no more rerolls)"
    if view.phase == "swap":
        return "swap no dice"
    activation = view.activation
    if activation is None or not activation.steps:
        return "finish the column"
    kind = activation.steps[0].kind
    if kind in ("buy_move", "build", "tactics"):
        return {
            "buy_move": "buy no more moves",
            "build": "build no more",
            "tactics": "buy no more tactics",
        }[kind]
    return f"skip {step_text(view)}"


def _select(view: State, c: cmd.SelectArmy) -> str:
    troops = f"{c.troops} troop{'s' if c.troops > 1 else ''}"
    hero = f" with {name(c.hero)}" if c.hero else ""
    where = space_name(view, c.space)
    if c.tower:
        return f"watchtower move for 1 influence: {troops}{hero} from {where}"
    return f"move {troops}{hero} from {where}"


def _move(view: State, c: cmd.MoveArmy, seat: int | None) -> str:
    selection = view.selection
    head = f"to {space_name(view, c.to)}"
    if selection is None:
        return head
    enemies = [s for s, row in enumerate(view.troops) if row[c.to] and s != seat]
    if enemies:
        return f"{head}, attacking {seat_name(view, enemies[0])}"
    board = box().boards[view.side]
    if c.to == board.toshi_ranbo and not view.taken:
        return f"{head}, the first army to enter Toshi Ranbo"
    return head


def _place(view: State, c: cmd.PlaceCard) -> str:
    if c.column is not None:
        return f"place it on the {COLUMN_NAMES[c.column]} column and activate it"
    effects = {
        1: "take a second card, put it on any column and activate it",
        2: "recruit a clan hero, then activate any column",
        3: "take a special order and activate its column",
    }
    level = c.noble or 1
    return f"place it face down on noble action {level} ({level} influence): {effects[level]}"


def _column(view: State, c: cmd.ChooseColumn) -> str:
    if view.card:
        return f"put {card_text(view.card)} on the {COLUMN_NAMES[c.column]} column and activate it"
    return f"activate the {COLUMN_NAMES[c.column]} column"


COMMAND_WORDS: dict[type[Command], Callable[[State, Any, int | None], str]] = {
    cmd.ChooseClan: lambda v, c, s: f"play the {name(c.clan)} clan",
    cmd.ReplaceRow: lambda v, c, s: "replace the whole order row with five new cards",
    cmd.TakeCard: lambda v, c, s: f"take {card_text(c.card)}",
    cmd.PlaceCard: lambda v, c, s: _place(v, c),
    cmd.ChooseColumn: lambda v, c, s: _column(v, c),
    cmd.RecruitHero: lambda v, c, s: f"recruit {hero_text(c.hero)} onto {space_name(v, c.space)}",
    cmd.TakeSpecial: lambda v, c, s: (
        f"put special order {card_text(c.card)} on the {COLUMN_NAMES[c.column]} column"
    ),
    cmd.Skip: lambda v, c, s: _skip(v),
    cmd.Gain: lambda v, c, s: f"take {c.resource}",
    cmd.Recruit: lambda v, c, s: f"recruit a troop onto {space_name(v, c.space)}",
    cmd.BuyMove: lambda v, c, s: (
        f"buy an extra move for 1 {v.activation.steps[0].resource}"
        if v.activation and v.activation.steps
        else "buy an extra move"
    ),
    cmd.SelectArmy: lambda v, c, s: _select(v, c),
    cmd.MoveArmy: lambda v, c, s: _move(v, c, s),
    cmd.Build: lambda v, c, s: (
        f"build {name(c.building)} ({box().buildings[c.building].cost} wood) on "
        f"{space_name(v, c.space)}"
        if c.building in box().buildings
        else f"build {pretty(c.building)} on {space_name(v, c.space)}"
    ),
    cmd.BuyTactic: lambda v, c, s: f"buy tactic {tactic_text(c.tactic)}",
    cmd.PayTribute: lambda v, c, s: (
        f"pay Bayushi Aramoro {box().limits.tribute} influence"
        if c.pay
        else "refuse Bayushi Aramoro's tribute: your heroes give nothing in this combat"
    ),
    cmd.Ride: lambda v, c, s: (
        "Moto Chagatai rides to the combat" if c.ride else "Moto Chagatai stays"
    ),
    cmd.Reroll: lambda v, c, s: f"reroll {faces(c.faces)}",
    cmd.Keep: lambda v, c, s: f"keep {faces(c.faces)}",
    cmd.SwapDice: lambda v, c, s: f"swap your kept {c.mine} for the opponent's {c.theirs}",
    cmd.Retreat: lambda v, c, s: f"retreat to {space_name(v, c.to)}",
    cmd.PlaceHero: lambda v, c, s: f"put {name(c.hero)} on {space_name(v, c.space)}",
    cmd.StealToken: lambda v, c, s: f"take {token_text(c.token)}",
}


def describe_command(command: Command, view: State, seat: int | None) -> str | None:
    """Return a command in the rulebook's words."""
    words = COMMAND_WORDS.get(type(command))
    return None if words is None else words(view, command, seat)


def command_group(command: Command, view: State, seat: int | None) -> str | None:
    """Return a menu heading for the long menus: moves by space, builds, heroes."""
    if isinstance(command, cmd.SelectArmy):
        kind = "Watchtower moves" if command.tower else "Moves"
        return f"{kind} from {space_name(view, command.space)}"
    if isinstance(command, cmd.Build):
        return f"Build {name(command.building)}"
    if isinstance(command, cmd.RecruitHero):
        return f"Recruit {name(command.hero)}"
    if isinstance(command, (cmd.Reroll, cmd.Keep)):
        return "Dice"
    return None


# -- events ------------------------------------------------------------------------------------


def _who(view: State, seat: int) -> str:
    return seat_name(view, seat)


# What a seat is asked to do, by the phase the game waits in (see ``state.Phase``).
ASKED = {
    "clan": "choose a clan",
    "choose": "take an order card from the row",
    "place": "place the order card taken",
    "noble_card": "take a second card from the row",
    "column": "choose a column to activate",
    "hero": "recruit a hero",
    "special": "take a special order",
    "act": "carry out its column",
    "tribute": "pay Bayushi Aramoro or refuse",
    "ride": "let Moto Chagatai ride to the combat or not",
    "reroll": "reroll dice or stop",
    "keep": "choose the dice to keep",
    "swap": "swap two kept dice or not",
    "retreat": "choose where its troops retreat",
    "relocate": "choose where its hero goes",
    "steal": "choose the village token stolen",
}


def _action_used(view: State, e: ev.ActionUsed) -> str:
    """Tell that one use of the current action is done, without reading like a payment: a
    resource action has just been told as gained, so it is only marked done."""
    activation = view.activation
    head = activation.steps[0] if activation is not None and activation.steps else None
    if head is not None and head.kind in ("move", "recruit") and head.amount > 1:
        left = head.amount - 1
        what = "move" if head.kind == "move" else "recruit"
        return f"{_who(view, e.seat)} has {plural(left, what)} of this action left."
    if head is None or head.kind in (
        "koku",
        "wood",
        "influence",
        "wood_or_koku",
        "move",
        "recruit",
    ):
        return f"{_who(view, e.seat)} is done with that action."
    return f"{_who(view, e.seat)} used {step_text(view)}."


def _board(view: State, e: ev.BoardSetUp) -> str:
    side = box().boards[e.side].name
    towers, shrines = len(e.towers), len(e.shrines)
    return f"The board lies on its {side} with {towers} watchtowers and {shrines} shrines."


def _resolved(view: State, e: ev.CombatResolved) -> str:
    combat = view.combat
    if combat is None:
        return "The combat was resolved."
    a, d = _who(view, combat.attacker), _who(view, combat.defender)
    text = (
        f"Combat at {space_name(view, e.space)}: {a} strength {e.strength[0]}, {d} strength "
        f"{e.strength[1]}; {a} lost {plural(e.deaths[0], 'troop')}, {d} lost {e.deaths[1]}. "
    )
    if e.winner != NOBODY:
        return text + f"{_who(view, e.winner)} won."
    return text + f"Nobody won; {_who(view, e.loser)} must retreat."


def _achievement(view: State, e: ev.AchievementEarned) -> str:
    boxed = box().boxes.get(e.box)
    what = boxed.name if boxed is not None else pretty(e.box)
    if e.objective:
        what = f"achieved the clan objective {name(e.objective)}"
    return f"{_who(view, e.seat)} {what}: an achievement marker."


EVENT_WORDS: dict[type[Event], Callable[[State, Any], str]] = {
    ev.BoardSetUp: _board,
    ev.VillagesDealt: lambda v, e: f"{len(e.spaces)} face-down village tokens lie on the villages.",
    ev.DeckShuffled: lambda v, e: (
        f"The discard pile was shuffled into a new deck of {e.size} cards."
        if e.reshuffle
        else f"The order deck of {e.size} cards was shuffled."
    ),
    ev.RowRefilled: lambda v, e: (
        "Laid open in the row: " + "; ".join(card_text(c) for c in e.cards) + "."
    ),
    ev.StartPlayerDrawn: lambda v, e: f"Seat {e.seat + 1} is the start player.",
    ev.ClanChosen: lambda v, e: f"Seat {e.seat + 1} plays the {name(e.clan)} clan.",
    ev.ClanSetUp: lambda v, e: (
        f"{_who(v, e.seat)} starts with {e.koku} koku, {e.wood} wood, {e.influence} influence "
        f"and {plural(e.troops, 'troop')} on its fort."
    ),
    ev.TacticsDealt: lambda v, e: (
        f"{_who(v, e.seat)} was dealt the neutral tactics "
        f"{', '.join(tactic_text(t) for t in e.cards)}."
        if e.cards
        else f"{_who(v, e.seat)} was dealt {e.count} hidden neutral tactics."
    ),
    ev.Asked: lambda v, e: f"{_who(v, e.seat)} is to {ASKED.get(e.phase, 'decide')}.",
    ev.RowReplaced: lambda v, e: f"{_who(v, e.seat)} replaced the whole row.",
    ev.CardTaken: lambda v, e: (
        f"{_who(v, e.seat)} took {card_text(e.card)}"
        + (f", paying 1 {e.price}." if e.price else ".")
    ),
    ev.CardPlaced: lambda v, e: (
        f"{_who(v, e.seat)} put {_card(e.card)} on its {COLUMN_NAMES[e.column]} column."
    ),
    ev.NobleActionBegun: lambda v, e: (
        f"{_who(v, e.seat)} laid {_card(e.card)} face down on noble action {e.level}, "
        f"paying {e.level} influence."
    ),
    ev.ColumnActivated: lambda v, e: (
        f"{_who(v, e.seat)} activates its {COLUMN_NAMES[e.column]} column."
    ),
    ev.Gained: lambda v, e: (
        f"{_who(v, e.seat)} gained {e.amount} {e.resource}"
        + (f" ({name(e.source)})" if e.source in box().buildings else "")
        + "."
    ),
    ev.ActionUsed: lambda v, e: _action_used(v, e),
    ev.ActionSkipped: lambda v, e: f"{_who(v, e.seat)} skipped {step_text(v)}.",
    ev.ActivationEnded: lambda v, e: (
        f"{_who(v, e.seat)} finished the column"
        + (f" and discarded {', '.join(name(c) for c in e.discarded)}." if e.discarded else ".")
    ),
    ev.TroopRecruited: lambda v, e: (
        f"{_who(v, e.seat)} recruited a troop onto {space_name(v, e.space)}."
    ),
    ev.MoveBought: lambda v, e: f"{_who(v, e.seat)} bought an extra move for 1 {e.resource}.",
    ev.ArmySelected: lambda v, e: (
        f"{_who(v, e.seat)} picked up {plural(e.troops, 'troop')} at {space_name(v, e.space)}."
    ),
    ev.ArmyMoved: lambda v, e: (
        f"{_who(v, e.seat)} moved {plural(e.troops, 'troop')}"
        + (f" with {name(e.hero)}" if e.hero else "")
        + f" from {space_name(v, e.origin)} to {space_name(v, e.to)}"
        + (" by watchtower, for 1 influence." if e.tower else ".")
    ),
    ev.MovementLapsed: lambda v, e: (
        f"All further movement of {_who(v, e.seat)} lapses this turn ({e.reason})."
    ),
    ev.CombatArose: lambda v, e: (
        f"{_who(v, e.attacker)} attacks {_who(v, e.defender)} at {space_name(v, e.space)}."
    ),
    ev.ToshiRanboEntered: lambda v, e: f"{_who(v, e.seat)} is the first to enter Toshi Ranbo.",
    ev.BuildingBuilt: lambda v, e: (
        f"{_who(v, e.seat)} built {name(e.building)} on {space_name(v, e.space)} for {e.cost} wood."
    ),
    ev.TacticBought: lambda v, e: f"{_who(v, e.seat)} bought the tactic {tactic_text(e.tactic)}.",
    ev.HeroRecruited: lambda v, e: (
        f"{_who(v, e.seat)} recruited {hero_text(e.hero)} onto {space_name(v, e.space)}."
    ),
    ev.SpecialOrderTaken: lambda v, e: (
        f"{_who(v, e.seat)} put the special order {card_text(e.card)} on its "
        f"{COLUMN_NAMES[e.column]} column."
    ),
    ev.TributeDecided: lambda v, e: (
        f"{_who(v, e.seat)} paid Bayushi Aramoro {e.amount} influence."
        if e.paid
        else f"{_who(v, e.seat)} paid no tribute: its heroes give nothing in this combat."
    ),
    ev.HeroRode: lambda v, e: f"{name(e.hero)} rode from {space_name(v, e.origin)} to the combat.",
    ev.TroopAdded: lambda v, e: (
        f"{name(e.hero)} brought a troop of {_who(v, e.seat)} to {space_name(v, e.space)}."
    ),
    ev.DiceThrown: lambda v, e: f"{_who(v, e.seat)} threw {faces(e.faces)}.",
    ev.DiceRerolled: lambda v, e: f"{_who(v, e.seat)} rerolled {faces(e.old)} into {faces(e.new)}.",
    ev.RerollsStopped: lambda v, e: f"{_who(v, e.seat)} rerolls no more.",
    ev.DiceKept: lambda v, e: f"{_who(v, e.seat)} kept {faces(e.faces)}.",
    ev.DiceSwapped: lambda v, e: (
        f"Togashi Yokuni swapped {_who(v, e.seat)}'s {e.mine} for the opponent's {e.theirs}."
    ),
    ev.SwapDeclined: lambda v, e: f"{_who(v, e.seat)} swapped no dice.",
    ev.CombatResolved: _resolved,
    ev.ArmyRetreated: lambda v, e: (
        f"{_who(v, e.seat)} retreated {plural(e.troops, 'troop')} from {space_name(v, e.origin)} to "
        f"{space_name(v, e.to)}."
    ),
    ev.HeroPlaced: lambda v, e: f"{name(e.hero)} went to {space_name(v, e.space)}.",
    ev.TokenStolen: lambda v, e: (
        f"{_who(v, e.seat)} took {token_text(e.token)} from {_who(v, e.victim)}"
        + ("" if e.kept else ", which went back to the box")
        + "."
    ),
    ev.CombatEnded: lambda v, e: f"The combat at {space_name(v, e.space)} is over.",
    ev.VillageClaimed: lambda v, e: (
        f"{_who(v, e.seat)} claimed {token_text(e.token)} at {space_name(v, e.space)}"
        + ("" if e.kept else "; it went back to the box")
        + "."
    ),
    ev.UpgradeTaken: lambda v, e: (
        f"{_who(v, e.seat)} took the {COLUMN_NAMES[e.column]} upgrade tile"
        + (f" from {_who(v, e.previous)}." if e.previous >= 0 else ".")
    ),
    ev.HoldMarkerPlaced: lambda v, e: f"{_who(v, e.seat)} holds Toshi Ranbo: a marker on its tile.",
    ev.HoldMarkerReturned: lambda v, e: (
        f"{_who(v, e.seat)} no longer holds Toshi Ranbo; its marker went back."
    ),
    ev.AchievementEarned: _achievement,
    ev.FortRefilled: lambda v, e: (
        f"{_who(v, e.seat)} refilled its fort with {plural(e.troops, 'troop')}."
    ),
    ev.TurnBegan: lambda v, e: f"Turn of {_who(v, e.seat)}.",
    ev.TurnEnded: lambda v, e: f"{_who(v, e.seat)} ended its turn.",
    ev.GameWon: lambda v, e: f"{_who(v, e.seat)} placed its last achievement marker and wins.",
}


def describe_event(event: Event, view: State, seat: int | None) -> str | None:
    """Return what an event was, in a sentence."""
    words = EVENT_WORDS.get(type(event))
    return None if words is None else words(view, event)


def seat_names(view: State) -> list[str]:
    """Return the clan of each seat."""
    return [seat_name(view, seat) for seat in range(view.count)]
