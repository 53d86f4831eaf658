"""Setup choices and the six phases of a turn (KAL-SETUP-*, KAL-TURN-*, KAL-EVENT-* …).

Event, Income, Free Spawn, Action (movement and at most one battle), Purchase, Reinforcement.
Every function here either lists what a seat may do now or applies one decision and then runs
what follows by itself up to the next decision.
"""

from __future__ import annotations

import random

from gamehall.core import Command, Emitter, IllegalCommand

from .commands import (
    AddEventUnit,
    BuyMagic,
    ChooseRealm,
    Deploy,
    EndActions,
    EndPurchase,
    MoveUnit,
    PlaceCastle,
    RaiseUnit,
    Recruit,
    SkipSpawn,
    Spawn,
    SwapMagic,
    TakeGold,
    UpgradeSpecial,
    UpgradeUnit,
)
from .components import BASIC, Catalogue, kind_of
from .events import (
    CastlePlaced,
    EventAnswered,
    EventDeckShuffled,
    EventDrawn,
    GoldGained,
    MagicDealt,
    MatchEnded,
    PhaseBegan,
    RealmChosen,
    TurnBegan,
    TurnEnded,
    UnitPlaced,
    UnitRaised,
    UnitUpgraded,
)
from .state import NOBODY, State
from .world import (
    controlled,
    deploy_tiles,
    first_of_kind,
    kinds_in,
    neighbours,
    next_seat,
    room,
    spawn_tiles,
)

RAISABLE = (*BASIC, "catapult")  # ours: a General never comes back; a fallen Crown ends its realm
TAKE_GOLD, SKIP_SPAWN, END_ACTIONS, END_PURCHASE = (
    TakeGold(),
    SkipSpawn(),
    EndActions(),
    EndPurchase(),
)


# -- setup ------------------------------------------------------------------------------------


def setup_seat(state: State) -> int:
    """Return the seat that chooses a realm or places a Castle now, or NOBODY."""
    if state.phase == "realms":
        return state.order[sum(1 for r in state.realms if r)]
    if state.phase == "castles":
        return tuple(reversed(state.order))[len(state.castles)]
    return NOBODY


def setup_choices(catalogue: Catalogue, state: State) -> list[Command]:
    """Return the realms still free, or the tiles a Castle may go on (KAL-SETUP-3, 5)."""
    if state.phase == "realms":
        return [ChooseRealm(realm=r) for r in catalogue.realms if r not in state.realms]
    free = [t for t in range(len(state.board)) if t not in state.castles]
    apart = [
        t for t in free if not any(n in state.castles for n in neighbours(catalogue, state, t))
    ]
    return [PlaceCastle(tile=t) for t in (apart or free)]


def choose_setup(
    catalogue: Catalogue, em: Emitter[State], seat: int, command: Command, rng: random.Random
) -> None:
    """Apply a realm choice or a Castle placement (KAL-SETUP-3)."""
    if command not in setup_choices(catalogue, em.state):
        if isinstance(command, ChooseRealm):
            raise IllegalCommand(f"the realm {command.realm!r} is not free", "KAL-SETUP-3")
        if isinstance(command, PlaceCastle):
            raise IllegalCommand(
                "a Castle goes on a tile without one, not next to another where possible",
                "KAL-SETUP-5",
            )
        raise IllegalCommand(
            "setup comes first: choose a realm or place your Castle", "KAL-SETUP-1"
        )
    if isinstance(command, ChooseRealm):
        em.emit(
            RealmChosen(seat=seat, realm=command.realm, army=tuple(catalogue.army(command.realm)))
        )
        pile = em.state.piles[command.realm]
        em.emit(MagicDealt(seat=seat, card=rng.choice(pile)))
        if all(em.state.realms):
            em.emit(PhaseBegan(seat=NOBODY, phase="castles"))
        return
    assert isinstance(command, PlaceCastle)
    reserve = em.state.reserve[seat]
    start = tuple(
        unit
        for kind in catalogue.units.values()
        for unit in [u for u in reserve if kind_of(u) == kind.key][: kind.starting]
    )
    em.emit(CastlePlaced(seat=seat, tile=command.tile, units=start))
    if len(em.state.castles) == em.state.players:
        begin_turn(catalogue, em, em.state.order[0], 1, rng)


