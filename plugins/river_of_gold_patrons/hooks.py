"""The Clan Patrons' implementations of River of Gold's hooks: the draft and each patron's
ability (ROG-PATRON-*). Written only against ``gamehall.plugins.river_of_gold.api``."""

from __future__ import annotations

import random
from typing import Any

from gamehall.core import Command, Decision, IllegalCommand
from gamehall.plugins.river_of_gold.api import (
    COMPONENTS,
    CUSTOMERS,
    RIVERS_BY_SPACE,
    TOUCHES,
    DieRolled,
    State,
    Turn,
    draw_customers,
    end_turn,
    gain,
    hookimpl,
    phase,
    wrap_die,
)

from . import state as mine
from .commands import ChoosePatron, RollDie, SetDie
from .components import BOX, CLANS, ID, NUMBERS, PatronOptions
from .events import OpeningDieSettled, OpeningRollSkipped, PatronChosen, PatronsOffered
from .state import draft_order, has, offered, opening

ANY_REGION = (1, 2, 3, 4, 5, 6)


def deal(players: int, mode: str, rng: random.Random) -> PatronsOffered:
    """Lay out patrons: one per clan for a draft, or a clan per seat (ROG-PATRON-1, -2)."""
    order = tuple(range(players - 1, -1, -1))
    by_clan = {c: [p.id for p in BOX.patrons if p.clan == c] for c in CLANS}
    if mode == "draft":
        pool = tuple(rng.choice(by_clan[c]) for c in CLANS)
        return PatronsOffered(offers=(pool,) * players, order=order)
    clans = rng.sample(CLANS, players)
    return PatronsOffered(offers=tuple(tuple(by_clan[c]) for c in clans), order=order)


class PatronHooks:
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
        order = draft_order(state)
        if order:
            return order[0], Decision("patron", "choose your clan patron")
        owed = opening(state)
        if owed:
            prompt = "roll your opening die, or pay 1 favour to set it"
            return owed[0], Decision("opening-die", prompt)
        return None

    @hookimpl
    def river_of_gold_extra_commands(self, state: State, seat: int, phase: str) -> list[Command]:
        """Offer the patrons while drafting, and Kakita Ryoku's die setting at the turn's end."""
        order = draft_order(state)
        if phase == "expansion" and order and order[0] == seat:
            return [ChoosePatron(patron=p) for p in offered(state, seat)]
        affords = state.players[seat].favour >= NUMBERS.kakita_cost
        if phase == "expansion" and not order and opening(state)[:1] == (seat,):
            return [RollDie(), *(SetDie(face=face) for face in range(1, 7) if affords)]
        kakita = phase == "finish" and has(state, seat, "kakita-ryoku")
        if kakita and affords:
            return [SetDie(face=face) for face in range(1, 7)]
        return []

    @hookimpl
    def river_of_gold_decide(self, turn: Turn, seat: int, command: Command) -> bool | None:
        """Decide ChoosePatron, SetDie and RollDie."""
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
        """Apply the expansion's events to its own state."""
        return mine.evolve(state, event)

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
        return ANY_REGION if has(state, seat, "kaiu-shihobu") else None

    @hookimpl
    def river_of_gold_deliver_regions(self, state: State, seat: int) -> tuple[int, ...] | None:
        """Let Yoritomo deliver to any customer (ROG-PATRON-5)."""
        return ANY_REGION if has(state, seat, "yoritomo") else None

    @hookimpl
    def river_of_gold_influence_target(
        self, state: State, seat: int, region: int, steps: int
    ) -> int | None:
        """Jump Bayushi Kachiko over other clans' markers for free (ROG-PATRON-10)."""
        if not has(state, seat, "bayushi-kachiko"):
            return None
        others = {p.influence[region - 1] for i, p in enumerate(state.players) if i != seat}
        at = state.players[seat].influence[region - 1]
        while steps > 0 and at < COMPONENTS.track.top:
            at += 1
            if at not in others:
                steps -= 1
        return at

    # -- effects -------------------------------------------------------------------------------

    @hookimpl
    def river_of_gold_built(self, turn: Turn, seat: int, space: int) -> None:
        """Give Yasuki Taka 1 point per river space touching the new building (ROG-PATRON-4)."""
        if has(turn.state, seat, "yasuki-taka"):
            points = NUMBERS.taka_points_per_river * len(RIVERS_BY_SPACE[space])
            gain(turn, seat, "Yasuki Taka", points=points)

    @hookimpl
    def river_of_gold_delivered(self, turn: Turn, seat: int, card: str) -> None:
        """Give Kudaka 3 points for her first customer of a region (ROG-PATRON-6)."""
        if not has(turn.state, seat, "kudaka"):
            return
        region = CUSTOMERS[card].region
        same = [c for c in turn.state.players[seat].delivered if CUSTOMERS[c].region == region]
        if same == [card]:
            gain(turn, seat, "Kudaka", points=NUMBERS.kudaka_points)

    @hookimpl
    def river_of_gold_sailed(self, turn: Turn, seat: int, ship: int, river: int) -> None:
        """Give Daidoji Uji 2 points when a sail visits another clan's building (ROG-PATRON-7)."""
        if not has(turn.state, seat, "daidoji-uji"):
            return
        if any(m != seat for s in TOUCHES[river] for m in turn.state.markers[s - 1]):
            gain(turn, seat, "Daidoji Uji", points=NUMBERS.uji_points)

    @hookimpl
    def river_of_gold_influence_moved(
        self, turn: Turn, seat: int, region: int, before: int, after: int
    ) -> None:
        """Give Shosuro Hyobu 3 points when another clan passes her marker (ROG-PATRON-9)."""
        for other, player in enumerate(turn.state.players):
            mark = player.influence[region - 1]
            passed = mark >= 1 and before <= mark < after
            if passed and other != seat and has(turn.state, other, "shosuro-hyobu"):
                gain(turn, other, "Shosuro Hyobu", points=NUMBERS.hyobu_points)


