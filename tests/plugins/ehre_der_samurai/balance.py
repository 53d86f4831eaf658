"""Balance figures for the cards whose values are ours: seeded matches of simple bots.

Run ``python -m tests.plugins.ehre_der_samurai.balance`` for the figures recorded in
docs/rules/ehre-der-samurai.md ("Balance"). Two kinds of players take part: the random bot of
the engine, and a greedy bot that plays the card worth most to its own houses, declares
Shogun when it may, attacks when its dice are more, allies as a Ronin and saves its own face.
"""

from __future__ import annotations

import argparse
import random
import statistics
from collections import Counter
from collections.abc import Callable, Sequence
from typing import Any

from gamehall.core import Command, RandomBot, Registry, Table, default_registry
from gamehall.plugins.ehre_der_samurai.api import View
from gamehall.plugins.ehre_der_samurai.cards import card
from gamehall.plugins.ehre_der_samurai.commands import (
    Ally,
    Attack,
    DeclareShogun,
    Discard,
    Draw,
    EndTurn,
    Pass,
    PayHonour,
    Play,
    PlayDishonour,
    SaveFace,
    SendAssassin,
    SendThief,
    Seppuku,
    TakeCastle,
)
from gamehall.plugins.ehre_der_samurai.events import AttackDeclared, FightRolled


def _worth(token: str) -> float:
    found = card(token)
    if found is None:
        return 0.0
    return found.honour + 3.0 * found.ki + 0.7 * found.strength


def _house_worth(tokens: Sequence[str]) -> float:
    return sum(_worth(t) for t in tokens)


def _strength(view: View, seat: int) -> int:
    p = view.players[seat]
    tokens = [p.samurai, *p.samurai_house] + ([p.daimyo, *p.daimyo_house] if p.daimyo else [])
    total = 0
    for t in tokens:
        found = card(t)
        total += found.strength if found is not None else 0
    return total


def _side(view: View, seat: int) -> int:
    ally = view.players[seat].ally
    return _strength(view, seat) + (_strength(view, ally) if ally is not None else 0)


def _leader(view: View, seat: int) -> int:
    others = [p for p in view.players if p.seat != seat]
    return max(others, key=lambda p: p.honour).seat


class GreedyBot:
    """Choose the command that looks best for the seat's own houses, from its view only."""

    def __init__(self, seed: int | str) -> None:
        self.rng = random.Random(seed)

    def choose(self, seat: int, legal: Sequence[Command], view: Callable[[], Any]) -> Command:
        """Return the best-scoring legal command (ties broken at random)."""
        seen: View = view()
        scored = [(self.score(c, seen, seat) + self.rng.random() * 0.01, i) for i, c in
                  enumerate(legal)]  # fmt: skip
        return legal[max(scored)[1]]

    def score(self, command: Command, view: View, seat: int) -> float:
        """Return how good a command looks."""
        me = view.players[seat]
        leader = _leader(view, seat)
        # Strike only at a leader close to the target: honour spent on the others is lost.
        threat = view.players[leader].honour >= 0.6 * view.options.honour_target
        if isinstance(command, Play):
            found = card(command.card)
            if found is not None and found.kind == "daimyo":
                return 100.0
            own = 1.0 if command.owner == seat else 0.4
            return 5.0 + own * _worth(command.card)
        if isinstance(command, DeclareShogun):
            return 90.0
        if isinstance(command, Attack):
            ours, theirs = _side(view, seat) // 3, _side(view, command.target) // 3
            return 60.0 + 5 * (ours - theirs) if ours > theirs else -5.0
        if isinstance(command, Ally):
            return 80.0 + 0.1 * _house_worth(view.players[command.target].daimyo_house)
        if isinstance(command, Draw):
            return 12.0 if len(me.hand or ()) < 3 or me.daimyo is None else 0.5
        if isinstance(command, SendThief):
            mine = command.loot in (*me.daimyo_house, *me.samurai_house)
            return -9.0 if mine or _worth(command.loot) < 10 else _worth(command.loot) - 5
        if isinstance(command, SendAssassin):
            target = view.players[command.owner]
            if command.owner != leader or not threat or command.house != "daimyo":
                return -50.0
            return 0.5 * _house_worth(target.daimyo_house) - 10
        if isinstance(command, PlayDishonour):
            return 15.0 if command.victim == leader and threat else -5.0
        if isinstance(command, SaveFace):
            whom = view.fight.loser if view.fight else view.insult.victim if view.insult else seat
            return 50.0 if whom == seat or whom == me.ally else -1.0
        if isinstance(command, Pass):
            return 0.0
        if isinstance(command, PayHonour):
            return 10.0 - 0.1 * max(0, 75 - me.honour)
        if isinstance(command, Seppuku):
            house = me.daimyo_house if command.house == "daimyo" else me.samurai_house
            return 20.0 - _house_worth(house) - (40 if command.house == "daimyo" else 0)
        if isinstance(command, TakeCastle):
            return 10.0
        if isinstance(command, Discard):
            if me.daimyo is None and len(me.hand or ()) >= 7:
                return 6.0 - _worth(command.card) / 10  # make room to draw a Daimyo
            return -20.0 if len(me.hand or ()) < 7 else -2.0
        if isinstance(command, EndTurn):
            return 1.0
        return -10.0  # leaving an alliance, leaving a castle


def play(
    registry: Registry, players: int, seed: int, greedy: Sequence[int], options: dict[str, Any]
) -> Table:
    """Play one seeded match with greedy bots in some seats and random bots elsewhere."""
    table = Table.new("ehre-der-samurai", players, options=options, seed=seed, registry=registry)
    bots: dict[int, Any] = {
        s: GreedyBot(f"{seed}:{s}") if s in greedy else RandomBot(f"{seed}:{s}")
        for s in range(players)
    }
    table.play(bots, max_commands=50_000)
    return table


def figures(
    players: int, games: int, greedy: str, options: dict[str, Any], registry: Registry | None
) -> dict[str, Any]:
    """Return the figures of a batch of matches."""
    registry = registry or default_registry()
    wins: Counter[int] = Counter()
    rounds, shogun_won, fights, attacker_won = [], 0, 0, 0
    greedy_wins = 0
    for seed in range(games):
        seats = {"all": range(players), "none": (), "one": (seed % players,)}[greedy]
        table = play(registry, players, seed, tuple(seats), options)
        state = table.state
        if state.winner is None:
            continue
        wins[state.winner] += 1
        greedy_wins += state.winner in seats
        rounds.append(state.round)
        shogun_won += state.shogun == state.winner
        attacker = None
        for event in table.events:
            if isinstance(event, AttackDeclared):
                attacker = event.seat
            elif isinstance(event, FightRolled):
                fights += 1
                attacker_won += event.winner == attacker
    return {
        "players": players,
        "games": games,
        "greedy": greedy,
        "finished": sum(wins.values()),
        "rounds_mean": round(statistics.mean(rounds), 1) if rounds else 0,
        "rounds_median": statistics.median(rounds) if rounds else 0,
        "wins_by_seat": [wins[s] for s in range(players)],
        "winner_holds_shogun": shogun_won,
        "fights": fights,
        "attacker_won": attacker_won,
        "greedy_wins": greedy_wins,
    }


def main(argv: list[str] | None = None) -> int:
    """Print the balance figures."""
    parser = argparse.ArgumentParser(prog="python -m tests.plugins.ehre_der_samurai.balance")
    parser.add_argument("--games", type=int, default=200)
    args = parser.parse_args(argv)
    for greedy in ("none", "all", "one"):
        for players in (3, 4, 5, 6):
            print(figures(players, args.games, greedy, {}, None))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
