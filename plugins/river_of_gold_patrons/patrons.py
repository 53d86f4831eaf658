"""The clan patrons as data, the draft, and each patron's hook implementations (ROG-PATRON-*)."""

from __future__ import annotations

import random
import tomllib
from importlib import resources
from typing import Any, Literal

import msgspec
from gamehall.core import Command, Decision, Event, IllegalCommand, hookimpl, namespaced
from gamehall.plugins.river_of_gold.actions import end_turn, wrap_die
from gamehall.plugins.river_of_gold.components import CUSTOMERS, RIVERS_BY_SPACE, TOUCHES, C
from gamehall.plugins.river_of_gold.effects import Turn
from gamehall.plugins.river_of_gold.events import DieRolled
from gamehall.plugins.river_of_gold.legal import phase
from gamehall.plugins.river_of_gold.state import State
from msgspec.structs import replace

ID = "river-of-gold-patrons"
CLANS = ("crab", "crane", "scorpion", "mantis")


class Patron(msgspec.Struct, frozen=True):
    """A clan patron card."""

    id: str
    clan: str
    name: str
    ability: str


class Numbers(msgspec.Struct, frozen=True):
    """The amounts the patrons' abilities name."""

    extra_koku: int
    extra_customers: int
    taka_points_per_river: int
    kudaka_points: int
    uji_points: int
    kakita_cost: int
    hyobu_points: int


class Box(msgspec.Struct, frozen=True):
    """The expansion's components."""

    patrons: tuple[Patron, ...]
    setup: Numbers


def _load() -> Box:
    text = resources.files(__package__).joinpath("data/patrons.toml").read_text("utf-8")
    return msgspec.convert(tomllib.loads(text), Box)


BOX = _load()
PATRONS = {p.id: p for p in BOX.patrons}
N = BOX.setup


