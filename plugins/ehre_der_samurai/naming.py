"""How cards, seats and houses are named to people, from a seat's view."""

from __future__ import annotations

from .cards import card
from .state import PROVINCES, House
from .view import View


def label(token: str | None) -> str:
    """Return a card as players name it."""
    if token is None:
        return "a card"
    found = card(token)
    return found.label if found is not None else token


def name(token: str | None) -> str:
    """Return a card's name without its values."""
    found = card(token) if token is not None else None
    if found is None:
        return token or "a card"
    return f"Daimyo {found.name}" if found.kind == "daimyo" else found.name


def province(seat: int) -> str:
    """Return the name of a seat."""
    return PROVINCES[seat] if 0 <= seat < len(PROVINCES) else f"seat {seat + 1}"


def house_name(owner: int, house: House, seat: int | None) -> str:
    """Return "your Daimyo house" or "Kai's Samurai house"."""
    whose = "your" if owner == seat else f"{province(owner)}'s"
    return f"{whose} {house.capitalize()} house"


def kind_of(token: str) -> str:
    """Return the kind of a card ("" when unknown)."""
    found = card(token)
    return found.kind if found is not None else ""


def locate(view: View, token: str) -> tuple[int, House] | None:
    """Return where a card lies face up in the view."""
    for p in view.players:
        if token in p.daimyo_house:
            return p.seat, "daimyo"
        if token in p.samurai_house:
            return p.seat, "samurai"
    return None