# -- the turn ---------------------------------------------------------------------------------


def begin_turn(
    catalogue: Catalogue, em: Emitter[State], seat: int, round_: int, rng: random.Random
) -> None:
    """Begin a turn with its Event phase: draw the top card and resolve it (KAL-EVENT-1)."""
    em.emit(TurnBegan(seat=seat, round=round_))
    if not em.state.deck:
        order = list(em.state.discard)
        rng.shuffle(order)
        em.emit(EventDeckShuffled(size=len(order), order=tuple(order)))
    card_id = em.state.deck[0]
    card = catalogue.event(card_id)
    seats = (seat,) if card.scope == "active" else _from(em.state, seat)
    em.emit(EventDrawn(seat=seat, card=card_id, seats=seats))
    settle_event(catalogue, em)


def _from(state: State, seat: int) -> tuple[int, ...]:
    start = state.order.index(seat)
    order = state.order[start:] + state.order[:start]
    return tuple(s for s in order if state.alive[s])


def event_choices(catalogue: Catalogue, state: State, seat: int) -> list[Command]:
    """Return what a seat touched by the event card may do, taking gold included."""
    if state.phase != "event" or not state.queue or state.queue[0] != seat:
        return []
    card = catalogue.event(state.event)
    out: list[Command] = []
    if card.effect == "add-unit" and first_of_kind(state.reserve[seat], card.unit):
        out = [AddEventUnit(tile=t) for t in deploy_tiles(catalogue, state, seat)]
    elif card.effect == "upgrade":
        out = [
            UpgradeUnit(tile=t, kind=k)
            for t in controlled(state, seat)
            for k in kinds_in(tuple(u for u in state.board[t] if u not in state.upgraded))
            if k not in ("crown", "general")
        ]
    elif card.effect == "resurrect":
        realm = state.realms[seat]
        out = [
            RaiseUnit(graveyard=g, kind=k)
            for g in range(state.players)
            for k in kinds_in(tuple(u for u in state.graveyard[g] if u.startswith(realm + "/")))
            if k in RAISABLE
        ]
    return [*out, TAKE_GOLD] if out else []


def settle_event(catalogue: Catalogue, em: Emitter[State]) -> None:
    """Resolve the event card for every touched seat that has no choice, then go on."""
    while em.state.queue:
        head, card = em.state.queue[0], catalogue.event(em.state.event)
        if card.effect == "gold":
            em.emit(GoldGained(seat=head, gold=card.gold, cause="event"))
        elif card.effect == "gold-if-on-board":
            if any(
                kind_of(u) == card.unit
                for t, units in enumerate(em.state.board)
                if em.state.holder[t] == head
                for u in units
            ):
                em.emit(GoldGained(seat=head, gold=card.gold, cause="event"))
        elif event_choices(catalogue, em.state, head):
            return
        else:
            em.emit(GoldGained(seat=head, gold=1, cause="event"))
        em.emit(EventAnswered(seat=head))
    income_and_spawn(catalogue, em)


