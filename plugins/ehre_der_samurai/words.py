"""Ehre der Samurai in words: commands, events, seat names and menu headings.

Every hook gets the reading seat's view (never the state), so no sentence can tell a card
that seat may not see. Seats are named by their provinces.
"""

from __future__ import annotations

from gamehall.core import Command

from . import commands as cmd
from .houses import dishonour_cost
from .naming import house_name, kind_of, label, locate, name, province
from .view import View

# -- commands ----------------------------------------------------------------------------------


def _play(command: cmd.Play, view: View, seat: int | None) -> str:
    if kind_of(command.card) == "daimyo":
        mine = view.players[seat] if seat is not None else None
        ends = " (ends your alliance)" if mine is not None and mine.ally is not None else ""
        return f"play {label(command.card)}: found your new Daimyo house{ends}"
    if command.owner == seat:
        return f"play {label(command.card)} into your {command.house.capitalize()} house"
    return (
        f"play {label(command.card)} into the {command.house.capitalize()} house of your ally "
        f"{province(command.owner)}"
    )


def _thief(command: cmd.SendThief, view: View, seat: int | None) -> str:
    found = locate(view, command.loot)
    source = house_name(*found, seat) if found else "a house"
    price = view.numbers.thief_price
    return (
        f"send a Ninja thief ({price} honour) to steal {label(command.loot)} from {source} "
        f"into your {command.to.capitalize()} house"
    )


def _assassin(command: cmd.SendAssassin, view: View, seat: int | None) -> str:
    target = house_name(command.owner, command.house, seat)
    numbers = view.numbers
    mine = view.players[seat] if seat is not None else None
    if (
        mine is not None
        and mine.daimyo is None
        and mine.ally == command.owner
        and command.house == "samurai"
    ):
        return (
            f"send a Ninja assassin ({numbers.takeover_price} honour) against {target}: "
            "defeat your ally's Samurai and take over its Daimyo house"
        )
    return f"send a Ninja assassin ({numbers.assassin_price} honour) against {target}"


def _castle(view: View, seat: int | None) -> str:
    fight = view.fight
    if fight is None:
        return "take the castle"
    loser = view.players[fight.loser]
    theirs = next((c for c in loser.daimyo_house if kind_of(c) == "castle"), None)
    own = next((c for c in view.players[fight.winner].daimyo_house if kind_of(c) == "castle"), None)
    if own is not None:
        return f"swap your {name(own)} for {name(theirs)} of {province(fight.loser)}"
    return f"take {name(theirs)} of {province(fight.loser)} into your Daimyo house"


def _pass(view: View) -> str:
    if view.fight is not None:
        return f"pass: no Save Face for {province(view.fight.loser)}"
    if view.insult is not None:
        return f"pass: no Save Face for {province(view.insult.victim)}"
    return "pass"


def _save(view: View, seat: int | None) -> str:
    whom = view.fight.loser if view.fight else view.insult.victim if view.insult else None
    if whom is None:
        return "play Save Face"
    return "play Save Face for yourself" if whom == seat else f"play Save Face for {province(whom)}"


def _seppuku(command: cmd.Seppuku, view: View, seat: int | None) -> str:
    mine = view.players[seat] if seat is not None else None
    if command.house == "daimyo":
        who = name(mine.daimyo) if mine is not None else "your Daimyo"
        return f"let {who} commit seppuku: lose the whole Daimyo house, keep your honour"
    return "let your Samurai commit seppuku: lose the Samurai house's cards, keep your honour"


def describe_command(command: Command, view: View, seat: int | None) -> str | None:
    """Return a command in the rulebook's words."""
    if isinstance(command, cmd.Play):
        return _play(command, view, seat)
    if isinstance(command, cmd.Discard):
        return f"discard {label(command.card)}"
    if isinstance(command, cmd.SendThief):
        return _thief(command, view, seat)
    if isinstance(command, cmd.SendAssassin):
        return _assassin(command, view, seat)
    if isinstance(command, cmd.PlayDishonour):
        actions = dishonour_cost(view.numbers, view.options)
        cost = "1 card action" if actions == 1 else f"{actions} card actions"
        return f"play Dishonour on {province(command.victim)} ({cost})"
    if isinstance(command, cmd.Attack):
        return f"declare: I attack {province(command.target)}"
    if isinstance(command, cmd.Ally):
        return f"declare: I ally with {province(command.target)}"
    if isinstance(command, cmd.LeaveAlliance):
        mine = view.players[seat] if seat is not None else None
        ally = province(mine.ally) if mine is not None and mine.ally is not None else "your ally"
        price = view.numbers.leave_price
        return f"declare: I leave the alliance with {ally} ({price} honour, ends in a round)"
    if isinstance(command, cmd.SaveFace):
        return _save(view, seat)
    if isinstance(command, cmd.Pass):
        return _pass(view)
    if isinstance(command, cmd.Seppuku):
        return _seppuku(command, view, seat)
    if isinstance(command, cmd.TakeCastle):
        return _castle(view, seat)
    if isinstance(command, cmd.LeaveCastle):
        loser = province(view.fight.loser) if view.fight else "the loser"
        return f"leave the castle to {loser}"
    if isinstance(command, cmd.PayHonour):
        return f"pay {view.numbers.dishonour_price} honour"
    return SIMPLE.get(type(command))


SIMPLE: dict[type, str] = {
    cmd.Draw: "draw a card",
    cmd.DeclareShogun: "declare: my Daimyo is now Shogun",
    cmd.EndTurn: "end your turn",
}


def command_group(command: Command, view: View) -> str | None:
    """Return the heading of a command in a long menu."""
    if isinstance(command, cmd.Play):
        return f"Play {label(command.card)}"
    if isinstance(command, (cmd.Draw, cmd.Discard)):
        return "Draw or discard"
    if isinstance(command, cmd.SendThief):
        return "Send a Ninja thief"
    if isinstance(command, cmd.SendAssassin):
        return "Send a Ninja assassin"
    if isinstance(command, cmd.PlayDishonour):
        return "Play Dishonour"
    if isinstance(command, (cmd.DeclareShogun, cmd.Attack, cmd.Ally, cmd.LeaveAlliance)):
        return "Declare"
    if isinstance(command, cmd.EndTurn):
        return "End the turn"
    return None
