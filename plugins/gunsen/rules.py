"""Gunsen's rules as a decider (rule ids in docs/rules/gunsen.md).

``decide`` routes a command to the handler of the current phase; every handler emits events
through a :class:`~.play.Play` and ends by asking a seat for its next decision. ``legal`` lists
exactly what the handlers accept.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from gamehall.core import (
    Command,
    Context,
    Decision,
    Event,
    IllegalCommand,
    Outcome,
    Rules,
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
from .evolve import EVOLVE, new_players
from .names import PROMPTS
from .play import GameOver, Play
from .score import outcome
from .state import NOBODY, Options, State

Handler = Callable[[Play, int, Any], None]


def _no_args(handler: Callable[[Play, int], None]) -> Handler:
    return lambda p, seat, command: handler(p, seat)


def _act(handler: Handler) -> Handler:
    def run(p: Play, seat: int, command: Any) -> None:
        handler(p, seat, command)
        if p.state.phase == "act" and p.state.activation is not None:
            act.proceed(p)

    return run


HANDLERS: dict[tuple[str, type[Command]], Handler] = {
    ("clan", cmd.ChooseClan): setup.choose_clan,
    ("choose", cmd.TakeCard): turn.take_card,
    ("choose", cmd.ReplaceRow): _no_args(turn.replace),
    ("noble_card", cmd.TakeCard): turn.take_card,
    ("place", cmd.PlaceCard): turn.place,
    ("column", cmd.ChooseColumn): turn.choose_column,
    ("hero", cmd.RecruitHero): turn.recruit_hero,
    ("special", cmd.TakeSpecial): turn.take_special,
    ("act", cmd.Skip): _act(_no_args(act.skip)),
    ("act", cmd.Gain): _act(act.gain),
    ("act", cmd.Recruit): _act(act.recruit),
    ("act", cmd.BuyMove): _act(_no_args(act.buy_move)),
    ("act", cmd.SelectArmy): _act(movement.select),
    ("act", cmd.Build): _act(act.build),
    ("act", cmd.BuyTactic): _act(act.buy_tactic),
    ("tribute", cmd.PayTribute): combat.pay_tribute,
    ("ride", cmd.Ride): combat.ride,
    ("reroll", cmd.Reroll): combat.reroll,
    ("reroll", cmd.Skip): _no_args(combat.stop_rerolls),
    ("keep", cmd.Keep): combat.keep,
    ("swap", cmd.SwapDice): combat.swap,
    ("swap", cmd.Skip): _no_args(combat.decline_swap),
    ("retreat", cmd.Retreat): combat.retreat,
    ("relocate", cmd.PlaceHero): combat.place_hero,
    ("steal", cmd.StealToken): combat.steal,
}
MOVE_TO = _act(movement.move)


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


class Gunsen(Rules[State]):
    """Seven clans fight for Toshi Ranbo; the first to place seven achievement markers wins."""

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
        """Return an emitter for one command."""
        return Play(self, state, rng, self.cat, self.target)

    def initial(self, config: MatchConfig) -> State:
        """Return the clans before setup."""
        options = config.options if isinstance(config.options, Options) else Options()
        return State(players=new_players(config.players), options=options)

    def start(self, state: State, config: MatchConfig, rng: random.Random) -> Sequence[Event]:
        """Set the board up and draw the start player (GUN-SETUP-1..10)."""
        return setup.general_setup(self.play(state, lambda: rng), config.players, rng)

    def decide(self, state: State, command: Command, ctx: Context) -> Sequence[Event]:
        """Return the events of a command, or refuse it with the rule it breaks."""
        if state.phase == "over":
            raise IllegalCommand("the game is over", "GUN-ACH-7")
        seat = state.asked
        if ctx.seat is not None and ctx.seat != seat:
            raise IllegalCommand("it is another player's decision now", "GUN-TURN-1")
        handler: Handler | None = MOVE_TO
        if state.phase == "act" and state.selection is not None:
            if not isinstance(command, cmd.MoveArmy):
                raise IllegalCommand("finish the move in progress first", "GUN-MOVE-5")
        else:
            handler = HANDLERS.get((state.phase, type(command)))
        if handler is None:
            raise IllegalCommand(
                f"that is not possible now: the game waits for this: {PROMPTS[state.phase]}",
                "GUN-TURN-1",
            )
        self._check_spaces(state, command)
        p = self.play(state, lambda: ctx.rng)
        try:
            handler(p, seat, command)
            settle(p)
        except GameOver:
            pass
        return p.events

    def _check_spaces(self, state: State, command: Command) -> None:
        """Refuse a space number the board side does not have."""
        size = len(self.cat.boards[state.side].spaces) if state.side else 0
        for field in ("space", "to"):
            value = getattr(command, field, None)
            if value is not None and not 0 <= value < size:
                raise IllegalCommand(f"the board has no space {value}", "GUN-SETUP-1")

    def evolve(self, state: State, event: Event) -> State:
        """Apply one event."""
        apply = EVOLVE.get(type(event))
        return state if apply is None else apply(state, event)

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
    p = rules.play(state, lambda: random.Random(0))
    return COMBAT_OPTIONS[phase](p, seat)


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
