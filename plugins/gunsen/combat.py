"""Step 4: a combat in the seed's four steps, each dice decision its owner's.

Stages in order: Bayushi Aramoro's tribute, Moto Chagatai's ride, Toturi the Black's troop;
the defender's dice (throw, rerolls, keep), then the attacker's; Togashi Yokuni's swap; deaths
and the winner; retreat; heroes left without troops; the stolen village token; Toshi Ranbo.
Each stage asks the seat that owns the decision and stops, or passes to the next.
"""

from __future__ import annotations

from collections import Counter

from gamehall.core import Command, IllegalCommand

from . import events as ev
from .claims import end_turn, occupy, settle
from .commands import Keep, PayTribute, PlaceHero, Reroll, Retreat, Ride, Skip, StealToken, SwapDice
from .components import Symbols
from .play import Play, ask, award, board_side, catalog_of, earned
from .queries import (
    building_at,
    cap,
    controls_army,
    has_ability,
    hero_space,
    heroes_at,
    own_symbols,
    retreat_spaces,
)
from .state import NOBODY, Combat, State

# -- who fights with what ----------------------------------------------------------------------


def side_of(combat: Combat, seat: int) -> int:
    """Return 0 for the attacker, 1 for the defender."""
    return 0 if seat == combat.attacker else 1


def opponent(combat: Combat, seat: int) -> int:
    """Return the other side of the combat."""
    return combat.defender if seat == combat.attacker else combat.attacker


def ability(p: Play, seat: int, name: str) -> str:
    """Return the seat's hero in the combat with an ability it may use ("" if none)."""
    combat = p.state.combat
    assert combat is not None
    if combat.ignored[side_of(combat, seat)]:
        return ""
    return has_ability(catalog_of(p), p.state, seat, combat.space, name)


def side_symbols(p: Play, seat: int) -> Symbols:
    """Return a side's symbols: clan board, buildings, heroes present, Toshi Ranbo, hooks."""
    state, cat = p.state, catalog_of(p)
    combat = state.combat
    assert combat is not None
    total = own_symbols(cat, state, seat)
    if not combat.ignored[side_of(combat, seat)]:
        for hero in heroes_at(state, seat, combat.space):
            total = total + cat.heroes[hero].symbols
    if seat == combat.defender and combat.space == board_side(p).toshi_ranbo:
        total = total + Symbols(strength=1, armour=1)  # GUN-TOSHI-9
    found = building_at(state, combat.space)
    if seat == combat.defender and found is not None:
        # Two clans stand there, so nobody controls it: the defender held it (GUN-COMBAT-2).
        total = total + cat.buildings[found[1]].symbols
    for extra in p.rules.hook.gunsen_combat_symbols(state=state, seat=seat, space=combat.space):
        if extra is not None:
            total = total + extra
    return total


def _combat(p: Play) -> Combat:
    combat = p.state.combat
    assert combat is not None
    return combat


# -- start of the combat (GUN-HERO-6, GUN-HERO-9, GUN-HERO-11) ---------------------------------


def begin(p: Play) -> None:
    """Start the combat: Bayushi Aramoro's tribute comes first (GUN-HERO-6)."""
    combat = _combat(p)
    for seat in (combat.attacker, combat.defender):
        if has_ability(catalog_of(p), p.state, seat, combat.space, "tribute"):
            other = opponent(combat, seat)
            if _tribute_matters(p, other):
                ask(p, other, "tribute")
                return
            p.emit(ev.TributeDecided(seat=other, paid=False))
            break
    ride_stage(p)


def _tribute_matters(p: Play, seat: int) -> bool:
    combat = _combat(p)
    if p.state.players[seat].influence < catalog_of(p).limits.tribute:
        return False
    return bool(heroes_at(p.state, seat, combat.space)) or bool(rider(p, seat))


def pay_tribute(p: Play, seat: int, command: PayTribute) -> None:
    """Pay the tribute, or refuse and ignore the heroes' symbols and abilities."""
    amount = catalog_of(p).limits.tribute if command.pay else 0
    p.emit(ev.TributeDecided(seat=seat, paid=command.pay, amount=amount))
    ride_stage(p)


def rider(p: Play, seat: int) -> str:
    """Return Moto Chagatai if he may ride to this combat (GUN-HERO-9), else ""."""
    state, combat = p.state, _combat(p)
    for hero, space in state.players[seat].heroes:
        if catalog_of(p).heroes[hero].ability == "ride" and space != combat.space:
            return "" if heroes_at(state, seat, combat.space) else hero
    return ""


def ride_stage(p: Play) -> None:
    """Ask Moto Chagatai's owner whether he rides to the combat."""
    combat = _combat(p)
    for seat in (combat.attacker, combat.defender):
        if rider(p, seat):
            ask(p, seat, "ride")
            return
    start(p)


