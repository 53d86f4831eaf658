"""Phase 2's declarations: Shogun, attack, ally, leave an alliance (one per turn)."""

from __future__ import annotations

import random

from . import commands as cmd
from .events import AllianceFormed, AllianceLeaving, AttackDeclared, FightRolled, ShogunDeclared
from .game import Game
from .houses import castle_of
from .state import State
from .turn import Turn, game_of, refuse, shogun_duty


def _one_declaration(turn: Turn, shogun: bool = False) -> None:
    state = turn.state
    if state.declared:
        refuse("you have made your declaration this turn", "EDS-DECLARE-1")
    if not shogun and shogun_duty(game_of(turn), state):
        refuse(
            f"with {game_of(turn).numbers.shogun_duty} honour or more your declaration must be "
            "that your Daimyo is now Shogun",
            "EDS-SHOGUN-3",
        )


def declare_shogun(turn: Turn, seat: int, command: cmd.DeclareShogun) -> None:
    """Take the Shogun card while nobody holds it, with a Daimyo (EDS-SHOGUN-1, -2)."""
    _one_declaration(turn, shogun=True)
    if turn.state.shogun is not None:
        refuse("another Daimyo is Shogun", "EDS-SHOGUN-1")
    if turn.state.players[seat].daimyo is None:
        refuse("a Ronin has no Daimyo to name Shogun", "EDS-SHOGUN-2")
    turn.emit(ShogunDeclared(seat=seat))


def side_strength(game: Game, state: State, seat: int) -> int:
    """Return a fighting side's strength: its own, its ally's added (EDS-ATTACK-3)."""
    player = state.players[seat]
    strength = game.values.strength_of(player)
    if player.ally is not None:
        strength += game.values.strength_of(state.players[player.ally])
    return strength


def dice_of(game: Game, state: State, seat: int) -> tuple[int, int]:
    """Return a side's strength and dice (EDS-ATTACK-3)."""
    strength = side_strength(game, state, seat)
    dice = game.hook.ehre_der_samurai_fight_dice(strength=strength, numbers=game.numbers)
    return strength, int(dice)


def attack_refusal(game: Game, state: State, seat: int, target: int) -> None:
    """Refuse an attack on a target that may not be attacked, or by a Ronin (EDS-ATTACK)."""
    if state.players[seat].daimyo is None:
        refuse("a player without a Daimyo may not attack", "EDS-ATTACK-2")
    if target == seat or target >= state.count:
        refuse("attack another player", "EDS-ATTACK-1")
    defender = state.players[target]
    if state.shogun != target and castle_of(game.cards, defender) is None:
        refuse("only a player holding the Shogun or a castle may be attacked", "EDS-ATTACK-1")
    if dice_of(game, state, seat)[1] < 1:
        refuse(
            f"your strength gives no die: an attack needs {game.numbers.strength_per_die} strength",
            "EDS-ATTACK-4",
        )


def roll(rng: random.Random, dice: int) -> tuple[int, ...]:
    """Roll some dice."""
    return tuple(rng.randint(1, 6) for _ in range(dice))


def attack(turn: Turn, seat: int, command: cmd.Attack) -> None:
    """Declare an attack and fight it out: both roll, the higher sum wins (EDS-ATTACK-5)."""
    _one_declaration(turn)
    attack_refusal(game_of(turn), turn.state, seat, command.target)
    own = dice_of(game_of(turn), turn.state, seat)
    theirs = dice_of(game_of(turn), turn.state, command.target)
    turn.emit(AttackDeclared(seat=seat, target=command.target, strength=(own[0], theirs[0]),
                             dice=(own[1], theirs[1])))  # fmt: skip
    attacker_rolls: list[tuple[int, ...]] = []
    defender_rolls: list[tuple[int, ...]] = []
    while True:  # a tie rolls again; the attacker has at least one die, so a side wins
        attacker_rolls.append(roll(turn.rng, own[1]))
        defender_rolls.append(roll(turn.rng, theirs[1]))
        ours, yours = sum(attacker_rolls[-1]), sum(defender_rolls[-1])
        if ours != yours:
            break
    winner, loser = (seat, command.target) if ours > yours else (command.target, seat)
    turn.emit(FightRolled(attacker_rolls=tuple(attacker_rolls),
                          defender_rolls=tuple(defender_rolls), winner=winner, loser=loser))  # fmt: skip


def ally(turn: Turn, seat: int, command: cmd.Ally) -> None:
    """Ally a Ronin with a player who has a Daimyo and no ally; it must accept (EDS-ALLY-1..3)."""
    _one_declaration(turn)
    player, state = turn.state.players[seat], turn.state
    if not player.is_ronin:
        refuse("only a Ronin declares an alliance", "EDS-ALLY-1")
    if player.ally is not None:
        refuse("you already have an ally", "EDS-ALLY-1")
    target = command.target
    if target == seat or target >= state.count or state.players[target].daimyo is None:
        refuse("ally with another player who has a Daimyo", "EDS-ALLY-2")
    if state.players[target].ally is not None:
        refuse("that player already has an ally", "EDS-ALLY-2")
    turn.emit(AllianceFormed(ronin=seat, daimyo=target))


def leave_alliance(turn: Turn, seat: int, command: cmd.LeaveAlliance) -> None:
    """Leave an alliance: pay 25 honour; it ends at your next turn (EDS-LEAVE-1, -2)."""
    _one_declaration(turn)
    player = turn.state.players[seat]
    if player.ally is None:
        refuse("you have no alliance to leave", "EDS-LEAVE-1")
    if player.leaving or turn.state.players[player.ally].leaving:
        refuse("the alliance is already being left", "EDS-LEAVE-1")
    turn.emit(AllianceLeaving(seat=seat, cost=game_of(turn).numbers.leave_price))
