"""What happened in the Clan Patrons' part of a match: past-tense facts, namespaced."""

from __future__ import annotations

from gamehall.core import Event, namespaced

TAG = namespaced("river_of_gold_patrons")


class PatronsOffered(Event, frozen=True, gc=False, tag=TAG):
    """Patrons were laid out: ``offers[seat]`` lists what that seat may choose from."""

    offers: tuple[tuple[str, ...], ...]
    order: tuple[int, ...]


class PatronChosen(Event, frozen=True, gc=False, tag=TAG):
    """A seat took a patron; nobody else may take it."""

    seat: int
    patron: str


class OpeningRollSkipped(Event, frozen=True, gc=False, tag=TAG):
    """A seat did not roll its opening die; it settles the die before the first turn."""

    seat: int


class OpeningDieSettled(Event, frozen=True, gc=False, tag=TAG):
    """A seat that skipped the opening roll has rolled or set its die."""

    seat: int


EVENTS = (PatronsOffered, PatronChosen, OpeningRollSkipped, OpeningDieSettled)
