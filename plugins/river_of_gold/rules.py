"""River of Gold's rules as a decider (rule ids in docs/rules/river-of-gold.md)."""

from __future__ import annotations

import random
from collections.abc import Callable, Collection, Mapping, Sequence
from typing import Any

from gamehall.core import Command, Context, Decision, Event, IllegalCommand, Outcome, Rules
from gamehall.core.rules import MatchConfig

from . import actions as act
from . import commands as cmd
from . import estimate as guess
from . import events as events_
from . import legal as legal_
from . import view as view_
from .components import COMPONENTS, GOODS, start_spaces
from .effects import Turn
from .events import (
    BoardDealt,
    ChoiceClosed,
    CustomerDiscarded,
    DeckShuffled,
    DieRolled,
    MarkerPlaced,
    SetupFinished,
    ShipsLaunched,
    ShipUpgraded,
    StacksDealt,
)
from .evolve import EVOLVE, new_player
from .scoring import score_lines
from .state import Options, State
from .words import clan, ending

PROMPTS = {
    "action": "turn the die with favour, trade, then build, sail or deliver",
    "finish": "trade, then end your turn",
    "good": "take a good of your choice",
    "journey": "journey completed: take 3 koku or a good",
    "discard": "discard a customer from your hand",
    "marker": "put your monk's second marker on a building",
    "upgrade": "choose the ship your imperial ship replaces",
    "sell": "sell goods for 5 koku each, then stop",
}


# The events no take-back reaches past (Rules.reveals).
REVEALING: tuple[type[Event], ...] = (
    events_.BoardDealt,
    events_.StacksDealt,
    events_.DeckShuffled,
    events_.ShipsLaunched,
    events_.CustomersDrawn,
    events_.DieRolled,
    events_.SetupFinished,
    events_.RowRefilled,
)