def ride(p: Play, seat: int, command: Ride) -> None:
    """Move Moto Chagatai to the combat, or leave him where he is (GUN-HERO-9)."""
    hero = rider(p, seat)
    if command.ride:
        origin = hero_space(p.state, seat, hero)
        p.emit(ev.HeroRode(seat=seat, hero=hero, origin=origin, to=_combat(p).space))
    start(p)


def start(p: Play) -> None:
    """Toturi the Black adds a troop to his army (GUN-HERO-11), then the defender rolls."""
    combat = _combat(p)
    for seat in (combat.attacker, combat.defender):
        hero = ability(p, seat, "ronin")
        space = combat.space
        if (
            hero
            and p.state.players[seat].supply
            and p.state.troops[seat][space] < cap(catalog_of(p), p.state, seat, space)
        ):
            p.emit(ev.TroopAdded(seat=seat, space=space, hero=hero))
    roll(p, combat.defender)


# -- dice (GUN-DICE-1..4) ----------------------------------------------------------------------


def roll(p: Play, seat: int) -> None:
    """Throw as many dice as the side has throw symbols, six at most."""
    symbols = side_symbols(p, seat)
    cat = catalog_of(p)
    count = min(cat.limits.dice, symbols.throw)
    faces = tuple(sorted(p.rng.choice(cat.die) for _ in range(count)))
    p.emit(ev.DiceThrown(seat=seat, faces=faces, rerolls=symbols.reroll if faces else 0))
    after_throw(p, seat)


def after_throw(p: Play, seat: int) -> None:
    """Offer a reroll while reroll symbols are left, then the keep."""
    combat = _combat(p)
    if combat.rerolls > 0 and combat.dice:
        ask(p, seat, "reroll")
        return
    keep_stage(p, seat)


def reroll_options(p: Play, seat: int) -> list[Command]:
    """Return every choice of dice to reroll (by faces), and stopping."""
    dice = Counter(_combat(p).dice)
    choices: list[tuple[str, ...]] = [()]
    for face, n in sorted(dice.items()):
        choices = [c + (face,) * k for c in choices for k in range(n + 1)]
    return [*(Reroll(faces=c) for c in choices if c), Skip()]


def _contains(dice: tuple[str, ...], faces: tuple[str, ...]) -> bool:
    have = Counter(dice)
    have.subtract(faces)
    return min(have.values(), default=0) >= 0 and all(f in dice for f in faces)


def reroll(p: Play, seat: int, command: Reroll) -> None:
    """Reroll the chosen dice once (one reroll symbol) (GUN-DICE-2)."""
    combat = _combat(p)
    if not command.faces or not _contains(combat.dice, command.faces):
        raise IllegalCommand("reroll one or more of the dice thrown", "GUN-DICE-2")
    die = catalog_of(p).die
    new = tuple(p.rng.choice(die) for _ in command.faces)
    p.emit(ev.DiceRerolled(seat=seat, old=tuple(sorted(command.faces)), new=new))
    after_throw(p, seat)


def stop_rerolls(p: Play, seat: int) -> None:
    """Use no more rerolls (GUN-DICE-2)."""
    p.emit(ev.RerollsStopped(seat=seat))
    keep_stage(p, seat)


def keep_count(p: Play, seat: int) -> int:
    """Return how many dice the side keeps: its keep symbols, at most the dice thrown."""
    return min(side_symbols(p, seat).keep, len(_combat(p).dice))


def keep_stage(p: Play, seat: int) -> None:
    """Keep every die when the keep symbols allow it; otherwise ask which (GUN-DICE-3)."""
    dice = _combat(p).dice
    if keep_count(p, seat) >= len(dice):
        p.emit(ev.DiceKept(seat=seat, faces=dice))
        next_roller(p, seat)
    else:
        ask(p, seat, "keep")


def keep_options(p: Play, seat: int) -> list[Command]:
    """Return every choice of kept dice (by faces), exactly as many as the keep symbols."""
    want = keep_count(p, seat)
    dice = Counter(_combat(p).dice)
    choices: list[tuple[str, ...]] = [()]
    for face, n in sorted(dice.items()):
        choices = [c + (face,) * k for c in choices for k in range(n + 1) if len(c) + k <= want]
    return [Keep(faces=c) for c in choices if len(c) == want]


def keep(p: Play, seat: int, command: Keep) -> None:
    """Keep the chosen dice and add their symbols (GUN-DICE-3)."""
    want = keep_count(p, seat)
    if len(command.faces) != want or not _contains(_combat(p).dice, command.faces):
        raise IllegalCommand(f"keep exactly {want} of the dice thrown", "GUN-DICE-3")
    p.emit(ev.DiceKept(seat=seat, faces=tuple(sorted(command.faces))))
    next_roller(p, seat)


