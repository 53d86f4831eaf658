"""Step 3a: activating a column, its cards and printed boxes from top to bottom.

Each action waits for a decision of the active player, except gains of one fixed resource
(taken at once, GUN-ACT-3) and actions that cannot be used (skipped at once, GUN-ACT-4).
When the column is finished, a combat that arose is fought, else the turn ends.
"""

from __future__ import annotations

from gamehall.core import Command, IllegalCommand

from . import combat
from . import events as ev
from .catalog import Catalog
from .claims import end_turn, settle
from .commands import Build, BuyMove, BuyTactic, Gain, Recruit, Skip
from .heroes import hero_candidates, special_candidates
from .movement import selections, tower_available
from .play import Play, ask, catalog_of
from .queries import building_at, recruit_spaces
from .state import Activation, State, Step

GAINS = ("koku", "wood", "influence")


def column_steps(cat: Catalog, state: State, seat: int, column: int) -> tuple[Step, ...]:
    """Return a column's actions, top to bottom: its cards, then the printed boxes (GUN-ACT-1)."""
    steps: list[Step] = []
    for card in state.players[seat].columns[column]:
        steps.extend(Step(a.kind, a.amount, a.resource, card) for a in cat.cards[card].actions)
    printed = cat.columns[column]
    top = printed.upgrade if state.upgrades[column] == seat else printed.top
    source = "upgrade" if state.upgrades[column] == seat else "printed"
    steps.extend(Step(a.kind, a.amount, a.resource, source) for a in top.actions)
    for box in printed.rest:
        steps.extend(Step(a.kind, a.amount, a.resource, "printed") for a in box.actions)
    return tuple(steps)


def activate(p: Play, seat: int, column: int) -> None:
    """Activate a column and go through it (GUN-ACT-1)."""
    state, cat = p.state, catalog_of(p)
    one_shots = tuple(c for c in state.players[seat].columns[column] if cat.cards[c].one_shot)
    steps = column_steps(cat, state, seat, column)
    p.emit(ev.ColumnActivated(seat=seat, column=column, steps=steps, one_shots=one_shots))
    proceed(p)


def proceed(p: Play) -> None:
    """Resolve actions until one needs a decision; at the end, fight or end the turn (GUN-ACT-1)."""
    seat = p.state.turn
    changed = True
    while True:
        if changed:
            settle(p)
        changed = False
        activation = p.state.activation
        if activation is None:
            return
        if p.state.selection is not None or _decision(catalog_of(p), p.state, seat, activation):
            ask(p, seat, "act")
            return
        if not activation.steps:
            p.emit(ev.ActivationEnded(seat=seat, discarded=activation.one_shots))
            if p.state.combat is not None:
                combat.begin(p)
            else:
                end_turn(p)
            return
        head = activation.steps[0]
        if head.kind in GAINS:
            p.emit(ev.Gained(seat=seat, resource=head.kind, amount=head.amount, source=head.source))
            p.emit(ev.ActionUsed(seat=seat))
            changed = True
        else:
            p.emit(ev.ActionSkipped(seat=seat, kind=head.kind, source=head.source))


def _decision(cat: Catalog, state: State, seat: int, activation: Activation) -> bool:
    if activation.steps and step_options(cat, state, seat, activation.steps[0]):
        return True
    return bool(_towers(cat, state, seat))


def _towers(cat: Catalog, state: State, seat: int) -> list[Command]:
    if not tower_available(state, seat):
        return []
    return list(selections(cat, state, seat, tower=True))


def step_options(cat: Catalog, state: State, seat: int, step: Step) -> list[Command]:
    """Return the ways to use an action (without ``Skip``); empty when it needs no decision."""
    player = state.players[seat]
    kind = step.kind
    if kind == "wood_or_koku":
        return [Gain(resource="wood"), Gain(resource="koku")]
    if kind == "recruit":
        if not player.supply:
            return []
        return [Recruit(space=s) for s in recruit_spaces(cat, state, seat)]
    if kind == "move":
        return list(selections(cat, state, seat, tower=False))
    if kind == "buy_move":
        if getattr(player, step.resource) >= 1 and selections(cat, state, seat, tower=False):
            return [BuyMove()]
        return []
    if kind == "build":
        return list(build_options(cat, state, seat))
    if kind == "tactics":
        return [BuyTactic(tactic=t) for t in tactic_options(cat, state, seat)]
    return []


