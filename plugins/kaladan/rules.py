"""Generals of Kaladan's rules as a decider (rule ids in docs/rules/kaladan.md)."""

from __future__ import annotations

import random
from collections.abc import Collection, Mapping, Sequence
from typing import Any

from gamehall.core import (
    Command,
    Context,
    Decision,
    Emitter,
    Event,
    IllegalCommand,
    Outcome,
    Rules,
    ScoreLine,
    defaults_first,
    merge_by_key,
)
from gamehall.core.errors import InvalidOptions
from gamehall.core.rules import MatchConfig

from . import battle as fight
from . import events as events_
from . import magic, turn
from . import view as seen
from .commands import (
    AssassinateUnit,
    Attack,
    BuyMagic,
    ChooseLosses,
    DeclareMagic,
    Deploy,
    EndActions,
    EndPurchase,
    FinishMagic,
    Invade,
    LevyUnit,
    MoveUnit,
    Recruit,
    RestoreUnit,
    ShiftUnit,
    SkipSpawn,
    SwapMagic,
    TakeGold,
    UpgradeSpecial,
)
from .components import Catalogue
from .events import (
    BattleEnded,
    EventDeckShuffled,
    MagicBought,
    MagicSwapped,
    PhaseBegan,
    TilePlaced,
    TilesShuffled,
    TurnOrderRolled,
    UnitMoved,
    UnitPlaced,
    UnitRecruited,
    UnitUpgraded,
)
from .evolve import Evolver
from .state import NOBODY, Options, State
from .world import capacity, first_of_kind, neighbours, room

EFFECT_COMMANDS = (ShiftUnit, LevyUnit, AssassinateUnit, RestoreUnit, FinishMagic)
DECISIONS = {
    "realms": Decision("realm", "choose your realm"),
    "castles": Decision("castle", "place your Castle"),
    "event": Decision("event", "answer the event card"),
    "spawn": Decision("spawn", "spawn a free unit on your Castle"),
    "action": Decision("action", "move units, attack once, or end your actions"),
    "purchase": Decision("purchase", "buy units and magic, or end your purchases"),
    "reinforce": Decision("reinforce", "place the units you bought"),
    "declare": Decision("magic", "declare a magic card or pass"),
    "effect": Decision("card", "use your magic card"),
    "keep": Decision("card", "bring back units killed in this battle"),
    "losses": Decision("losses", "choose the units you lose"),
    "invade": Decision("invade", "choose the units that invade"),
}
PURCHASE_RULES: dict[type[Command], str] = {
    Recruit: "KAL-BUY-1",
    UpgradeSpecial: "KAL-SPECIAL-2",
    SwapMagic: "KAL-MAGIC-6",
    BuyMagic: "KAL-MAGIC-7",
}


def gather(results: list[list[Any]]) -> list[Any]:
    """Return the items the hook implementations gave, a later one replacing an earlier key."""
    return merge_by_key(results, lambda item: item.key)


# The events no take-back reaches past (Rules.reveals).
REVEALING: tuple[type[Event], ...] = (
    events_.TurnOrderRolled,
    events_.TilesShuffled,
    events_.MagicDealt,
    events_.EventDeckShuffled,
    events_.EventDrawn,
    events_.MagicSwapped,
    events_.MagicBought,
    events_.MagicDeclared,
    events_.MagicRevealed,
    events_.DiceRolled,
    events_.DiceCompared,
)


