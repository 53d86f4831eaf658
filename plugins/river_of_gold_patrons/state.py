"""The Clan Patrons' own state in a match, kept typed under the expansion's id."""

from __future__ import annotations

import msgspec
from gamehall.plugins.river_of_gold.api import State, extension, with_extension

from .components import ID, PATRONS
from .events import OpeningDieSettled, OpeningRollSkipped, PatronChosen, PatronsOffered


class Patrons(msgspec.Struct, frozen=True):
    """Who plays which patron, and the draft while it lasts.

    ``patrons[seat]`` is the seat's patron (``""`` before it chose); ``offers[seat]`` what the
    seat may still choose and ``order`` the seats still to choose, next first, both empty once
    every seat chose.
    """

    patrons: tuple[str, ...] = ()
    offers: tuple[tuple[str, ...], ...] = ()
    order: tuple[int, ...] = ()


def patrons(state: State) -> Patrons:
    """Return the expansion's state in a match."""
    return extension(state, ID, Patrons)


def patron_of(state: State, seat: int) -> str | None:
    """Return the patron a seat plays with, if it chose one."""
    chosen = patrons(state).patrons
    return chosen[seat] or None if seat < len(chosen) else None


def has(state: State, seat: int, patron: str) -> bool:
    """Tell whether ``seat`` plays with ``patron``."""
    return patron_of(state, seat) == patron


def draft_order(state: State) -> tuple[int, ...]:
    """Return the seats still to choose a patron, next first."""
    return patrons(state).order


def offered(state: State, seat: int) -> tuple[str, ...]:
    """Return the patrons ``seat`` may still choose."""
    offers = patrons(state).offers
    return offers[seat] if seat < len(offers) else ()


def opening(state: State) -> tuple[int, ...]:
    """Return the seats that still owe their opening die (ROG-PATRON-12)."""
    return state.dice_owed


def dealt_clan(offer: tuple[str, ...]) -> str:
    """Return the clan a seat was dealt (its offer is one clan's patrons), or ``""`` in a draft."""
    clans = {PATRONS[p].clan for p in offer}
    return clans.pop().capitalize() if len(clans) == 1 else ""


def evolve(state: State, event: object) -> State | None:
    """Return the state after one of the expansion's events, or ``None`` for any other."""
    replace = msgspec.structs.replace
    if type(event) is PatronsOffered:
        mine = Patrons(("",) * state.count, event.offers, event.order)
        clans = tuple(dealt_clan(offer) for offer in event.offers)
        return replace(with_extension(state, ID, mine), clans=clans)
    if type(event) is PatronChosen:
        return _chosen(state, event)
    if type(event) is OpeningRollSkipped:
        return replace(state, dice_owed=(*state.dice_owed, event.seat))
    if type(event) is OpeningDieSettled:
        return replace(state, dice_owed=tuple(s for s in state.dice_owed if s != event.seat))
    return None


def _chosen(state: State, event: PatronChosen) -> State:
    before = patrons(state)
    chosen = list(before.patrons)
    chosen[event.seat] = event.patron
    order = before.order[1:]
    offers = tuple(tuple(p for p in o if p != event.patron) for o in before.offers)
    mine = Patrons(tuple(chosen), offers if order else (), order)
    clans = list(state.clans)
    clans[event.seat] = PATRONS[event.patron].clan.capitalize()
    return msgspec.structs.replace(with_extension(state, ID, mine), clans=tuple(clans))