def choose(turn: Turn, seat: int, patron: str) -> None:
    """Take a patron and its starting gift (ROG-PATRON-1, -3, -5)."""
    if patron not in offered(turn.state, seat) or not draft_order(turn.state):
        raise IllegalCommand(f"{patron!r} is not on offer to you", "ROG-PATRON-1")
    turn.emit(PatronChosen(seat=seat, patron=patron))
    if patron == "kaiu-shihobu":
        gain(turn, seat, "Kaiu Shihobu", koku=NUMBERS.extra_koku)
    if patron == "yoritomo":
        draw_customers(turn, seat, NUMBERS.extra_customers)


def set_die(turn: Turn, seat: int, face: int) -> None:
    """Pay 1 favour and set the die instead of rolling (ROG-PATRON-8)."""
    state = turn.state
    if not has(state, seat, "kakita-ryoku"):
        raise IllegalCommand("only Kakita Ryoku may set the die", "ROG-PATRON-8")
    if phase(state) != "finish" or draft_order(state):
        raise IllegalCommand(
            "set the die at the end of your turn, after your action", "ROG-PATRON-8"
        )
    if not 1 <= face <= 6 or face != wrap_die(face):
        raise IllegalCommand(f"a die has no face {face}", "ROG-PATRON-8")
    if state.players[seat].favour < NUMBERS.kakita_cost:
        raise IllegalCommand("setting the die costs 1 favour", "ROG-PATRON-8")
    gain(turn, seat, "Kakita Ryoku", favour=-NUMBERS.kakita_cost)
    end_turn(turn, seat, face)


def settle_opening(turn: Turn, seat: int, face: int | None) -> None:
    """Roll the skipped opening die, or pay 1 favour to set it (ROG-PATRON-12)."""
    state = turn.state
    if opening(state)[:1] != (seat,):
        raise IllegalCommand("you owe no opening die", "ROG-PATRON-12")
    if face is not None:
        if not 1 <= face <= 6:
            raise IllegalCommand(f"a die has no face {face}", "ROG-PATRON-12")
        if state.players[seat].favour < NUMBERS.kakita_cost:
            raise IllegalCommand("setting the die costs 1 favour", "ROG-PATRON-12")
        gain(turn, seat, "Kakita Ryoku", favour=-NUMBERS.kakita_cost)
    rolled = turn.rng.randint(1, 6) if face is None else face
    turn.emit(DieRolled(seat=seat, face=rolled), OpeningDieSettled(seat=seat))
