"""The battle chapter, step by step in the seed's order (KAL-SEQ-1).

declare -> magic declarations -> (card effects before the units are fixed) -> fix the units ->
dice pools -> roll all at once -> sort -> compare pairwise -> losses chosen by the losing
general -> (Keep cards) -> survivors and Crowns -> invasion or the defender holds.
:func:`advance` runs every step that needs no decision and stops where a seat must choose.
"""

from __future__ import annotations

import random
from itertools import combinations

from gamehall.core import Command, Emitter, IllegalCommand

from . import magic
from .commands import ChooseLosses, Invade
from .components import Catalogue, kind_of
from .dice import SidePlan, compare, pool, sort_high, ward
from .events import (
    AttackDeclared,
    BattleEnded,
    BattleJoined,
    CrownFell,
    DiceCompared,
    DiceRolled,
    Die,
    Invaded,
    InvasionOrdered,
    UnitsDefeated,
)
from .state import NOBODY, Battle, State
from .world import capacity, crown_of, neighbours


def check_tile(state: State, tile: int) -> None:
    """Refuse a tile number the world does not have."""
    if not 0 <= tile < len(state.board):
        raise IllegalCommand(f"there is no tile {tile} in this world", "KAL-WORLD-1")


def declare_attack(
    catalogue: Catalogue, em: Emitter[State], seat: int, origin: int, target: int
) -> None:
    """Declare an attack from one tile onto an adjacent tile of one opponent (KAL-DECLARE-1)."""
    state = em.state
    check_tile(state, origin)
    check_tile(state, target)
    if state.battled:
        raise IllegalCommand("you have already fought a battle this turn", "KAL-DECLARE-2")
    if state.holder[origin] != seat:
        raise IllegalCommand(f"none of your units stands on tile {origin}", "KAL-BATTLE-2")
    if target not in neighbours(catalogue, state, origin):
        raise IllegalCommand(
            f"tile {target} is not adjacent to tile {origin}: battles are tile against "
            "adjacent tile",
            "KAL-BATTLE-3",
        )
    defender = state.holder[target]
    if defender in (NOBODY, seat):
        raise IllegalCommand(f"no enemy unit stands on tile {target}", "KAL-BATTLE-2")
    em.emit(AttackDeclared(seat=seat, origin=origin, target=target, defender=defender))


def attack_targets(catalogue: Catalogue, state: State, seat: int) -> list[tuple[int, int]]:
    """Return (origin, target) for every attack a seat may declare now."""
    if state.battled:
        return []
    out = []
    for origin, holder in enumerate(state.holder):
        if holder != seat:
            continue
        for target in neighbours(catalogue, state, origin):
            if state.holder[target] not in (NOBODY, seat):
                out.append((origin, target))
    return out


def advance(catalogue: Catalogue, em: Emitter[State], rng: random.Random) -> None:
    """Run the battle's steps that need no decision; stop at the next decision or the end."""
    while (battle := em.state.battle) is not None:
        step = battle.step
        if step == "declare":
            if not magic.settle_declarations(em):
                return
        elif step in ("reveal", "effects-done"):
            first = 0 if step == "reveal" else battle.effect_side + 1
            if magic.start_effects(catalogue, em, first):
                return
            fight(catalogue, em, rng)
        elif step == "losses":
            if not settle_losses(em):
                return
            if magic.start_keep(catalogue, em):
                return
            conclude(catalogue, em)
        elif step == "keep-done":
            conclude(catalogue, em)
        else:
            return  # "effect", "keep", "invade": a seat must choose


def plan(catalogue: Catalogue, state: State, side: int, units: tuple[str, ...]) -> SidePlan:
    """Return what one side of the battle in progress brings to the dice."""
    battle = state.battle
    assert battle is not None
    own, other = battle.tiles[side], battle.tiles[1 - side]
    card = battle.cards[side]
    return SidePlan(
        role="attack" if side == 0 else "defence",
        units=units,
        kinds=tuple(kind_of(u) for u in units),
        terrain=state.terrain[own],
        opposing_terrain=state.terrain[other],
        own_castle=state.castles.get(own, NOBODY) == battle.seats[side],
        upgraded=tuple(u for u in units if u in state.upgraded),
        card=catalogue.card(card) if card else None,
        castle=own in state.castles,
    )


