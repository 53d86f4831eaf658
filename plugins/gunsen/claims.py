"""Achievements, clan objectives, Toshi Ranbo's markers and the end of a turn.

``settle`` runs after every step of play: the holder of Toshi Ranbo loses its marker once no
army of it remains there, and every clan that now meets an achievement or objective places
its marker at once (the active player first, then clockwise).
"""

from __future__ import annotations

from collections.abc import Callable

from . import events as ev
from .catalog import Catalog
from .components import COLOURS
from .orders import begin_turn, refill_row
from .play import Play, award, board_side, catalog_of, check_win, earned
from .queries import cap, controller, controls_army, on_board, turn_order
from .state import NOBODY, State

SETTLED = "gunsen.settled"
"""The command's memo (``Play.memo``) of what each seat's achievements were last checked
against: ``settle`` runs after every step of a command, and a clan whose record did not change
since has nothing new to place. Kept per command, since the rules object serves every match."""


def settle(p: Play) -> None:
    """Return a lost Toshi Ranbo marker and place every marker now earned (GUN-ACH-2)."""
    state, cat = p.state, catalog_of(p)
    toshi = cat.boards[state.side].toshi_ranbo
    if state.holder != NOBODY and not state.troops[state.holder][toshi]:
        p.emit(ev.HoldMarkerReturned(seat=state.holder))
    fighting = p.state.combat is not None
    checked: dict[int, tuple[object, ...]] = p.memo.setdefault(SETTLED, {})
    for seat in turn_order(p.state):
        state = p.state
        # A clan's achievements depend only on its own player record, the troops on the board,
        # the upgrade tiles and whether a combat is pending: states share these objects while
        # they are unchanged, so the same objects as at the last check mean nothing new.
        key = (state.players[seat], state.troops, state.upgrades, fighting)
        last = checked.get(seat)
        if last is not None and all(a is b for a, b in zip(last, key, strict=True)):
            continue
        check_seat(p, seat, fighting)
        state = p.state
        clan = state.players[seat].clan
        if clan and cat.clans[clan].objectives == _known(cat, state, seat):
            checked[seat] = (state.players[seat], state.troops, state.upgrades, fighting)


def _known(cat: Catalog, state: State, seat: int) -> tuple[object, ...]:
    # An objective an expansion judges (GUN-OBJ-3) may read anything: never skip its check.
    return tuple(
        o for o in cat.clans[state.players[seat].clan].objectives if o.condition in CONDITIONS
    )


def check_seat(p: Play, seat: int, fighting: bool) -> None:
    """Place the markers a clan has newly earned, in the order of the boxes."""
    state, cat = p.state, catalog_of(p)
    player = state.players[seat]
    if not player.clan:
        return
    have = player.achievements
    if len(player.buildings) == 2 and "buildings" not in have:
        award(p, seat, "buildings")
    if len(player.tactics) >= cat.limits.tactics and "tactics" not in have:
        award(p, seat, "tactics")
    if all(player.noble) and "noble" not in have:
        award(p, seat, "noble")
    if len(player.tokens) >= cat.limits.tokens and "villages" not in have:
        award(p, seat, "villages")
    if fighting:
        return  # troops on the combat's space count only after the combat (GUN-COMBAT-14)
    if "shrines" not in have and shrines_held(p.state, seat) >= 2:
        award(p, seat, "shrines")
    if have.count("objective") < 2:
        check_objectives(p, seat)


def shrines_held(state: State, seat: int) -> int:
    """Return how many shrines a seat controls with at least one troop (GUN-SHRINE-3)."""
    return sum(1 for space, _ in state.shrines if controls_army(state, seat, space))


def check_objectives(p: Play, seat: int) -> None:
    """Announce every clan objective a seat now meets, two at most (GUN-OBJ-1)."""
    cat = catalog_of(p)
    for objective in cat.clans[p.state.players[seat].clan].objectives:
        player = p.state.players[seat]
        if earned(p.state, seat, "objective") >= 2:
            return
        if objective.id in player.objectives:
            continue
        test = CONDITIONS.get(objective.condition)
        if test is None:
            met = bool(
                p.rules.hook.gunsen_objective_met(state=p.state, seat=seat, objective=objective)
            )
        else:
            met = test(cat, p.state, seat, objective.amount_on(p.state.side), objective.column)
        if met:
            award(p, seat, "objective", objective.id)


# -- objective conditions (GUN-OBJ-3) ----------------------------------------------------------

Condition = Callable[[Catalog, State, int, int, str], bool]


def _spaces_held(cat: Catalog, state: State, seat: int, amount: int, column: str) -> bool:
    row = state.troops[seat]
    return len(row) - row.count(0) - (row[state.forts[seat]] > 0) >= amount


def _full_army(cat: Catalog, state: State, seat: int, amount: int, column: str) -> bool:
    row = bytearray(state.troops[seat])
    row[state.forts[seat]] = 0
    return max(row) >= amount


def _villages(cat: Catalog, state: State, seat: int, amount: int, column: str) -> bool:
    row = state.troops[seat]
    return sum(1 for s in cat.boards[state.side].villages if row[s]) >= amount


def _towers(cat: Catalog, state: State, seat: int, amount: int, column: str) -> bool:
    return sum(1 for s in state.towers if state.troops[seat][s]) >= amount