def act_options(cat: Catalog, state: State, seat: int) -> list[Command]:
    """Return every command of the act phase: the current action's uses, watchtower moves
    and ``Skip``."""
    activation = state.activation
    assert activation is not None
    uses = step_options(cat, state, seat, activation.steps[0]) if activation.steps else []
    return [*uses, *_towers(cat, state, seat), Skip()]


# -- building and tactics (GUN-BUILD, GUN-TACTIC) --------------------------------------------


def _reach(cat: Catalog, state: State, seat: int) -> set[int]:
    board = cat.boards[state.side]
    row, fort = state.troops[seat], state.forts[seat]
    armies = [s for s, n in enumerate(row) if n and s != fort]
    near = set(armies) | set(board.neighbours[fort])
    for space in armies:
        near.update(board.neighbours[space])
    return near


TILES = {"fort": "a fort", "toshi_ranbo": "Toshi Ranbo", "watchtower": "a watchtower",
         "shrine": "a shrine"}  # fmt: skip


def build_refusal(cat: Catalog, state: State, seat: int, space: int) -> tuple[str, str] | None:
    """Return (rule, reason) when the seat may not build on a space, else ``None``."""
    kind = cat.boards[state.side].kinds[space]
    if kind in TILES:
        return "GUN-BUILD-3", f"no building goes on {TILES[kind]}"
    if any(token for s, token in state.villages if s == space):
        return "GUN-BUILD-3", "no building goes on a village whose token still lies there"
    if any(r[space] for other, r in enumerate(state.troops) if other != seat):
        return "GUN-BUILD-3", "no building goes on a space with enemy troops"
    if building_at(state, space) is not None:
        return "GUN-BUILD-3", "that space already has a building"
    if space not in _reach(cat, state, seat):
        return "GUN-BUILD-2", "build where the clan has an army, next to one, or next to its fort"
    return None


def build_spaces(cat: Catalog, state: State, seat: int) -> list[int]:
    """Return where a seat may build (GUN-BUILD-2, GUN-BUILD-3)."""
    near = _reach(cat, state, seat)
    return [s for s in sorted(near) if build_refusal(cat, state, seat, s) is None]


def build_options(cat: Catalog, state: State, seat: int) -> list[Build]:
    """Return every building the seat can pay for, on every space it may go."""
    player = state.players[seat]
    built = {b for b, _ in player.buildings}
    cards = [
        b for b in cat.clans[player.clan].buildings if b.id not in built and b.cost <= player.wood
    ]
    if not cards:
        return []
    spaces = build_spaces(cat, state, seat)
    return [Build(building=b.id, space=s) for b in cards for s in spaces]


def tactic_options(cat: Catalog, state: State, seat: int) -> list[str]:
    """Return the tactics the seat can buy now (GUN-TACTIC-1, GUN-TACTIC-2)."""
    player = state.players[seat]
    if len(player.tactics) >= cat.limits.tactics:
        return []
    clan = [t.id for t in cat.clans[player.clan].tactics]
    return [
        t
        for t in (*clan, *player.hand)
        if t not in player.tactics and cat.tactics[t].cost <= player.koku
    ]


# -- handlers ----------------------------------------------------------------------------------


def head(state: State) -> Step | None:
    """Return the current action of the activation, if any."""
    activation = state.activation
    return activation.steps[0] if activation is not None and activation.steps else None


def skip(p: Play, seat: int) -> None:
    """Skip the current action, stop an infinity action, or end the column (GUN-ACT-2)."""
    step = head(p.state)
    p.emit(
        ev.ActionSkipped(
            seat=seat, kind=step.kind if step else "tower", source=step.source if step else ""
        )
    )


