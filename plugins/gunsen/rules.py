"""Gunsen's rules as a decider (rule ids in docs/rules/gunsen.md).

``decide`` calls the ``@decides`` method of the command in the current phase; every one emits
events through a :data:`~.play.Play` (the core emitter) and ends by asking a seat for its next
decision. ``legal`` lists exactly what the handlers accept.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
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
    decides,
    defaults_first,
    evolves,
    with_player,
)
from gamehall.core.rules import MatchConfig
from msgspec.structs import replace

from . import activation as act
from . import changes, combat, movement, setup, turn
from . import commands as cmd
from . import events as events_
from . import view as view_
from .catalog import Catalog
from .claims import settle
from .components import load_pieces
from .names import PROMPTS
from .play import GameOver, Play
from .score import outcome
from .state import BOX, NOBODY, Activation, Combat, Options, Selection, State, Step


def _go_on(p: Play) -> None:
    """Carry an activation on after one of its actions (the next action, or its end)."""
    if p.state.phase == "act" and p.state.activation is not None:
        act.proceed(p)


class Gunsen(Rules[State]):
    """Seven clans fight for Toshi Ranbo; the first to place seven achievement markers wins.

    The commands are decided by the ``@decides`` methods below, by phase; the events are
    applied by the ``@evolves`` methods after them.
    """

    revealing = (
        events_.BoardSetUp,
        events_.VillagesDealt,
        events_.DeckShuffled,
        events_.RowRefilled,
        events_.StartPlayerDrawn,
        events_.TacticsDealt,
        events_.RowReplaced,
        events_.DiceThrown,
        events_.DiceRerolled,
    )

    def __init__(self, hook: Any) -> None:
        super().__init__(hook)
        self.cat = Catalog(
            clans=defaults_first(hook.gunsen_clans()),
            orders=defaults_first(hook.gunsen_order_cards()),
            neutral=defaults_first(hook.gunsen_neutral_tactics()),
            mercenaries=defaults_first(hook.gunsen_mercenaries()),
            sides=defaults_first(hook.gunsen_board_sides()),
            pieces=load_pieces(),
        )
        self.target: int = hook.gunsen_markers_to_win()

    def play(self, state: State, rng: Callable[[], random.Random]) -> Play:
        """Return an emitter for steps of play outside a command (setup, tests): its
        generator is ``rng()``, given as the context's own (no command, no seat)."""
        return Emitter(self, state, Context(None, 0, 0, None, rng()))

    def initial(self, config: MatchConfig) -> State:
        """Return the clans before setup."""
        options = config.options if isinstance(config.options, Options) else Options()
        return State(players=changes.new_players(config.players), options=options)

    def start(self, state: State, config: MatchConfig, rng: random.Random) -> Sequence[Event]:
        """Set the board up and draw the start player (GUN-SETUP-1..10)."""
        return setup.general_setup(self.play(state, lambda: rng), config.players, rng)

    def phase(self, state: State) -> str:
        """Return the phase the game waits in; an army's move in progress is one of its own."""
        if state.phase == "act" and state.selection is not None:
            return "moving"
        return state.phase

    def decide(self, state: State, command: Command, ctx: Context) -> Sequence[Event]:
        """Return the events of a command, or refuse it with the rule it breaks.

        The asked seat's command goes to its ``@decides`` method of the current phase below,
        which works on the command's :data:`~.play.Play`; after it, every marker now earned is
        placed.
        """
        if state.phase == "over":
            raise IllegalCommand("the game is over", "GUN-ACH-7")
        seat = state.asked
        if ctx.seat is not None and ctx.seat != seat:
            raise IllegalCommand("it is another player's decision now", "GUN-TURN-1")
        method = self.decider(state, command)
        if method is None:
            if self.phase(state) == "moving":
                raise IllegalCommand("finish the move in progress first", "GUN-MOVE-5")
            raise IllegalCommand(
                f"that is not possible now: the game waits for this: {PROMPTS[state.phase]}",
                "GUN-TURN-1",
            )
        self._check_spaces(state, command)
        p = Emitter(self, state, ctx)
        try:
            method(self, p, seat, command)
            settle(p)
        except GameOver:
            pass
        return p.events

    # -- the commands, by phase ------------------------------------------------------------

    @decides(cmd.ChooseClan, phase="clan")
    def choose_clan(self, p: Play, seat: int, command: cmd.ChooseClan) -> None:
        """Choose a clan."""
        setup.choose_clan(p, seat, command)

    @decides(cmd.TakeCard, phase="choose")
    @decides(cmd.TakeCard, phase="noble_card")
    def take_card(self, p: Play, seat: int, command: cmd.TakeCard) -> None:
        """Take an order card from the row."""
        turn.take_card(p, seat, command)

    @decides(cmd.ReplaceRow, phase="choose")
    def replace_row(self, p: Play, seat: int, command: cmd.ReplaceRow) -> None:
        """Replace the row of order cards."""
        turn.replace(p, seat)

    @decides(cmd.PlaceCard, phase="place")
    def place_card(self, p: Play, seat: int, command: cmd.PlaceCard) -> None:
        """Place the order card."""
        turn.place(p, seat, command)

    @decides(cmd.ChooseColumn, phase="column")
    def choose_column(self, p: Play, seat: int, command: cmd.ChooseColumn) -> None:
        """Choose the column of the card."""
        turn.choose_column(p, seat, command)

    @decides(cmd.RecruitHero, phase="hero")
    def recruit_hero(self, p: Play, seat: int, command: cmd.RecruitHero) -> None:
        """Recruit a hero."""
        turn.recruit_hero(p, seat, command)

    @decides(cmd.TakeSpecial, phase="special")
    def take_special(self, p: Play, seat: int, command: cmd.TakeSpecial) -> None:
        """Take a special action."""
        turn.take_special(p, seat, command)

    @decides(cmd.Skip, phase="act")
    def skip_action(self, p: Play, seat: int, command: cmd.Skip) -> None:
        """Skip the next action of the activation."""
        act.skip(p, seat)
        _go_on(p)

    @decides(cmd.Gain, phase="act")
    def gain(self, p: Play, seat: int, command: cmd.Gain) -> None:
        """Gain what the action gives."""
        act.gain(p, seat, command)
        _go_on(p)

    @decides(cmd.Recruit, phase="act")
    def recruit(self, p: Play, seat: int, command: cmd.Recruit) -> None:
        """Recruit troops."""
        act.recruit(p, seat, command)
        _go_on(p)

    @decides(cmd.BuyMove, phase="act")
    def buy_move(self, p: Play, seat: int, command: cmd.BuyMove) -> None:
        """Buy a move."""
        act.buy_move(p, seat)
        _go_on(p)

    @decides(cmd.SelectArmy, phase="act")
    def select_army(self, p: Play, seat: int, command: cmd.SelectArmy) -> None:
        """Select an army to move."""
        movement.select(p, seat, command)
        _go_on(p)

    @decides(cmd.MoveArmy, phase="moving")
    def move_army(self, p: Play, seat: int, command: cmd.MoveArmy) -> None:
        """Move the selected army."""
        movement.move(p, seat, command)
        _go_on(p)

    @decides(cmd.Build, phase="act")
    def build(self, p: Play, seat: int, command: cmd.Build) -> None:
        """Build."""
        act.build(p, seat, command)
        _go_on(p)

    @decides(cmd.BuyTactic, phase="act")
    def buy_tactic(self, p: Play, seat: int, command: cmd.BuyTactic) -> None:
        """Buy a tactic card."""
        act.buy_tactic(p, seat, command)
        _go_on(p)

    @decides(cmd.PayTribute, phase="tribute")
    def pay_tribute(self, p: Play, seat: int, command: cmd.PayTribute) -> None:
        """Pay the tribute, or refuse it."""
        combat.pay_tribute(p, seat, command)

    @decides(cmd.Ride, phase="ride")
    def ride(self, p: Play, seat: int, command: cmd.Ride) -> None:
        """Ride to the battle, or stay."""
        combat.ride(p, seat, command)

    @decides(cmd.Reroll, phase="reroll")
    def reroll(self, p: Play, seat: int, command: cmd.Reroll) -> None:
        """Reroll dice."""
        combat.reroll(p, seat, command)

    @decides(cmd.Skip, phase="reroll")
    def stop_rerolls(self, p: Play, seat: int, command: cmd.Skip) -> None:
        """Stop rerolling."""
        combat.stop_rerolls(p, seat)

    @decides(cmd.Keep, phase="keep")
    def keep(self, p: Play, seat: int, command: cmd.Keep) -> None:
        """Keep dice."""
        combat.keep(p, seat, command)

    @decides(cmd.SwapDice, phase="swap")
    def swap_dice(self, p: Play, seat: int, command: cmd.SwapDice) -> None:
        """Swap dice."""
        combat.swap(p, seat, command)

    @decides(cmd.Skip, phase="swap")
    def decline_swap(self, p: Play, seat: int, command: cmd.Skip) -> None:
        """Swap no dice."""
        combat.decline_swap(p, seat)

    @decides(cmd.Retreat, phase="retreat")
    def retreat(self, p: Play, seat: int, command: cmd.Retreat) -> None:
        """Retreat after a lost battle."""
        combat.retreat(p, seat, command)

    @decides(cmd.PlaceHero, phase="relocate")
    def place_hero(self, p: Play, seat: int, command: cmd.PlaceHero) -> None:
        """Place a hero again."""
        combat.place_hero(p, seat, command)

    @decides(cmd.StealToken, phase="steal")
    def steal_token(self, p: Play, seat: int, command: cmd.StealToken) -> None:
        """Steal a village token."""
        combat.steal(p, seat, command)

    def _check_spaces(self, state: State, command: Command) -> None:
        """Refuse a space number the board side does not have."""
        size = len(self.cat.boards[state.side].spaces) if state.side else 0
        for field in ("space", "to"):
            value = getattr(command, field, None)
            if value is not None and not 0 <= value < size:
                raise IllegalCommand(f"the board has no space {value}", "GUN-SETUP-1")

    # -- how each event changes the state --------------------------------------------------

    @evolves(events_.BoardSetUp)
    def board_set_up(self, state: State, e: events_.BoardSetUp) -> State:
        colours = {colour for _, colour in e.shrines}
        upgrades = tuple(NOBODY if c in colours else BOX for c in ("blue", "yellow", "purple"))
        return replace(
            state,
            side=e.side,
            forts=e.forts,
            towers=e.towers,
            shrines=e.shrines,
            troops=tuple(bytes(e.spaces) for _ in state.players),
            upgrades=(*upgrades, NOBODY),
        )

    @evolves(events_.VillagesDealt)
    def villages_dealt(self, state: State, e: events_.VillagesDealt) -> State:
        return replace(state, villages=tuple(zip(e.spaces, e.tokens, strict=True)))

    @evolves(events_.DeckShuffled)
    def deck_shuffled(self, state: State, e: events_.DeckShuffled) -> State:
        discard = () if e.reshuffle else state.discard
        return replace(state, deck=e.order, discard=discard, reshuffled=e.reshuffle)

    @evolves(events_.RowRefilled)
    def row_refilled(self, state: State, e: events_.RowRefilled) -> State:
        return replace(state, row=state.row + e.cards, deck=state.deck[len(e.cards) :])

    @evolves(events_.StartPlayerDrawn)
    def start_player_drawn(self, state: State, e: events_.StartPlayerDrawn) -> State:
        return replace(state, start=e.seat, turn=e.seat, asked=e.seat, phase="clan")

    @evolves(events_.ClanChosen)
    def clan_chosen(self, state: State, e: events_.ClanChosen) -> State:
        return with_player(state, e.seat, clan=e.clan)

    @evolves(events_.ClanSetUp)
    def clan_set_up(self, state: State, e: events_.ClanSetUp) -> State:
        state = with_player(state, e.seat, koku=e.koku, wood=e.wood, influence=e.influence)
        return changes.troops(state, e.seat, {state.forts[e.seat]: e.troops}, -e.troops)

    @evolves(events_.TacticsDealt)
    def tactics_dealt(self, state: State, e: events_.TacticsDealt) -> State:
        return with_player(state, e.seat, hand=e.cards)

    @evolves(events_.Asked)
    def asked(self, state: State, e: events_.Asked) -> State:
        return replace(state, asked=e.seat, phase=e.phase)

    @evolves(events_.RowReplaced)
    def row_replaced(self, state: State, e: events_.RowReplaced) -> State:
        return replace(state, discard=state.discard + state.row, row=(), replaced=True)

    @evolves(events_.CardTaken)
    def card_taken(self, state: State, e: events_.CardTaken) -> State:
        state = replace(state, row=changes.remove(state.row, e.card), card=e.card)
        return changes.add(state, e.seat, e.price, -1) if e.price else state

    @evolves(events_.CardPlaced)
    def card_placed(self, state: State, e: events_.CardPlaced) -> State:
        columns = list(state.players[e.seat].columns)
        columns[e.column] = (e.card, *columns[e.column])
        return replace(with_player(state, e.seat, columns=tuple(columns)), card="")

    @evolves(events_.NobleActionBegun)
    def noble_action_begun(self, state: State, e: events_.NobleActionBegun) -> State:
        player = state.players[e.seat]
        noble = list(player.noble)
        noble[e.level - 1] = e.card
        state = with_player(state, e.seat, noble=tuple(noble), influence=player.influence - e.level)
        return replace(state, card="", noble=e.level)

    @evolves(events_.ColumnActivated)
    def column_activated(self, state: State, e: events_.ColumnActivated) -> State:
        return replace(state, activation=Activation(e.column, e.steps, one_shots=e.one_shots))

    @evolves(events_.Gained)
    def gained(self, state: State, e: events_.Gained) -> State:
        return changes.add(state, e.seat, e.resource, e.amount)

    @evolves(events_.ActionUsed)
    def action_used(self, state: State, e: events_.ActionUsed) -> State:
        assert state.activation is not None
        head, *rest = state.activation.steps
        if head.kind in ("buy_move", "build", "tactics"):
            return state  # an infinity action stays until the player stops it
        if head.kind in ("move", "recruit") and head.amount > 1:
            return changes.with_activation(
                state, steps=(replace(head, amount=head.amount - 1), *rest)
            )
        return changes.with_activation(state, steps=tuple(rest))

    @evolves(events_.ActionSkipped)
    def action_skipped(self, state: State, e: events_.ActionSkipped) -> State:
        activation = state.activation
        if activation is None:
            return state
        if not activation.steps:
            return changes.with_activation(state, tower_after=False)
        return changes.with_activation(
            state, steps=activation.steps[1:], tower_before=False, tower_after=False
        )

    @evolves(events_.ActivationEnded)
    def activation_ended(self, state: State, e: events_.ActivationEnded) -> State:
        player = state.players[e.seat]
        columns = tuple(tuple(c for c in col if c not in e.discarded) for col in player.columns)
        return replace(with_player(state, e.seat, columns=columns), activation=None, selection=None)

    @evolves(events_.TroopRecruited)
    def troop_recruited(self, state: State, e: events_.TroopRecruited) -> State:
        return changes.lapse_tower(changes.troops(state, e.seat, {e.space: 1}, -1))

    @evolves(events_.MoveBought)
    def move_bought(self, state: State, e: events_.MoveBought) -> State:
        state = changes.lapse_tower(changes.add(state, e.seat, e.resource, -1))
        assert state.activation is not None
        bought = Step("move", 1, "", "bought")
        return changes.with_activation(state, steps=(bought, *state.activation.steps))

    @evolves(events_.ArmySelected)
    def army_selected(self, state: State, e: events_.ArmySelected) -> State:
        return replace(state, selection=Selection(e.space, e.troops, e.hero, e.tower))

    @evolves(events_.ArmyMoved)
    def army_moved(self, state: State, e: events_.ArmyMoved) -> State:
        state = changes.troops(state, e.seat, {e.origin: -e.troops, e.to: e.troops})
        state = replace(
            changes.move_heroes(state, e.seat, (e.hero,) if e.hero else (), e.to), selection=None
        )
        activation = state.activation
        if activation is None:
            return state
        if e.tower:
            state = changes.add(state, e.seat, "influence", -1)
            if activation.tower_after:
                return changes.with_activation(state, tower_after=False)
            return changes.with_activation(state, tower_before=True)
        return changes.with_activation(
            state, tower_after=not activation.tower_before, tower_before=False
        )

    @evolves(events_.MovementLapsed)
    def movement_lapsed(self, state: State, e: events_.MovementLapsed) -> State:
        assert state.activation is not None
        steps = tuple(s for s in state.activation.steps if s.kind not in ("move", "buy_move"))
        return changes.with_activation(
            state, steps=steps, lapsed=True, tower_after=False, tower_before=False
        )

    @evolves(events_.CombatArose)
    def combat_arose(self, state: State, e: events_.CombatArose) -> State:
        return replace(state, combat=Combat(e.space, e.attacker, e.defender))

    @evolves(events_.ToshiRanboEntered)
    def toshi_ranbo_entered(self, state: State, e: events_.ToshiRanboEntered) -> State:
        return replace(state, taken=True)

    @evolves(events_.BuildingBuilt)
    def building_built(self, state: State, e: events_.BuildingBuilt) -> State:
        player = state.players[e.seat]
        state = with_player(
            state,
            e.seat,
            buildings=(*player.buildings, (e.building, e.space)),
            wood=player.wood - e.cost,
        )
        return changes.lapse_tower(state)

    @evolves(events_.TacticBought)
    def tactic_bought(self, state: State, e: events_.TacticBought) -> State:
        player = state.players[e.seat]
        hand = changes.remove(player.hand, e.tactic) if e.tactic in player.hand else player.hand
        state = with_player(
            state, e.seat, tactics=(*player.tactics, e.tactic), hand=hand, koku=player.koku - e.cost
        )
        return changes.lapse_tower(state)

    @evolves(events_.HeroRecruited)
    def hero_recruited(self, state: State, e: events_.HeroRecruited) -> State:
        player = state.players[e.seat]
        return replace(
            with_player(state, e.seat, heroes=(*player.heroes, (e.hero, e.space))), card=""
        )

    @evolves(events_.SpecialOrderTaken)
    def special_order_taken(self, state: State, e: events_.SpecialOrderTaken) -> State:
        player = state.players[e.seat]
        columns = list(player.columns)
        columns[e.column] = (e.card, *columns[e.column])
        state = with_player(
            state, e.seat, columns=tuple(columns), specials=(*player.specials, e.card)
        )
        return replace(state, card="")

    @evolves(events_.TributeDecided)
    def tribute_decided(self, state: State, e: events_.TributeDecided) -> State:
        state = changes.add(state, e.seat, "influence", -e.amount) if e.amount else state
        if e.paid:
            return state
        assert state.combat is not None
        ignored = list(state.combat.ignored)
        ignored[changes.side(state.combat, e.seat)] = True
        return changes.with_combat(state, ignored=tuple(ignored))

    @evolves(events_.HeroRode)
    def hero_rode(self, state: State, e: events_.HeroRode) -> State:
        return changes.move_heroes(state, e.seat, (e.hero,), e.to)

    @evolves(events_.TroopAdded)
    def troop_added(self, state: State, e: events_.TroopAdded) -> State:
        return changes.troops(state, e.seat, {e.space: 1}, -1)

    @evolves(events_.DiceThrown)
    def dice_thrown(self, state: State, e: events_.DiceThrown) -> State:
        return changes.with_combat(state, roller=e.seat, dice=e.faces, rerolls=e.rerolls)

    @evolves(events_.DiceRerolled)
    def dice_rerolled(self, state: State, e: events_.DiceRerolled) -> State:
        assert state.combat is not None
        dice = changes.remove_all(state.combat.dice, e.old) + e.new
        return changes.with_combat(
            state, dice=tuple(sorted(dice)), rerolls=state.combat.rerolls - 1
        )

    @evolves(events_.RerollsStopped)
    def rerolls_stopped(self, state: State, e: events_.RerollsStopped) -> State:
        return changes.with_combat(state, rerolls=0)

    @evolves(events_.DiceKept)
    def dice_kept(self, state: State, e: events_.DiceKept) -> State:
        assert state.combat is not None
        kept = list(state.combat.kept)
        kept[changes.side(state.combat, e.seat)] = e.faces
        return changes.with_combat(
            state, kept=(kept[0], kept[1]), dice=(), rerolls=0, roller=NOBODY
        )

    @evolves(events_.DiceSwapped)
    def dice_swapped(self, state: State, e: events_.DiceSwapped) -> State:
        assert state.combat is not None
        combat = state.combat
        side = changes.side(combat, e.seat)
        mine = tuple(sorted((*changes.remove(combat.kept[side], e.mine), e.theirs)))
        theirs = tuple(sorted((*changes.remove(combat.kept[1 - side], e.theirs), e.mine)))
        kept = (mine, theirs) if side == 0 else (theirs, mine)
        return changes.with_combat(state, kept=kept)

    @evolves(events_.SwapDeclined)
    def _noop(self, state: State, e: Event) -> State:
        return state

    @evolves(events_.CombatResolved)
    def combat_resolved(self, state: State, e: events_.CombatResolved) -> State:
        assert state.combat is not None
        combat = state.combat
        attacker, defender = combat.attacker, combat.defender
        state = changes.troops(state, attacker, {e.space: -e.deaths[0]}, e.deaths[0])
        state = changes.troops(state, defender, {e.space: -e.deaths[1]}, e.deaths[1])
        state = with_player(state, attacker, kills=state.players[attacker].kills + e.deaths[1])
        state = with_player(state, defender, kills=state.players[defender].kills + e.deaths[0])
        if e.winner == defender:
            state = with_player(state, defender, defended=state.players[defender].defended + 1)
        return changes.with_combat(state, resolved=True, winner=e.winner, loser=e.loser)

    @evolves(events_.ArmyRetreated)
    def army_retreated(self, state: State, e: events_.ArmyRetreated) -> State:
        state = changes.troops(state, e.seat, {e.origin: -e.troops, e.to: e.troops})
        return changes.move_heroes(state, e.seat, e.heroes, e.to)

    @evolves(events_.HeroPlaced)
    def hero_placed(self, state: State, e: events_.HeroPlaced) -> State:
        return changes.move_heroes(state, e.seat, (e.hero,), e.space)

    @evolves(events_.TokenStolen)
    def token_stolen(self, state: State, e: events_.TokenStolen) -> State:
        victim = state.players[e.victim]
        state = with_player(state, e.victim, tokens=changes.remove(victim.tokens, e.token))
        thief = state.players[e.seat]
        if e.kept:
            state = with_player(
                state, e.seat, tokens=(*thief.tokens, e.token), steals=thief.steals + 1
            )
        else:
            state = replace(
                with_player(state, e.seat, steals=thief.steals + 1),
                boxed=(*state.boxed, e.token),
            )
        return changes.reward(state, e.seat, e.reward, e.amount)

    @evolves(events_.CombatEnded)
    def combat_ended(self, state: State, e: events_.CombatEnded) -> State:
        return replace(state, combat=None)

    @evolves(events_.VillageClaimed)
    def village_claimed(self, state: State, e: events_.VillageClaimed) -> State:
        villages = tuple((s, "" if s == e.space else t) for s, t in state.villages)
        state = replace(state, villages=villages)
        if e.kept:
            state = with_player(state, e.seat, tokens=(*state.players[e.seat].tokens, e.token))
        else:
            state = replace(state, boxed=(*state.boxed, e.token))
        return changes.reward(state, e.seat, e.reward, e.amount)

    @evolves(events_.UpgradeTaken)
    def upgrade_taken(self, state: State, e: events_.UpgradeTaken) -> State:
        upgrades = list(state.upgrades)
        upgrades[e.column] = e.seat
        return replace(state, upgrades=(upgrades[0], upgrades[1], upgrades[2], upgrades[3]))

    @evolves(events_.HoldMarkerPlaced)
    def hold_marker_placed(self, state: State, e: events_.HoldMarkerPlaced) -> State:
        return replace(state, holder=e.seat)

    @evolves(events_.HoldMarkerReturned)
    def hold_marker_returned(self, state: State, e: events_.HoldMarkerReturned) -> State:
        return replace(state, holder=NOBODY)

    @evolves(events_.AchievementEarned)
    def achievement_earned(self, state: State, e: events_.AchievementEarned) -> State:
        player = state.players[e.seat]
        objectives = (*player.objectives, e.objective) if e.objective else player.objectives
        return with_player(
            state, e.seat, achievements=(*player.achievements, e.box), objectives=objectives
        )

    @evolves(events_.FortRefilled)
    def fort_refilled(self, state: State, e: events_.FortRefilled) -> State:
        return changes.troops(state, e.seat, {state.forts[e.seat]: e.troops}, -e.troops)

    @evolves(events_.TurnBegan)
    def turn_began(self, state: State, e: events_.TurnBegan) -> State:
        return replace(
            state, turn=e.seat, asked=e.seat, phase="choose", replaced=False, turns=state.turns + 1
        )

    @evolves(events_.TurnEnded)
    def turn_ended(self, state: State, e: events_.TurnEnded) -> State:
        return replace(state, activation=None, selection=None, combat=None, card="", noble=0)

    @evolves(events_.GameWon)
    def game_won(self, state: State, e: events_.GameWon) -> State:
        return replace(state, winner=e.seat, ending=e.box, phase="over", asked=NOBODY)

    # -- asking ----------------------------------------------------------------------------

    def awaiting(self, state: State) -> Mapping[int, Decision]:
        """Return the seat whose decision the game waits for."""
        if state.phase == "over" or state.asked == NOBODY:
            return {}
        return {state.asked: Decision(state.phase, PROMPTS[state.phase])}

    def legal(self, state: State, seat: int) -> Sequence[Command]:
        """Return every command the asked seat may send now."""
        if state.phase == "over" or seat != state.asked:
            return ()
        return options(self, state, seat)

    def outcome(self, state: State) -> Outcome | None:
        """Return the winner once a clan has placed all its markers (GUN-ACH-7)."""
        return outcome(self.cat, state, self.target) if state.winner != NOBODY else None

    def view(self, state: State, seat: int | None) -> State:
        """Return the state with the hidden parts masked (GUN-HIDDEN-1..4)."""
        return view_.view(state, seat)

    def redact(self, event: Event, seat: int | None) -> Event | None:
        """Return the event as a seat may see it."""
        return view_.redact(event, seat)

    def hidden(self, state: State, seat: int | None) -> set[str]:
        """Return the ids of the components hidden from a seat."""
        return view_.hidden(state, seat)

    def sample(self, view: Any, seat: int, rng: random.Random) -> State:
        """Return a state consistent with a seat's view, hidden parts drawn at random."""
        return view_.sample(self.cat, view, seat, rng)

    def timeout(self, state: State, seat: int) -> Command | None:
        """Skip, stop rerolling, refuse the tribute or stay: the pass where the rules give one."""
        if seat != state.asked:
            return None
        if state.phase in ("act", "reroll", "swap") and state.selection is None:
            return cmd.Skip()
        if state.phase == "tribute":
            return cmd.PayTribute(pay=False)
        if state.phase == "ride":
            return cmd.Ride(ride=False)
        return None


