"""Measure Gunsen's balance with random bots and write the table into docs/rules/gunsen.md.

Plays exactly what ``gamehall simulate gunsen --players N --games G --seed S`` plays (the same
seeds, the same bots per seat) and counts wins by clan, by seat and by the achievement that
ended the game. Run from the repository root::

    python tests/plugins/gunsen/gunsen_balance.py --games 500 --seed 1 --write

Each clan's win rate must stay within ten points of 1/N (GUN-BOT-1's companion check in
``test_gunsen_balance.py`` runs a small seeded version).
"""

from __future__ import annotations

import argparse
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from gamehall.core import RandomBot, Table, default_registry

DOC = Path(__file__).resolve().parents[3] / "docs" / "rules" / "gunsen.md"
MARK = "<!-- balance table -->"
TOLERANCE = 10.0


@dataclass
class Tally:
    """Wins and plays of one player count."""

    players: int
    games: int = 0
    wins: Counter[str] = field(default_factory=Counter)
    plays: Counter[str] = field(default_factory=Counter)
    seats: Counter[int] = field(default_factory=Counter)
    endings: Counter[str] = field(default_factory=Counter)
    unfinished: int = 0
    turns: int = 0
    seconds: float = 0.0

    def rate(self, clan: str) -> float:
        """Return a clan's win rate in percent."""
        return 100 * self.wins[clan] / self.plays[clan] if self.plays[clan] else 0.0

    def worst(self) -> float:
        """Return the largest distance of a clan's win rate from 1/N, in points."""
        return max(abs(self.rate(c) - 100 / self.players) for c in self.plays)


def measure(players: int, games: int, seed: int) -> Tally:
    """Play the games ``gamehall simulate`` would play and count them."""
    ruleset = default_registry().ruleset("gunsen")
    tally = Tally(players)
    started = time.perf_counter()
    for index in range(games):
        table = Table(ruleset, ruleset.started(players, None, None, seed + index))
        bots = {s: RandomBot(f"bot:{seed + index}:{s}") for s in range(players)}
        outcome = table.play(bots)
        clans = [p.clan for p in table.state.players]
        tally.plays.update(clans)
        tally.games += 1
        tally.turns += table.state.turns
        if outcome is None:
            tally.unfinished += 1
            continue
        winner = outcome.winners[0]
        tally.wins[clans[winner]] += 1
        tally.seats[winner] += 1
        tally.endings[table.state.ending] += 1
    tally.seconds = time.perf_counter() - started
    return tally


def table_text(tallies: list[Tally], games: int, seed: int) -> str:
    """Return the balance tables as Markdown."""
    clans = sorted({c for t in tallies for c in t.plays})
    head = "| clan | " + " | ".join(f"{t.players} players" for t in tallies) + " |"
    lines = [
        (
            f"{games} games per player count, seeds {seed}-{seed + games - 1} (`gamehall simulate "
            f"gunsen --players N --games {games} --seed {seed}` plays the same games). Win rate of "
            "each clan (games won / games played by that clan); the target is 1/N ± 10 points."
        ),
        "",
        head,
        "|---|" + "---|" * len(tallies),
    ]
    for clan in clans:
        cells = [f"{t.rate(clan):.1f}% ({t.wins[clan]}/{t.plays[clan]})" for t in tallies]
        lines.append(f"| {clan} | " + " | ".join(cells) + " |")
    lines.append("| target | " + " | ".join(f"{100 / t.players:.1f}%" for t in tallies) + " |")
    lines.append("| worst distance | " + " | ".join(f"{t.worst():.1f}" for t in tallies) + " |")
    lines += ["", "Wins by seat (seat 0 first):", ""]
    for t in tallies:
        seats = ", ".join(f"{100 * t.seats[s] / t.games:.1f}%" for s in range(t.players))
        lines.append(f"- {t.players} players: {seats}")
    lines += ["", "The achievement whose marker ended the game (the seventh):", ""]
    for t in tallies:
        mix = ", ".join(f"{box} {n}" for box, n in t.endings.most_common())
        lines.append(f"- {t.players} players: {mix}; mean {t.turns / t.games:.0f} turns")
    return "\n".join(lines) + "\n"


def write(text: str) -> None:
    """Replace everything after the marker in the rules doc with the table."""
    doc = DOC.read_text()
    head = doc[: doc.index(MARK) + len(MARK)]
    DOC.write_text(f"{head}\n\n{text}")


def main(argv: list[str] | None = None) -> int:
    """Measure every player count; fail when a clan is outside the tolerance."""
    parser = argparse.ArgumentParser(prog="gunsen_balance.py")
    parser.add_argument("--games", type=int, default=500)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--players", type=int, nargs="*", default=[2, 3, 4, 5, 6])
    parser.add_argument("--write", action="store_true", help="write the table into the doc")
    args = parser.parse_args(argv)
    tallies = []
    for players in args.players:
        tally = measure(players, args.games, args.seed)
        tallies.append(tally)
        print(
            f"{players} players: worst {tally.worst():.1f} points, {tally.seconds:.0f} s",
            flush=True,
        )
    text = table_text(tallies, args.games, args.seed)
    print(text)
    if args.write:
        write(text)
    return 0 if all(t.worst() <= TOLERANCE and not t.unfinished for t in tallies) else 1


if __name__ == "__main__":
    raise SystemExit(main())
