"""Bot-vs-bot matches on in-memory tables, with a summary and, optionally, the store."""

from __future__ import annotations

import math
import secrets
import time
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

import msgspec
from gamehall.adapters.cli.terminal import Progress
from gamehall.core import Registry, Table
from gamehall.core.bots import Bot, check_bot, make_bot, parse_bot
from gamehall.core.bots.driver import bot_seed
from gamehall.core.hall import new_match_id
from gamehall.core.store import AppendRequest, Store

STORE_BATCH = 200  # matches committed per transaction


class Summary(msgspec.Struct):
    """What a simulation measured."""

    ruleset: str
    games: int
    players: int
    seed: int
    wins: dict[int, int]
    draws: int
    unfinished: int
    events: int
    seconds: float
    stored: list[str] = []
    commands: int = 0
    reasons: dict[str, int] = {}
    names: dict[str, int] = {}  # wins by what players call a seat (colour, clan), if named
    named: dict[str, int] = {}  # matches in which a seat had that name
    fixed: dict[int, str] = {}  # the name of each seat, when it never changed
    bots: dict[int, str] = {}  # the bot of each seat that is not the random bot

    @property
    def mean_length(self) -> float:
        """Return the mean number of events per match."""
        return self.events / self.games if self.games else 0.0

    def lines(self) -> list[str]:
        """Return the summary as text."""
        rate = self.events / self.seconds if self.seconds > 0 else float("inf")
        ended = self.games - self.unfinished
        wins = ", ".join(
            f"{self._seat(seat)} {_rate(self.wins.get(seat, 0), ended)}"
            for seat in range(self.players)
        )
        out = [f"{self.games} matches of {self.ruleset} ({self.players} players, seed {self.seed})"]
        if self.bots:
            played = ", ".join(
                f"{self._seat(s)} {self.bots.get(s, 'random')}" for s in range(self.players)
            )
            out.append(f"bots: {played}")
        if self.reasons:
            ways = sorted(self.reasons.items(), key=lambda kv: (-kv[1], kv[0]))
            out.append("ended by: " + "; ".join(f"{why} {_pct(n, ended)}" for why, n in ways))
        out.append(f"wins by seat: {wins}")
        if self.names and not self.fixed:
            by_name = sorted(self.named.items(), key=lambda kv: kv[0])
            out.append(
                "wins by name: "
                + ", ".join(f"{name} {_rate(self.names.get(name, 0), n)}" for name, n in by_name)
            )
        if self.draws:
            out.append(f"draws: {self.draws} ({_pct(self.draws, ended)})")
        if self.unfinished:
            out.append(f"unfinished (no end after the command limit): {self.unfinished}")
        per = self.commands / self.games if self.games else 0.0
        out.append(f"mean length: {per:.1f} commands, {self.mean_length:.1f} events")
        out.append(f"{self.events} events in {self.seconds:.2f} s: {rate:,.0f} events/s")
        return out

    def _seat(self, seat: int) -> str:
        name = self.fixed.get(seat)
        return f"seat {seat + 1} ({name})" if name else f"seat {seat + 1}"


def _pct(part: int, whole: int) -> str:
    return f"{100 * part / whole:.1f}%" if whole else "0.0%"


def wilson(part: int, whole: int, z: float = 1.96) -> tuple[float, float]:
    """Return the 95% Wilson score interval of a proportion."""
    if whole == 0:
        return 0.0, 1.0
    p = part / whole
    centre = (p + z * z / (2 * whole)) / (1 + z * z / whole)
    half = z * math.sqrt(p * (1 - p) / whole + z * z / (4 * whole * whole)) / (1 + z * z / whole)
    return max(0.0, centre - half), min(1.0, centre + half)


def _rate(part: int, whole: int) -> str:
    low, high = wilson(part, whole)
    return f"{part} ({_pct(part, whole)}, 95% {100 * low:.0f}-{100 * high:.0f}%)"


def simulate(
    registry: Registry,
    game: str,
    games: int,
    *,
    players: int | None = None,
    expansions: Sequence[str] = (),
    options: Mapping[str, Any] | None = None,
    expansion_options: Mapping[str, Mapping[str, Any]] | None = None,
    seed: int | None = None,
    store: Store | None = None,
    max_commands: int = 100_000,
    progress: Progress | None = None,
    bots: Mapping[int, str] | None = None,
) -> Summary:
    """Play ``games`` seeded bot matches; store them when a store is given.

    ``bots`` names the bot of a seat (``{1: "ismcts:500"}``); the other seats play random.
    Each bot has a seed of its own, derived from the match's.
    """
    ruleset = registry.ruleset(game, expansions)
    chosen = {seat: str(parse_bot(spec)) for seat, spec in (bots or {}).items()}
    for spec in chosen.values():
        check_bot(parse_bot(spec), ruleset)
    base = secrets.randbits(31) if seed is None else seed
    wins: Counter[int] = Counter()
    reasons: Counter[str] = Counter()
    names: Counter[str] = Counter()
    named: Counter[str] = Counter()
    draws = unfinished = events = commands = 0
    seen: dict[int, set[str]] = {}
    pending: list[AppendRequest] = []
    stored: list[str] = []
    seats = 0
    started_at = time.perf_counter()
    for index in range(games):
        started = ruleset.started(players, options, expansion_options, base + index)
        seats = started.players
        match = new_match_id() if store is not None else f"sim-{index}"
        table = Table(ruleset, started, stream=match)
        seated: dict[int, Bot] = {
            seat: make_bot(chosen.get(seat, "random"), ruleset, bot_seed(base, index, seat))
            for seat in range(seats)
        }
        outcome = table.play(seated, max_commands)
        events += table.seq
        commands += table.commands
        if outcome is None:
            unfinished += 1
        else:
            reasons[outcome.reason or "the end"] += 1
            if outcome.winners:
                wins.update(outcome.winners)
            else:
                draws += 1
            seat_names = ruleset.seat_names(table.view(None), seats)
            if seat_names != [f"seat {s + 1}" for s in range(seats)]:
                named.update(seat_names)
                names.update(seat_names[s] for s in outcome.winners)
                for seat, name in enumerate(seat_names):
                    seen.setdefault(seat, set()).add(name)
        if store is not None:
            pending.append(_request(table, started))
            stored.append(match)
            if len(pending) >= STORE_BATCH:
                _commit(store, pending)
        if progress is not None:
            progress.advance()
    if store is not None and pending:
        _commit(store, pending)
    seconds = time.perf_counter() - started_at
    return Summary(
        ruleset.name, games, seats, base, dict(wins), draws, unfinished, events, seconds, stored,
        commands, dict(reasons), dict(names), dict(named),
        {seat: next(iter(n)) for seat, n in seen.items()} if all(len(n) == 1 for n in seen.values())
        else {},
        {seat: spec for seat, spec in chosen.items() if spec != "random"},
    )  # fmt: skip


def _request(table: Table, started: Any) -> AppendRequest:
    records = table.records()
    info = {
        "game": started.game,
        "expansions": [e.id for e in started.expansions],
        "players": started.players,
        "forked_from": None,
    }
    return AppendRequest(
        table.stream, 0, [r.event for r in records], [r.meta for r in records], info
    )


def _commit(store: Store, pending: list[AppendRequest]) -> None:
    for result in store.append_many(pending):
        if isinstance(result, Exception):
            raise result
    pending.clear()
