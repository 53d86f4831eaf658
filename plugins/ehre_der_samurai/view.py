"""What each seat may see, redacted events, hidden tokens and the sampler (EDS-HIDDEN).

A seat sees its own hand, the size of every other hand, every house face up, the discard
pile, the size of the deck (never its order), and of an open window who has answered and its
own answer only. The sampler draws the unseen cards (other hands, the deck) uniformly: it
does not narrow them by what a seat could infer from a rebuilt deck (which cards went into
it), and it takes another seat's hidden answer in an open window for a pass (or, from the
victim of a Dishonour, a payment), which every hand allows.
"""

from __future__ import annotations

import random
from collections.abc import Collection
from typing import Any

import msgspec

from .cards import SHOGUN, Catalogue
from .houses import Numbers
from .state import PASS, PAY, PROVINCES, WAITING, Fight, Insult, Options, Player, State


class PlayerView(msgspec.Struct, frozen=True):
    """One player as the asking seat sees it; ``hand`` is ``None`` for anyone but its owner."""

    seat: int
    name: str
    samurai: str
    samurai_house: tuple[str, ...]
    daimyo: str | None
    daimyo_house: tuple[str, ...]
    hand_size: int
    honour: int
    ally: int | None
    leaving: bool
    hand: tuple[str, ...] | None = None


class FightView(msgspec.Struct, frozen=True):
    """An open fight: who fought and won, and who has answered the Save Face window."""

    attacker: int
    defender: int
    winner: int
    loser: int
    stage: str
    answered: tuple[bool, ...]
    saved_by: int | None


class InsultView(msgspec.Struct, frozen=True):
    """An open Dishonour: who played it on whom, who is asked and who has answered."""

    dishonourer: int
    victim: int
    card: str
    asked: tuple[bool, ...]
    answered: tuple[bool, ...]


class View(msgspec.Struct, frozen=True):
    """The match as one seat (``None``: a spectator) may see it."""

    seat: int | None
    options: Options
    numbers: Numbers
    players: tuple[PlayerView, ...]
    reserve: tuple[str, ...]
    deck_size: int
    discard: tuple[str, ...]
    shogun: int | None
    turn: int
    round: int
    actions_used: int
    declared: bool
    fight: FightView | None
    insult: InsultView | None
    my_answer: str | None
    winner: int | None
    ext: dict[str, Any] = {}


def _player(player: Player, seat: int, asking: int | None) -> PlayerView:
    return PlayerView(
        seat=seat,
        name=PROVINCES[seat],
        samurai=player.samurai,
        samurai_house=player.samurai_house,
        daimyo=player.daimyo,
        daimyo_house=player.daimyo_house,
        hand_size=len(player.hand),
        honour=player.honour,
        ally=player.ally,
        leaving=player.leaving,
        hand=player.hand if seat == asking else None,
    )


def _given(answer: str | None) -> bool:
    return answer is not None and answer != WAITING


def view(state: State, seat: int | None, numbers: Numbers) -> View:
    """Return the match as ``seat`` may see it."""
    fight = insult = None
    answers: tuple[str | None, ...] = ()
    if state.fight is not None:
        f = state.fight
        answers = f.answers
        fight = FightView(f.attacker, f.defender, f.winner, f.loser, f.stage,
                          tuple(_given(a) for a in f.answers), f.saved_by)  # fmt: skip
    if state.insult is not None:
        i = state.insult
        answers = i.answers
        insult = InsultView(i.dishonourer, i.victim, i.card, tuple(a is not None for a in i.answers),
                            tuple(_given(a) for a in i.answers))  # fmt: skip
    mine = answers[seat] if seat is not None and answers and _given(answers[seat]) else None
    return View(
        seat=seat,
        options=state.options,
        numbers=numbers,
        players=tuple(_player(p, s, seat) for s, p in enumerate(state.players)),
        reserve=state.reserve,
        deck_size=len(state.deck),
        discard=state.discard,
        shogun=state.shogun,
        turn=state.turn,
        round=state.round,
        actions_used=state.actions_used,
        declared=state.declared,
        fight=fight,
        insult=insult,
        my_answer=mine,
        winner=state.winner,
        ext=state.ext,
    )


def hidden(state: State, seat: int | None) -> Collection[str]:
    """Return the cards of the deck and of every hand but ``seat``'s."""
    out = set(state.deck)
    for other, player in enumerate(state.players):
        if other != seat:
            out.update(player.hand)
    return out


def _seen(seen: View) -> set[str]:
    out = set(seen.reserve) | set(seen.discard) | {SHOGUN}
    for p in seen.players:
        out.update(p.samurai_house, p.daimyo_house, p.hand or (), (p.samurai,))
        if p.daimyo is not None:
            out.add(p.daimyo)
    return out


def sample(cards: Catalogue, seen: View, seat: int, rng: random.Random) -> State:
    """Return a state ``seat`` could be in: other hands and the deck drawn from the unseen."""
    known = _seen(seen)
    pool = [c.id for c in cards.cards if c.id not in known]
    rng.shuffle(pool)
    players = []
    for p in seen.players:
        if p.hand is not None:
            hand = p.hand
        else:
            hand, pool = tuple(pool[: p.hand_size]), pool[p.hand_size :]
        players.append(Player(p.samurai, p.samurai_house, p.daimyo, p.daimyo_house, hand,
                              p.honour, p.ally, p.leaving))  # fmt: skip
    if len(pool) != seen.deck_size:
        raise ValueError(f"{len(pool)} unseen cards left for a deck of {seen.deck_size}")
    return State(
        options=seen.options,
        players=tuple(players),
        reserve=seen.reserve,
        deck=tuple(pool),
        discard=seen.discard,
        shogun=seen.shogun,
        turn=seen.turn,
        round=seen.round,
        actions_used=seen.actions_used,
        declared=seen.declared,
        fight=_sample_fight(seen, seat),
        insult=_sample_insult(seen, seat),
        winner=seen.winner,
        ext=dict(seen.ext),
    )


def _answer(given: bool, own: bool, seen: View, guess: str) -> str:
    # Another seat's answer is hidden: a pass (or the victim's payment) fits every hand.
    if not given:
        return WAITING
    return (seen.my_answer or guess) if own else guess


def _sample_fight(seen: View, seat: int) -> Fight | None:
    f = seen.fight
    if f is None:
        return None
    answers = tuple(_answer(g, s == seat, seen, PASS) for s, g in enumerate(f.answered))
    return Fight(f.attacker, f.defender, f.winner, f.loser, answers,
                 "castle" if f.stage == "castle" else "window", f.saved_by)  # fmt: skip


def _sample_insult(seen: View, seat: int) -> Insult | None:
    i = seen.insult
    if i is None:
        return None
    answers: list[str | None] = []
    for s, (asked, given) in enumerate(zip(i.asked, i.answered, strict=True)):
        guess = PAY if s == i.victim else PASS
        answers.append(_answer(given, s == seat, seen, guess) if asked else None)
    return Insult(i.dishonourer, i.victim, i.card, tuple(answers))