class Kaladan(Rules[State]):
    """Realms fight tile against tile until one Crown is left standing."""

    def __init__(self, hook: Any) -> None:
        super().__init__(hook)
        self.catalogue = Catalogue(
            gather(hook.kaladan_unit_kinds()),
            gather(hook.kaladan_terrains()),
            defaults_first(hook.kaladan_worlds()),
            gather(hook.kaladan_realms()),
            gather(hook.kaladan_event_cards()),
        )
        self._evolve = Evolver(self.catalogue).evolve

    def evolve(self, state: State, event: Event) -> State:
        """Apply one event (see ``evolve.py``)."""
        return self._evolve(state, event)

    # -- setup -----------------------------------------------------------------------------

    def initial(self, config: MatchConfig) -> State:
        """Return the match before setup: purses, empty reserves and hands (KAL-SETUP-7)."""
        options = config.options if isinstance(config.options, Options) else Options()
        if options.round_limit < 0 or options.starting_gold < 0:
            raise InvalidOptions("round_limit and starting_gold cannot be negative")
        if config.players not in self.catalogue.worlds:
            raise InvalidOptions(f"no world is laid out for {config.players} players")
        n = config.players
        empty: tuple[tuple[str, ...], ...] = ((),) * n
        return State(
            players=n,
            options=options,
            reserve=empty,
            ready=empty,
            graveyard=empty,
            hands=empty,
            gold=(options.starting_gold,) * n,
            realms=("",) * n,
            alive=(True,) * n,
        )

    def start(self, state: State, config: MatchConfig, rng: random.Random) -> Sequence[Event]:
        """Roll for the first player, build the world, shuffle the event deck (KAL-SETUP-1 … 4)."""
        n = state.players
        rounds, contenders = [], list(range(n))
        while True:
            rolls = tuple((seat, rng.randint(1, 10)) for seat in contenders)
            rounds.append(rolls)
            top = max(value for _, value in rolls)
            contenders = [seat for seat, value in rolls if value == top]
            if len(contenders) == 1:
                break
        first = contenders[0]
        order = tuple((first + step) % n for step in range(n))
        world = self.catalogue.worlds[n]
        tiles = world.terrains()
        rng.shuffle(tiles)
        events: list[Event] = [
            TurnOrderRolled(rounds=tuple(rounds), order=order),
            TilesShuffled(count=len(tiles), order=tuple(tiles)),
        ]
        events.extend(
            TilePlaced(seat=order[i % n], tile=i, terrain=terrain)
            for i, terrain in enumerate(tiles)
        )
        deck = self.catalogue.deck()
        rng.shuffle(deck)
        events.append(EventDeckShuffled(size=len(deck), order=tuple(deck)))
        return events

    # -- deciding --------------------------------------------------------------------------

    def decide(self, state: State, command: Command, ctx: Context) -> Sequence[Event]:
        """Return the events of one decision and of everything that follows by itself."""
        if state.over:
            raise IllegalCommand("the match is over")
        seat = ctx.seat if ctx.seat is not None else next(iter(self.awaiting(state)), NOBODY)
        em, cat = Emitter(self, state), self.catalogue
        if isinstance(command, DeclareMagic):
            magic.declare(cat, em, seat, command.card)
        elif state.phase in ("realms", "castles"):
            turn.choose_setup(cat, em, seat, command, ctx.rng)
            return em.events
        elif state.battle is not None:
            self._battle_step(em, seat, command)
        elif state.phase == "event":
            turn.answer_event(cat, em, seat, command)
        elif state.phase == "spawn":
            turn.spawn(cat, em, seat, command)
        elif state.phase == "action":
            self._action(em, seat, command, ctx)
        elif state.phase == "purchase":
            self._purchase(em, seat, command, ctx)
        else:
            self._deploy(em, seat, command, ctx)
        self._settle(em, ctx)
        return em.events

    def _settle(self, em: Emitter[State], ctx: Context) -> None:
        if em.state.battle is None:
            return
        fight.advance(self.catalogue, em, ctx.rng)
        if em.state.battle is None and isinstance(em.events[-1], BattleEnded):
            state = em.state
            if sum(state.alive) <= 1 or not state.alive[state.turn]:
                turn.end_turn(self.catalogue, em, ctx.rng)

    def _battle_step(self, em: Emitter[State], seat: int, command: Command) -> None:
        if isinstance(command, ChooseLosses):
            fight.choose_losses(em, seat, command.units)
        elif isinstance(command, Invade):
            fight.invade(em, seat, command.units)
        elif isinstance(command, EFFECT_COMMANDS):
            magic.use_effect(self.catalogue, em, seat, command)
        elif isinstance(command, Attack):
            raise IllegalCommand("a battle is already being fought this turn", "KAL-DECLARE-2")
        else:
            raise IllegalCommand("a battle is being fought: finish it first", "KAL-SEQ-1")

    def _action(self, em: Emitter[State], seat: int, command: Command, ctx: Context) -> None:
        """Decide an action-phase command: a move or an attack (KAL-MOVE-1)."""
        cat = self.catalogue
        if isinstance(command, Attack):
            fight.declare_attack(cat, em, seat, command.origin, command.target)
        elif isinstance(command, MoveUnit):
            em.emit(self._move(em.state, seat, command))
        elif isinstance(command, EndActions):
            em.emit(PhaseBegan(seat=seat, phase="purchase"))
        else:
            raise IllegalCommand("it is your Action phase: move, attack or end it", "KAL-TURN-2")

    def _move(self, state: State, seat: int, command: MoveUnit) -> UnitMoved:
        cat, origin, to = self.catalogue, command.origin, command.to
        fight.check_tile(state, origin)
        fight.check_tile(state, to)
        if state.holder[origin] != seat:
            raise IllegalCommand(f"none of your units stands on tile {origin}", "KAL-MOVE-1")
        if to not in neighbours(cat, state, origin):
            raise IllegalCommand("a unit moves one tile, to an adjacent tile", "KAL-MOVE-1")
        if state.holder[to] not in (NOBODY, seat):
            raise IllegalCommand(
                f"tile {to} holds an enemy army: entering it takes a battle (declare an attack)",
                "KAL-DECLARE-1",
            )
        if room(cat, state, to) <= 0:
            raise IllegalCommand(
                f"tile {to} is full: it holds {capacity(cat, state, to)} units at most",
                "KAL-MOVE-2",
            )
        unit = turn.unit_to_move(state, command)
        return UnitMoved(seat=seat, unit=unit, origin=origin, to=to)

    def _purchase(self, em: Emitter[State], seat: int, command: Command, ctx: Context) -> None:
        """Decide a purchase-phase command: units, specials, magic (KAL-BUY-1)."""
        state, cat = em.state, self.catalogue
        if command not in turn.purchase_choices(cat, state, seat):
            rule = PURCHASE_RULES.get(type(command), "KAL-TURN-2")
            raise IllegalCommand(
                "you cannot pay for that now (see what you hold and your gold)", rule
            )
        if isinstance(command, EndPurchase):
            turn.begin_reinforcement(cat, em, ctx.rng)
        elif isinstance(command, Recruit):
            unit = first_of_kind(state.reserve[seat], command.kind) or ""
            em.emit(UnitRecruited(seat=seat, unit=unit, cost=cat.units[command.kind].cost))
        elif isinstance(command, UpgradeSpecial):
            em.emit(UnitUpgraded(seat=seat, unit=command.unit, cost=2))
        elif isinstance(command, SwapMagic):
            realm = cat.realm_of_card(command.card)
            drawn = ctx.rng.choice(state.piles[realm])
            em.emit(MagicSwapped(seat=seat, realm=realm, returned=command.card, drawn=drawn))
        elif isinstance(command, BuyMagic):
            card = ctx.rng.choice(state.piles[command.realm])
            em.emit(MagicBought(seat=seat, realm=command.realm, card=card))

    def _deploy(self, em: Emitter[State], seat: int, command: Command, ctx: Context) -> None:
        """Place a paid unit in the reinforcement phase (KAL-REINFORCE-1)."""
        cat = self.catalogue
        if not isinstance(command, Deploy):
            raise IllegalCommand(
                "it is your Reinforcement phase: place what you paid for", "KAL-TURN-2"
            )
        if command not in turn.deploy_choices(cat, em.state, seat):
            raise IllegalCommand(
                "place a unit you paid for onto a tile you control with room", "KAL-REINFORCE-1"
            )
        unit = first_of_kind(em.state.ready[seat], command.kind) or ""
        em.emit(UnitPlaced(seat=seat, unit=unit, tile=command.tile, cause="deploy"))
        if not turn.deploy_choices(cat, em.state, seat):
            turn.end_turn(cat, em, ctx.rng)

    # -- asking ----------------------------------------------------------------------------

    def awaiting(self, state: State) -> Mapping[int, Decision]:
        """Return the seats that may act now and what each is asked."""
        if state.over or state.phase == "setup":
            return {}
        if state.phase in ("realms", "castles"):
            return {turn.setup_seat(state): DECISIONS[state.phase]}
        battle = state.battle
        if battle is not None:
            step = battle.step
            if step == "declare":
                return {s: DECISIONS[step] for s in magic.declaring(state)}
            if step == "losses":
                return {battle.seats[i]: DECISIONS[step] for i in (0, 1) if not battle.chosen[i]}
            if step == "invade":
                return {battle.seats[0]: DECISIONS[step]}
            return {battle.seats[battle.effect_side]: DECISIONS[step]}
        if state.phase == "event":
            return {state.queue[0]: DECISIONS["event"]}
        return {state.turn: DECISIONS[state.phase]}

    def legal(self, state: State, seat: int) -> Sequence[Command]:
        """Return every command ``seat`` may send now."""
        if state.over or seat not in self.awaiting(state):
            return []
        cat = self.catalogue
        if state.phase in ("realms", "castles"):
            return turn.setup_choices(cat, state)
        if state.battle is not None:
            return [
                *magic.declarations(cat, state, seat),
                *magic.effect_choices(cat, state, seat),
                *fight.loss_choices(state, seat),
                *fight.invasion_choices(state, seat),
            ]
        phase = state.phase
        if phase == "event":
            return turn.event_choices(cat, state, seat)
        if phase == "spawn":
            return turn.spawn_choices(cat, state, seat)
        if phase == "action":
            attacks = [
                Attack(origin=o, target=t) for o, t in fight.attack_targets(cat, state, seat)
            ]
            return [*turn.move_choices(cat, state, seat), *attacks, turn.END_ACTIONS]
        if phase == "purchase":
            return turn.purchase_choices(cat, state, seat)
        return turn.deploy_choices(cat, state, seat)

    def free(self, state: State, seat: int) -> Collection[type[Command]]:
        """Let both sides of a battle send a declaration at any step, to hear it is final."""
        battle = state.battle
        return (DeclareMagic,) if battle is not None and seat in battle.seats else ()

    def timeout(self, state: State, seat: int) -> Command | None:
        """Return the pass a seat out of time makes where the rules allow one."""
        battle = state.battle
        if battle is not None:
            if battle.step == "declare":
                return magic.PASS
            return magic.FINISH if battle.step in ("effect", "keep") else None
        passes: dict[str, Command] = {
            "event": TakeGold(),
            "spawn": SkipSpawn(),
            "action": EndActions(),
            "purchase": EndPurchase(),
        }
        return passes.get(state.phase)

    def outcome(self, state: State) -> Outcome | None:
        """Return the winners once the match is over (KAL-END-1 … 3)."""
        if not state.over:
            return None
        if state.reason.startswith("the round limit"):
            lines = [
                turn.standing(state, s) if state.alive[s] else (0, 0, 0)
                for s in range(state.players)
            ]
            breakdown = tuple(
                ScoreLine(name, tuple(line[i] for line in lines))
                for i, name in enumerate(("tiles held", "units on the board", "gold"))
            )
            return Outcome(state.winners, state.reason, breakdown[0].points, breakdown)
        return Outcome(state.winners, state.reason)

    # -- what each seat sees ---------------------------------------------------------------

    def view(self, state: State, seat: int | None) -> Any:
        """Return what ``seat`` may see (KAL-HIDDEN-1 … 4)."""
        return seen.view(state, seat)

    def redact(self, event: Event, seat: int | None) -> Event | None:
        """Return the event without the cards and orders ``seat`` may not see."""
        return seen.redact(event, seat)

    def reveals(self, event: Event) -> bool:
        """Return whether an event is chance or shows what was hidden.

        Rolls, shuffles, draws of events and magic, and magic shown. Another
        plugin's event (an expansion's) counts as revealing: it cannot be taken back.
        """
        return not isinstance(event, events_.KaladanEvent) or isinstance(event, REVEALING)

    def hidden(self, state: State, seat: int | None) -> Collection[str]:
        """Return the ids of the cards ``seat`` may not see."""
        return seen.hidden(state, seat)

    def sample(self, view: Any, seat: int, rng: random.Random) -> State:
        """Return a state consistent with ``seat``'s view, its secrets drawn uniformly."""
        return seen.sample(self.catalogue, view, rng)