class PatronOptions(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """How patrons are dealt: ``draft`` (ROG-PATRON-1) or ``alternative`` (ROG-PATRON-2)."""

    setup: Literal["draft", "alternative"] = "draft"


# -- events and commands -----------------------------------------------------------------------


class PatronsOffered(Event, frozen=True, gc=False, tag=namespaced("river_of_gold_patrons")):
    """Patrons were laid out: ``offers[seat]`` lists what that seat may choose from."""

    offers: tuple[tuple[str, ...], ...]
    order: tuple[int, ...]


class PatronChosen(Event, frozen=True, gc=False, tag=namespaced("river_of_gold_patrons")):
    """A seat took a patron; nobody else may take it."""

    seat: int
    patron: str


class ChoosePatron(Command, frozen=True, gc=False, tag=namespaced("river_of_gold_patrons")):
    """Take one of the patrons on offer (ROG-PATRON-1, ROG-PATRON-2)."""

    patron: str


class OpeningRollSkipped(Event, frozen=True, gc=False, tag=namespaced("river_of_gold_patrons")):
    """A seat did not roll its opening die; it settles the die before the first turn."""

    seat: int


class OpeningDieSettled(Event, frozen=True, gc=False, tag=namespaced("river_of_gold_patrons")):
    """A seat that skipped the opening roll has rolled or set its die."""

    seat: int


class SetDie(Command, frozen=True, gc=False, tag=namespaced("river_of_gold_patrons")):
    """Pay 1 favour to set the die to ``face`` instead of rolling (ROG-PATRON-8, -12).

    At the end of a turn this ends the turn; in setup it settles the opening die.
    """

    face: int


class RollDie(Command, frozen=True, gc=False, tag=namespaced("river_of_gold_patrons")):
    """Roll the opening die after all, without paying (ROG-PATRON-12)."""


EVENTS = (PatronsOffered, PatronChosen, OpeningRollSkipped, OpeningDieSettled)
COMMANDS = (ChoosePatron, SetDie, RollDie)


# -- state kept in ``State.ext`` ---------------------------------------------------------------


def patron_of(state: State, seat: int) -> str | None:
    """Return the patron a seat plays with, if it chose one."""
    chosen = state.ext.get(f"patron.{seat}")
    return chosen[0] if chosen else None


def has(state: State, seat: int, patron: str) -> bool:
    """Tell whether ``seat`` plays with ``patron``."""
    return state.ext.get(f"patron.{seat}") == (patron,)


def _order(state: State) -> tuple[str, ...]:
    return state.ext.get("patrons.order", ())


def opening(state: State) -> tuple[str, ...]:
    """Return the seats (as text) that still owe their opening die (ROG-PATRON-12)."""
    return state.ext.get("opening.die", ())


def offered(state: State, seat: int) -> tuple[str, ...]:
    """Return the patrons ``seat`` may still choose."""
    return state.ext.get(f"patrons.offer.{seat}", ())


def dealt_clan(offer: tuple[str, ...]) -> tuple[str, ...]:
    """Return the clan a seat was dealt (its offer is one clan's patrons), or none in a draft.

    The base game names a seat by ``ext["clan.N"]``: the clan, or nothing while it has none.
    """
    clans = {PATRONS[p].clan for p in offer}
    return (clans.pop().capitalize(),) if len(clans) == 1 else ()


def deal(players: int, mode: str, rng: random.Random) -> PatronsOffered:
    """Lay out patrons: one per clan for a draft, or a clan per seat (ROG-PATRON-1, -2)."""
    order = tuple(range(players - 1, -1, -1))
    by_clan = {c: [p.id for p in BOX.patrons if p.clan == c] for c in CLANS}
    if mode == "draft":
        pool = tuple(rng.choice(by_clan[c]) for c in CLANS)
        return PatronsOffered(offers=(pool,) * players, order=order)
    clans = rng.sample(CLANS, players)
    return PatronsOffered(offers=tuple(tuple(by_clan[c]) for c in clans), order=order)


class Patrons:
    """The expansion's implementations of River of Gold's hooks."""

    # -- setup and the draft -------------------------------------------------------------------

    @hookimpl
    def river_of_gold_setup(self, turn: Turn, options: Any, rng: random.Random) -> None:
        """Lay the patrons out after the base setup."""
        mode = options.get(ID, PatronOptions()).setup if isinstance(options, dict) else "draft"
        turn.emit(deal(turn.state.count, mode, rng))

    @hookimpl
    def river_of_gold_decision(self, state: State) -> tuple[int, Decision] | None:
        """Ask the next seat in draft order for its patron before the first turn."""
        order = _order(state)
        if order:
            return int(order[0]), Decision("patron", "choose your clan patron")
        owed = opening(state)
        if owed:
            prompt = "roll your opening die, or pay 1 favour to set it"
            return int(owed[0]), Decision("opening-die", prompt)
        return None

    @hookimpl
    def river_of_gold_extra_commands(self, state: State, seat: int, phase: str) -> list[Command]:
        """Offer the patrons while drafting, and Kakita Ryoku's die setting at the turn's end."""
        if phase == "expansion" and _order(state) and int(_order(state)[0]) == seat:
            return [ChoosePatron(patron=p) for p in offered(state, seat)]
        affords = state.players[seat].favour >= N.kakita_cost
        if phase == "expansion" and not _order(state) and opening(state)[:1] == (str(seat),):
            return [RollDie(), *(SetDie(face=face) for face in range(1, 7) if affords)]
        kakita = phase == "finish" and has(state, seat, "kakita-ryoku")
        if kakita and affords:
            return [SetDie(face=face) for face in range(1, 7)]
        return []

    @hookimpl
    def river_of_gold_decide(self, turn: Turn, seat: int, command: Command) -> bool | None:
        """Decide ChoosePatron and SetDie."""
        if isinstance(command, ChoosePatron):
            choose(turn, seat, command.patron)
            return True
        if isinstance(command, SetDie) and opening(turn.state):
            settle_opening(turn, seat, command.face)
            return True
        if isinstance(command, SetDie):
            set_die(turn, seat, command.face)
            return True
        if isinstance(command, RollDie):
            settle_opening(turn, seat, None)
            return True
        return None

    @hookimpl
    def river_of_gold_evolve(self, state: State, event: Any) -> State | None:
        """Apply the expansion's events to ``State.ext``."""
        ext = dict(state.ext)
        if type(event) is PatronsOffered:
            for seat, offer in enumerate(event.offers):
                ext[f"patrons.offer.{seat}"] = offer
                ext[f"clan.{seat}"] = dealt_clan(offer)
            ext["patrons.order"] = tuple(map(str, event.order))
            return replace(state, ext=ext)
        if type(event) is PatronChosen:
            for key in [k for k in ext if k.startswith("patrons.offer.")]:
                ext[key] = tuple(p for p in ext[key] if p != event.patron)
            ext["patrons.order"] = ext["patrons.order"][1:]
            ext[f"patron.{event.seat}"] = (event.patron,)
            ext[f"clan.{event.seat}"] = (PATRONS[event.patron].clan.capitalize(),)
            if not ext["patrons.order"]:
                ext = {k: v for k, v in ext.items() if k.startswith(("patron.", "clan."))}
            return replace(state, ext=ext)
        if type(event) is OpeningRollSkipped:
            ext["opening.die"] = (*opening(state), str(event.seat))
            return replace(state, ext=ext)
        if type(event) is OpeningDieSettled:
            owed = tuple(s for s in opening(state) if s != str(event.seat))
            ext.pop("opening.die", None)
            if owed:
                ext["opening.die"] = owed
            return replace(state, ext=ext)
        return None

    @hookimpl
    def river_of_gold_opening_roll(self, turn: Turn, seat: int) -> bool | None:
        """Let Kakita Ryoku skip the opening roll; she settles her die later (ROG-PATRON-12)."""
        if not has(turn.state, seat, "kakita-ryoku"):
            return None
        turn.emit(OpeningRollSkipped(seat=seat))
        return True

    # -- costs and regions ---------------------------------------------------------------------

    @hookimpl
    def river_of_gold_build_regions(self, state: State, seat: int) -> tuple[int, ...] | None:
        """Let Kaiu Shihobu build in any region (ROG-PATRON-3)."""
        return (1, 2, 3, 4, 5, 6) if has(state, seat, "kaiu-shihobu") else None

    @hookimpl
    def river_of_gold_deliver_regions(self, state: State, seat: int) -> tuple[int, ...] | None:
        """Let Yoritomo deliver to any customer (ROG-PATRON-5)."""
        return (1, 2, 3, 4, 5, 6) if has(state, seat, "yoritomo") else None

    @hookimpl
    def river_of_gold_influence_target(
        self, state: State, seat: int, region: int, steps: int
    ) -> int | None:
        """Jump Bayushi Kachiko over other clans' markers for free (ROG-PATRON-10)."""
        if not has(state, seat, "bayushi-kachiko"):
            return None
        others = {p.influence[region - 1] for i, p in enumerate(state.players) if i != seat}
        at = state.players[seat].influence[region - 1]
        while steps > 0 and at < C.track.top:
            at += 1
            if at not in others:
                steps -= 1
        return at

    # -- effects -------------------------------------------------------------------------------

    @hookimpl
    def river_of_gold_built(self, turn: Turn, seat: int, space: int) -> None:
        """Give Yasuki Taka 1 point per river space touching the new building (ROG-PATRON-4)."""
        if has(turn.state, seat, "yasuki-taka"):
            turn.gain(
                seat, "Yasuki Taka", points=N.taka_points_per_river * len(RIVERS_BY_SPACE[space])
            )

    @hookimpl
    def river_of_gold_delivered(self, turn: Turn, seat: int, card: str) -> None:
        """Give Kudaka 3 points for her first customer of a region (ROG-PATRON-6)."""
        if not has(turn.state, seat, "kudaka"):
            return
        region = CUSTOMERS[card].region
        same = [c for c in turn.player(seat).delivered if CUSTOMERS[c].region == region]
        if same == [card]:
            turn.gain(seat, "Kudaka", points=N.kudaka_points)

    @hookimpl
    def river_of_gold_sailed(self, turn: Turn, seat: int, ship: int, river: int) -> None:
        """Give Daidoji Uji 2 points when a sail visits another clan's building (ROG-PATRON-7)."""
        if not has(turn.state, seat, "daidoji-uji"):
            return
        if any(m != seat for s in TOUCHES[river] for m in turn.state.markers[s - 1]):
            turn.gain(seat, "Daidoji Uji", points=N.uji_points)

    @hookimpl
    def river_of_gold_influence_moved(
        self, turn: Turn, seat: int, region: int, before: int, after: int
    ) -> None:
        """Give Shosuro Hyobu 3 points when another clan passes her marker (ROG-PATRON-9)."""
        for other, player in enumerate(turn.state.players):
            mark = player.influence[region - 1]
            passed = mark >= 1 and before <= mark < after
            if passed and other != seat and has(turn.state, other, "shosuro-hyobu"):
                turn.gain(other, "Shosuro Hyobu", points=N.hyobu_points)


def choose(turn: Turn, seat: int, patron: str) -> None:
    """Take a patron and its starting gift (ROG-PATRON-1, -3, -5)."""
    if patron not in offered(turn.state, seat) or not _order(turn.state):
        raise IllegalCommand(f"{patron!r} is not on offer to you", "ROG-PATRON-1")
    turn.emit(PatronChosen(seat=seat, patron=patron))
    if patron == "kaiu-shihobu":
        turn.gain(seat, "Kaiu Shihobu", koku=N.extra_koku)
    if patron == "yoritomo":
        turn.draw(seat, N.extra_customers)


def set_die(turn: Turn, seat: int, face: int) -> None:
    """Pay 1 favour and set the die instead of rolling (ROG-PATRON-8)."""
    state = turn.state
    if not has(state, seat, "kakita-ryoku"):
        raise IllegalCommand("only Kakita Ryoku may set the die", "ROG-PATRON-8")
    if phase(state) != "finish" or _order(state):
        raise IllegalCommand(
            "set the die at the end of your turn, after your action", "ROG-PATRON-8"
        )
    if not 1 <= face <= 6 or face != wrap_die(face):
        raise IllegalCommand(f"a die has no face {face}", "ROG-PATRON-8")
    if state.players[seat].favour < N.kakita_cost:
        raise IllegalCommand("setting the die costs 1 favour", "ROG-PATRON-8")
    turn.gain(seat, "Kakita Ryoku", favour=-N.kakita_cost)
    end_turn(turn, seat, face)


def settle_opening(turn: Turn, seat: int, face: int | None) -> None:
    """Roll the skipped opening die, or pay 1 favour to set it (ROG-PATRON-12)."""
    state = turn.state
    if opening(state)[:1] != (str(seat),):
        raise IllegalCommand("you owe no opening die", "ROG-PATRON-12")
    if face is not None:
        if not 1 <= face <= 6:
            raise IllegalCommand(f"a die has no face {face}", "ROG-PATRON-12")
        if state.players[seat].favour < N.kakita_cost:
            raise IllegalCommand("setting the die costs 1 favour", "ROG-PATRON-12")
        turn.gain(seat, "Kakita Ryoku", favour=-N.kakita_cost)
    rolled = turn.rng.randint(1, 6) if face is None else face
    turn.emit(DieRolled(seat=seat, face=rolled), OpeningDieSettled(seat=seat))