def answer_event(catalogue: Catalogue, em: Emitter[State], seat: int, command: Command) -> None:
    """Apply a touched seat's answer to the event card (KAL-EVENT-2 … 5)."""
    if not isinstance(command, (AddEventUnit, UpgradeUnit, RaiseUnit, TakeGold)):
        raise IllegalCommand("first answer the event card", "KAL-TURN-2")
    if command not in event_choices(catalogue, em.state, seat):
        raise IllegalCommand(
            "that is not what this event card offers you: see its choices", "KAL-EVENT-2"
        )
    state = em.state
    if isinstance(command, TakeGold):
        em.emit(GoldGained(seat=seat, gold=1, cause="event"))
    elif isinstance(command, AddEventUnit):
        unit = first_of_kind(state.reserve[seat], catalogue.event(state.event).unit) or ""
        em.emit(UnitPlaced(seat=seat, unit=unit, tile=command.tile, cause="event"))
    elif isinstance(command, UpgradeUnit):
        fresh = tuple(u for u in state.board[command.tile] if u not in state.upgraded)
        em.emit(UnitUpgraded(seat=seat, unit=first_of_kind(fresh, command.kind) or ""))
    elif isinstance(command, RaiseUnit):
        grave = tuple(
            u for u in state.graveyard[command.graveyard] if u.startswith(state.realms[seat] + "/")
        )
        unit = first_of_kind(grave, command.kind) or ""
        em.emit(UnitRaised(seat=seat, unit=unit, graveyard=command.graveyard))
    em.emit(EventAnswered(seat=seat))
    settle_event(catalogue, em)


def income_and_spawn(catalogue: Catalogue, em: Emitter[State]) -> None:
    """Collect income, then offer the free spawn or go on to the Action phase (KAL-INCOME-1)."""
    seat = em.state.turn
    em.emit(PhaseBegan(seat=seat, phase="income"))
    gold = len(controlled(em.state, seat)) + len(em.state.castles_of(seat))
    em.emit(GoldGained(seat=seat, gold=gold, cause="income"))
    em.emit(PhaseBegan(seat=seat, phase="spawn"))
    if not spawn_choices(catalogue, em.state, seat):
        em.emit(PhaseBegan(seat=seat, phase="action"))


def spawn_choices(catalogue: Catalogue, state: State, seat: int) -> list[Command]:
    """Return the free spawns a seat may make: a basic unit onto a Castle it holds."""
    if state.phase != "spawn" or seat != state.turn:
        return []
    kinds = [k for k in BASIC if first_of_kind(state.reserve[seat], k)]
    out: list[Command] = [
        Spawn(kind=k, tile=t) for t in spawn_tiles(catalogue, state, seat) for k in kinds
    ]
    return [*out, SKIP_SPAWN] if out else []


def spawn(catalogue: Catalogue, em: Emitter[State], seat: int, command: Command) -> None:
    """Apply the free spawn or its skip, then begin the Action phase (KAL-SPAWN-1)."""
    if not isinstance(command, (Spawn, SkipSpawn)):
        raise IllegalCommand("it is your Free Spawn phase: spawn or skip", "KAL-TURN-2")
    if command not in spawn_choices(catalogue, em.state, seat):
        raise IllegalCommand(
            "the free spawn is a Sword, Archer or Shield from your reserve onto a Castle you "
            "hold with room",
            "KAL-SPAWN-1",
        )
    if isinstance(command, Spawn):
        unit = first_of_kind(em.state.reserve[seat], command.kind) or ""
        em.emit(UnitPlaced(seat=seat, unit=unit, tile=command.tile, cause="spawn"))
    em.emit(PhaseBegan(seat=seat, phase="action"))


def move_choices(catalogue: Catalogue, state: State, seat: int) -> list[Command]:
    """Return every one-tile move of a unit that has not moved this turn (KAL-MOVE-1)."""
    out: list[Command] = []
    for origin, holder in enumerate(state.holder):
        if holder != seat:
            continue
        groups = dict.fromkeys(
            (kind_of(u), u in state.upgraded) for u in state.board[origin] if u not in state.moved
        )
        if not groups:
            continue
        for to in neighbours(catalogue, state, origin):
            if state.holder[to] in (NOBODY, seat) and room(catalogue, state, to) > 0:
                out.extend(MoveUnit(origin=origin, to=to, kind=k, upgraded=up) for k, up in groups)
    return out


def unit_to_move(state: State, command: MoveUnit) -> str:
    """Return the unit a move names, refusing what the rules forbid (KAL-MOVE-1, 2)."""
    for unit in state.board[command.origin]:
        if (
            kind_of(unit) == command.kind
            and (unit in state.upgraded) == command.upgraded
            and unit not in state.moved
        ):
            return unit
    raise IllegalCommand(
        f"no {command.kind} of yours on tile {command.origin} can still move this turn",
        "KAL-MOVE-1",
    )


