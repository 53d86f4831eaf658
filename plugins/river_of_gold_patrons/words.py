"""The Clan Patrons in words: its commands, events, menu headings, board lines and scoring.

River of Gold names its own components; these hooks name what the expansion adds, and run
only in matches that enable it.
"""

from __future__ import annotations

from gamehall.core import Command, Event
from gamehall.plugins.river_of_gold.api import COMPONENTS, State, clan, hookimpl, listed

from .commands import ChoosePatron, RollDie, SetDie
from .components import PATRONS
from .events import OpeningDieSettled, OpeningRollSkipped, PatronChosen, PatronsOffered
from .state import draft_order, offered, opening, patron_of


def patron_name(patron: str) -> str:
    """Return a patron with its clan: ``Kakita Ryoku, Darling of the Courts (Crane)``."""
    card = PATRONS.get(patron)
    return patron if card is None else f"{card.name} ({card.clan.capitalize()})"


def patron_words(patron: str) -> str:
    """Return a patron with its clan and its power."""
    card = PATRONS.get(patron)
    return patron if card is None else f"{patron_name(patron)}: {card.ability}"


def _face(face: int) -> str:
    return f"{face} ({COMPONENTS.regions[face - 1].name})" if 1 <= face <= 6 else str(face)


def describe_command(command: Command, view: State, seat: int | None) -> str | None:
    """Describe a patron choice or a die setting."""
    if isinstance(command, ChoosePatron):
        return f"Choose {patron_words(command.patron)}"
    if isinstance(command, SetDie):
        if opening(view):
            return f"Pay 1 favour to set your opening die to {_face(command.face)}"
        return f"Pay 1 favour to set the die to {_face(command.face)} and end your turn"
    if isinstance(command, RollDie):
        return "Roll your opening die"
    return None


def command_group(command: Command, view: State, seat: int | None) -> str | None:
    """Head the draft and the die settings."""
    if isinstance(command, ChoosePatron):
        return "Choose your clan patron"
    if isinstance(command, (SetDie, RollDie)):
        return "Kakita Ryoku: set the die for 1 favour" + (
            ", or roll it" if opening(view) else " instead of rolling"
        )
    return None


def describe_event(event: Event, view: State, seat: int | None) -> str | None:
    """Tell the draft and the opening die in sentences."""
    if isinstance(event, PatronsOffered):
        return _offered(view, event)
    if isinstance(event, PatronChosen):
        return f"{clan(view, event.seat)} chose {patron_words(event.patron)}"
    if isinstance(event, OpeningRollSkipped):
        return (
            f"{clan(view, event.seat)} did not roll its opening die (Kakita Ryoku): it rolls "
            "it or sets it for 1 favour before the first turn."
        )
    if isinstance(event, OpeningDieSettled):
        return f"{clan(view, event.seat)}'s opening die is settled."
    return None


def _offered(view: State, event: PatronsOffered) -> str:
    order = ", then ".join(f"Seat {s + 1}" for s in event.order)
    offers = set(event.offers)
    if len(offers) == 1:
        laid = listed([patron_name(p) for p in event.offers[0]])
        return f"Patrons laid out: {laid}; choosing in turn: {order}."
    dealt = "; ".join(
        f"Seat {seat + 1}: {listed([patron_name(p) for p in offer], 'or')}"
        for seat, offer in enumerate(event.offers)
    )
    return f"Clans dealt, each with its two patrons ({dealt}); choosing in turn: {order}."


def board_lines(view: State) -> list[str]:
    """Return the patrons' part of the board: who plays which patron, and what is on offer."""
    lines = []
    offers = {offered(view, seat) for seat in range(view.count) if offered(view, seat)}
    for seat in range(view.count):
        chosen = patron_of(view, seat)
        if chosen is not None:
            lines.append(f"  {clan(view, seat)} (seat {seat + 1}) plays {patron_words(chosen)}")
        elif offered(view, seat) and len(offers) > 1:
            lines.append(f"  {clan(view, seat)} (seat {seat + 1}) chooses one of:")
            lines += [f"    {patron_words(p)}" for p in offered(view, seat)]
    if len(offers) == 1:
        lines.append("  On offer in the draft:")
        lines += [f"    {patron_words(p)}" for p in offers.pop()]
    order = draft_order(view)
    if order:
        lines.append(f"  Seat {order[0] + 1} chooses next.")
    if opening(view):
        lines.append(f"  {clan(view, opening(view)[0])} still rolls or sets its opening die.")
    return ["Clan patrons:", *lines] if lines else []


class PatronWords:
    """The expansion's answer to River of Gold's scoring-words hook."""

    @hookimpl
    def river_of_gold_score_category(self, reason: str) -> str | None:
        """Count the points the patrons gave during play as one category."""
        names = {p.name.split(",")[0] for p in PATRONS.values()}
        return "patrons" if reason in names else None