class RiverOfGold(Rules[State]):
    """Build on the shore, sail the river, deliver to customers, gain influence."""

    def initial(self, config: MatchConfig) -> State:
        """Return the clans after personal setup: koku by turn order (ROG-SETUP-8)."""
        options = config.options if isinstance(config.options, Options) else Options()
        return State(
            players=tuple(
                new_player(COMPONENTS.setup.start_koku[i]) for i in range(config.players)
            ),
            noble_bonus=options.noble_bonus,
        )

    def start(self, state: State, config: MatchConfig, rng: random.Random) -> Sequence[Event]:
        """Deal the board, stacks and deck; then ships, hands and first rolls (ROG-SETUP-1..9).

        Expansions set up after the board (``river_of_gold_setup``); personal setup waits for their setup
        decisions (a draft), as the clan comes first in the rulebook's personal setup.
        """
        turn = Turn(self, state, lambda: rng)
        turn.emit(deal_board(state.count, rng), deal_stacks(state.count, rng))
        for _ in range(COMPONENTS.setup.row):
            turn.refill()
        deck = [c.id for c in COMPONENTS.customers]
        rng.shuffle(deck)
        turn.emit(DeckShuffled(order=tuple(deck), size=len(deck)))
        self.hook.river_of_gold_setup(turn=turn, options=config.expansion_options, rng=rng)
        self._personal_setup(turn)
        return turn.events

    def _personal_setup(self, turn: Turn) -> None:
        """Launch the ships, deal the hands and roll the opening dice (ROG-SETUP-7, -3, -9).

        Runs once, as soon as no setup decision of an expansion holds the match.
        """
        if turn.state.started or self.hook.river_of_gold_decision(state=turn.state) is not None:
            return
        for seat in range(turn.state.count):
            rolls = (turn.rng.randint(1, 6), turn.rng.randint(1, 6))
            turn.emit(ShipsLaunched(seat=seat, rolls=rolls))
            turn.draw(seat, COMPONENTS.setup.hand)
        for seat in range(turn.state.count):
            if not self.hook.river_of_gold_opening_roll(turn=turn, seat=seat):
                turn.emit(DieRolled(seat=seat, face=turn.rng.randint(1, 6)))
        turn.emit(SetupFinished())

    def decide(self, state: State, command: Command, ctx: Context) -> Sequence[Event]:
        """Return the events of a command, or refuse it with the rule it breaks."""
        if state.over:
            raise IllegalCommand("the match is over", "ROG-END-2")
        turn = Turn(self, state, lambda: ctx.rng)
        trade = TRADES.get(type(command))
        if trade is not None and ctx.seat is not None and self.may_trade(state):
            trade(turn, ctx.seat, command)
            return turn.events
        ahead = self.hook.river_of_gold_decision(state=state)
        seat = ahead[0] if ahead is not None else self._asked(state)
        if ctx.seat is not None and ctx.seat != seat:
            raise IllegalCommand(
                f"{clan(state, seat)} is to act, not {clan(state, ctx.seat)}", "ROG-TURN-1"
            )
        handler = None if ahead is not None else HANDLERS.get(type(command))
        if handler is None:
            if not self.hook.river_of_gold_decide(turn=turn, seat=seat, command=command):
                raise IllegalCommand(f"{type(command).__name__} is not possible now", "ROG-TURN-1")
            if ahead is not None:
                self._personal_setup(turn)
        else:
            handler(turn, seat, command)
        return turn.events

    def _asked(self, state: State) -> int:
        return state.choices[0].seat if state.choices else state.turn

    def evolve(self, state: State, event: Event) -> State:
        """Apply one event."""
        apply = EVOLVE.get(type(event))
        if apply is not None:
            return apply(state, event)
        result = self.hook.river_of_gold_evolve(state=state, event=event)
        return state if result is None else result

    def awaiting(self, state: State) -> Mapping[int, Decision]:
        """Return the seat that owes a choice, or the player whose turn it is."""
        if state.over:
            return {}
        ahead = self.hook.river_of_gold_decision(state=state)
        if ahead is not None:
            return {ahead[0]: ahead[1]}
        kind = legal_.phase(state)
        if kind == "choice":
            choice = state.choices[0]
            return {choice.seat: Decision(choice.kind, PROMPTS[choice.kind])}
        return {state.turn: Decision(kind, PROMPTS[kind])}

    def may_trade(self, state: State) -> bool:
        """Tell whether trades are open: at any moment of the game, once setup is done."""
        return (
            state.started
            and not state.over
            and self.hook.river_of_gold_decision(state=state) is None
        )

    def free(self, state: State, seat: int) -> Collection[type[Command]]:
        """Let every clan trade at any moment, also on others' turns and during a choice
        (ROG-TRADE-1)."""
        return TRADE_TYPES if self.may_trade(state) else ()

    def legal(self, state: State, seat: int) -> Sequence[Command]:
        """Return every command ``seat`` may send now, its trades included."""
        return legal_.legal(self, state, seat)

    def outcome(self, state: State) -> Outcome | None:
        """Return the winners and every total once the game is over (ROG-SCORE-6)."""
        if not state.over:
            return None
        return Outcome(state.winners, ending(state), state.final, score_lines(state, self.hook))

    def view(self, state: State, seat: int | None) -> State:
        """Return the state with hidden cards and tiles masked (ROG-HIDDEN-1)."""
        return view_.view(state, seat, self.hook)

    def redact(self, event: Event, seat: int | None) -> Event | None:
        """Return an event without the cards and tiles ``seat`` may not see (ROG-HIDDEN-1)."""
        return view_.redact(event, seat)

    def reveals(self, event: Event) -> bool:
        """Return whether an event is chance or shows what was hidden.

        Deals, shuffles, draws, refills from a stack and die rolls. Another
        plugin's event (an expansion's) counts as revealing: it cannot be taken back.
        """
        return not isinstance(event, events_.RogEvent) or isinstance(event, REVEALING)

    def hidden(self, state: State, seat: int | None) -> Collection[str]:
        """Return the ids of the components hidden from ``seat``."""
        return view_.hidden(state, seat)

    def sample(self, view: Any, seat: int, rng: random.Random) -> State:
        """Return a state ``seat`` could be in, its unseen cards and tiles drawn at random."""
        return view_.sample(view, seat, rng, self.hook)

    def estimate(self, state: State) -> Sequence[float]:
        """Return each clan's chance of winning, as a rule of thumb (for bots' playouts)."""
        return guess.estimate(state, self.hook)


