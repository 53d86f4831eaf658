"""A round robin between bots, with win rates, draws and Elo ratings with intervals.

Every pair of bots plays the same number of two-player matches, taking seat 0 in turn, on
seeded in-memory tables. Ratings are the Bradley-Terry maximum-likelihood fit of all results
(a draw counts half a win for each), on the Elo scale (400 points: ten to one odds) with a
mean of 1500; one virtual draw per pair keeps a bot that never lost (or never won) finite.
The 95% intervals come from resampling each pair's matches (a seeded bootstrap), each match
drawn as a win, draw or loss with the pair's frequencies smoothed by half a match of each, so
that a clean sweep of a few matches still shows how little it proves.
"""

from __future__ import annotations

import itertools
import math
import random
import time
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import msgspec

from .bots.driver import bot_seed
from .bots.spec import check_bot, make_bot, parse_bot
from .errors import InvalidOptions
from .registry import Registry
from .table import Table

MEAN = 1500.0
BOOTSTRAP = 200


class Pairing(msgspec.Struct):
    """The matches of two bots: ``results`` from ``first``'s side (W, D or L each)."""

    first: str
    second: str
    results: str = ""

    @property
    def score(self) -> float:
        """Return ``first``'s score: wins plus half the draws."""
        return self.results.count("W") + 0.5 * self.results.count("D")


class Standing(msgspec.Struct, frozen=True):
    """One bot's results and rating."""

    bot: str
    games: int
    wins: int
    draws: int
    losses: int
    elo: float
    low: float
    high: float

    @property
    def score(self) -> float:
        """Return the share of points: wins plus half the draws, over the games."""
        return (self.wins + 0.5 * self.draws) / self.games if self.games else 0.0


class Tournament(msgspec.Struct):
    """What a round robin measured."""

    game: str
    ruleset: str
    bots: list[str]
    games: int
    seed: int
    pairings: list[Pairing]
    standings: list[Standing]
    seconds: float

    def score(self, row: str, column: str) -> float | None:
        """Return ``row``'s score share against ``column`` (``None`` on the diagonal)."""
        for pairing in self.pairings:
            played = len(pairing.results)
            if (pairing.first, pairing.second) == (row, column):
                return pairing.score / played if played else None
            if (pairing.second, pairing.first) == (row, column):
                return 1 - pairing.score / played if played else None
        return None


def labels(specs: Sequence[str]) -> list[str]:
    """Return a name per bot: its spec in words, numbered when it appears twice."""
    names: list[str] = []
    for spec in specs:
        name = str(parse_bot(spec))
        count = sum(1 for n in names if n == name or n.startswith(f"{name}#"))
        names.append(name if count == 0 else f"{name}#{count + 1}")
    return names


def round_robin(
    registry: Registry,
    game: str,
    specs: Sequence[str],
    games: int,
    *,
    expansions: Sequence[str] = (),
    options: Mapping[str, Any] | None = None,
    expansion_options: Mapping[str, Mapping[str, Any]] | None = None,
    seed: int = 0,
    max_commands: int = 100_000,
    advance: Callable[[], None] | None = None,
) -> Tournament:
    """Play ``games`` matches between every pair of bots; return the results and ratings."""
    if len(specs) < 2:
        raise InvalidOptions("a tournament needs at least two bots")
    if games < 1:
        raise InvalidOptions("a tournament needs at least one match per pair")
    ruleset = registry.ruleset(game, expansions)
    low, high = ruleset.player_range
    if not low <= 2 <= high:
        raise InvalidOptions(f"a tournament plays two-player matches; {game} needs {low}-{high}")
    names = labels(specs)
    bots = dict(zip(names, (str(parse_bot(s)) for s in specs), strict=True))
    for spec in bots.values():
        check_bot(parse_bot(spec), ruleset)
    started_at = time.perf_counter()
    pairings = [Pairing(a, b) for a, b in itertools.combinations(names, 2)]
    for number, pairing in enumerate(pairings):
        for index in range(games):
            match_seed = seed + number * games + index
            first = index % 2  # the first bot's seat: each takes seat 0 in turn
            order = {first: pairing.first, 1 - first: pairing.second}
            table = Table(ruleset, ruleset.started(2, options, expansion_options, match_seed))
            seated = {
                s: make_bot(bots[name], ruleset, bot_seed(seed, number, index, s))
                for s, name in order.items()
            }
            outcome = table.play(seated, max_commands)
            winners = outcome.winners if outcome is not None else ()
            won, lost = first in winners, (1 - first) in winners
            pairing.results += "W" if won and not lost else "L" if lost and not won else "D"
            if advance is not None:
                advance()
    return Tournament(
        game,
        ruleset.name,
        names,
        games,
        seed,
        pairings,
        standings(names, pairings, random.Random(seed)),
        time.perf_counter() - started_at,
    )


def standings(
    names: Sequence[str], pairings: Sequence[Pairing], rng: random.Random
) -> list[Standing]:
    """Return each bot's record and rating, best first."""
    ratings = ratings_of(names, pairings)
    samples: dict[str, list[float]] = {name: [] for name in names}
    weights = [[p.results.count(o) + 0.5 for o in "WDL"] for p in pairings]
    for _ in range(BOOTSTRAP):
        resampled = [
            Pairing(p.first, p.second, "".join(rng.choices("WDL", w, k=len(p.results))))
            for p, w in zip(pairings, weights, strict=True)
        ]
        for name, rating in ratings_of(names, resampled).items():
            samples[name].append(rating)
    out = []
    for name in names:
        record = [_from(name, p) for p in pairings if name in (p.first, p.second)]
        played = "".join(record)
        spread = sorted(samples[name])
        low, high = spread[int(0.025 * len(spread))], spread[int(0.975 * len(spread)) - 1]
        out.append(
            Standing(
                name, len(played), played.count("W"), played.count("D"), played.count("L"),
                ratings[name], low, high,
            )
        )  # fmt: skip
    return sorted(out, key=lambda s: -s.elo)


def _from(name: str, pairing: Pairing) -> str:
    if name == pairing.first:
        return pairing.results
    return pairing.results.translate(str.maketrans("WL", "LW"))


def ratings_of(names: Sequence[str], pairings: Sequence[Pairing]) -> dict[str, float]:
    """Return Bradley-Terry ratings on the Elo scale (mean 1500), draws as half wins."""
    index = {name: i for i, name in enumerate(names)}
    n = len(names)
    won = [0.0] * n
    played = [[0.0] * n for _ in range(n)]
    for p in pairings:
        a, b = index[p.first], index[p.second]
        games = len(p.results) + 1  # one virtual draw keeps every rating finite
        score = p.score + 0.5
        won[a] += score
        won[b] += games - score
        played[a][b] += games
        played[b][a] += games
    strength = [1.0] * n
    for _ in range(500):  # Zermelo's iteration (the MM algorithm), which converges fast here
        new = [
            won[i] / sum(played[i][j] / (strength[i] + strength[j]) for j in range(n) if j != i)
            for i in range(n)
        ]
        scale = math.exp(sum(math.log(s) for s in new) / n)
        new = [s / scale for s in new]
        done = max(abs(x - y) for x, y in zip(new, strength, strict=True)) < 1e-10
        strength = new
        if done:
            break
    return {name: MEAN + 400 * math.log10(strength[index[name]]) for name in names}
