"""The state of a Gunsen match: the board, the clans, the order row and the step in progress.

Spaces are numbers (their order in the board side's file); seats are 0..N-1 clockwise, and
``turn`` is the active seat. Column 0-3 are Armory (blue), Recruit (yellow), Influence (purple)
and Expand (brown). ``HIDDEN`` stands for a component the viewing seat may not see.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

import msgspec

HIDDEN = "?"
NOBODY = -1
BOX = -2  # an upgrade tile that went back to the box (an unused shrine)

Phase = Literal[
    "clan",  # choose a clan, in seat order from the start player
    "choose",  # step 1: take an order card from the row, or replace the row
    "place",  # step 2: put the taken card on a column or on a noble-action space
    "noble_card",  # noble action 1: take a second card from the row
    "column",  # choose the column to activate (noble actions, or no card could be taken)
    "hero",  # recruit a hero and place it
    "special",  # take a special order and put it on a column
    "act",  # step 3: the column's cards and printed boxes, top to bottom
    "tribute",  # combat: the opponent of Bayushi Aramoro pays influence or not
    "ride",  # combat: Moto Chagatai's owner lets him ride to the combat or not
    "reroll",  # combat: the rolling side rerolls dice or stops
    "keep",  # combat: the rolling side keeps as many dice as it has keep symbols
    "swap",  # combat: Togashi Yokuni's owner swaps two kept dice or not
    "retreat",  # combat: the loser chooses where all its troops retreat to
    "relocate",  # combat: a hero whose troops are gone goes to a building or the fort
    "steal",  # combat: the winner takes a village token of the loser
    "over",
]


class Options(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """Game options: readings of open rules (docs/rules/gunsen.md names each one)."""

    steal_choice: Annotated[
        Literal["winner", "loser"],
        msgspec.Meta(
            title="Who picks the stolen village",
            description="winner: the winner of a combat picks the village token; loser: the loser.",
        ),
    ] = "winner"  # GUN-COMBAT-12
    row_replacements: Annotated[
        Literal["once", "repeat"],
        msgspec.Meta(
            title="Replacing the order row",
            description="once: the row may be replaced once a turn; repeat: as often as wanted.",
        ),
    ] = "once"  # GUN-ORDER-4


class Player(msgspec.Struct, frozen=True, gc=False, omit_defaults=True):
    """A clan: resources, clan board, cards, heroes, buildings, tokens and achievements.

    ``columns`` hold order cards and special orders, top (newest) first. ``noble`` holds the
    card lying face down on each noble-action space ("" while free). ``hand`` is the unbought
    neutral tactics (hidden from the others). ``heroes`` and ``buildings`` pair a card with its
    space. ``achievements`` names the box of every marker on the board (the Toshi Ranbo tile's
    marker is ``State.holder``).
    """

    clan: str = ""
    koku: int = 0
    wood: int = 0
    influence: int = 0
    supply: int = 15
    columns: tuple[tuple[str, ...], ...] = ((), (), (), ())
    noble: tuple[str, str, str] = ("", "", "")
    tactics: tuple[str, ...] = ()
    hand: tuple[str, ...] = ()
    heroes: tuple[tuple[str, int], ...] = ()
    specials: tuple[str, ...] = ()
    buildings: tuple[tuple[str, int], ...] = ()
    tokens: tuple[str, ...] = ()
    objectives: tuple[str, ...] = ()
    achievements: tuple[str, ...] = ()
    defended: int = 0
    kills: int = 0
    steals: int = 0


class Step(msgspec.Struct, frozen=True, array_like=True, gc=False):
    """One action of the activated column still to come; ``amount`` uses are left."""

    kind: str
    amount: int = 1
    resource: str = ""
    source: str = ""


class Activation(msgspec.Struct, frozen=True, gc=False, omit_defaults=True):
    """A column being activated: the actions left (the first is the current one).

    ``tower_after``: the move just made may still be followed by a watchtower move;
    ``tower_before``: the pending move already had its watchtower move before it;
    ``lapsed``: a combat or the first entry into Toshi Ranbo ended all movement.
    """

    column: int
    steps: tuple[Step, ...] = ()
    tower_after: bool = False
    tower_before: bool = False
    lapsed: bool = False
    one_shots: tuple[str, ...] = ()


class Selection(msgspec.Struct, frozen=True, gc=False, omit_defaults=True):
    """The army picked up for the move in progress (``tower``: a watchtower move)."""

    space: int
    troops: int
    hero: str = ""
    tower: bool = False


class Combat(msgspec.Struct, frozen=True, gc=False, omit_defaults=True):
    """A combat in progress on ``space``. Pairs are (attacker, defender).

    ``ignored``: that side ignores the symbols and abilities of its heroes (Bayushi Aramoro);
    ``dice``/``rerolls``: the rolling side's dice and rerolls left; ``kept``: each side's kept
    dice; ``winner``/``loser`` are set once the combat is resolved.
    """

    space: int
    attacker: int
    defender: int
    ignored: tuple[bool, bool] = (False, False)
    roller: int = NOBODY
    dice: tuple[str, ...] = ()
    rerolls: int = 0
    kept: tuple[tuple[str, ...], tuple[str, ...]] = ((), ())
    resolved: bool = False
    winner: int = NOBODY
    loser: int = NOBODY


class State(msgspec.Struct, frozen=True, omit_defaults=True):
    """The whole match.

    ``troops[seat][space]`` counts troops (one byte per space: a view stays small, which
    keeps every seat's view cheap to encode and check); ``villages`` pairs each village space
    with its face-down token ("" once taken); ``upgrades`` holds, per column colour, the seat owning
    that upgrade tile (``NOBODY``: still on its shrine or on Toshi Ranbo, ``BOX``: unused).
    ``reshuffled``: the deck is the shuffled discard pile, every card of it seen before.
    """

    players: tuple[Player, ...] = ()
    side: str = ""
    options: Options = Options()
    start: int = 0
    troops: tuple[bytes, ...] = ()
    forts: tuple[int, ...] = ()
    towers: tuple[int, ...] = ()
    shrines: tuple[tuple[int, str], ...] = ()
    villages: tuple[tuple[int, str], ...] = ()
    upgrades: tuple[int, int, int, int] = (BOX, BOX, BOX, NOBODY)
    taken: bool = False
    holder: int = NOBODY
    boxed: tuple[str, ...] = ()
    deck: tuple[str, ...] = ()
    reshuffled: bool = False
    row: tuple[str, ...] = ()
    discard: tuple[str, ...] = ()
    turn: int = 0
    turns: int = 0
    phase: Phase = "clan"
    asked: int = 0
    card: str = ""
    noble: int = 0
    replaced: bool = False
    activation: Activation | None = None
    selection: Selection | None = None
    combat: Combat | None = None
    winner: int = NOBODY
    ending: str = ""
    ext: dict[str, Any] = {}

    @property
    def count(self) -> int:
        """Return the number of players."""
        return len(self.players)