def deal_board(players: int, rng: random.Random) -> BoardDealt:
    """Deal score tiles, three masteries, the imperial markets and start tiles (ROG-SETUP-1..4)."""
    score_tiles = [t.id for t in COMPONENTS.score_tiles]
    rng.shuffle(score_tiles)
    masteries = rng.sample([m.id for m in COMPONENTS.masteries], 3)
    markets = [t.id for t in COMPONENTS.tiles if t.era == 3]
    rng.shuffle(markets)
    starts = [t.id for t in COMPONENTS.tiles if t.era == 0]
    rng.shuffle(starts)
    market_spaces = [s.id for s in COMPONENTS.spaces if s.kind == "market"]
    placed = list(zip(market_spaces, markets, strict=True))
    placed += list(zip(start_spaces(players), starts, strict=False))
    return BoardDealt(
        score_tiles=tuple(score_tiles), masteries=tuple(masteries), placed=tuple(sorted(placed))
    )


def deal_stacks(players: int, rng: random.Random) -> StacksDealt:
    """Shuffle each era's tiles and keep as many as the player count asks (ROG-SETUP-5)."""
    stacks = []
    for era, sizes in ((1, COMPONENTS.setup.stacks_era1), (2, COMPONENTS.setup.stacks_era2)):
        tiles = [t.id for t in COMPONENTS.tiles if t.era == era]
        rng.shuffle(tiles)
        stacks.append(tuple(tiles[: sizes[players]]))
    return StacksDealt(era1=stacks[0], era2=stacks[1], sizes=(len(stacks[0]), len(stacks[1])))


# -- command handlers --------------------------------------------------------------------------


def _in_turn(turn: Turn, seat: int, phases: tuple[str, ...], rule: str) -> None:
    now = legal_.phase(turn.state)
    if now == "choice":
        raise IllegalCommand("an open choice must be made first", "ROG-TURN-2")
    if now not in phases:
        raise IllegalCommand(f"that is not possible during the {now} step", rule)


def _choice(turn: Turn, kinds: tuple[str, ...]) -> str:
    state = turn.state
    if not state.choices or state.choices[0].kind not in kinds:
        raise IllegalCommand("no such choice is open", "ROG-TURN-2")
    return state.choices[0].kind


def on_shift(turn: Turn, seat: int, c: cmd.ShiftDie) -> None:
    _in_turn(turn, seat, ("action",), "ROG-TURN-1")
    act.shift_die(turn, seat, c.by)


def on_build(turn: Turn, seat: int, c: cmd.Build) -> None:
    _in_turn(turn, seat, ("action",), "ROG-TURN-2")
    act.build(turn, seat, c.space, c.slot)


def on_sail(turn: Turn, seat: int, c: cmd.Sail) -> None:
    _in_turn(turn, seat, ("action",), "ROG-TURN-2")
    act.sail(turn, seat, c.ship, c.shift)


def on_deliver(turn: Turn, seat: int, c: cmd.Deliver) -> None:
    _in_turn(turn, seat, ("action",), "ROG-TURN-2")
    act.deliver(turn, seat, c.card)


def on_trade(turn: Turn, seat: int, c: cmd.TradeGoods) -> None:
    act.trade_goods(turn, seat, c.give, c.take)


def on_buy_favour(turn: Turn, seat: int, c: cmd.BuyFavour) -> None:
    act.buy_favour(turn, seat)