def gain(p: Play, seat: int, command: Gain) -> None:
    """Take the resource chosen from a wood-or-koku action (GUN-ACT-3)."""
    step = head(p.state)
    if step is None or step.kind != "wood_or_koku":
        raise IllegalCommand("the current action offers no choice of resource", "GUN-ACT-3")
    p.emit(ev.Gained(seat=seat, resource=command.resource, amount=step.amount, source=step.source))
    p.emit(ev.ActionUsed(seat=seat))


def recruit(p: Play, seat: int, command: Recruit) -> None:
    """Put one troop on the fort or a controlled clan building (GUN-RECRUIT-1..3)."""
    step = head(p.state)
    if step is None or step.kind != "recruit":
        raise IllegalCommand("the current action is no recruit", "GUN-RECRUIT-1")
    if not p.state.players[seat].supply:
        raise IllegalCommand("all fifteen troops are in play", "GUN-RECRUIT-3")
    if command.space not in recruit_spaces(catalog_of(p), p.state, seat):
        raise IllegalCommand(
            "a troop is recruited onto the fort or a clan building the clan controls",
            "GUN-RECRUIT-2",
        )
    p.emit(ev.TroopRecruited(seat=seat, space=command.space))
    p.emit(ev.ActionUsed(seat=seat))


def buy_move(p: Play, seat: int) -> None:
    """Pay the column's resource for an extra move (GUN-MOVE-6)."""
    step = head(p.state)
    if step is None or step.kind != "buy_move":
        raise IllegalCommand("extra moves are bought at the column's extra-move box", "GUN-MOVE-6")
    if BuyMove() not in step_options(catalog_of(p), p.state, seat, step):
        raise IllegalCommand(f"an extra move here costs one {step.resource}", "GUN-MOVE-6")
    p.emit(ev.MoveBought(seat=seat, resource=step.resource))


def build(p: Play, seat: int, command: Build) -> None:
    """Build a clan building (GUN-BUILD-1..3)."""
    state, cat = p.state, catalog_of(p)
    step = head(state)
    if step is None or step.kind != "build":
        raise IllegalCommand("buildings are bought in the Expand column", "GUN-BUILD-1")
    player = state.players[seat]
    card = cat.buildings.get(command.building)
    if card is None or cat.owner.get(card.id) != player.clan:
        raise IllegalCommand("that is not one of the clan's buildings", "GUN-BUILD-1")
    if any(b == card.id for b, _ in player.buildings):
        raise IllegalCommand("that building is already built", "GUN-BUILD-1")
    if card.cost > player.wood:
        raise IllegalCommand(f"{card.name} costs {card.cost} wood", "GUN-BUILD-1")
    refusal = build_refusal(cat, state, seat, command.space)
    if refusal is not None:
        raise IllegalCommand(refusal[1], refusal[0])
    p.emit(ev.BuildingBuilt(seat=seat, building=card.id, space=command.space, cost=card.cost))


def buy_tactic(p: Play, seat: int, command: BuyTactic) -> None:
    """Buy a tactic; a hero tactic or Innovation asks for its effect at once (GUN-TACTIC-1..4)."""
    state, cat = p.state, catalog_of(p)
    step = head(state)
    if step is None or step.kind != "tactics":
        raise IllegalCommand("tactics are bought in the Expand column", "GUN-TACTIC-1")
    player = state.players[seat]
    if len(player.tactics) >= cat.limits.tactics:
        raise IllegalCommand("a clan buys at most three tactics in a game", "GUN-TACTIC-2")
    if command.tactic not in tactic_options(cat, state, seat):
        raise IllegalCommand(
            "a tactic comes from the clan's two tactics or its own two neutral tactics, for koku",
            "GUN-TACTIC-1",
        )
    tactic = cat.tactics[command.tactic]
    p.emit(ev.TacticBought(seat=seat, tactic=tactic.id, cost=tactic.cost))
    if tactic.effect in ("hero", "mercenary") and hero_candidates(cat, p.state, seat):
        ask(p, seat, "hero")
    elif tactic.effect == "innovation" and special_candidates(cat, p.state, seat):
        ask(p, seat, "special")
