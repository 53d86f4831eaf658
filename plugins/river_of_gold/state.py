"""The state of a River of Gold match: the board, the supply, the players and open choices."""

from __future__ import annotations

from typing import Annotated, Any, Literal

import msgspec

HIDDEN = "?"
NobleBonus = Literal["buildings", "types-and-regions"]


class Options(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """What players choose before a match (rule ids in docs/rules/river-of-gold.md)."""

    noble_bonus: Annotated[
        NobleBonus,
        msgspec.Meta(
            title="How nobles score",
            description="How the nobles of regions 5 and 6 score at the end: by buildings, "
            "or by building types and regions.",
        ),
    ] = "buildings"
    """How the nobles of regions 5 and 6 score at the end (ROG-NOBLE-4)."""


class Player(msgspec.Struct, frozen=True):
    """A clan: its supply, influence, ships, hand and delivered customers.

    ``goods`` is (silk, rice, porcelain); ``influence`` is indexed by region - 1; ``ships`` holds
    river spaces; ``royal`` is the index of the ship replaced by the imperial ship, if any.
    ``earned`` splits the points scored during play by where they came from (see
    ``scoring.play_category``), so the final scoring can show them by category.
    ``hand_decks`` counts the hand's cards by the deck they were drawn from (index 0 the first
    deck, index k the deck shuffled from ``State.shuffles[k - 1]``): public, since everyone
    sees who draws from which deck, and what lets a seat tell which cards another may hold.
    """

    koku: int
    favour: int = 2
    favour_cap: int = 3
    goods: tuple[int, int, int] = (1, 1, 1)
    influence: tuple[int, ...] = (0, 0, 0, 0, 0, 0)
    ships: tuple[int, ...] = (1, 8)
    royal: int | None = None
    hand: tuple[str, ...] = ()
    delivered: tuple[str, ...] = ()
    die: int = 1
    points: int = 0
    earned: dict[str, int] = {}
    hand_decks: tuple[int, ...] = ()


class Choice(msgspec.Struct, frozen=True):
    """A choice a seat owes before play goes on (a good, a discard, a marker, …).

    ``options`` never names a hidden component: a discard is chosen from the seat's own hand.
    """

    seat: int
    kind: str
    options: tuple[str, ...] = ()
    source: str = ""


class State(msgspec.Struct, frozen=True):
    """The whole match; ``view`` masks what a seat may not see with ``HIDDEN``.

    ``tiles`` and ``markers`` are indexed by shore space - 1. ``row`` runs from the slot where
    tiles enter to the end slot (the last item). ``ext`` holds each expansion's own typed state
    under the expansion's id (read and write it with ``api.extension`` and
    ``api.with_extension``); the base game never reads it. ``clans`` names each seat's clan
    when an expansion deals clans otherwise (``""`` while a seat has none yet; empty: the
    rulebook's order), and ``dice_owed`` lists the seats whose opening die an expansion left
    unrolled past setup. ``started`` turns true once personal setup
    (ships, hands, opening dice) is done. ``shuffles`` keeps each discard pile that was
    shuffled into a new deck (sorted: which cards a new deck holds is public, not their
    order); ``gone`` keeps the tiles discarded from the row's end, out of the game.
    """

    players: tuple[Player, ...]
    tiles: tuple[str | None, ...] = (None,) * 30
    markers: tuple[tuple[int, ...], ...] = ((),) * 30
    row: tuple[str, ...] = ()
    era1: tuple[str, ...] = ()
    era2: tuple[str, ...] = ()
    era: int = 1
    deck: tuple[str, ...] = ()
    discard: tuple[str, ...] = ()
    score_tiles: tuple[str, ...] = ()
    masteries: tuple[str, ...] = ()
    claims: tuple[tuple[int, ...], ...] = ((), (), ())
    turn: int = 0
    started: bool = False
    acted: bool = False
    choices: tuple[Choice, ...] = ()
    visit_due: bool = False
    end_due: bool = False
    ended_by: int | None = None
    turns_left: int = -1
    over: bool = False
    final: tuple[int, ...] = ()
    noble_bonus: NobleBonus = "buildings"
    winners: tuple[int, ...] = ()
    ext: dict[str, Any] = {}
    shuffles: tuple[tuple[str, ...], ...] = ()
    gone: tuple[str, ...] = ()
    clans: tuple[str, ...] = ()
    dice_owed: tuple[int, ...] = ()

    @property
    def count(self) -> int:
        """Return the number of players."""
        return len(self.players)


def owners(state: State, space: int) -> tuple[int, ...]:
    """Return the clan markers on a shore space (a seat twice if it placed two)."""
    return state.markers[space - 1]


def owned_spaces(state: State, seat: int) -> tuple[int, ...]:
    """Return the shore spaces where ``seat`` has a clan marker."""
    return tuple(i + 1 for i, marks in enumerate(state.markers) if seat in marks)


def deck_of(state: State, card: str) -> int:
    """Return the deck a hidden customer belongs to: the last reshuffle it was part of, or 0."""
    for index in range(len(state.shuffles), 0, -1):
        if card in state.shuffles[index - 1]:
            return index
    return 0
