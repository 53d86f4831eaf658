"""Generals of Kaladan's rules as a decider (rule ids in docs/rules/kaladan.md)."""

from __future__ import annotations

import random
from collections.abc import Collection, Hashable, Mapping, Sequence
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
    decides,
    defaults_first,
    evolves,
    merge_by_key,
)
from gamehall.core.errors import InvalidOptions
from gamehall.core.rules import MatchConfig
from msgspec.structs import replace

from . import battle as fight
from . import changes, magic, turn
from . import events as events_
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
from .state import NOBODY, Battle, Options, State, put, without
from .world import capacity, first_of_kind, neighbours, room

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


def gather(results: list[list[Any]]) -> list[Any]:
    """Return the items the hook implementations gave, a later one replacing an earlier key."""
    return merge_by_key(results, lambda item: item.key)


class Kaladan(Rules[State]):
    """Realms fight tile against tile until one Crown is left standing.

    Each command is decided by the ``@decides`` method of its type in the turn's phase (see
    :meth:`phase`), on an emitter of the command, and then whatever follows by itself is
    settled (a battle's dice, the end of the turn). After the commands come the ``@evolves``
    methods, one for each event, which change the state.
    """

    revealing = (
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
    secret_fields = {events_.TilesShuffled: ("order",), events_.EventDeckShuffled: ("order",)}
    private_fields = {
        events_.MagicDealt: ("card",),
        events_.MagicBought: ("card",),
        events_.MagicDeclared: ("card",),
        events_.MagicSwapped: ("returned", "drawn"),
    }

    catalogue: Catalogue

    def __init__(self, hook: Any) -> None:
        super().__init__(hook)
        self.catalogue = Catalogue(
            gather(hook.kaladan_unit_kinds()),
            gather(hook.kaladan_terrains()),
            defaults_first(hook.kaladan_worlds()),
            gather(hook.kaladan_realms()),
            gather(hook.kaladan_event_cards()),
        )

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

    def phase(self, state: State) -> Hashable:
        """Return the part of the game a command answers: the setup, a battle, or the turn's
        phase (event, spawn, action, purchase, reinforce)."""
        if state.phase in ("realms", "castles"):
            return "setup"
        if state.battle is not None:
            return "battle"
        if state.phase in ("event", "spawn", "action", "purchase"):
            return state.phase
        return "reinforce"

    def decide(self, state: State, command: Command, ctx: Context) -> Sequence[Event]:
        """Return the events of one decision and of everything that follows by itself."""
        if state.over:
            raise IllegalCommand("the match is over")
        seat = ctx.seat if ctx.seat is not None else next(iter(self.awaiting(state)), NOBODY)
        em = Emitter(self, state, ctx)
        decider = self.decider(state, command)
        assert decider is not None  # every phase has a method for any command
        decider(self, em, seat, command)
        self._settle(em)
        return em.events

    def _settle(self, em: Emitter[State]) -> None:
        if em.state.battle is None:
            return
        fight.advance(self.catalogue, em, em.rng)
        if em.state.battle is None and isinstance(em.events[-1], BattleEnded):
            state = em.state
            if sum(state.alive) <= 1 or not state.alive[state.turn]:
                turn.end_turn(self.catalogue, em, em.rng)

    # -- any phase ------------------------------------------------------------------------

    @decides(DeclareMagic)
    def _declare(self, em: Emitter[State], seat: int, command: DeclareMagic) -> None:
        magic.declare(self.catalogue, em, seat, command.card)

    # -- setup --------------------------------------------------------------------------------

    @decides(Command, phase="setup")
    def _setup(self, em: Emitter[State], seat: int, command: Command) -> None:
        turn.choose_setup(self.catalogue, em, seat, command, em.rng)

    # -- a battle -----------------------------------------------------------------------------

    @decides(ChooseLosses, phase="battle")
    def _losses(self, em: Emitter[State], seat: int, command: ChooseLosses) -> None:
        fight.choose_losses(em, seat, command.units)

    @decides(Invade, phase="battle")
    def _invade(self, em: Emitter[State], seat: int, command: Invade) -> None:
        fight.invade(em, seat, command.units)

    @decides(ShiftUnit, LevyUnit, AssassinateUnit, RestoreUnit, FinishMagic, phase="battle")
    def _use_magic(self, em: Emitter[State], seat: int, command: Command) -> None:
        magic.use_effect(self.catalogue, em, seat, command)

    @decides(Attack, phase="battle")
    def _second_attack(self, em: Emitter[State], seat: int, command: Attack) -> None:
        raise IllegalCommand("a battle is already being fought this turn", "KAL-DECLARE-2")

    @decides(Command, phase="battle")
    def _not_in_battle(self, em: Emitter[State], seat: int, command: Command) -> None:
        raise IllegalCommand("a battle is being fought: finish it first", "KAL-SEQ-1")

    # -- the event and spawn phases -----------------------------------------------------------

    @decides(Command, phase="event")
    def _answer_event(self, em: Emitter[State], seat: int, command: Command) -> None:
        turn.answer_event(self.catalogue, em, seat, command)

    @decides(Command, phase="spawn")
    def _spawn(self, em: Emitter[State], seat: int, command: Command) -> None:
        turn.spawn(self.catalogue, em, seat, command)

    # -- the action phase (KAL-MOVE-1) --------------------------------------------------------

    @decides(Attack, phase="action")
    def _attack(self, em: Emitter[State], seat: int, command: Attack) -> None:
        """Declare the turn's attack, an action of the Action phase (KAL-MOVE-1)."""
        fight.declare_attack(self.catalogue, em, seat, command.origin, command.target)

    @decides(MoveUnit, phase="action")
    def _move_unit(self, em: Emitter[State], seat: int, command: MoveUnit) -> None:
        """Move a unit to an adjacent tile (KAL-MOVE-1)."""
        em.emit(self._move(em.state, seat, command))

    @decides(EndActions, phase="action")
    def _end_actions(self, em: Emitter[State], seat: int, command: EndActions) -> None:
        """End the Action phase: the purchases follow (KAL-MOVE-1, KAL-TURN-1)."""
        em.emit(PhaseBegan(seat=seat, phase="purchase"))

    @decides(Command, phase="action")
    def _not_an_action(self, em: Emitter[State], seat: int, command: Command) -> None:
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

    # -- the purchase phase (KAL-BUY-1) -------------------------------------------------------

    def _affordable(self, state: State, seat: int, command: Command, rule: str) -> None:
        if command not in turn.purchase_choices(self.catalogue, state, seat):
            raise IllegalCommand(
                "you cannot pay for that now (see what you hold and your gold)", rule
            )

    @decides(EndPurchase, phase="purchase")
    def _end_purchase(self, em: Emitter[State], seat: int, command: EndPurchase) -> None:
        """End the purchases: the reinforcements follow (KAL-BUY-1)."""
        self._affordable(em.state, seat, command, "KAL-TURN-2")
        turn.begin_reinforcement(self.catalogue, em, em.rng)

    @decides(Recruit, phase="purchase")
    def _recruit(self, em: Emitter[State], seat: int, command: Recruit) -> None:
        """Pay for a unit of the reserve (KAL-BUY-1)."""
        state = em.state
        self._affordable(state, seat, command, "KAL-BUY-1")
        unit = first_of_kind(state.reserve[seat], command.kind) or ""
        cost = self.catalogue.units[command.kind].cost
        em.emit(UnitRecruited(seat=seat, unit=unit, cost=cost))

    @decides(UpgradeSpecial, phase="purchase")
    def _upgrade(self, em: Emitter[State], seat: int, command: UpgradeSpecial) -> None:
        """Pay 2 gold to upgrade a special unit (KAL-BUY-1, KAL-SPECIAL-2)."""
        self._affordable(em.state, seat, command, "KAL-SPECIAL-2")
        em.emit(UnitUpgraded(seat=seat, unit=command.unit, cost=2))

    @decides(SwapMagic, phase="purchase")
    def _swap_magic(self, em: Emitter[State], seat: int, command: SwapMagic) -> None:
        """Pay 2 gold to swap a magic card for one drawn from its pile (KAL-BUY-1, KAL-MAGIC-6)."""
        state = em.state
        self._affordable(state, seat, command, "KAL-MAGIC-6")
        realm = self.catalogue.realm_of_card(command.card)
        drawn = em.rng.choice(state.piles[realm])
        em.emit(MagicSwapped(seat=seat, realm=realm, returned=command.card, drawn=drawn))

    @decides(BuyMagic, phase="purchase")
    def _buy_magic(self, em: Emitter[State], seat: int, command: BuyMagic) -> None:
        """Pay 4 gold for a magic card drawn from a pile (KAL-BUY-1, KAL-MAGIC-7)."""
        state = em.state
        self._affordable(state, seat, command, "KAL-MAGIC-7")
        card = em.rng.choice(state.piles[command.realm])
        em.emit(MagicBought(seat=seat, realm=command.realm, card=card))

    @decides(Command, phase="purchase")
    def _not_a_purchase(self, em: Emitter[State], seat: int, command: Command) -> None:
        self._affordable(em.state, seat, command, "KAL-TURN-2")

    # -- the reinforcement phase --------------------------------------------------------------

    @decides(Deploy, phase="reinforce")
    def _deploy(self, em: Emitter[State], seat: int, command: Deploy) -> None:
        """Place a paid unit in the reinforcement phase (KAL-REINFORCE-1)."""
        cat = self.catalogue
        if command not in turn.deploy_choices(cat, em.state, seat):
            raise IllegalCommand(
                "place a unit you paid for onto a tile you control with room", "KAL-REINFORCE-1"
            )
        unit = first_of_kind(em.state.ready[seat], command.kind) or ""
        em.emit(UnitPlaced(seat=seat, unit=unit, tile=command.tile, cause="deploy"))
        if not turn.deploy_choices(cat, em.state, seat):
            turn.end_turn(cat, em, em.rng)

    @decides(Command, phase="reinforce")
    def _not_a_deployment(self, em: Emitter[State], seat: int, command: Command) -> None:
        raise IllegalCommand(
            "it is your Reinforcement phase: place what you paid for", "KAL-TURN-2"
        )

    # -- how each event changes the state: setup -----------------------------------------------

    @evolves(events_.TurnOrderRolled)
    def turn_order_rolled(self, state: State, event: events_.TurnOrderRolled) -> State:
        """Fix the order of play; the realms are chosen next."""
        return replace(state, order=event.order, phase="realms")

    @evolves(events_.TilesShuffled, events_.TurnEnded, events_.DiceRolled)
    def nothing_to_keep(self, state: State, event: events_.KaladanEvent) -> State:
        """Keep nothing: what the event tells is in the events that follow it."""
        return state

    @evolves(events_.TilePlaced)
    def tile_placed(self, state: State, event: events_.TilePlaced) -> State:
        """Add an empty tile of its terrain to the world."""
        return replace(
            state,
            terrain=(*state.terrain, event.terrain),
            board=(*state.board, ()),
            holder=(*state.holder, NOBODY),
        )

    @evolves(events_.RealmChosen)
    def realm_chosen(self, state: State, event: events_.RealmChosen) -> State:
        """Give the seat its realm, its army in reserve and the realm's pile of magic."""
        realm = self.catalogue.realms[event.realm]
        cards = tuple(sorted(f"{realm.key}/{c.key}" for c in realm.cards))
        return replace(
            state,
            realms=put(state.realms, event.seat, event.realm),
            reserve=put(state.reserve, event.seat, event.army),
            piles={**state.piles, event.realm: cards},
            pile_owner={**state.pile_owner, event.realm: event.seat},
        )

    @evolves(events_.MagicDealt)
    def magic_dealt(self, state: State, event: events_.MagicDealt) -> State:
        """Move a dealt card from its pile to the seat's hand."""
        return changes.take_card(self.catalogue, state, event.seat, event.card)

    @evolves(events_.EventDeckShuffled)
    def event_deck_shuffled(self, state: State, event: events_.EventDeckShuffled) -> State:
        """Lay the event deck out in its shuffled order, the discard pile empty."""
        return replace(state, deck=event.order or (), discard=())

    @evolves(events_.CastlePlaced)
    def castle_placed(self, state: State, event: events_.CastlePlaced) -> State:
        """Build the Castle on its tile with the units that guard it."""
        reserve = without(state.reserve[event.seat], *event.units)
        state = replace(
            state,
            castles={**state.castles, event.tile: event.seat},
            reserve=put(state.reserve, event.seat, reserve),
        )
        return changes.add(state, event.seat, event.units, event.tile)

    # -- how each event changes the state: turns -----------------------------------------------

    @evolves(events_.TurnBegan)
    def turn_began(self, state: State, event: events_.TurnBegan) -> State:
        """Give the turn to the seat, in its event phase, nothing moved yet."""
        return replace(
            state, turn=event.seat, round=event.round, phase="event", moved=(), battled=False
        )

    @evolves(events_.PhaseBegan)
    def phase_began(self, state: State, event: events_.PhaseBegan) -> State:
        """Go on to the next phase of the turn."""
        return replace(state, phase=event.phase)

    @evolves(events_.EventDrawn)
    def event_drawn(self, state: State, event: events_.EventDrawn) -> State:
        """Draw the event card; the seats it asks answer in turn."""
        return replace(
            state,
            deck=state.deck[1:],
            discard=(*state.discard, event.card),
            event=event.card,
            queue=event.seats,
        )

    @evolves(events_.EventAnswered)
    def event_answered(self, state: State, event: events_.EventAnswered) -> State:
        """Take the seat that answered off the queue."""
        return replace(state, queue=tuple(q for q in state.queue if q != event.seat))

    @evolves(events_.GoldGained)
    def gold_gained(self, state: State, event: events_.GoldGained) -> State:
        """Add gold to the seat's purse."""
        return replace(state, gold=put(state.gold, event.seat, state.gold[event.seat] + event.gold))

    @evolves(events_.UnitPlaced)
    def unit_placed(self, state: State, event: events_.UnitPlaced) -> State:
        """Put a unit from the reserve (or paid for) on a tile; a levy counts down its card."""
        seat, unit = event.seat, event.unit
        state = replace(
            state,
            reserve=put(state.reserve, seat, without(state.reserve[seat], unit)),
            ready=put(state.ready, seat, without(state.ready[seat], unit)),
        )
        state = changes.add(state, seat, (unit,), event.tile)
        if event.cause == "levy" and state.battle is not None:
            return changes.with_battle(state, effect_left=state.battle.effect_left - 1)
        return state

    @evolves(events_.UnitUpgraded)
    def unit_upgraded(self, state: State, event: events_.UnitUpgraded) -> State:
        """Mark a special unit upgraded and take its price."""
        return replace(
            state,
            upgraded=tuple(sorted((*state.upgraded, event.unit))),
            gold=put(state.gold, event.seat, state.gold[event.seat] - event.cost),
        )

    @evolves(events_.UnitRaised)
    def unit_raised(self, state: State, event: events_.UnitRaised) -> State:
        """Bring a unit back from a graveyard to the seat's reserve."""
        grave = without(state.graveyard[event.graveyard], event.unit)
        return replace(
            state,
            graveyard=put(state.graveyard, event.graveyard, grave),
            reserve=put(state.reserve, event.seat, (*state.reserve[event.seat], event.unit)),
        )

    @evolves(events_.UnitMoved)
    def unit_moved(self, state: State, event: events_.UnitMoved) -> State:
        """Move a unit to the next tile; it has moved this turn."""
        state = changes.move(state, event.seat, (event.unit,), event.origin, event.to)
        return replace(state, moved=(*state.moved, event.unit))

    @evolves(events_.UnitRecruited)
    def unit_recruited(self, state: State, event: events_.UnitRecruited) -> State:
        """Pay for a unit of the reserve; it waits to be placed."""
        seat = event.seat
        return replace(
            state,
            reserve=put(state.reserve, seat, without(state.reserve[seat], event.unit)),
            ready=put(state.ready, seat, (*state.ready[seat], event.unit)),
            gold=put(state.gold, seat, state.gold[seat] - event.cost),
        )

    @evolves(events_.MagicSwapped)
    def magic_swapped(self, state: State, event: events_.MagicSwapped) -> State:
        """Return a card to its pile and take the one drawn, for 2 gold."""
        state = changes.take_card(self.catalogue, state, event.seat, event.drawn)
        returned = event.returned or ""
        hand = without(state.hands[event.seat], returned)
        pile = tuple(sorted((*state.piles[event.realm], returned)))
        return replace(
            state,
            hands=put(state.hands, event.seat, hand),
            piles={**state.piles, event.realm: pile},
            gold=put(state.gold, event.seat, state.gold[event.seat] - 2),
        )

    @evolves(events_.MagicBought)
    def magic_bought(self, state: State, event: events_.MagicBought) -> State:
        """Take the card bought into the hand, for 4 gold."""
        state = changes.take_card(self.catalogue, state, event.seat, event.card)
        return replace(state, gold=put(state.gold, event.seat, state.gold[event.seat] - 4))

    # -- how each event changes the state: battles ---------------------------------------------

    @evolves(events_.AttackDeclared)
    def attack_declared(self, state: State, event: events_.AttackDeclared) -> State:
        """Open the turn's battle between the two tiles."""
        battle = Battle(seats=(event.seat, event.defender), tiles=(event.origin, event.target))
        return replace(state, battled=True, phase="battle", battle=battle)

    @evolves(events_.MagicDeclared)
    def magic_declared(self, state: State, event: events_.MagicDeclared) -> State:
        """Lay a side's card face down (or its pass) in the battle."""
        battle = state.battle
        assert battle is not None
        side = battle.seats.index(event.seat)
        card = event.card or ""
        state = replace(
            state, hands=put(state.hands, event.seat, without(state.hands[event.seat], card))
        )
        return changes.with_battle(
            state, declared=put(battle.declared, side, True), cards=put(battle.cards, side, card)
        )

    @evolves(events_.MagicRevealed)
    def magic_revealed(self, state: State, event: events_.MagicRevealed) -> State:
        """Turn both cards over: they are spent."""
        spent = (*state.spent, *(c for c in (event.attacker, event.defender) if c))
        return changes.with_battle(replace(state, spent=spent), revealed=True, step="reveal")

    @evolves(events_.MagicInEffect)
    def magic_in_effect(self, state: State, event: events_.MagicInEffect) -> State:
        """Let a side use its card: which step, and how many uses are left."""
        return changes.with_battle(
            state, step=event.step, effect_side=event.side, effect_left=event.left
        )

    @evolves(events_.UnitShifted)
    def unit_shifted(self, state: State, event: events_.UnitShifted) -> State:
        """Move a unit by a card's effect."""
        return changes.move(state, event.seat, (event.unit,), event.origin, event.to)

    @evolves(events_.UnitAssassinated)
    def unit_assassinated(self, state: State, event: events_.UnitAssassinated) -> State:
        """Kill a unit by a card's effect; the card has one use less."""
        unit = (event.unit,)
        state = changes.killed(
            changes.defeat(state, event.owner, event.seat, unit), event.owner, unit
        )
        assert state.battle is not None
        return changes.with_battle(state, effect_left=state.battle.effect_left - 1)

    @evolves(events_.MagicFinished)
    def magic_finished(self, state: State, event: events_.MagicFinished) -> State:
        """End the use of a card: the effects, or the keeping after the dice."""
        keeping = state.battle is not None and state.battle.step == "keep"
        return changes.with_battle(state, step="keep-done" if keeping else "effects-done")

    @evolves(events_.BattleJoined)
    def battle_joined(self, state: State, event: events_.BattleJoined) -> State:
        """Fix the units that fight on each side; the dice are next."""
        return changes.with_battle(state, fighters=(event.attackers, event.defenders), step="dice")

    @evolves(events_.DiceCompared)
    def dice_compared(self, state: State, event: events_.DiceCompared) -> State:
        """Owe the losses the dice dealt, at most the units that fought."""
        battle = state.battle
        assert battle is not None
        owed = (
            min(event.attacker_losses, len(battle.fighters[0])),
            min(event.defender_losses, len(battle.fighters[1])),
        )
        chosen = (owed[0] == 0, owed[1] == 0)
        return changes.with_battle(
            state, step="losses", owed=owed, chosen=chosen, warded=event.warded
        )

    @evolves(events_.UnitsDefeated)
    def units_defeated(self, state: State, event: events_.UnitsDefeated) -> State:
        """Take the units lost off the board; a side that chose its losses is done."""
        state = changes.killed(
            changes.defeat(state, event.seat, event.by, event.units), event.seat, event.units
        )
        battle = state.battle
        if battle is not None and battle.step == "losses" and event.seat in battle.seats:
            side = battle.seats.index(event.seat)
            return changes.with_battle(state, chosen=put(battle.chosen, side, True))
        return state

    @evolves(events_.UnitsRestored)
    def units_restored(self, state: State, event: events_.UnitsRestored) -> State:
        """Bring units killed in the battle back onto a tile."""
        graveyard = tuple(without(g, *event.units) for g in state.graveyard)
        reserve = put(state.reserve, event.seat, without(state.reserve[event.seat], *event.units))
        state = replace(state, graveyard=graveyard, reserve=reserve)
        state = changes.add(state, event.seat, event.units, event.tile)
        battle = state.battle
        if battle is None:
            return state
        side = battle.seats.index(event.seat)
        return changes.with_battle(
            state,
            killed=put(battle.killed, side, without(battle.killed[side], *event.units)),
            effect_left=battle.effect_left - len(event.units),
        )

    @evolves(events_.InvasionOrdered)
    def invasion_ordered(self, state: State, event: events_.InvasionOrdered) -> State:
        """Let the attacker choose who invades, as many as the tile holds."""
        return changes.with_battle(state, step="invade", effect_left=event.capacity)

    @evolves(events_.Invaded)
    def invaded(self, state: State, event: events_.Invaded) -> State:
        """Move the invaders onto the tile taken; they have moved this turn."""
        state = changes.move(state, event.seat, event.units, event.origin, event.target)
        return replace(state, moved=(*state.moved, *event.units))

    @evolves(events_.CrownFell)
    def crown_fell(self, state: State, event: events_.CrownFell) -> State:
        """Take a fallen realm off the board: its cards back, its piles and Castles to the victor."""
        seat, by = event.seat, event.by
        for tile, units in enumerate(state.board):
            if state.holder[tile] == seat:
                state = changes.remove(state, units, tile)
        reserve = put(state.reserve, seat, ())
        if by != NOBODY:
            reserve = put(reserve, by, (*reserve[by], *event.specials))
        piles, owners = dict(state.piles), dict(state.pile_owner)
        for card in state.hands[seat]:
            realm = card.split("/", 1)[0]
            piles[realm] = tuple(sorted((*piles[realm], card)))
        for realm, owner in state.pile_owner.items():
            if owner == seat:
                owners[realm] = by
        return replace(
            state,
            alive=put(state.alive, seat, False),
            reserve=reserve,
            ready=put(state.ready, seat, ()),
            hands=put(state.hands, seat, ()),
            piles=piles,
            pile_owner=owners,
            castles={**state.castles, **dict(event.castles)},
            upgraded=without(state.upgraded, *event.removed, *event.specials),
        )

    @evolves(events_.BattleEnded)
    def battle_ended(self, state: State, event: events_.BattleEnded) -> State:
        """Close the battle; the turn's actions go on."""
        return replace(state, battle=None, phase="action")

    @evolves(events_.MatchEnded)
    def match_ended(self, state: State, event: events_.MatchEnded) -> State:
        """End the match with its winners and why."""
        return replace(
            state, over=True, phase="over", winners=event.winners, reason=event.reason, battle=None
        )

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

    def hidden(self, state: State, seat: int | None) -> Collection[str]:
        """Return the ids of the cards ``seat`` may not see."""
        return seen.hidden(state, seat)

    def sample(self, view: Any, seat: int, rng: random.Random) -> State:
        """Return a state consistent with ``seat``'s view, its secrets drawn uniformly."""
        return seen.sample(self.catalogue, view, rng)
