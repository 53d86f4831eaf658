"""Build Ehre der Samurai positions by hand and send commands to them, for the scenario tests."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import msgspec
import pytest
from gamehall.core import Command, Context, Event, IllegalCommand, default_registry, engine
from gamehall.plugins.ehre_der_samurai.cards import SHOGUN, box
from gamehall.plugins.ehre_der_samurai.state import Options, Player, State

RULESET = default_registry().ruleset("ehre-der-samurai")
RULES: Any = RULESET.rules
SAMURAI = tuple(c.id for c in box() if c.kind == "samurai")


def player(
    seat: int,
    daimyo: str | None = "daimyo-asai",
    daimyo_house: Sequence[str] = (),
    samurai_house: Sequence[str] = (),
    hand: Sequence[str] = (),
    honour: int = 0,
    ally: int | None = None,
    leaving: bool = False,
) -> Player:
    """Return a player of seat ``seat`` with the Samurai ``samurai-<seat + 1>``."""
    return Player(
        samurai=SAMURAI[seat],
        samurai_house=tuple(samurai_house),
        daimyo=daimyo,
        daimyo_house=tuple(daimyo_house),
        hand=tuple(hand),
        honour=honour,
        ally=ally,
        leaving=leaving,
    )


def make(
    *players: Player,
    turn: int = 0,
    shogun: int | None = None,
    deck: Sequence[str] | None = None,
    discard: Sequence[str] = (),
    actions_used: int = 0,
    declared: bool = False,
    **options: Any,
) -> State:
    """Return a position in phase 2 of ``turn``; the deck holds every unused card by default."""
    if shogun is not None and SHOGUN not in players[shogun].daimyo_house:
        holder = players[shogun]
        fixed = msgspec.structs.replace(holder, daimyo_house=(*holder.daimyo_house, SHOGUN))
        players = players[:shogun] + (fixed,) + players[shogun + 1 :]
    used = set(discard)
    for p in players:
        used.update(p.hand, p.samurai_house, p.daimyo_house, p.heads())
    if deck is None:
        deck = [c.id for c in box() if c.kind not in ("samurai", "shogun") and c.id not in used]
    return State(
        options=Options(**options),
        players=tuple(players),
        reserve=SAMURAI[len(players) :],
        deck=tuple(deck),
        discard=tuple(discard),
        shogun=shogun,
        turn=turn,
        actions_used=actions_used,
        declared=declared,
    )


def three(**changes: Any) -> State:
    """Return three players with their starting houses and empty hands, seat 0 to act."""
    return make(player(0), player(1, "daimyo-hojo"), player(2, "daimyo-mori"), **changes)


def send(
    state: State, command: Command, seat: int | None = None, seed: int = 0
) -> tuple[list[Event], State]:
    """Decide a command as the engine does; return its events and the state after them."""
    seat = state.turn if seat is None else seat
    events, after = engine.decide(RULESET, state, seat, command, Context(seat, 100, seed))
    return list(events), after


def refused(state: State, command: Command, rule: str, seat: int | None = None) -> IllegalCommand:
    """Check that a command is refused under ``rule`` and is not among the legal ones."""
    seat = state.turn if seat is None else seat
    with pytest.raises(IllegalCommand) as caught:
        send(state, command, seat)
    assert caught.value.rule == rule, caught.value
    assert command not in RULES.legal(state, seat)
    return caught.value


def kinds(events: Sequence[Event]) -> list[str]:
    """Return the class names of events."""
    return [type(e).__name__ for e in events]


def awaited(state: State) -> dict[int, str]:
    """Return the kind of decision asked of each awaited seat."""
    return {seat: d.kind for seat, d in RULES.awaiting(state).items()}


def fight_plan(players: int = 3) -> tuple[int, list[tuple[int, Command]]]:
    """Return a seed and the commands that open a Save Face window for every seat.

    Owari declares Shogun and ends its turn; Kai plays its strongest cards and attacks the
    Shogun. The first seed whose deal gives Kai the three strength of a die is used.
    """
    from gamehall.core import Table
    from gamehall.plugins.ehre_der_samurai.commands import Attack, DeclareShogun, EndTurn, Play

    for seed in range(200):
        table = Table.new("ehre-der-samurai", players, seed=seed)
        plan: list[tuple[int, Command]] = [(0, DeclareShogun()), (0, EndTurn())]
        for seat, command in plan:
            table.send(seat, command)
        while Attack(target=0) not in table.legal(1):
            plays = [c for c in table.legal(1) if isinstance(c, Play) and c.owner == 1]
            if not plays:
                break
            best = max(plays, key=lambda c: RULES.cards[c.card].strength)
            if RULES.cards[best.card].strength == 0:
                break
            table.send(1, best)
            plan.append((1, best))
        if Attack(target=0) in table.legal(1):
            return seed, [*plan, (1, Attack(target=0))]
    raise AssertionError("no seed lets Kai attack in the first round")
