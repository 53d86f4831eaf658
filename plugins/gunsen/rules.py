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
    decides,
    defaults_first,
)
from gamehall.core.rules import MatchConfig

from . import activation as act
from . import combat, movement, setup, turn
from . import commands as cmd
from . import events as events_
from . import view as view_
from .catalog import Catalog
from .claims import settle
from .components import load_pieces
from .evolve import GunsenEvents, new_players
from .names import PROMPTS
from .play import GameOver, Play
from .score import outcome
from .state import NOBODY, Options, State


def _go_on(p: Play) -> None:
    """Carry an activation on after one of its actions (the next action, or its end)."""
    if p.state.phase == "act" and p.state.activation is not None:
        act.proceed(p)


# The events no take-back reaches past (Rules.reveals).
REVEALING: tuple[type[Event], ...] = (
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


class Gunsen(GunsenEvents):
    """Seven clans fight for Toshi Ranbo; the first to place seven achievement markers wins.

    The commands are decided by the ``@decides`` methods below, by phase; the events are
    applied by the ``@evolves`` methods of :class:`GunsenEvents` (``evolve.py``).
    """

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
        return State(players=new_players(config.players), options=options)

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

    def reveals(self, event: Event) -> bool:
        """Return whether an event is chance or shows what was hidden.

        Deals, shuffles, refills from the deck and dice. Another
        plugin's event (an expansion's) counts as revealing: it cannot be taken back.
        """
        return not isinstance(event, events_.GunsenEvent) or isinstance(event, REVEALING)

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