def on_end_turn(turn: Turn, seat: int, c: cmd.EndTurn) -> None:
    if legal_.phase(turn.state) == "action":
        raise IllegalCommand("take your action (build, sail or deliver) first", "ROG-TURN-2")
    _in_turn(turn, seat, ("finish",), "ROG-TURN-3")
    act.end_turn(turn, seat)


def on_take_good(turn: Turn, seat: int, c: cmd.TakeGood) -> None:
    """Take the good an open choice offers (ROG-TURN-2)."""
    kind = _choice(turn, ("good", "journey"))
    if kind == "good" and c.good not in turn.state.choices[0].options:
        raise IllegalCommand(f"{c.good} is not on offer", "ROG-TURN-2")
    turn.gain(seat, kind, **{c.good: 1})
    turn.emit(ChoiceClosed(seat=seat))


def on_take_koku(turn: Turn, seat: int, c: cmd.TakeKoku) -> None:
    """Take koku for a completed journey (ROG-JOURNEY-1)."""
    _choice(turn, ("journey",))
    turn.gain(seat, "journey", koku=3)
    turn.emit(ChoiceClosed(seat=seat))


def on_discard(turn: Turn, seat: int, c: cmd.DiscardCustomer) -> None:
    """Discard a customer after drawing two (ROG-DELIVER-4)."""
    _choice(turn, ("discard",))
    if c.card not in turn.player(seat).hand:
        raise IllegalCommand(f"{c.card} is not in your hand", "ROG-DELIVER-4")
    turn.emit(CustomerDiscarded(seat=seat, card=c.card), ChoiceClosed(seat=seat))


def on_place_marker(turn: Turn, seat: int, c: cmd.PlaceMarker) -> None:
    _choice(turn, ("marker",))
    if str(c.space) not in turn.state.choices[0].options:
        raise IllegalCommand(f"the monk's marker may not go on space {c.space}", "ROG-MONK-2")
    turn.emit(MarkerPlaced(seat=seat, space=c.space), ChoiceClosed(seat=seat))


def on_upgrade(turn: Turn, seat: int, c: cmd.UpgradeShip) -> None:
    _choice(turn, ("upgrade",))
    if str(c.ship) not in turn.state.choices[0].options:
        raise IllegalCommand(f"you have no ship {c.ship}", "ROG-NOBLE-1")
    turn.emit(ShipUpgraded(seat=seat, ship=c.ship), ChoiceClosed(seat=seat))


def on_sell(turn: Turn, seat: int, c: cmd.SellGood) -> None:
    _choice(turn, ("sell",))
    if turn.player(seat).goods[GOODS.index(c.good)] < 1:
        raise IllegalCommand(f"you have no {c.good} to sell", "ROG-MERCHANT-2")
    turn.gain(seat, "merchant sale", **{c.good: -1})
    turn.gain(seat, "merchant sale", koku=5)


def on_stop_selling(turn: Turn, seat: int, c: cmd.StopSelling) -> None:
    _choice(turn, ("sell",))
    turn.emit(ChoiceClosed(seat=seat))


# Trades are free actions: any clan, at any moment once setup is done (ROG-TRADE-1).
TRADES: dict[type[Command], Callable[[Turn, int, Any], None]] = {
    cmd.TradeGoods: on_trade,
    cmd.BuyFavour: on_buy_favour,
}
TRADE_TYPES: tuple[type[Command], ...] = tuple(TRADES)

HANDLERS: dict[type[Command], Callable[[Turn, int, Any], None]] = {
    cmd.ShiftDie: on_shift,
    cmd.Build: on_build,
    cmd.Sail: on_sail,
    cmd.Deliver: on_deliver,
    cmd.EndTurn: on_end_turn,
    cmd.TakeGood: on_take_good,
    cmd.TakeKoku: on_take_koku,
    cmd.DiscardCustomer: on_discard,
    cmd.PlaceMarker: on_place_marker,
    cmd.UpgradeShip: on_upgrade,
    cmd.SellGood: on_sell,
    cmd.StopSelling: on_stop_selling,
}
