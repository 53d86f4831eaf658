"""Every event of Ehre der Samurai told in a sentence, as the reading seat may know it.

The event comes redacted for the reader; ``view`` is the reader's view just before it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from gamehall.core.words import plural

from . import events as ev
from .naming import house_name, label, name, province
from .state import PASS, PAY, SEPPUKU
from .view import View

ALLIANCE_ENDS = {
    "left": "it was left a round ago",
    "dishonour": "a Dishonour struck an ally",
    "assassination": "an assassin struck",
    "new-daimyo": "the Ronin has a Daimyo of its own again",
    "takeover": "the Ronin took over the Daimyo house",
    "fallen": "the Daimyo house fell in a fight",
}
ANSWERS = {
    PASS: "pass",
    PAY: "pay honour",
    SEPPUKU["daimyo"]: "seppuku of your Daimyo",
    SEPPUKU["samurai"]: "seppuku of your Samurai",
}
Teller = Callable[[Any, View, int | None], str]


def _cards(tokens: tuple[str, ...]) -> str:
    return ", ".join(label(t) for t in tokens) or "nothing"


def _founded(e: ev.HousesFounded, view: View, seat: int | None) -> str:
    houses = "; ".join(f"{province(s)} with {name(d)}" for s, d in enumerate(e.daimyo))
    return f"Each player founds a Daimyo house and a Samurai house: {houses}."


def _hand(e: ev.HandDealt, view: View, seat: int | None) -> str:
    if e.cards is not None:
        return f"{province(e.seat)} is dealt {_cards(e.cards)}."
    return f"{province(e.seat)} is dealt {e.size} cards."


def _honour(e: ev.HonourCollected, view: View, seat: int | None) -> str:
    who = province(e.seat)
    if e.source == "ronin":
        return f"{who}, a Ronin without an ally, takes no honour (stays at {e.total})."
    how = " as an ally: half of both houses, rounded up" if e.source == "alliance" else ""
    return f"{who} takes {e.honour} honour{how} (now {e.total})."


def _drawn(e: ev.CardDrawn, view: View, seat: int | None) -> str:
    if e.card is None:
        return f"{province(e.seat)} draws a card."
    return f"{province(e.seat)} draws {label(e.card)}."


def _played(e: ev.CardPlayed, view: View, seat: int | None) -> str:
    return f"{province(e.seat)} plays {label(e.card)} into {house_name(e.owner, e.house, None)}."


def _thief(e: ev.ThiefSent, view: View, seat: int | None) -> str:
    source, to = house_name(e.owner, e.house, None), house_name(e.seat, e.to, None)
    return (
        f"{province(e.seat)} pays {e.cost} honour for a Ninja thief, who steals "
        f"{label(e.loot)} from {source} into {to}."
    )


def _assassin(e: ev.AssassinSent, view: View, seat: int | None) -> str:
    target = house_name(e.owner, e.house, None)
    return f"{province(e.seat)} pays {e.cost} honour for a Ninja assassin against {target}."


def _discarded(e: ev.HouseDiscarded, view: View, seat: int | None) -> str:
    who = province(e.owner)
    if e.house == "daimyo":
        rest = len(e.cards) - 1
        return (
            f"{who}'s Daimyo house falls: {name(e.cards[0])} and {rest} card"
            f"{'s' if rest != 1 else ''} are discarded; {who}'s Samurai is a Ronin."
        )
    count = len(e.cards)
    return f"{who}'s Samurai house loses its {count} card{'s' if count != 1 else ''}."


def _answered(e: ev.Answered, view: View, seat: int | None) -> str:
    if e.answer is None:
        return f"{province(e.seat)} has answered."
    return f"{province(e.seat)} answers: {ANSWERS.get(e.answer, 'Save Face')}."


def _closed(e: ev.WindowClosed, view: View, seat: int | None) -> str:
    whom = province(e.for_seat)
    if e.saved_by is None:
        return f"Every answer is in: nobody plays Save Face for {whom}."
    if e.saved_by == e.for_seat:
        return f"Every answer is in: {whom} plays Save Face."
    return f"Every answer is in: {province(e.saved_by)} plays Save Face for {whom}."


def _attack(e: ev.AttackDeclared, view: View, seat: int | None) -> str:
    return (
        f"{province(e.seat)} attacks {province(e.target)}: strength {e.strength[0]} "
        f"({plural(e.dice[0], 'die', 'dice')}) against {e.strength[1]} "
        f"({plural(e.dice[1], 'die', 'dice')})."
    )


def _rolls(rolls: tuple[int, ...]) -> str:
    return f"{'+'.join(map(str, rolls))} = {sum(rolls)}" if rolls else "no dice (0)"


def _rolled(e: ev.FightRolled, view: View, seat: int | None) -> str:
    rounds = [
        f"{_rolls(a)} against {_rolls(d)}"
        for a, d in zip(e.attacker_rolls, e.defender_rolls, strict=True)
    ]
    ties = (
        f" (after {len(rounds) - 1} tie{'s' if len(rounds) > 2 else ''})" if len(rounds) > 1 else ""
    )
    return f"The dice: {'; '.join(rounds)}{ties}. {province(e.winner)} wins the fight."


def _castle(e: ev.CastleTaken, view: View, seat: int | None) -> str:
    swap = f", giving {name(e.swapped)} in exchange" if e.swapped else ""
    return f"{province(e.seat)} takes {name(e.castle)} from {province(e.loser)}{swap}."


def _fight_ended(e: ev.FightEnded, view: View, seat: int | None) -> str:
    if e.saved:
        return f"{province(e.loser)} saved face and keeps the Daimyo house."
    return f"The fight between {province(e.winner)} and {province(e.loser)} is over."


def _leaving(e: ev.AllianceLeaving, view: View, seat: int | None) -> str:
    ally = view.players[e.seat].ally
    other = province(ally) if ally is not None else "its ally"
    return (
        f"{province(e.seat)} pays {e.cost} honour to leave the alliance with {other}; "
        f"it ends at {province(e.seat)}'s next turn."
    )


def _ended(e: ev.AllianceEnded, view: View, seat: int | None) -> str:
    a, b = (province(s) for s in e.seats)
    return f"The alliance of {a} and {b} ends: {ALLIANCE_ENDS[e.reason]}."


TELLERS: dict[type, Teller] = {
    ev.HousesFounded: _founded,
    ev.DeckShuffled: lambda e, v, s: f"The deck of {e.size} cards is shuffled.",
    ev.HandDealt: _hand,
    ev.TurnBegan: lambda e, v, s: f"Round {e.round}: {province(e.seat)}'s turn.",
    ev.HonourCollected: _honour,
    ev.MatchWon: lambda e, v, s: f"{province(e.seat)} has {e.honour} honour and wins.",
    ev.CardDrawn: _drawn,
    ev.DeckRebuilt: lambda e, v, s: f"The discard pile is shuffled into a new deck of {e.size}.",
    ev.CardDiscarded: lambda e, v, s: f"{province(e.seat)} discards {label(e.card)}.",
    ev.CardPlayed: _played,
    ev.DaimyoRaised: lambda e, v, s: (
        f"{province(e.seat)} plays {label(e.card)} and founds a new Daimyo house; "
        "the Ronin is a Samurai again."
    ),
    ev.TurnEnded: lambda e, v, s: f"{province(e.seat)} ends the turn.",
    ev.ThiefSent: _thief,
    ev.AssassinSent: _assassin,
    ev.AssassinStopped: lambda e, v, s: (
        f"{label(e.bodyguard)} of {house_name(e.owner, e.house, None)} stops the assassin; "
        "both are discarded."
    ),
    ev.HouseTakenOver: lambda e, v, s: (
        f"{province(e.seat)}'s assassin defeats the allied Samurai: {province(e.seat)} takes "
        f"over {province(e.ally)}'s whole Daimyo house."
    ),
    ev.HouseDiscarded: _discarded,
    ev.DishonourPlayed: lambda e, v, s: (
        f"{province(e.seat)} plays Dishonour on {province(e.victim)}."
    ),
    ev.Answered: _answered,
    ev.WindowClosed: _closed,
    ev.HonourPaid: lambda e, v, s: f"{province(e.seat)} pays {e.honour} honour.",
    ev.SeppukuCommitted: lambda e, v, s: (
        f"{province(e.seat)}'s {'Daimyo' if e.house == 'daimyo' else 'Samurai'} commits seppuku."
    ),
    ev.ShogunDeclared: lambda e, v, s: f"{province(e.seat)} declares: my Daimyo is now Shogun.",
    ev.AttackDeclared: _attack,
    ev.FightRolled: _rolled,
    ev.CastleTaken: _castle,
    ev.CastleLeft: lambda e, v, s: f"{province(e.seat)} leaves the loser's castle where it is.",
    ev.ShogunPassed: lambda e, v, s: (
        f"The Shogun passes from {province(e.loser)} to {province(e.winner)}."
    ),
    ev.ShogunReturned: lambda e, v, s: "The Shogun card returns to the middle.",
    ev.FightEnded: _fight_ended,
    ev.AllianceFormed: lambda e, v, s: (
        f"{province(e.ronin)}, a Ronin, allies with {province(e.daimyo)}, who must accept."
    ),
    ev.AllianceLeaving: _leaving,
    ev.AllianceEnded: _ended,
}


def describe_event(event: ev.EhreEvent, view: View, seat: int | None) -> str | None:
    """Return what an event was, in a sentence for ``seat``."""
    teller = TELLERS.get(type(event))
    return teller(event, view, seat) if teller is not None else None
