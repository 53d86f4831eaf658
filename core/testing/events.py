"""The store contract's own events: a store is checked without any game installed.

Two events and a command of the suite's own (namespace ``gamehall.testing``), a codec that
knows them beside the core's, and a fold of them for the snapshot checks. Core imports no
game: a third-party store runs the contract with nothing but gamehall's core.
"""

from __future__ import annotations

import msgspec

from ..codec import Codec
from ..events import CORE_COMMANDS, CORE_EVENTS, Command, Event, namespaced

tag = namespaced("gamehall.testing")


class Marked(Event, frozen=True, gc=False, tag=tag):
    """A seat marked a cell: the payload the suite stores."""

    seat: int
    cell: int


class Filled(Event, frozen=True, gc=False, tag=tag):
    """Every cell is marked: an event without fields."""


class Mark(Command, frozen=True, gc=False, tag=tag):
    """Mark a cell: the command the suite records in metadata."""

    cell: int


class Tally(msgspec.Struct, frozen=True):
    """What a fold of the suite's events keeps: the cells marked, in order, and whether full."""

    cells: tuple[int, ...] = ()
    full: bool = False


def evolve(state: Tally, event: Event) -> Tally:
    """Return the tally after one event (other events change nothing)."""
    if isinstance(event, Marked):
        return Tally((*state.cells, event.cell), state.full)
    if isinstance(event, Filled):
        return Tally(state.cells, True)
    return state


class ContractPlugins:
    """What the contract hands ``make``: ``codec`` encodes the core's and the suite's events."""

    def __init__(self) -> None:
        self.codec = Codec([*CORE_EVENTS, Marked, Filled], [*CORE_COMMANDS, Mark])


def marks(n: int, start: int = 0) -> list[Marked]:
    """Return ``n`` marks, seats alternating, cells from ``start`` on (modulo 9)."""
    return [Marked(seat=i % 2, cell=(start + i) % 9) for i in range(n)]
