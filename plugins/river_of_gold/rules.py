"""River of Gold's rules as a decider (rule ids in docs/rules/river-of-gold.md)."""

from __future__ import annotations

import random
from collections.abc import Collection, Mapping, Sequence
from typing import Any

from gamehall.core import (
    Command,
    Context,
    Decision,
    Event,
    IllegalCommand,
    Outcome,
    Rules,
    decides,
    evolves,
    with_player,
)
from gamehall.core.rules import MatchConfig
from msgspec.structs import replace

from . import actions as act
from . import changes
from . import commands as cmd
from . import estimate as guess
from . import events as events_
from . import legal as legal_
from . import view as view_
from .components import COMPONENTS, GOODS, start_spaces
from .effects import Turn, draw_customers, gain, refill_row
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
from .scoring import play_category, score_lines
from .state import Options, State, deck_of
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


# Trades are free actions: any clan, at any moment once setup is done (ROG-TRADE-1).
TRADE_TYPES: tuple[type[Command], ...] = (cmd.TradeGoods, cmd.BuyFavour)


class RiverOfGold(Rules[State]):
    """Build on the shore, sail the river, deliver to customers, gain influence.

    The commands are decided by the ``@decides`` methods below; the events are applied by the
    ``@evolves`` methods after them.
    """

    revealing = (
        events_.BoardDealt,
        events_.StacksDealt,
        events_.DeckShuffled,
        events_.ShipsLaunched,
        events_.CustomersDrawn,
        events_.DieRolled,
        events_.SetupFinished,
        events_.RowRefilled,
    )

    def initial(self, config: MatchConfig) -> State:
        """Return the clans after personal setup: koku by turn order (ROG-SETUP-8)."""
        options = config.options if isinstance(config.options, Options) else Options()
        return State(
            players=tuple(
                changes.new_player(COMPONENTS.setup.start_koku[i]) for i in range(config.players)
            ),
            noble_bonus=options.noble_bonus,
        )

    def start(self, state: State, config: MatchConfig, rng: random.Random) -> Sequence[Event]:
        """Deal the board, stacks and deck; then ships, hands and first rolls (ROG-SETUP-1..9).

        Expansions set up after the board (``river_of_gold_setup``); personal setup waits for their setup
        decisions (a draft), as the clan comes first in the rulebook's personal setup.
        """
        # The setup's generator, given as the context's own (no command, no seat).
        turn = Turn(self, state, Context(None, 0, 0, None, rng))
        turn.emit(deal_board(state.count, rng), deal_stacks(state.count, rng))
        for _ in range(COMPONENTS.setup.row):
            refill_row(turn)
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
            draw_customers(turn, seat, COMPONENTS.setup.hand)
        for seat in range(turn.state.count):
            if not self.hook.river_of_gold_opening_roll(turn=turn, seat=seat):
                turn.emit(DieRolled(seat=seat, face=turn.rng.randint(1, 6)))
        turn.emit(SetupFinished())

    def decide(self, state: State, command: Command, ctx: Context) -> Sequence[Event]:
        """Return the events of a command, or refuse it with the rule it breaks.

        The command's ``@decides`` method below gets the turn (the core's emitter of this
        command), the seat it is decided for and the command. Trades are free actions of any
        clan; every other command is the asked seat's. While an expansion's
        setup decision holds the match (a draft), and for commands no method takes, the
        expansions decide (``river_of_gold_decide``).
        """
        if state.over:
            raise IllegalCommand("the match is over", "ROG-END-2")
        turn = Turn(self, state, ctx)
        method = self.decider(state, command)
        trade = type(command) in TRADE_TYPES
        if method is not None and trade and ctx.seat is not None and self.may_trade(state):
            method(self, turn, ctx.seat, command)
            return turn.events
        ahead = self.hook.river_of_gold_decision(state=state)
        seat = ahead[0] if ahead is not None else self._asked(state)
        if ctx.seat is not None and ctx.seat != seat:
            raise IllegalCommand(
                f"{clan(state, seat)} is to act, not {clan(state, ctx.seat)}", "ROG-TURN-1"
            )
        if method is None or trade or ahead is not None:
            if not self.hook.river_of_gold_decide(turn=turn, seat=seat, command=command):
                raise IllegalCommand(f"{type(command).__name__} is not possible now", "ROG-TURN-1")
            if ahead is not None:
                self._personal_setup(turn)
        else:
            method(self, turn, seat, command)
        return turn.events

    def _asked(self, state: State) -> int:
        return state.choices[0].seat if state.choices else state.turn

    # -- the commands ----------------------------------------------------------------------

    @decides(cmd.TradeGoods)
    def trade(self, turn: Turn, seat: int, c: cmd.TradeGoods) -> None:
        """Trade two goods for one, at any moment (ROG-TRADE-1)."""
        act.trade_goods(turn, seat, c.give, c.take)

    @decides(cmd.BuyFavour)
    def buy_favour(self, turn: Turn, seat: int, c: cmd.BuyFavour) -> None:
        """Buy a favour, at any moment (ROG-TRADE-1)."""
        act.buy_favour(turn, seat)

    @decides(cmd.ShiftDie)
    def shift(self, turn: Turn, seat: int, c: cmd.ShiftDie) -> None:
        """Pay a favour to turn the die (ROG-TURN-1)."""
        _in_turn(turn, seat, ("action",), "ROG-TURN-1")
        act.shift_die(turn, seat, c.by)

    @decides(cmd.Build)
    def build(self, turn: Turn, seat: int, c: cmd.Build) -> None:
        """Build on the shore."""
        _in_turn(turn, seat, ("action",), "ROG-TURN-2")
        act.build(turn, seat, c.space, c.slot)

    @decides(cmd.Sail)
    def sail(self, turn: Turn, seat: int, c: cmd.Sail) -> None:
        """Sail a ship down the river."""
        _in_turn(turn, seat, ("action",), "ROG-TURN-2")
        act.sail(turn, seat, c.ship, c.shift)

    @decides(cmd.Deliver)
    def deliver(self, turn: Turn, seat: int, c: cmd.Deliver) -> None:
        """Deliver to a customer."""
        _in_turn(turn, seat, ("action",), "ROG-TURN-2")
        act.deliver(turn, seat, c.card)

    @decides(cmd.EndTurn)
    def end_turn(self, turn: Turn, seat: int, c: cmd.EndTurn) -> None:
        """End the turn once the action is taken (ROG-TURN-3)."""
        if legal_.phase(turn.state) == "action":
            raise IllegalCommand("take your action (build, sail or deliver) first", "ROG-TURN-2")
        _in_turn(turn, seat, ("finish",), "ROG-TURN-3")
        act.end_turn(turn, seat)

    @decides(cmd.TakeGood)
    def take_good(self, turn: Turn, seat: int, c: cmd.TakeGood) -> None:
        """Take the good an open choice offers (ROG-TURN-2)."""
        kind = _choice(turn, ("good", "journey"))
        if kind == "good" and c.good not in turn.state.choices[0].options:
            raise IllegalCommand(f"{c.good} is not on offer", "ROG-TURN-2")
        gain(turn, seat, kind, **{c.good: 1})
        turn.emit(ChoiceClosed(seat=seat))

    @decides(cmd.TakeKoku)
    def take_koku(self, turn: Turn, seat: int, c: cmd.TakeKoku) -> None:
        """Take koku for a completed journey (ROG-JOURNEY-1)."""
        _choice(turn, ("journey",))
        gain(turn, seat, "journey", koku=3)
        turn.emit(ChoiceClosed(seat=seat))

    @decides(cmd.DiscardCustomer)
    def discard(self, turn: Turn, seat: int, c: cmd.DiscardCustomer) -> None:
        """Discard a customer after drawing two (ROG-DELIVER-4)."""
        _choice(turn, ("discard",))
        if c.card not in turn.state.players[seat].hand:
            raise IllegalCommand(f"{c.card} is not in your hand", "ROG-DELIVER-4")
        turn.emit(CustomerDiscarded(seat=seat, card=c.card), ChoiceClosed(seat=seat))

    @decides(cmd.PlaceMarker)
    def place_marker(self, turn: Turn, seat: int, c: cmd.PlaceMarker) -> None:
        """Put the monk's second marker on a building (ROG-MONK-2)."""
        _choice(turn, ("marker",))
        if str(c.space) not in turn.state.choices[0].options:
            raise IllegalCommand(f"the monk's marker may not go on space {c.space}", "ROG-MONK-2")
        turn.emit(MarkerPlaced(seat=seat, space=c.space), ChoiceClosed(seat=seat))

    @decides(cmd.UpgradeShip)
    def upgrade(self, turn: Turn, seat: int, c: cmd.UpgradeShip) -> None:
        """Choose the ship the imperial ship replaces (ROG-NOBLE-1)."""
        _choice(turn, ("upgrade",))
        if str(c.ship) not in turn.state.choices[0].options:
            raise IllegalCommand(f"you have no ship {c.ship}", "ROG-NOBLE-1")
        turn.emit(ShipUpgraded(seat=seat, ship=c.ship), ChoiceClosed(seat=seat))

    @decides(cmd.SellGood)
    def sell(self, turn: Turn, seat: int, c: cmd.SellGood) -> None:
        """Sell a good for 5 koku (ROG-MERCHANT-2)."""
        _choice(turn, ("sell",))
        if turn.state.players[seat].goods[GOODS.index(c.good)] < 1:
            raise IllegalCommand(f"you have no {c.good} to sell", "ROG-MERCHANT-2")
        gain(turn, seat, "merchant sale", **{c.good: -1})
        gain(turn, seat, "merchant sale", koku=5)

    @decides(cmd.StopSelling)
    def stop_selling(self, turn: Turn, seat: int, c: cmd.StopSelling) -> None:
        """Stop selling (ROG-MERCHANT-2)."""
        _choice(turn, ("sell",))
        turn.emit(ChoiceClosed(seat=seat))

    # -- how each event changes the state --------------------------------------------------

    @evolves(events_.BoardDealt)
    def board_dealt(self, state: State, e: events_.BoardDealt) -> State:
        tiles = list(state.tiles)
        for space, tile in e.placed:
            tiles[space - 1] = tile
        return replace(state, tiles=tuple(tiles), score_tiles=e.score_tiles, masteries=e.masteries)

    @evolves(events_.StacksDealt)
    def stacks_dealt(self, state: State, e: events_.StacksDealt) -> State:
        return replace(state, era1=e.era1, era2=e.era2)

    @evolves(events_.DeckShuffled)
    def deck_shuffled(self, state: State, e: events_.DeckShuffled) -> State:
        # A deck shuffled from the discards holds cards everyone saw: remember which (not the order).
        shuffles = (*state.shuffles, tuple(sorted(e.order))) if state.discard else state.shuffles
        return replace(state, deck=e.order, discard=(), shuffles=shuffles)

    @evolves(events_.ShipsLaunched)
    def ships_launched(self, state: State, e: events_.ShipsLaunched) -> State:
        starts = state.players[e.seat].ships
        return with_player(
            state, e.seat, ships=tuple(s + r for s, r in zip(starts, e.rolls, strict=True))
        )

    @evolves(events_.CustomersDrawn)
    def customers_drawn(self, state: State, e: events_.CustomersDrawn) -> State:
        p = state.players[e.seat]
        decks = changes.hand_decks(p, len(state.shuffles), len(e.cards))
        state = with_player(state, e.seat, hand=p.hand + e.cards, hand_decks=decks)
        return replace(state, deck=state.deck[len(e.cards) :])

    @evolves(events_.DieRolled, events_.DieShifted)
    def die_set(self, state: State, e: events_.DieRolled | events_.DieShifted) -> State:
        return with_player(state, e.seat, die=e.face)

    @evolves(events_.RowRefilled)
    def row_refilled(self, state: State, e: events_.RowRefilled) -> State:
        row = (e.tile, *state.row)
        if state.era1:
            era1 = state.era1[1:]
            return replace(state, row=row, era1=era1, visit_due=state.visit_due or not era1)
        era2 = state.era2[1:]
        return replace(state, row=row, era2=era2, end_due=state.end_due or not era2)

    @evolves(events_.SetupFinished)
    def setup_finished(self, state: State, e: events_.SetupFinished) -> State:
        return replace(state, started=True)

    @evolves(events_.ResourcesChanged)
    def resources_changed(self, state: State, e: events_.ResourcesChanged) -> State:
        p = state.players[e.seat]
        goods = tuple(have + getattr(e, good) for have, good in zip(p.goods, GOODS, strict=True))
        earned = p.earned
        if e.points:
            category = play_category(e.reason)
            earned = {**earned, category: earned.get(category, 0) + e.points}
        return with_player(
            state,
            e.seat,
            koku=p.koku + e.koku,
            favour=p.favour + e.favour,
            goods=goods,
            points=p.points + e.points,
            earned=earned,
        )

    @evolves(events_.FavourCapRaised)
    def favour_cap_raised(self, state: State, e: events_.FavourCapRaised) -> State:
        return with_player(state, e.seat, favour_cap=e.cap)

    @evolves(events_.InfluenceMoved)
    def influence_moved(self, state: State, e: events_.InfluenceMoved) -> State:
        influence = changes.at(state.players[e.seat].influence, e.region - 1, e.to)
        return with_player(state, e.seat, influence=influence)

    @evolves(events_.BuildingBuilt)
    def building_built(self, state: State, e: events_.BuildingBuilt) -> State:
        row = tuple(t for t in state.row if t != e.tile)
        return replace(
            state,
            tiles=changes.at(state.tiles, e.space - 1, e.tile),
            markers=changes.at(state.markers, e.space - 1, (e.seat,)),
            row=row,
            acted=True,
        )

    @evolves(events_.TileDiscarded)
    def tile_discarded(self, state: State, e: events_.TileDiscarded) -> State:
        row = tuple(t for t in state.row if t != e.tile)
        return replace(state, row=row, gone=(*state.gone, e.tile))

    @evolves(events_.ShipSailed)
    def ship_sailed(self, state: State, e: events_.ShipSailed) -> State:
        ships = changes.at(state.players[e.seat].ships, e.ship, e.to)
        return replace(with_player(state, e.seat, ships=ships), acted=True)

    @evolves(events_.CustomerDelivered)
    def customer_delivered(self, state: State, e: events_.CustomerDelivered) -> State:
        p = state.players[e.seat]
        hand = tuple(c for c in p.hand if c != e.card)
        decks = changes.hand_decks(p, deck_of(state, e.card), -1)
        state = with_player(
            state, e.seat, hand=hand, delivered=(*p.delivered, e.card), hand_decks=decks
        )
        return replace(state, acted=True)

    @evolves(events_.CustomerDiscarded)
    def customer_discarded(self, state: State, e: events_.CustomerDiscarded) -> State:
        p = state.players[e.seat]
        hand = tuple(c for c in p.hand if c != e.card)
        state = with_player(
            state, e.seat, hand=hand, hand_decks=changes.hand_decks(p, deck_of(state, e.card), -1)
        )
        return replace(state, discard=(*state.discard, e.card))

    @evolves(events_.MarkerPlaced)
    def marker_placed(self, state: State, e: events_.MarkerPlaced) -> State:
        marks = (*state.markers[e.space - 1], e.seat)
        return replace(state, markers=changes.at(state.markers, e.space - 1, marks))

    @evolves(events_.ShipUpgraded)
    def ship_upgraded(self, state: State, e: events_.ShipUpgraded) -> State:
        return with_player(state, e.seat, royal=e.ship)

    @evolves(events_.MasteryClaimed)
    def mastery_claimed(self, state: State, e: events_.MasteryClaimed) -> State:
        index = state.masteries.index(e.mastery)
        claims = changes.at(state.claims, index, (*state.claims[index], e.seat))
        return replace(state, claims=claims)

    @evolves(events_.ChoiceOpened)
    def choice_opened(self, state: State, e: events_.ChoiceOpened) -> State:
        return replace(state, choices=(*state.choices, e.choice))

    @evolves(events_.ChoiceClosed)
    def choice_closed(self, state: State, e: events_.ChoiceClosed) -> State:
        return replace(state, choices=state.choices[1:])

    @evolves(events_.TurnEnded)
    def turn_ended(self, state: State, e: events_.TurnEnded) -> State:
        left = state.turns_left
        if state.ended_by is not None and e.seat != state.ended_by:
            left -= 1
        return replace(state, turn=e.next, acted=False, turns_left=left)

    @evolves(events_.ImperialVisitPaid)
    def imperial_visit_paid(self, state: State, e: events_.ImperialVisitPaid) -> State:
        return replace(state, era=2, visit_due=False)

    @evolves(events_.EndTriggered)
    def end_triggered(self, state: State, e: events_.EndTriggered) -> State:
        return replace(state, ended_by=e.seat, turns_left=state.count - 1)

    @evolves(events_.GameEnded)
    def game_ended(self, state: State, e: events_.GameEnded) -> State:
        return replace(state, over=True, final=e.scores, winners=e.winners)

    def evolve_other(self, state: State, event: Event) -> State:
        """Apply an expansion's event (``river_of_gold_evolve``); unchanged when none knows it."""
        result = self.hook.river_of_gold_evolve(state=state, event=event)
        return state if result is None else result

    # -- asking ----------------------------------------------------------------------------

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


# -- helpers of the commands ------------------------------------------------------------------


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