def next_roller(p: Play, seat: int) -> None:
    """After the defender the attacker rolls; then Togashi Yokuni may swap (GUN-DICE-4)."""
    combat = _combat(p)
    if seat == combat.defender:
        roll(p, combat.attacker)
        return
    swap_stage(p)


def swap_options(p: Play, seat: int) -> list[Command]:
    """Return every swap of an own kept die with a different one of the opponent's."""
    combat = _combat(p)
    side = side_of(combat, seat)
    mine, theirs = set(combat.kept[side]), set(combat.kept[1 - side])
    return [SwapDice(mine=m, theirs=t) for m in sorted(mine) for t in sorted(theirs) if m != t]


def swap_stage(p: Play) -> None:
    """Ask Togashi Yokuni's owner whether to swap two kept dice (GUN-HERO-10)."""
    combat = _combat(p)
    for seat in (combat.attacker, combat.defender):
        if ability(p, seat, "swap_die") and swap_options(p, seat):
            ask(p, seat, "swap")
            return
    resolve(p)


def swap(p: Play, seat: int, command: SwapDice) -> None:
    """Swap the two dice."""
    if command not in swap_options(p, seat):
        raise IllegalCommand("swap one of your kept dice with a different kept die", "GUN-HERO-10")
    p.emit(ev.DiceSwapped(seat=seat, mine=command.mine, theirs=command.theirs))
    resolve(p)


def decline_swap(p: Play, seat: int) -> None:
    """Keep the dice as they are."""
    p.emit(ev.SwapDeclined(seat=seat))
    resolve(p)


# -- deaths, winner, retreat (GUN-COMBAT-3..11) ------------------------------------------------


def _dice_symbols(p: Play, faces: tuple[str, ...]) -> Symbols:
    total, cat = Symbols(), catalog_of(p)
    for face in faces:
        total = total + cat.faces[face]
    return total


def resolve(p: Play) -> None:
    """Count deaths, compare strength, name the winner and the side that retreats."""
    state, combat = p.state, _combat(p)
    seats = (combat.attacker, combat.defender)
    symbols = [side_symbols(p, s) + _dice_symbols(p, combat.kept[i]) for i, s in enumerate(seats)]
    troops = [state.troops[s][combat.space] for s in seats]
    deaths = tuple(
        max(0, min(troops[i], symbols[1 - i].blood - symbols[i].armour)) for i in range(2)
    )
    late = any(ability(p, s, "late_troop_strength") for s in seats)
    counted = [troops[i] - deaths[i] if late else troops[i] for i in range(2)]
    strength = (symbols[0].strength + counted[0], symbols[1].strength + counted[1])
    left = (troops[0] - deaths[0], troops[1] - deaths[1])
    winner = loser = NOBODY
    if strength[0] >= strength[1]:
        winner, loser = (seats[0] if left[0] else NOBODY), seats[1]
    else:
        winner, loser = (seats[1] if left[1] else NOBODY), seats[0]
    p.emit(ev.CombatResolved(
        space=combat.space, strength=strength,
        blood=(symbols[0].blood, symbols[1].blood), armour=(symbols[0].armour, symbols[1].armour),
        deaths=(deaths[0], deaths[1]), winner=winner, loser=loser,
    ))  # fmt: skip
    if winner == combat.attacker and earned(p.state, winner, "attacker") < 2:
        award(p, winner, "attacker")
    retreat_stage(p)


def retreat_options(p: Play, seat: int) -> list[int]:
    """Return where the loser's army may retreat (GUN-COMBAT-9, GUN-COMBAT-10)."""
    state, combat = p.state, _combat(p)
    troops = state.troops[seat][combat.space]
    spaces = retreat_spaces(catalog_of(p), state, seat, troops, combat.space)
    heroes = heroes_at(state, seat, combat.space)
    fort = state.forts[seat]
    return [s for s in spaces if s == fort or not heroes or not heroes_at(state, seat, s)]


def retreat_stage(p: Play) -> None:
    """The loser retreats every remaining troop to one place."""
    combat = _combat(p)
    loser = combat.loser
    if loser != NOBODY and p.state.troops[loser][combat.space]:
        options = retreat_options(p, loser)
        if len(options) > 1:
            ask(p, loser, "retreat")
            return
        _retreat(p, loser, options[0])
    relocate_stage(p)


def retreat(p: Play, seat: int, command: Retreat) -> None:
    """Retreat to the chosen fort or building."""
    if command.to not in retreat_options(p, seat):
        raise IllegalCommand(
            "all troops retreat together to the fort or a clan building the clan controls",
            "GUN-COMBAT-9",
        )
    _retreat(p, seat, command.to)
    relocate_stage(p)


