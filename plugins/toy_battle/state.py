"""The state of a Toy Battle match, and the options it starts with."""

from __future__ import annotations

from typing import Annotated, Literal

import msgspec

Pair = tuple[tuple[str, ...], tuple[str, ...]]
EMPTY_PAIR: Pair = ((), ())


class Options(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """What players choose before a match (rule ids in docs/rules/toy-battle.md)."""

    terrain: Annotated[
        str,
        msgspec.Meta(
            title="Terrain",
            description="The board to play on (its English and Dutch names).",
        ),
    ] = "castle"
    """Which terrain to play on (TB-SETUP-1): its key, or its English or Dutch name. Text, not
    a ``Literal``: expansions add terrains (``toy_battle_terrains``), so the ruleset knows the
    closed set (``ToyBattle.option_choices``), which forms offer as a select."""
    colour: Annotated[
        Literal["blue", "red", "random"],
        msgspec.Meta(
            title="Colour of seat 1",
            description="The colour the first seat plays; random: drawn at the start.",
        ),
    ] = "blue"
    """The colour of the first seat (TB-SETUP-2)."""
    special_bases: Annotated[
        bool,
        msgspec.Meta(
            title="Special bases",
            description="Off: every special base is a plain base, as for first games.",
        ),
    ] = True
    """False plays every special base as a plain base, as for first games (TB-TERRAIN-1)."""
    kwak_on_restricted: Annotated[
        bool,
        msgspec.Meta(
            title="Kwak on value-restricted spots",
            description="Kwak, who has no value, may go on Pool spots restricted to certain values.",
        ),
    ] = False
    """True lets Kwak onto Pool spots restricted to certain values (TB-POOL-2)."""
    tie_loser: Annotated[
        Literal["stuck", "last"],
        msgspec.Meta(
            title="Who loses a tie when play stops",
            description="On equal medals when nobody can move: stuck: the player who could not "
            "act loses; last: the player who took the last turn.",
        ),
    ] = "stuck"
    """Who ended a match stopped for want of moves: the stuck seat or the last mover (TB-END-4)."""


class WaitingEffect(msgspec.Struct, frozen=True, gc=False):
    """An effect waiting to be used or skipped: what triggered it and where."""

    effect: str
    seat: int
    troop: str
    spot: int
    base: bool = False


class State(msgspec.Struct, frozen=True):
    """Everything in a match; seats' views hide parts of it (see ``view.py``).

    Stacks list troops bottom to top; supplies are drawn from the front.
    """

    terrain: str
    options: Options = Options()
    blue: int = 0
    turn: int = 0
    supply: Pair = EMPTY_PAIR
    removed: Pair = EMPTY_PAIR
    racks: Pair = EMPTY_PAIR
    face_down: Pair = EMPTY_PAIR
    known: Pair = EMPTY_PAIR
    stacks: dict[int, tuple[str, ...]] = {}
    discard: tuple[str, ...] = ()
    medals: tuple[int, int] = (0, 0)
    taken: tuple[tuple[int, int], ...] = ()
    queue: tuple[WaitingEffect, ...] = ()
    ready: bool = False
    over: bool = False
    winner: int | None = None
    reason: str = ""
    ended_by: int | None = None
    stuck: tuple[int, ...] = ()

    def colour(self, seat: int) -> str:
        """Return the colour a seat plays."""
        return "blue" if seat == self.blue else "red"

    def top(self, spot: int) -> str | None:
        """Return the troop that occupies a spot, or ``None`` when it is empty."""
        stack = self.stacks.get(spot)
        return stack[-1] if stack else None


def put(pair: Pair, seat: int, value: tuple[str, ...]) -> Pair:
    """Return ``pair`` with one seat's part replaced."""
    return (value, pair[1]) if seat == 0 else (pair[0], value)


def without(items: tuple[str, ...], *tokens: str) -> tuple[str, ...]:
    """Return ``items`` without the given tokens."""
    return tuple(item for item in items if item not in tokens)
