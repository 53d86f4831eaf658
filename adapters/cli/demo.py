"""``gamehall demo``: one seeded bot-vs-bot match of every installed game, into the store."""

from __future__ import annotations

import argparse
from typing import Any

import anyio
from gamehall.adapters.cli.common import SEED, add_db_option, open_store
from gamehall.core import RandomBot, default_registry
from gamehall.core.hall import Hall
from gamehall.core.store import Store


def register(sub: Any) -> None:
    """Add the ``demo`` subcommand."""
    parser = sub.add_parser("demo", help="play one seeded bot match of every installed game")
    add_db_option(parser)
    parser.add_argument("--seed", type=SEED, default=1, help="seed of every match and bot")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Play the matches and print, per game, the winner and the number of events."""
    registry = default_registry()
    store = open_store(args.db, registry)
    try:
        rows = anyio.run(_play_all, store, registry, args.seed)
    finally:
        store.close()
    width = max(len(game) for game, *_ in rows)
    for game, match, winners, events in rows:
        print(f"{game:<{width}}  winner: {winners:<12} events: {events:>5}  match {match}")
    print(f"stored in {args.db}")
    return 0


async def _play_all(store: Store, registry: Any, seed: int) -> list[tuple[str, str, str, int]]:
    rows = []
    async with Hall(store, registry) as hall:
        for game in sorted(registry.games):
            match = await hall.create(game, seed=seed)
            bot = RandomBot(seed)
            while True:
                view = hall.view(match, None)
                if view.outcome is not None:
                    break
                seat = min(view.awaiting)
                legal = hall.view(match, seat).legal
                await hall.send(match, seat, bot.choose(seat, legal, lambda: None))
            outcome = hall.view(match, None).outcome
            assert outcome is not None
            winners = ", ".join(f"seat {s + 1}" for s in outcome.winners) or "draw"
            rows.append((game, match, winners, hall.info(match).version))
    return rows