def options(rules: Gunsen, state: State, seat: int) -> list[Command]:
    """Return the commands of the current phase."""
    cat = rules.cat
    phase = state.phase
    if phase == "clan":
        return list(setup.clan_options(cat, {p.clan for p in state.players}))
    if phase in ("choose", "noble_card"):
        return turn.choose_options(cat, state, seat)
    if phase == "place":
        return turn.place_options(cat, state, seat)
    if phase == "column":
        return turn.column_options(cat, state, seat)
    if phase == "hero":
        return turn.hero_options(cat, state, seat)
    if phase == "special":
        return turn.special_options(cat, state, seat)
    if phase == "act":
        if state.selection is not None:
            return [
                cmd.MoveArmy(to=to)
                for to in movement.destinations(cat, state, seat, state.selection)
            ]
        return act.act_options(cat, state, seat)
    return COMBAT_OPTIONS[phase](Emitter(rules, state), seat)


COMBAT_OPTIONS: dict[str, Callable[[Play, int], list[Command]]] = {
    "tribute": lambda p, seat: [cmd.PayTribute(pay=True), cmd.PayTribute(pay=False)],
    "ride": lambda p, seat: [cmd.Ride(ride=True), cmd.Ride(ride=False)],
    "reroll": combat.reroll_options,
    "keep": combat.keep_options,
    "swap": lambda p, seat: [*combat.swap_options(p, seat), cmd.Skip()],
    "retreat": lambda p, seat: [cmd.Retreat(to=s) for s in combat.retreat_options(p, seat)],
    "relocate": combat.relocate_options,
    "steal": lambda p, seat: [
        cmd.StealToken(token=t) for t in p.state.players[combat.thief_and_victim(p)[1]].tokens
    ],
}