def fight(catalogue: Catalogue, em: Emitter[State], rng: random.Random) -> None:
    """Fix the units, build both pools and roll every die at once (KAL-BATTLE-4, KAL-DICE-1)."""
    state = em.state
    battle = state.battle
    assert battle is not None
    sides = [
        state.board[tile] if state.holder[tile] == seat else ()
        for seat, tile in zip(battle.seats, battle.tiles, strict=True)
    ]
    em.emit(BattleJoined(attackers=sides[0], defenders=sides[1]))
    if not sides[0] or not sides[1]:
        em.emit(DiceCompared(attack=(), defence=(), attacker_losses=0, defender_losses=0))
        return
    options = state.options
    pools = [pool(catalogue, options, plan(catalogue, em.state, s, sides[s])) for s in (0, 1)]
    rolled = [tuple(Die(n, rng.randint(1, n), source) for n, source in p) for p in pools]
    resolve_roll(catalogue, em, DiceRolled(attack=rolled[0], defence=rolled[1]))


def resolve_roll(catalogue: Catalogue, em: Emitter[State], rolled: DiceRolled) -> None:
    """Record a roll, then sort and compare it pair by pair (KAL-DICE-2, KAL-COMPARE-1 … 3)."""
    em.emit(rolled)
    battle = em.state.battle
    assert battle is not None
    attack = sort_high([d.value for d in rolled.attack])
    defence = sort_high([d.value for d in rolled.defence])
    lost = compare(attack, defence)
    cards = [catalogue.card(c) if c else None for c in battle.cards]
    saved = (min(ward(cards[0]), lost[0]), min(ward(cards[1]), lost[1]))
    em.emit(
        DiceCompared(
            attack=attack,
            defence=defence,
            attacker_losses=lost[0] - saved[0],
            defender_losses=lost[1] - saved[1],
            warded=saved,
        )
    )


def settle_losses(em: Emitter[State]) -> bool:
    """Take every loss no one needs to choose; return whether every side has lost its units.

    Rule KAL-LOSS-2.
    """
    battle = em.state.battle
    assert battle is not None
    for side in (0, 1):
        if battle.chosen[side]:
            continue
        on_tile = alive_fighters(em.state, side)
        if battle.owed[side] >= len(on_tile):
            seat, by = battle.seats[side], battle.seats[1 - side]
            em.emit(UnitsDefeated(seat=seat, by=by, units=on_tile))
    after = em.state.battle
    assert after is not None
    return all(after.chosen)


def alive_fighters(state: State, side: int) -> tuple[str, ...]:
    """Return a side's fighting units that still stand on its tile."""
    battle = state.battle
    assert battle is not None
    tile = battle.tiles[side]
    return tuple(u for u in battle.fighters[side] if u in state.board[tile])


def loss_choices(state: State, seat: int) -> list[Command]:
    """Return every way a losing general may choose its losses (KAL-LOSS-2)."""
    battle = state.battle
    if battle is None or battle.step != "losses" or seat not in battle.seats:
        return []
    side = battle.seats.index(seat)
    if battle.chosen[side]:
        return []
    units = alive_fighters(state, side)
    return [ChooseLosses(units=combo) for combo in combinations(units, battle.owed[side])]


def choose_losses(em: Emitter[State], seat: int, units: tuple[str, ...]) -> None:
    """Take the losses a general chose, refusing units that did not fight (KAL-LOSS-2)."""
    battle = em.state.battle
    if battle is None or battle.step != "losses" or seat not in battle.seats:
        raise IllegalCommand("there are no losses for you to choose now", "KAL-LOSS-2")
    side = battle.seats.index(seat)
    if battle.chosen[side]:
        raise IllegalCommand("you have already chosen your losses", "KAL-LOSS-2")
    fought = alive_fighters(em.state, side)
    strangers = [u for u in units if u not in fought]
    if strangers:
        raise IllegalCommand(f"{strangers[0]} did not fight in this battle", "KAL-LOSS-2")
    if len(set(units)) != len(units) or len(units) != battle.owed[side]:
        raise IllegalCommand(f"name exactly {battle.owed[side]} different units", "KAL-LOSS-2")
    em.emit(UnitsDefeated(seat=seat, by=battle.seats[1 - side], units=tuple(units)))