def _near_toshi(cat: Catalog, state: State, seat: int, amount: int, column: str) -> bool:
    board = cat.boards[state.side]
    return sum(1 for s in board.neighbours[board.toshi_ranbo] if state.troops[seat][s]) >= amount


def _enemy_fort(cat: Catalog, state: State, seat: int, amount: int, column: str) -> bool:
    board = cat.boards[state.side]
    row = state.troops[seat]
    near = {
        n for other, fort in enumerate(state.forts) if other != seat for n in board.neighbours[fort]
    }
    return sum(1 for s in near if row[s]) >= amount


CONDITIONS: dict[str, Condition] = {
    "troops_on_board": lambda c, s, seat, n, col: on_board(s, seat) >= n,
    "spaces_held": _spaces_held,
    "villages_held": _villages,
    "towers_held": _towers,
    "near_toshi_ranbo": _near_toshi,
    "full_army": _full_army,
    "heroes": lambda c, s, seat, n, col: len(s.players[seat].heroes) >= n,
    "column_cards": lambda c, s, seat, n, col: (
        len(s.players[seat].columns[COLOURS.index(col)]) >= n
    ),
    "every_column": lambda c, s, seat, n, col: min(map(len, s.players[seat].columns)) >= n,
    "resources": lambda c, s, seat, n, col: _resources(s, seat) >= n,
    "upgrades": lambda c, s, seat, n, col: s.upgrades.count(seat) >= n,
    "defended": lambda c, s, seat, n, col: s.players[seat].defended >= n,
    "kills": lambda c, s, seat, n, col: s.players[seat].kills >= n,
    "steals": lambda c, s, seat, n, col: s.players[seat].steals >= n,
    "enemy_fort": _enemy_fort,
}


def _resources(state: State, seat: int) -> int:
    player = state.players[seat]
    return player.koku + player.wood + player.influence


# -- Toshi Ranbo -------------------------------------------------------------------------------


def occupy(p: Play, seat: int) -> None:
    """Take Toshi Ranbo: the Expand upgrade, the markers, in the rules' order (GUN-TOSHI-4..7)."""
    previous = p.state.upgrades[3]
    if previous != seat:
        p.emit(ev.UpgradeTaken(seat=seat, column=3, previous=previous))
    holder = p.state.holder
    if holder not in (NOBODY, seat):
        p.emit(ev.HoldMarkerReturned(seat=holder))
    if not earned(p.state, seat, "conquer"):
        award(p, seat, "conquer")
    p.emit(ev.HoldMarkerPlaced(seat=seat))
    check_win(p, seat, "hold")


# -- end of turn (GUN-END-1..4) ----------------------------------------------------------------


def end_turn(p: Play) -> None:
    """Claim, apply end-of-turn effects, refill forts and the row, pass the turn (GUN-END-1)."""
    seat = p.state.turn
    settle(p)
    claim(p, seat)
    end_of_turn_effects(p, seat)
    p.rules.hook.gunsen_turn_ended(play=p, seat=seat)
    settle(p)
    refill = catalog_of(p).limits.refill
    for other in turn_order(p.state):
        missing = refill - on_board(p.state, other)
        troops = min(missing, p.state.players[other].supply)
        if troops > 0:
            p.emit(ev.FortRefilled(seat=other, troops=troops))
    settle(p)
    refill_row(p)
    p.emit(ev.TurnEnded(seat=seat))
    begin_turn(p, (seat + 1) % p.state.count)


def claim(p: Play, seat: int) -> None:
    """Claim the villages, shrines and Toshi Ranbo the active player controls (GUN-END-1)."""
    cat = catalog_of(p)
    limit = cat.limits.tokens
    for space, token in p.state.villages:
        if token and controller(p.state, space) == seat:
            reward = cat.tokens[token].reward
            amount = min(1, p.state.players[seat].supply) if reward == "troop" else 1
            kept = len(p.state.players[seat].tokens) < limit
            p.emit(ev.VillageClaimed(seat=seat, space=space, token=token, reward=reward,
                                     amount=amount, kept=kept))  # fmt: skip
    for space, colour in p.state.shrines:
        column = COLOURS.index(colour)
        if controller(p.state, space) == seat and p.state.upgrades[column] != seat:
            previous = p.state.upgrades[column]
            p.emit(ev.UpgradeTaken(seat=seat, column=column, previous=previous))
    toshi = board_side(p).toshi_ranbo
    if controls_army(p.state, seat, toshi) and p.state.holder != seat:
        occupy(p, seat)


def end_of_turn_effects(p: Play, seat: int) -> None:
    """Income of the buildings the active player controls, then Bayushi Kachiko (GUN-END-2)."""
    cat = catalog_of(p)
    for other in p.state.players:
        for building, space in other.buildings:
            income = cat.buildings[building].income
            if income and controller(p.state, space) == seat:
                p.emit(ev.Gained(seat=seat, resource=income, amount=1, source=building))
    for hero, space in p.state.players[seat].heroes:
        if cat.heroes[hero].ability != "reinforce" or not p.state.players[seat].supply:
            continue
        # The five-troop cap still holds: with five there, no troop comes (GUN-HERO-7).
        if p.state.troops[seat][space] < cap(cat, p.state, seat, space):
            p.emit(ev.TroopAdded(seat=seat, space=space, hero=hero))
