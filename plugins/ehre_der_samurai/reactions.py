"""Answers out of turn: Save Face after a lost fight, the answers to a Dishonour, the castle.

A window awaits several seats at once; each answers in any order, hidden from the others.
When the last answer is in, the window resolves in seat order from the active seat: the
first Save Face saves, every other Save Face stays in its hand (EDS-SAVE-3).
"""

from __future__ import annotations

from collections.abc import Sequence

from . import commands as cmd
from .events import (
    Answered,
    CastleLeft,
    CastleTaken,
    FightEnded,
    HonourPaid,
    SeppukuCommitted,
    ShogunPassed,
    WindowClosed,
)
from .game import Game
from .houses import castle_of
from .losses import empty_samurai_house, lose_daimyo_house
from .state import PASS, PAY, SEPPUKU, WAITING, State, seat_order
from .turn import Turn, end_alliance, game_of, refuse


def window_answers(state: State) -> Sequence[str | None] | None:
    """Return the answers of the open window, or ``None`` when no window is open."""
    if state.fight is not None:
        return state.fight.answers if state.fight.stage == "window" else None
    if state.insult is not None:
        return state.insult.answers
    return None


def first_save(game: Game, state: State, answers: Sequence[str | None]) -> int | None:
    """Return the first seat, from the active one on, that answered with Save Face."""
    by_id = game.cards.by_id
    for seat in seat_order(state, state.turn):
        answer = answers[seat]
        if answer and answer in by_id and by_id[answer].kind == "save-face":
            return seat
    return None


def _awaited(turn: Turn, seat: int) -> Sequence[str | None]:
    answers = window_answers(turn.state)
    if answers is None or answers[seat] != WAITING:
        refuse("Save Face is only played in answer to a lost fight or a Dishonour", "EDS-SAVE-1")
    return answers


def save_or_pass(turn: Turn, seat: int, command: cmd.SaveFace | cmd.Pass) -> None:
    """Answer a window with Save Face or a pass (EDS-SAVE-1, -2)."""
    _awaited(turn, seat)
    insult = turn.state.insult
    if isinstance(command, cmd.Pass):
        if insult is not None and seat == insult.victim:
            refuse("the victim pays, saves face or commits seppuku", "EDS-DISHONOUR-2")
        _answer(turn, seat, PASS)
        return
    player = turn.state.players[seat]
    if command.card not in player.hand or game_of(turn).cards.kind(command.card) != "save-face":
        refuse(f"{command.card} is not a Save Face card in your hand", "EDS-SAVE-1")
    _answer(turn, seat, command.card)


def answer_dishonour(turn: Turn, seat: int, command: cmd.PayHonour | cmd.Seppuku) -> None:
    """Answer a Dishonour as its victim: pay 75 honour or commit seppuku (EDS-DISHONOUR-2)."""
    insult = turn.state.insult
    if insult is None or seat != insult.victim or insult.answers[seat] != WAITING:
        refuse("only the victim of a Dishonour pays or commits seppuku", "EDS-DISHONOUR-2")
    if isinstance(command, cmd.PayHonour):
        _answer(turn, seat, PAY)
        return
    if not turn.state.players[seat].has_house(command.house):
        refuse("a Ronin has no Daimyo to commit seppuku", "EDS-DISHONOUR-3")
    _answer(turn, seat, SEPPUKU[command.house])


def _answer(turn: Turn, seat: int, answer: str) -> None:
    turn.emit(Answered(seat=seat, answer=answer))
    answers = window_answers(turn.state)
    if answers is not None and WAITING in answers:
        return  # EDS-SAVE-3: the window waits for every answer
    if turn.state.fight is not None:
        _close_fight(turn)
    else:
        _close_insult(turn)


def _closing(turn: Turn, for_seat: int, answers: Sequence[str | None]) -> int | None:
    saved_by = first_save(game_of(turn), turn.state, answers)
    card = answers[saved_by] if saved_by is not None else None
    turn.emit(WindowClosed(for_seat=for_seat, saved_by=saved_by, card=card))
    return saved_by


def _close_fight(turn: Turn) -> None:
    fight = turn.state.fight
    assert fight is not None
    saved_by = _closing(turn, fight.loser, fight.answers)
    if saved_by is not None and turn.state.options.save_face_cancels_fight:
        turn.emit(FightEnded(winner=fight.winner, loser=fight.loser, saved=True))  # EDS-ATTACK-8
        return
    if castle_of(game_of(turn).cards, turn.state.players[fight.loser]) is not None:
        return  # the winner chooses about the castle (EDS-ATTACK-7)
    finish_fight(turn)


def finish_fight(turn: Turn) -> None:
    """Pass the Shogun and discard the loser's Daimyo house unless saved (EDS-ATTACK-6, -9)."""
    fight = turn.state.fight
    assert fight is not None
    saved = fight.saved_by is not None
    if not saved:
        lose_daimyo_house(turn, fight.loser, "fallen", shogun_to=fight.winner)
    elif turn.state.shogun == fight.loser:
        turn.emit(ShogunPassed(loser=fight.loser, winner=fight.winner))
    turn.emit(FightEnded(winner=fight.winner, loser=fight.loser, saved=saved))


def castle_choice(turn: Turn, seat: int, command: cmd.TakeCastle | cmd.LeaveCastle) -> None:
    """Take (or swap for) the loser's castle, or leave it (EDS-ATTACK-7)."""
    fight = turn.state.fight
    if fight is None or fight.stage != "castle" or seat != fight.winner:
        refuse("only the winner of a fight chooses about the loser's castle", "EDS-ATTACK-7")
    if isinstance(command, cmd.TakeCastle):
        cards = game_of(turn).cards
        castle = castle_of(cards, turn.state.players[fight.loser])
        assert castle is not None
        own = castle_of(cards, turn.state.players[seat])
        turn.emit(CastleTaken(seat=seat, castle=castle, loser=fight.loser, swapped=own))
    else:
        turn.emit(CastleLeft(seat=seat))
    finish_fight(turn)


def _close_insult(turn: Turn) -> None:
    insult = turn.state.insult
    assert insult is not None
    victim = insult.victim
    if _closing(turn, victim, insult.answers) is not None:
        return  # EDS-DISHONOUR-2: saved, and the alliance holds (EDS-ALLY-6)
    answer = insult.answers[victim]
    if answer == PAY:
        turn.emit(HonourPaid(seat=victim, honour=game_of(turn).numbers.dishonour_price))
    elif answer == SEPPUKU["daimyo"]:
        turn.emit(SeppukuCommitted(seat=victim, house="daimyo"))
        lose_daimyo_house(turn, victim, "dishonour")
    else:
        turn.emit(SeppukuCommitted(seat=victim, house="samurai"))
        empty_samurai_house(turn, victim)
    ally = turn.state.players[victim].ally
    ends = turn.state.options.dishonour_ends_alliance
    if ally is not None and (ends == "any" or ally == insult.dishonourer):
        end_alliance(turn, victim, "dishonour")  # EDS-ALLY-6