def conclude(catalogue: Catalogue, em: Emitter[State]) -> None:
    """Settle fallen Crowns, then invade or let the defender hold (KAL-CROWN-1, KAL-INVADE-1)."""
    battle = em.state.battle
    assert battle is not None
    fallen = [s for s in (0, 1) if crown_of(em.state, battle.seats[s]) in battle.killed[s]]
    for side in fallen:
        winner = NOBODY if 1 - side in fallen else battle.seats[1 - side]
        em.emit(crown_fell(em.state, battle, side, winner))
    state = em.state
    (attacker, defender), (origin, target) = battle.seats, battle.tiles
    attackers = state.board[origin] if state.holder[origin] == attacker else ()
    defenders = state.board[target] if state.holder[target] == defender else ()
    if fallen and sum(state.alive) <= 1:
        result = "defender" if defenders else "attacker" if attackers else "both"
        em.emit(BattleEnded(result=result))  # the match is over: no one is left to invade for
    elif defenders:
        em.emit(BattleEnded(result="defender"))
    elif not attackers:
        em.emit(BattleEnded(result="both"))
    elif len(attackers) <= capacity(catalogue, state, target):
        em.emit(Invaded(seat=attacker, units=attackers, origin=origin, target=target))
        em.emit(BattleEnded(result="attacker"))
    else:
        em.emit(InvasionOrdered(seat=attacker, capacity=capacity(catalogue, state, target)))


def crown_fell(state: State, battle: Battle, side: int, winner: int) -> CrownFell:
    """Return the fall of a side's Crown with everything it changes (KAL-CROWN-1 … 6)."""
    seat = battle.seats[side]
    castles = tuple(
        (tile, winner if tile == battle.tiles[side] else NOBODY) for tile in state.castles_of(seat)
    )
    held = [u for t, units in enumerate(state.board) if state.holder[t] == seat for u in units]
    pieces = [*held, *state.reserve[seat], *state.ready[seat]]
    specials = tuple(u for u in pieces if not u.rpartition("-")[2].isdigit())
    removed = tuple(u for u in pieces if u not in specials)
    return CrownFell(
        seat=seat,
        by=winner,
        castles=castles,
        specials=specials if winner != NOBODY else (),
        removed=removed if winner != NOBODY else (*removed, *specials),
    )


def invasion_choices(state: State, seat: int) -> list[Command]:
    """Return every choice of invaders, exactly as many as the tile holds (KAL-INVADE-1)."""
    battle = state.battle
    if battle is None or battle.step != "invade" or seat != battle.seats[0]:
        return []
    units = state.board[battle.tiles[0]]
    return [Invade(units=combo) for combo in combinations(units, battle.effect_left)]


def invade(em: Emitter[State], seat: int, units: tuple[str, ...]) -> None:
    """Move the chosen invaders in; the rest stays behind (KAL-INVADE-1)."""
    battle = em.state.battle
    if battle is None or battle.step != "invade" or seat != battle.seats[0]:
        raise IllegalCommand("there is no invasion for you to make now", "KAL-INVADE-1")
    origin, target = battle.tiles
    strangers = [u for u in units if u not in em.state.board[origin]]
    if strangers:
        raise IllegalCommand(f"{strangers[0]} is not on the attacking tile", "KAL-INVADE-1")
    if len(set(units)) != len(units) or len(units) != battle.effect_left:
        raise IllegalCommand(
            f"the invasion is mandatory up to the tile's capacity: name exactly "
            f"{battle.effect_left} units",
            "KAL-INVADE-1",
        )
    em.emit(Invaded(seat=seat, units=tuple(units), origin=origin, target=target))
    em.emit(BattleEnded(result="attacker"))