def _retreat(p: Play, seat: int, to: int) -> None:
    """Move the side that must retreat off the combat space (GUN-COMBAT-9)."""
    space = _combat(p).space
    heroes = tuple(heroes_at(p.state, seat, space))
    troops = p.state.troops[seat][space]
    p.emit(ev.ArmyRetreated(seat=seat, origin=space, to=to, troops=troops, heroes=heroes))


def stranded(state: State) -> list[tuple[int, str]]:
    """Return the heroes on the combat's space whose own troops are all gone."""
    combat = state.combat
    assert combat is not None
    out: list[tuple[int, str]] = []
    for seat in (combat.attacker, combat.defender):
        if state.troops[seat][combat.space] or combat.space == state.forts[seat]:
            continue
        out.extend((seat, hero) for hero in heroes_at(state, seat, combat.space))
    return out


def hero_refuges(p: Play, seat: int) -> list[int]:
    """Return where a stranded hero may go: a clan building with own troops, or the fort."""
    state = p.state
    out = [state.forts[seat]]
    for player in state.players:
        for _, space in player.buildings:
            free = not heroes_at(state, seat, space)
            if free and state.troops[seat][space] and controls_army(state, seat, space):
                out.append(space)
    return out


def relocate_stage(p: Play) -> None:
    """Place every hero left without troops (GUN-HERO-2)."""
    for seat, hero in stranded(p.state):
        options = hero_refuges(p, seat)
        if len(options) > 1:
            ask(p, seat, "relocate")
            return
        p.emit(ev.HeroPlaced(seat=seat, hero=hero, space=options[0]))
    steal_stage(p)


def relocate_options(p: Play, seat: int) -> list[Command]:
    """Return the places of the first stranded hero of the seat."""
    heroes = [h for s, h in stranded(p.state) if s == seat]
    return [PlaceHero(hero=heroes[0], space=s) for s in hero_refuges(p, seat)]


def place_hero(p: Play, seat: int, command: PlaceHero) -> None:
    """Put the stranded hero on the chosen place (GUN-HERO-2)."""
    if command not in relocate_options(p, seat):
        raise IllegalCommand(
            "a hero without troops goes to a clan building with own troops or to the fort",
            "GUN-HERO-2",
        )
    p.emit(ev.HeroPlaced(seat=seat, hero=command.hero, space=command.space))
    relocate_stage(p)


# -- the stolen token and the end of the combat (GUN-COMBAT-12..14) ----------------------------


def thief_and_victim(p: Play) -> tuple[int, int, int]:
    """Return (winner, loser, the seat that chooses the token) of a won combat."""
    combat = _combat(p)
    chooser = combat.winner if p.state.options.steal_choice == "winner" else combat.loser
    return combat.winner, combat.loser, chooser


def steal_stage(p: Play) -> None:
    """The winner takes a village token of the loser, chosen as the option says."""
    combat = _combat(p)
    if combat.winner != NOBODY:
        tokens = p.state.players[combat.loser].tokens
        if len(tokens) > 1:
            ask(p, thief_and_victim(p)[2], "steal")
            return
        if tokens:
            _steal(p, tokens[0])
            return
    finish(p)


def steal(p: Play, seat: int, command: StealToken) -> None:
    """Take the chosen token."""
    if command.token not in p.state.players[_combat(p).loser].tokens:
        raise IllegalCommand("that token is not on the loser's clan board", "GUN-COMBAT-12")
    _steal(p, command.token)


def _steal(p: Play, token: str) -> None:
    """Move a stolen village token to the winner (GUN-COMBAT-12)."""
    winner, loser, _ = thief_and_victim(p)
    cat = catalog_of(p)
    reward = cat.tokens[token].reward
    amount = min(1, p.state.players[winner].supply) if reward == "troop" else 1
    kept = len(p.state.players[winner].tokens) < cat.limits.tokens
    p.emit(ev.TokenStolen(seat=winner, victim=loser, token=token, reward=reward,
                          amount=amount, kept=kept))  # fmt: skip
    finish(p)


def finish(p: Play) -> None:
    """Toshi Ranbo's achievements for its winner (GUN-COMBAT-13), then objectives, then the
    end of the turn."""
    combat = _combat(p)
    toshi = board_side(p).toshi_ranbo
    winner = combat.winner
    won_city = combat.space == toshi and winner != NOBODY and p.state.holder != winner
    if won_city and controls_army(p.state, winner, toshi):
        occupy(p, winner)
    p.emit(ev.CombatEnded(space=combat.space))
    settle(p)
    end_turn(p)
