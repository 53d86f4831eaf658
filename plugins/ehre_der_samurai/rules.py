"""Ehre der Samurai's rules as a decider (rule ids in docs/rules/ehre-der-samurai.md)."""

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
    InvalidOptions,
    Outcome,
    Rules,
    ScoreLine,
    decides,
    evolves,
    merge_by_key,
    with_player,
)
from gamehall.core.rules import MatchConfig
from gamehall.core.words import seat_label
from msgspec.structs import replace

from . import actions, changes, declarations, reactions
from . import commands as cmd
from . import events as events_
from . import legal as legal_
from . import view as view_
from .cards import SHOGUN, Card, Catalogue
from .events import DeckShuffled, HandDealt, HousesFounded
from .houses import Numbers, Values
from .state import PROVINCES, WAITING, Fight, Options, Player, State, put, without
from .turn import Turn, begin_turn, end_turn, shogun_duty


def merge(cards: Sequence[Sequence[Card] | None]) -> list[Card]:
    """Return the cards of every ``ehre_der_samurai_cards`` result; a later card replaces one of its id."""
    return merge_by_key(cards, lambda card: card.id)


class EhreDerSamurai(Rules[State]):
    """Houses, honour, alliances and betrayal, for three to six players.

    The commands are decided by the ``@decides`` methods below; the events are applied by the
    ``@evolves`` methods after them.
    """

    revealing = (
        events_.HousesFounded,
        events_.DeckShuffled,
        events_.HandDealt,
        events_.CardDrawn,
        events_.DeckRebuilt,
        events_.FightRolled,
    )
    secret_fields = {events_.DeckShuffled: ("order",), events_.DeckRebuilt: ("order",)}
    private_fields = {
        events_.HandDealt: ("cards",),
        events_.CardDrawn: ("card",),
        events_.Answered: ("answer",),
    }

    def __init__(self, hook: Any) -> None:
        super().__init__(hook)
        self.cards = Catalogue(merge(hook.ehre_der_samurai_cards()))
        self.numbers: Numbers = hook.ehre_der_samurai_numbers()
        self.values = Values(self.cards)

    def option_choices(self) -> Mapping[str, Sequence[tuple[Any, str]]]:
        """Offer the starting player as people count seats (the log keeps 0 for seat 1)."""
        seats = [(seat, f"{seat_label(seat)} ({name})") for seat, name in enumerate(PROVINCES)]
        return {"start_seat": seats}

    # -- setup (EDS-SETUP) ---------------------------------------------------------------------

    def initial(self, config: MatchConfig) -> State:
        """Return the table before setup, with the options checked against the player count."""
        options = config.options if isinstance(config.options, Options) else Options()
        if options.start_seat >= config.players:
            raise InvalidOptions(
                f"the starting player is {seat_label(options.start_seat)}, and a "
                f"{config.players}-player match has seats 1 to {config.players} (start_seat "
                f"{options.start_seat} in the API, which counts seats from 0)"
            )
        samurai = self.cards.samurai
        return State(options=options, players=tuple(map(Player, samurai[: config.players])))

    def start(self, state: State, config: MatchConfig, rng: random.Random) -> Sequence[Event]:
        """Give each seat a starting Daimyo and a Samurai, shuffle, deal seven (EDS-SETUP-1..5)."""
        n, cards = state.count, self.cards
        starting = list(cards.starting)
        rng.shuffle(starting)
        daimyo = tuple(starting[:n])
        deck = [c for c in cards.deck_cards if c not in daimyo]
        rng.shuffle(deck)
        # The setup's generator, given as the context's own (no command, no seat).
        turn = Turn(self, state, Context(None, 0, 0, None, rng))
        turn.emit(
            HousesFounded(daimyo=daimyo, samurai=cards.samurai[:n], reserve=cards.samurai[n:]),
            DeckShuffled(size=len(deck), order=tuple(deck)),
        )
        size = self.numbers.hand_limit
        for seat in range(n):
            hand = tuple(turn.state.deck[:size])
            turn.emit(HandDealt(seat=seat, size=len(hand), cards=hand))
        begin_turn(turn, state.options.start_seat, 1)
        return turn.events

    # -- deciding ------------------------------------------------------------------------------

    def decide(self, state: State, command: Command, ctx: Context) -> Sequence[Event]:
        """Return the events of a card action, a declaration, the turn's end or an answer.

        The command's ``@decides`` method below gets the turn (the core's emitter of this
        command), the seat that sent it and the command; a turn's commands first check that
        the turn is the seat's and no answer is owed.
        """
        seat = ctx.seat
        if seat is None:
            raise IllegalCommand("a spectator does not play")
        method = self.decider(state, command)
        if method is None:
            raise IllegalCommand(f"{type(command).__name__} is not an Ehre der Samurai command")
        turn = Turn(self, state, ctx)
        method(self, turn, seat, command)
        return turn.events

    def _turn_open(self, state: State, seat: int) -> None:
        if state.fight is not None or state.insult is not None:
            raise IllegalCommand("the turn goes on once every answer is in", "EDS-SAVE-3")
        if seat != state.turn:
            raise IllegalCommand("it is not your turn", "EDS-END-1")

    # -- a turn's commands: card actions, declarations, the end ---------------------------

    @decides(cmd.Draw)
    def draw(self, turn: Turn, seat: int, command: cmd.Draw) -> None:
        """Draw a card, a card action."""
        self._turn_open(turn.state, seat)
        actions.draw(turn, seat, command)

    @decides(cmd.Discard)
    def discard(self, turn: Turn, seat: int, command: cmd.Discard) -> None:
        """Discard cards from the hand."""
        self._turn_open(turn.state, seat)
        actions.discard(turn, seat, command)

    @decides(cmd.Play)
    def play(self, turn: Turn, seat: int, command: cmd.Play) -> None:
        """Play a card into a house."""
        self._turn_open(turn.state, seat)
        actions.play(turn, seat, command)

    @decides(cmd.SendThief)
    def send_thief(self, turn: Turn, seat: int, command: cmd.SendThief) -> None:
        """Send a Thief to another house."""
        self._turn_open(turn.state, seat)
        actions.send_thief(turn, seat, command)

    @decides(cmd.SendAssassin)
    def send_assassin(self, turn: Turn, seat: int, command: cmd.SendAssassin) -> None:
        """Send an Assassin to another house."""
        self._turn_open(turn.state, seat)
        actions.send_assassin(turn, seat, command)

    @decides(cmd.PlayDishonour)
    def play_dishonour(self, turn: Turn, seat: int, command: cmd.PlayDishonour) -> None:
        """Dishonour another player."""
        self._turn_open(turn.state, seat)
        actions.play_dishonour(turn, seat, command)

    @decides(cmd.DeclareShogun)
    def declare_shogun(self, turn: Turn, seat: int, command: cmd.DeclareShogun) -> None:
        """Declare the Daimyo Shogun."""
        self._turn_open(turn.state, seat)
        declarations.declare_shogun(turn, seat, command)

    @decides(cmd.Attack)
    def attack(self, turn: Turn, seat: int, command: cmd.Attack) -> None:
        """Attack another Daimyo."""
        self._turn_open(turn.state, seat)
        declarations.attack(turn, seat, command)

    @decides(cmd.Ally)
    def ally(self, turn: Turn, seat: int, command: cmd.Ally) -> None:
        """Ally with another player."""
        self._turn_open(turn.state, seat)
        declarations.ally(turn, seat, command)

    @decides(cmd.LeaveAlliance)
    def leave_alliance(self, turn: Turn, seat: int, command: cmd.LeaveAlliance) -> None:
        """Leave the alliance."""
        self._turn_open(turn.state, seat)
        declarations.leave_alliance(turn, seat, command)

    @decides(cmd.EndTurn)
    def end_turn(self, turn: Turn, seat: int, command: cmd.EndTurn) -> None:
        """End the turn; the left neighbour goes next."""
        self._turn_open(turn.state, seat)
        end_turn(turn)

    # -- answers, from any seat that owes one ---------------------------------------------

    @decides(cmd.SaveFace, cmd.Pass)
    def save_or_pass(self, turn: Turn, seat: int, command: cmd.SaveFace | cmd.Pass) -> None:
        """Play Save Face for the loser of a fight or the victim of a Dishonour, or pass."""
        reactions.save_or_pass(turn, seat, command)

    @decides(cmd.PayHonour, cmd.Seppuku)
    def answer_dishonour(self, turn: Turn, seat: int, command: cmd.PayHonour | cmd.Seppuku) -> None:
        """Answer a Dishonour: pay honour or commit seppuku."""
        reactions.answer_dishonour(turn, seat, command)

    @decides(cmd.TakeCastle, cmd.LeaveCastle)
    def castle_choice(
        self, turn: Turn, seat: int, command: cmd.TakeCastle | cmd.LeaveCastle
    ) -> None:
        """Take the loser's castle after a won fight, or leave it."""
        reactions.castle_choice(turn, seat, command)

    # -- how each event changes the state --------------------------------------------------

    numbers: Numbers

    @evolves(events_.HousesFounded)
    def houses_founded(self, state: State, e: events_.HousesFounded) -> State:
        players = tuple(
            Player(samurai=s, daimyo=d) for d, s in zip(e.daimyo, e.samurai, strict=True)
        )
        return replace(state, players=players, reserve=e.reserve)

    @evolves(events_.DeckShuffled, events_.DeckRebuilt)
    def deck_shuffled(self, state: State, e: events_.DeckShuffled | events_.DeckRebuilt) -> State:
        discard = () if isinstance(e, events_.DeckRebuilt) else state.discard
        return replace(state, deck=e.order or (), discard=discard)

    @evolves(events_.HandDealt)
    def hand_dealt(self, state: State, e: events_.HandDealt) -> State:
        state = with_player(state, e.seat, hand=e.cards or ())
        return replace(state, deck=state.deck[e.size :])

    @evolves(events_.TurnBegan)
    def turn_began(self, state: State, e: events_.TurnBegan) -> State:
        return replace(state, turn=e.seat, round=e.round, actions_used=0, declared=False)

    @evolves(events_.HonourCollected)
    def honour_collected(self, state: State, e: events_.HonourCollected) -> State:
        return with_player(state, e.seat, honour=e.total)

    @evolves(events_.MatchWon)
    def match_won(self, state: State, e: events_.MatchWon) -> State:
        return replace(state, winner=e.seat)

    @evolves(events_.CardDrawn)
    def card_drawn(self, state: State, e: events_.CardDrawn) -> State:
        card = state.deck[0]
        state = with_player(state, e.seat, hand=state.players[e.seat].hand + (card,))
        return replace(state, deck=state.deck[1:], actions_used=state.actions_used + 1)

    @evolves(events_.CardDiscarded)
    def card_discarded(self, state: State, e: events_.CardDiscarded) -> State:
        state = with_player(state, e.seat, hand=without(state.players[e.seat].hand, e.card))
        return replace(
            state, discard=state.discard + (e.card,), actions_used=state.actions_used + 1
        )

    @evolves(events_.CardPlayed)
    def card_played(self, state: State, e: events_.CardPlayed) -> State:
        state = with_player(state, e.seat, hand=without(state.players[e.seat].hand, e.card))
        owner = state.players[e.owner]
        owner = changes.into(owner, e.house, owner.house(e.house) + (e.card,))
        players = put(state.players, e.owner, owner)
        return replace(state, players=players, actions_used=state.actions_used + 1)

    @evolves(events_.DaimyoRaised)
    def daimyo_raised(self, state: State, e: events_.DaimyoRaised) -> State:
        hand = without(state.players[e.seat].hand, e.card)
        state = with_player(state, e.seat, hand=hand, daimyo=e.card, daimyo_house=())
        return replace(state, actions_used=state.actions_used + 1)

    @evolves(events_.TurnEnded, events_.SeppukuCommitted, events_.CastleLeft)
    def nothing_changes(self, state: State, e: Any) -> State:
        return state

    @evolves(events_.ThiefSent)
    def thief_sent(self, state: State, e: events_.ThiefSent) -> State:
        state = changes.spend(state, e.seat, e.card, e.cost)
        owner = state.players[e.owner]
        state = with_player(
            state, e.owner, **changes.house_field(e.house, without(owner.house(e.house), e.loot))
        )
        thief = state.players[e.seat]
        return with_player(
            state, e.seat, **changes.house_field(e.to, thief.house(e.to) + (e.loot,))
        )

    @evolves(events_.AssassinSent)
    def assassin_sent(self, state: State, e: events_.AssassinSent) -> State:
        return changes.spend(state, e.seat, e.card, e.cost)

    @evolves(events_.AssassinStopped)
    def assassin_stopped(self, state: State, e: events_.AssassinStopped) -> State:
        owner = state.players[e.owner]
        cards = without(owner.house(e.house), e.bodyguard)
        state = with_player(state, e.owner, **changes.house_field(e.house, cards))
        return replace(state, discard=state.discard + (e.bodyguard,))

    @evolves(events_.HouseTakenOver)
    def house_taken_over(self, state: State, e: events_.HouseTakenOver) -> State:
        ally = state.players[e.ally]
        state = with_player(state, e.seat, daimyo=ally.daimyo, daimyo_house=ally.daimyo_house)
        state = with_player(state, e.ally, daimyo=None, daimyo_house=())
        return replace(state, shogun=e.seat) if state.shogun == e.ally else state

    @evolves(events_.HouseDiscarded)
    def house_discarded(self, state: State, e: events_.HouseDiscarded) -> State:
        if e.house == "daimyo":
            state = with_player(state, e.owner, daimyo=None, daimyo_house=())
        else:
            state = with_player(state, e.owner, samurai_house=())
        return replace(state, discard=state.discard + e.cards)

    @evolves(events_.DishonourPlayed)
    def dishonour_played(self, state: State, e: events_.DishonourPlayed) -> State:
        """Open the Dishonour's window; its cost in card actions is an expansion's
        (``Numbers``) or, where none sets it, the match's option (EDS-DISHONOUR-1)."""
        cost = self.numbers.dishonour_actions
        cost = state.options.dishonour_actions if cost is None else cost
        return changes.dishonour(state, e, cost, state.options.bystander_save_face)

    @evolves(events_.Answered)
    def answered(self, state: State, e: events_.Answered) -> State:
        answer = e.answer or ""
        if state.fight is not None:
            answers = changes.at(state.fight.answers, e.seat, answer)
            return replace(state, fight=replace(state.fight, answers=answers))
        assert state.insult is not None
        insult = replace(state.insult, answers=changes.at(state.insult.answers, e.seat, answer))
        return replace(state, insult=insult)

    @evolves(events_.WindowClosed)
    def window_closed(self, state: State, e: events_.WindowClosed) -> State:
        if e.saved_by is not None and e.card is not None:
            hand = without(state.players[e.saved_by].hand, e.card)
            state = with_player(state, e.saved_by, hand=hand)
            state = replace(state, discard=state.discard + (e.card,))
        if state.fight is not None:
            fight = replace(state.fight, stage="castle", saved_by=e.saved_by)
            return replace(state, fight=fight)
        return replace(state, insult=None)

    @evolves(events_.HonourPaid)
    def honour_paid(self, state: State, e: events_.HonourPaid) -> State:
        return with_player(state, e.seat, honour=state.players[e.seat].honour - e.honour)

    @evolves(events_.ShogunDeclared)
    def shogun_declared(self, state: State, e: events_.ShogunDeclared) -> State:
        house = state.players[e.seat].daimyo_house + (SHOGUN,)
        state = with_player(state, e.seat, daimyo_house=house)
        return replace(state, shogun=e.seat, declared=True)

    @evolves(events_.AttackDeclared)
    def attack_declared(self, state: State, e: events_.AttackDeclared) -> State:
        return replace(state, declared=True)

    @evolves(events_.FightRolled)
    def fight_rolled(self, state: State, e: events_.FightRolled) -> State:
        attacker = state.turn
        defender = e.winner if e.loser == attacker else e.loser
        answers = (WAITING,) * state.count
        return replace(state, fight=Fight(attacker, defender, e.winner, e.loser, answers))

    @evolves(events_.CastleTaken)
    def castle_taken(self, state: State, e: events_.CastleTaken) -> State:
        loser = state.players[e.loser]
        loser_house = without(loser.daimyo_house, e.castle)
        winner = state.players[e.seat]
        winner_house = winner.daimyo_house + (e.castle,)
        if e.swapped is not None:
            winner_house = without(winner_house, e.swapped)
            loser_house = loser_house + (e.swapped,)
        state = with_player(state, e.loser, daimyo_house=loser_house)
        return with_player(state, e.seat, daimyo_house=winner_house)

    @evolves(events_.ShogunPassed)
    def shogun_passed(self, state: State, e: events_.ShogunPassed) -> State:
        loser = state.players[e.loser]
        state = with_player(state, e.loser, daimyo_house=without(loser.daimyo_house, SHOGUN))
        winner = state.players[e.winner]
        state = with_player(state, e.winner, daimyo_house=winner.daimyo_house + (SHOGUN,))
        return replace(state, shogun=e.winner)

    @evolves(events_.ShogunReturned)
    def shogun_returned(self, state: State, e: events_.ShogunReturned) -> State:
        house = without(state.players[e.seat].daimyo_house, SHOGUN)
        return replace(with_player(state, e.seat, daimyo_house=house), shogun=None)

    @evolves(events_.FightEnded)
    def fight_ended(self, state: State, e: events_.FightEnded) -> State:
        return replace(state, fight=None)

    @evolves(events_.AllianceFormed)
    def alliance_formed(self, state: State, e: events_.AllianceFormed) -> State:
        state = with_player(state, e.ronin, ally=e.daimyo)
        return replace(with_player(state, e.daimyo, ally=e.ronin), declared=True)

    @evolves(events_.AllianceLeaving)
    def alliance_leaving(self, state: State, e: events_.AllianceLeaving) -> State:
        honour = state.players[e.seat].honour - e.cost
        return replace(with_player(state, e.seat, leaving=True, honour=honour), declared=True)

    @evolves(events_.AllianceEnded)
    def alliance_ended(self, state: State, e: events_.AllianceEnded) -> State:
        for seat in e.seats:
            state = with_player(state, seat, ally=None, leaving=False)
        return state

    # -- who acts, and on what -----------------------------------------------------------------

    def awaiting(self, state: State) -> Mapping[int, Decision]:
        """Return the active seat, or every seat that owes an answer (EDS-SAVE-2)."""
        if state.over:
            return {}
        if state.fight is not None:
            fight = state.fight
            if fight.stage == "castle":
                prompt = f"take the castle of {PROVINCES[fight.loser]}, or leave it"
                return {fight.winner: Decision("castle", prompt)}
            ask = Decision("reaction", f"play Save Face for {PROVINCES[fight.loser]}, who lost "
                           "the fight, or pass")  # fmt: skip
            return {s: ask for s, a in enumerate(fight.answers) if a == WAITING}
        if state.insult is not None:
            return self._insult_awaiting(state)
        return {state.turn: Decision("turn", self._turn_prompt(state))}

    def _insult_awaiting(self, state: State) -> Mapping[int, Decision]:
        insult = state.insult
        assert insult is not None
        victim = PROVINCES[insult.victim]
        price = self.numbers.dishonour_price
        asked = {}
        for seat, answer in enumerate(insult.answers):
            if answer != WAITING:
                continue
            if seat == insult.victim:
                prompt = f"answer the Dishonour: pay {price} honour, Save Face, or seppuku"
                asked[seat] = Decision("dishonour", prompt)
            else:
                asked[seat] = Decision("reaction", f"play Save Face for {victim}, or pass")
        return asked

    def _turn_prompt(self, state: State) -> str:
        if shogun_duty(self, state):
            return "card actions, then declare your Daimyo Shogun"
        left = max(0, actions.actions_left(self, state))
        declaration = "" if state.declared else ", at most one declaration"
        return f"{left} card action{'s' if left != 1 else ''} left{declaration}, then end your turn"

    def legal(self, state: State, seat: int) -> Sequence[Command]:
        """Return every command ``seat`` may send now."""
        return legal_.legal(self, state, seat)

    def free(self, state: State, seat: int) -> Collection[type[Command]]:
        """Let Save Face reach the rules from any seat, so one out of its window is refused
        with its rule (EDS-SAVE-1); no seat has a legal free action."""
        return () if state.over else (cmd.SaveFace,)

    def timeout(self, state: State, seat: int) -> Command | None:
        """Return a pass for a window, a payment for a Dishonour, the turn's end (EDS-SAVE-6)."""
        legal = self.legal(state, seat)
        for choice in (legal_.PASS, legal_.PAY, legal_.CASTLE[1], legal_.END):
            if choice in legal:
                return choice
        return cmd.DeclareShogun() if cmd.DeclareShogun() in legal else None

    def outcome(self, state: State) -> Outcome | None:
        """Return the winner once a seat reached the honour target (EDS-WIN-1)."""
        if state.winner is None:
            return None
        honour = tuple(p.honour for p in state.players)
        target = state.options.honour_target
        return Outcome(
            (state.winner,),
            f"first to reach {target} honour at the end of phase 1",
            honour,
            (ScoreLine("honour", honour),),
        )

    # -- hidden information (EDS-HIDDEN) -------------------------------------------------------

    def view(self, state: State, seat: int | None) -> view_.View:
        """Return what ``seat`` may see."""
        return view_.view(state, seat, self.numbers)

    def hidden(self, state: State, seat: int | None) -> Collection[str]:
        """Return the tokens hidden from ``seat``."""
        return view_.hidden(state, seat)

    def sample(self, view: Any, seat: int, rng: random.Random) -> State:
        """Return a whole state consistent with a seat's view."""
        return view_.sample(self.cards, view, seat, rng)
