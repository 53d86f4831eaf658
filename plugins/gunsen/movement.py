"""Moving armies: picking troops up, where they may go, watchtowers, combats and Toshi Ranbo.

A move is two decisions: ``SelectArmy`` (which troops, which hero, by watchtower or not) and
``MoveArmy`` (where to). A selection is offered only when at least one destination takes it.
"""

from __future__ import annotations

from gamehall.core import IllegalCommand

from . import events as ev
from .catalog import Catalog
from .commands import MoveArmy, SelectArmy
from .play import Play, board_side, catalog_of
from .queries import cap, card_strength, heroes_at, occupants
from .state import Activation, Selection, State


def entry_refusal(
    cat: Catalog, state: State, seat: int, to: int, troops: int, hero: str
) -> tuple[str, str] | None:
    """Return (rule, reason) when an army may not enter a space, else ``None``."""
    board = cat.boards[state.side]
    if board.kinds[to] == "fort" and to != state.forts[seat]:
        return "GUN-FORT-2", "only its owner may enter a fort; unused forts belong to nobody"
    if state.troops[seat][to] + troops > cap(cat, state, seat, to, hero):
        return "GUN-MOVE-2", "no more than five troops of one clan may stand on a space"
    if hero and to != state.forts[seat] and heroes_at(state, seat, to):
        return "GUN-HERO-4", "a clan may have only one hero on a space outside its fort"
    if to == board.toshi_ranbo and not state.taken and not occupants(state, to):
        strength = troops + card_strength(cat, state, seat)
        if hero:
            strength += cat.heroes[hero].symbols.strength
        if strength < 5:
            return (
                "GUN-TOSHI-1",
                f"the first army to enter Toshi Ranbo needs strength 5, not {strength}",
            )
    return None


def targets(cat: Catalog, state: State, seat: int, origin: int, tower: bool) -> tuple[int, ...]:
    """Return the spaces a move from ``origin`` could reach, before any other check."""
    if not tower:
        return cat.boards[state.side].neighbours[origin]
    ends = (*state.towers, state.forts[seat])
    return tuple(t for t in ends if t != origin)


def tower_available(state: State, seat: int) -> bool:
    """Tell whether a watchtower move may be made now (GUN-TOWER-1, GUN-TOWER-2)."""
    activation = state.activation
    if activation is None or activation.lapsed or state.players[seat].influence < 1:
        return False
    if activation.tower_after:
        return True
    head = activation.steps[0] if activation.steps else None
    return head is not None and head.kind == "move" and not activation.tower_before


def move_pending(activation: Activation | None) -> bool:
    """Tell whether the current action is a move still to make."""
    if activation is None or activation.lapsed or not activation.steps:
        return False
    return activation.steps[0].kind == "move"


def selections(cat: Catalog, state: State, seat: int, tower: bool) -> list[SelectArmy]:
    """Return every army the seat may pick up for a move (or a watchtower move)."""
    out: list[SelectArmy] = []
    fort = state.forts[seat]
    row = state.troops[seat]
    for origin, present in enumerate(row):
        if not present or (tower and origin != fort and origin not in state.towers):
            continue
        heroes = heroes_at(state, seat, origin)
        for hero in ("", *heroes):
            for troops in range(1, present + 1):
                if troops == present and not hero and heroes and origin != fort:
                    continue  # a hero never stays behind alone (GUN-HERO-3)
                if any(
                    entry_refusal(cat, state, seat, to, troops, hero) is None
                    for to in targets(cat, state, seat, origin, tower)
                ):
                    out.append(SelectArmy(space=origin, troops=troops, hero=hero, tower=tower))
    return out


def destinations(cat: Catalog, state: State, seat: int, selection: Selection) -> list[int]:
    """Return the spaces the picked-up army may move to."""
    return [
        to
        for to in targets(cat, state, seat, selection.space, selection.tower)
        if entry_refusal(cat, state, seat, to, selection.troops, selection.hero) is None
    ]


def check_select(cat: Catalog, state: State, seat: int, command: SelectArmy) -> None:
    """Refuse a selection the rules do not allow, naming the rule."""
    if command.tower:
        if not tower_available(state, seat):
            raise IllegalCommand(
                "a watchtower move costs one influence and comes right before or after a move",
                "GUN-TOWER-1",
            )
        if command.space != state.forts[seat] and command.space not in state.towers:
            raise IllegalCommand(
                "a watchtower move starts on a watchtower or the own fort", "GUN-TOWER-3"
            )
    elif not move_pending(state.activation):
        raise IllegalCommand("there is no move to make now", "GUN-MOVE-5")
    present = state.troops[seat][command.space]
    if command.troops > present:
        raise IllegalCommand(f"only {present} troops stand there", "GUN-MOVE-1")
    heroes = heroes_at(state, seat, command.space)
    if command.hero and command.hero not in heroes:
        raise IllegalCommand("that hero is not with this army", "GUN-HERO-3")
    if (
        command.troops == present
        and heroes
        and not command.hero
        and command.space != state.forts[seat]
    ):
        raise IllegalCommand("a hero never stays behind without troops", "GUN-HERO-3")
    reasons = [
        entry_refusal(cat, state, seat, to, command.troops, command.hero)
        for to in targets(cat, state, seat, command.space, command.tower)
    ]
    if all(reasons):
        rule, reason = next(
            (r for r in reasons if r and r[0] != "GUN-FORT-2"), reasons[0] or ("", "")
        )
        raise IllegalCommand(
            f"that army has no space it may move to: {reason}", rule or "GUN-MOVE-1"
        )


def select(p: Play, seat: int, command: SelectArmy) -> None:
    """Pick an army up (GUN-MOVE-1)."""
    check_select(catalog_of(p), p.state, seat, command)
    p.emit(ev.ArmySelected(seat=seat, space=command.space, troops=command.troops,
                           hero=command.hero, tower=command.tower))  # fmt: skip


def move(p: Play, seat: int, command: MoveArmy) -> None:
    """Move the picked-up army; entering an enemy army or Toshi Ranbo stops all movement.

    Rule GUN-MOVE-1.
    """
    state, cat = p.state, catalog_of(p)
    selection = state.selection
    assert selection is not None
    if command.to not in targets(cat, state, seat, selection.space, selection.tower):
        rule = "GUN-TOWER-3" if selection.tower else "GUN-MOVE-1"
        raise IllegalCommand("the army cannot reach that space with this move", rule)
    refusal = entry_refusal(cat, state, seat, command.to, selection.troops, selection.hero)
    if refusal is not None:
        raise IllegalCommand(refusal[1], refusal[0])
    first_entry = command.to == board_side(p).toshi_ranbo and not state.taken
    enemies = [s for s in occupants(state, command.to) if s != seat]
    if enemies:  # the combat is there from the moment the army enters (GUN-MOVE-9)
        p.emit(ev.CombatArose(space=command.to, attacker=seat, defender=enemies[0]))
    p.emit(ev.ArmyMoved(
        seat=seat, origin=selection.space, to=command.to, troops=selection.troops,
        hero=selection.hero, tower=selection.tower,
    ))  # fmt: skip
    if not selection.tower:
        p.emit(ev.ActionUsed(seat=seat))
    if enemies:
        p.emit(ev.MovementLapsed(seat=seat, reason="combat"))
    elif first_entry:
        p.emit(ev.ToshiRanboEntered(seat=seat))
        p.emit(ev.MovementLapsed(seat=seat, reason="toshi ranbo"))