def purchase_choices(catalogue: Catalogue, state: State, seat: int) -> list[Command]:
    """Return what a seat may buy now (KAL-BUY-1, KAL-SPECIAL-1, 2, KAL-MAGIC-6, 7)."""
    if state.phase != "purchase" or seat != state.turn:
        return []
    gold = state.gold[seat]
    out: list[Command] = [
        Recruit(kind=k)
        for k in kinds_in(state.reserve[seat])
        if catalogue.units[k].cls != "crown" and catalogue.units[k].cost <= gold
    ]
    if gold >= 2:
        out.extend(
            UpgradeSpecial(unit=u)
            for t, units in enumerate(state.board)
            if state.holder[t] == seat
            for u in units
            if catalogue.units[kind_of(u)].cls == "special" and u not in state.upgraded
        )
        out.extend(
            SwapMagic(card=c)
            for c in state.hands[seat]
            if state.piles.get(c.split("/", 1)[0])
            and state.pile_owner.get(c.split("/", 1)[0]) == seat
        )
    if gold >= 4:
        out.extend(
            BuyMagic(realm=r)
            for r, owner in sorted(state.pile_owner.items())
            if owner == seat and state.piles[r]
        )
    return [*out, END_PURCHASE]


def deploy_choices(catalogue: Catalogue, state: State, seat: int) -> list[Command]:
    """Return where each paid unit may go: a tile the seat controls with room (KAL-REINFORCE-1)."""
    if state.phase != "reinforce" or seat != state.turn:
        return []
    tiles = deploy_tiles(catalogue, state, seat)
    return [Deploy(kind=k, tile=t) for k in kinds_in(state.ready[seat]) for t in tiles]


def begin_reinforcement(catalogue: Catalogue, em: Emitter[State], rng: random.Random) -> None:
    """Begin the Reinforcement phase, or end the turn when nothing can be placed.

    Rule KAL-REINFORCE-1.
    """
    seat = em.state.turn
    em.emit(PhaseBegan(seat=seat, phase="reinforce"))
    if not deploy_choices(catalogue, em.state, seat):
        end_turn(catalogue, em, rng)


def end_turn(catalogue: Catalogue, em: Emitter[State], rng: random.Random) -> None:
    """Pass the turn to the next seat with a Crown; end the match when the rules say so.

    Rule KAL-TURN-3.
    """
    state = em.state
    if sum(state.alive) <= 1:
        winners = tuple(s for s in range(state.players) if state.alive[s])
        reason = "the last Crown standing" if winners else "the last Crowns fell together"
        em.emit(MatchEnded(winners=winners, reason=reason))
        return
    seat = state.turn
    nxt = next_seat(state, seat)
    round_ = state.round + (1 if state.order.index(nxt) <= state.order.index(seat) else 0)
    em.emit(TurnEnded(seat=seat, next=nxt))
    limit = state.options.round_limit
    if limit and round_ > limit:
        em.emit(round_limit_end(state))
        return
    begin_turn(catalogue, em, nxt, round_, rng)


def standing(state: State, seat: int) -> tuple[int, int, int]:
    """Return a seat's tie-break at the round limit: tiles, units on the board, gold."""
    units = sum(len(u) for t, u in enumerate(state.board) if state.holder[t] == seat)
    return (len(controlled(state, seat)), units, state.gold[seat])


def round_limit_end(state: State) -> MatchEnded:
    """Return the end at the round limit: most tiles, then units, then gold (KAL-END-3)."""
    alive = [s for s in range(state.players) if state.alive[s]]
    best = max(standing(state, s) for s in alive)
    winners = tuple(s for s in alive if standing(state, s) == best)
    scores = tuple(standing(state, s)[0] if state.alive[s] else 0 for s in range(state.players))
    return MatchEnded(winners=winners, reason="the round limit: most tiles held", scores=scores)
