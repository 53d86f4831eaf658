"""Balance figures of Generals of Kaladan: seeded matches of the engine's random bot.

Run ``python -m tests.plugins.kaladan.balance`` for the table in docs/rules/kaladan.md
("Balance"): per player count, how many matches ended, the mean and median number of rounds,
the wins by seat and by place in the turn order (rolled each match, KAL-SETUP-1; a drawn match
counts for no one), with today's defaults and with the
readings of version 1.0 (a plain Forest holds 3, no castle die). Match ``i`` uses seed
``i``; the bot of seat ``s`` is seeded ``"i:s"``.
"""

from __future__ import annotations

import argparse
import statistics
from collections import Counter
from typing import Any

from gamehall.core import RandomBot, Table

READINGS: dict[str, dict[str, Any]] = {
    "1.1 (seed)": {},
    "1.0 readings": {
        "terrain_capacity": "compendium",
        "castle_die_defender": "owner",
        "castle_defence_die": 0,
    },
}
MAX_COMMANDS = 20_000


def figures(players: int, games: int, options: dict[str, Any]) -> dict[str, Any]:
    """Return the figures of ``games`` random matches at one player count."""
    wins: Counter[int] = Counter()
    places: Counter[int] = Counter()
    rounds: list[int] = []
    draws = unfinished = 0
    for seed in range(games):
        table = Table.new("kaladan", players, options=options, seed=seed)
        bots = {s: RandomBot(f"{seed}:{s}") for s in range(players)}
        table.play(bots, max_commands=MAX_COMMANDS)
        state = table.state
        if not state.over:
            unfinished += 1
            continue
        rounds.append(state.round)
        if len(state.winners) == 1:
            wins[state.winners[0]] += 1
            places[state.order.index(state.winners[0])] += 1
        else:
            draws += 1
    return {
        "players": players,
        "games": games,
        "ended": games - unfinished,
        "rounds_mean": round(statistics.mean(rounds), 1) if rounds else 0,
        "rounds_median": statistics.median(rounds) if rounds else 0,
        "wins_by_seat": [wins[s] for s in range(players)],
        "wins_by_place": [places[p] for p in range(players)],
        "draws": draws,
    }


def main(argv: list[str] | None = None) -> int:
    """Print the balance table as Markdown rows."""
    parser = argparse.ArgumentParser(prog="python -m tests.plugins.kaladan.balance")
    parser.add_argument("--games", type=int, default=200)
    args = parser.parse_args(argv)
    print("| rules | players | ended | rounds (mean, median) | wins by seat | wins by place "
          "in the turn order | draws |")  # fmt: skip
    print("|---|---|---|---|---|---|---|")
    for name, options in READINGS.items():
        for players in range(2, 7):
            f = figures(players, args.games, options)
            wins = ", ".join(map(str, f["wins_by_seat"]))
            places = ", ".join(map(str, f["wins_by_place"]))
            print(f"| {name} | {players} | {f['ended']} | {f['rounds_mean']}, "
                  f"{f['rounds_median']} | {wins} | {places} | {f['draws']} |", flush=True)  # fmt: skip
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
