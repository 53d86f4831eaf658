"""Bot-vs-bot matches on in-memory tables, with a summary and, optionally, the store."""

from __future__ import annotations

import secrets
import time
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

import msgspec
from gamehall.core import RandomBot, Registry, Table
from gamehall.core.hall import new_match_id
from gamehall.core.store import AppendRequest, Store

from .progress import Progress

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

    @property
    def mean_length(self) -> float:
        """Return the mean number of events per match."""
        return self.events / self.games if self.games else 0.0

    def lines(self) -> list[str]:
        """Return the summary as text."""
        rate = self.events / self.seconds if self.seconds > 0 else float("inf")
        wins = ", ".join(
            f"seat {seat} {self.wins.get(seat, 0)} ({_pct(self.wins.get(seat, 0), self.games)})"
            for seat in range(self.players)
        )
        out = [
            f"{self.games} matches of {self.ruleset} ({self.players} players, seed {self.seed})",
            f"wins: {wins}; draws {self.draws} ({_pct(self.draws, self.games)})",
            f"mean length: {self.mean_length:.1f} events",
            f"{self.events} events in {self.seconds:.2f} s: {rate:,.0f} events/s",
        ]
        if self.unfinished:
            out.insert(2, f"unfinished (no end after the command limit): {self.unfinished}")
        return out


def _pct(part: int, whole: int) -> str:
    return f"{100 * part / whole:.1f}%" if whole else "0.0%"


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
) -> Summary:
    """Play ``games`` seeded random matches; store them when a store is given."""
    ruleset = registry.ruleset(game, expansions)
    base = secrets.randbits(31) if seed is None else seed
    wins: Counter[int] = Counter()
    draws = unfinished = events = 0
    pending: list[AppendRequest] = []
    stored: list[str] = []
    seats = 0
    started_at = time.perf_counter()
    for index in range(games):
        started = ruleset.started(players, options, expansion_options, base + index)
        seats = started.players
        match = new_match_id() if store is not None else f"sim-{index}"
        table = Table(ruleset, started, stream=match)
        bots = {seat: RandomBot(f"bot:{base + index}:{seat}") for seat in range(seats)}
        outcome = table.play(bots, max_commands)
        events += table.seq
        if outcome is None:
            unfinished += 1
        elif outcome.winners:
            wins.update(outcome.winners)
        else:
            draws += 1
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
        ruleset.name, games, seats, base, dict(wins), draws, unfinished, events, seconds, stored
    )


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
