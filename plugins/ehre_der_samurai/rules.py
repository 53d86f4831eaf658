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
    ScoreLine,
    decides,
    merge_by_key,
)
from gamehall.core.rules import MatchConfig
from gamehall.core.words import seat_label

from . import actions, declarations, reactions
from . import commands as cmd
from . import events as events_
from . import legal as legal_
from . import view as view_
from .cards import Card, Catalogue
from .events import DeckShuffled, HandDealt, HousesFounded
from .evolve import EhreEvents
from .houses import Numbers, Values
from .state import PROVINCES, WAITING, Options, Player, State
from .turn import Turn, begin_turn, end_turn, shogun_duty


def merge(cards: Sequence[Sequence[Card] | None]) -> list[Card]:
    """Return the cards of every ``ehre_der_samurai_cards`` result; a later card replaces one of its id."""
    return merge_by_key(cards, lambda card: card.id)


# The events no take-back reaches past (Rules.reveals).
REVEALING: tuple[type[Event], ...] = (
    events_.HousesFounded,
    events_.DeckShuffled,
    events_.HandDealt,
    events_.CardDrawn,
    events_.DeckRebuilt,
    events_.FightRolled,
)


class EhreDerSamurai(EhreEvents):
    """Houses, honour, alliances and betrayal, for three to six players.

    The commands are decided by the ``@decides`` methods below; the events are applied by the
    ``@evolves`` methods of :class:`EhreEvents` (``evolve.py``).
    """

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

    def redact(self, event: Event, seat: int | None) -> Event | None:
        """Return the event as ``seat`` may see it."""
        return view_.redact(event, seat)

    def reveals(self, event: Event) -> bool:
        """Return whether an event is chance or shows what was hidden.

        Deals, shuffles, draws and the fight dice. Another
        plugin's event (an expansion's) counts as revealing: it cannot be taken back.
        """
        return not isinstance(event, events_.EhreEvent) or isinstance(event, REVEALING)

    def hidden(self, state: State, seat: int | None) -> Collection[str]:
        """Return the tokens hidden from ``seat``."""
        return view_.hidden(state, seat)

    def sample(self, view: Any, seat: int, rng: random.Random) -> State:
        """Return a whole state consistent with a seat's view."""
        return view_.sample(self.cards, view, seat, rng)
