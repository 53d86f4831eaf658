"""Every legal command of a seat: the answers it owes, or its turn's actions and declarations."""

from __future__ import annotations

from gamehall.core import Command

from . import commands as cmd
from .actions import actions_left
from .declarations import dice_of
from .game import Game
from .houses import castle_of, dishonour_cost, limit_refusal, partners
from .state import HOUSES, WAITING, Player, State
from .turn import shogun_duty

END = cmd.EndTurn()
PASS = cmd.Pass()
PAY = cmd.PayHonour()
CASTLE = (cmd.TakeCastle(), cmd.LeaveCastle())


def legal(game: Game, state: State, seat: int) -> list[Command]:
    """Return every command ``seat`` may send now."""
    if state.over:
        return []
    if state.fight is not None:
        fight = state.fight
        if fight.stage == "castle":
            return list(CASTLE) if seat == fight.winner else []
        return [*_saves(game, state, seat), PASS] if fight.answers[seat] == WAITING else []
    if state.insult is not None:
        return _dishonour_answers(game, state, seat)
    return _turn(game, state, seat) if seat == state.turn else []


def _saves(game: Game, state: State, seat: int) -> list[Command]:
    by_id = game.cards.by_id
    return [cmd.SaveFace(card=c) for c in state.players[seat].hand if by_id[c].kind == "save-face"]


def _dishonour_answers(game: Game, state: State, seat: int) -> list[Command]:
    insult = state.insult
    assert insult is not None
    if insult.answers[seat] != WAITING:
        return []
    saves = _saves(game, state, seat)
    if seat != insult.victim:
        return [*saves, PASS]
    player = state.players[seat]
    seppuku = [cmd.Seppuku(house=h) for h in HOUSES if player.has_house(h)]
    return [PAY, *saves, *seppuku]


def _turn(game: Game, state: State, seat: int) -> list[Command]:
    out: list[Command] = []
    left = actions_left(game, state)
    if left >= 1:
        out.extend(_card_actions(game, state, seat, left))
    duty = shogun_duty(game, state)
    if duty:
        out.append(cmd.DeclareShogun())
    elif not state.declared:
        out.extend(_declarations(game, state, seat))
    if not duty:
        out.append(END)
    return out


def _card_actions(game: Game, state: State, seat: int, left: int) -> list[Command]:
    player = state.players[seat]
    out: list[Command] = []
    if len(player.hand) < game.numbers.hand_limit and (state.deck or state.discard):
        out.append(cmd.Draw())
    out.extend(cmd.Discard(card=c) for c in player.hand)
    by_id = game.cards.by_id
    for card in player.hand:
        kind = by_id[card].kind
        if kind == "daimyo":
            if player.daimyo is None:
                out.append(cmd.Play(card=card, owner=seat, house="daimyo"))
        elif kind == "thief":
            out.extend(_thefts(game, state, seat, card))
        elif kind == "assassin":
            out.extend(_assassins(state, card))
        elif kind == "dishonour":
            if left >= dishonour_cost(game.numbers, state.options):
                victims = (v for v in range(state.count) if v != seat)
                out.extend(cmd.PlayDishonour(card=card, victim=v) for v in victims)
        elif kind != "save-face":
            out.extend(_plays(game, state, seat, card))
    return out


def _plays(game: Game, state: State, seat: int, card: str) -> list[Command]:
    out: list[Command] = []
    for owner in partners(state, seat):
        player = state.players[owner]
        for house in HOUSES:
            if limit_refusal(game.cards, game.numbers, player, house, card) is None:
                out.append(cmd.Play(card=card, owner=owner, house=house))
    return out


def _thefts(game: Game, state: State, seat: int, card: str) -> list[Command]:
    own: Player = state.players[seat]
    by_id = game.cards.by_id
    out: list[Command] = []
    for owner, player in enumerate(state.players):
        for house in HOUSES:
            for loot in player.house(house):
                if by_id[loot].kind not in ("warrior", "possession"):
                    continue
                for to in HOUSES:
                    if (owner, house) == (seat, to):
                        continue
                    if limit_refusal(game.cards, game.numbers, own, to, loot) is None:
                        out.append(cmd.SendThief(card=card, loot=loot, to=to))
    return out


def _assassins(state: State, card: str) -> list[Command]:
    return [
        cmd.SendAssassin(card=card, owner=owner, house=house)
        for owner, player in enumerate(state.players)
        for house in HOUSES
        if player.has_house(house)
    ]


def _declarations(game: Game, state: State, seat: int) -> list[Command]:
    player = state.players[seat]
    out: list[Command] = []
    if player.daimyo is not None:
        if state.shogun is None:
            out.append(cmd.DeclareShogun())
        if dice_of(game, state, seat)[1] >= 1:
            out.extend(
                cmd.Attack(target=t)
                for t, other in enumerate(state.players)
                if t != seat and (state.shogun == t or castle_of(game.cards, other) is not None)
            )
    elif player.ally is None:
        out.extend(
            cmd.Ally(target=t)
            for t, other in enumerate(state.players)
            if t != seat and other.daimyo is not None and other.ally is None
        )
    ally = player.ally
    if ally is not None and not player.leaving and not state.players[ally].leaving:
        out.append(cmd.LeaveAlliance())
    return out
