"""Terminal commands: ``games``, ``play``, ``matches``, ``resume``, ``serve-stdio``, ``simulate``,
``tournament``."""

from __future__ import annotations

import argparse
import sys
import time
from functools import partial
from typing import Any

import anyio
from gamehall.adapters.cli.common import (
    add_db_option,
    add_server_limits,
    check_server_limits,
    outcome_text,
)
from gamehall.adapters.cli.terminal import Progress
from gamehall.core import GamehallError, UnknownMatch, default_registry
from gamehall.core.bots import check_bot, parse_bot
from gamehall.core.bots.driver import from_info
from gamehall.core.bots.spec import BudgetLimit
from gamehall.core.hall import Hall
from gamehall.core.replay import ruleset_for, started_of, state_at
from gamehall.core.seating import ENDED
from gamehall.core.store import MatchQuery, MemoryStore, Store

from . import tournament
from .common import (
    COUNT,
    SEED,
    bots_of,
    describe_options,
    open_store,
    parse_options,
    parse_seats,
    role_of,
)
from .protocol import serve
from .screen import print_table
from .simulate import simulate


def register(sub: Any) -> None:
    """Add the terminal subcommands."""
    games = sub.add_parser("games", help="list installed games and expansions")
    games.set_defaults(func=run_games)

    play = sub.add_parser("play", help="play a match in the terminal against bots or people")
    play.add_argument("game", help="game id (see 'gamehall games')")
    _match_arguments(play)
    play.add_argument(
        "--seat",
        action="append",
        default=[],
        metavar="S=ROLE",
        help="seat S (counted from 1) is 'human', 'bot' (random) or 'bot:KIND[:BUDGET]' "
        "(bot:mcts:2000, bot:ismcts:500, bot:ismcts:2s); default: seat 1 human, the others "
        "random bots",
    )
    play.add_argument("--match", help="id of the new match (default: a random one)")
    add_db_option(play)
    play.set_defaults(func=run_play)

    matches = sub.add_parser("matches", help="list the matches in the store")
    add_db_option(matches)
    matches.add_argument("--game", help="only matches of this game")
    matches.add_argument(
        "--state", choices=("running", "finished"), help="only running or only finished matches"
    )
    matches.add_argument(
        "--open", action="store_true", help="only matches with a seat left to take"
    )
    matches.add_argument("--player", help="only matches where this player id holds a seat")
    matches.add_argument(
        "--limit", type=int, default=50, help="matches per page, 1 to 500 (default 50)"
    )
    matches.add_argument("--cursor", help="the page after the one that printed this cursor")
    matches.set_defaults(func=run_matches)

    resume = sub.add_parser("resume", help="continue a stored match in the terminal")
    resume.add_argument("match", help="match id (see 'gamehall matches')")
    resume.add_argument(
        "--seat",
        action="append",
        default=[],
        metavar="S=ROLE",
        help="change a seat's role (seat S counted from 1); by default each seat keeps the role "
        "it played with",
    )
    add_db_option(resume)
    resume.set_defaults(func=run_resume)

    stdio = sub.add_parser("serve-stdio", help="answer JSON-line requests on stdin (machine mode)")
    add_db_option(stdio)
    stdio.add_argument("--memory", action="store_true", help="keep matches in memory only")
    add_server_limits(stdio)
    stdio.set_defaults(func=run_serve_stdio)

    sim = sub.add_parser("simulate", help="play bot-vs-bot matches and summarise them")
    sim.add_argument("game", help="game id (see 'gamehall games')")
    sim.add_argument("--games", type=COUNT, default=100, help="number of matches (default 100)")
    _match_arguments(sim)
    sim.add_argument(
        "--seat",
        action="append",
        default=[],
        metavar="S=ROLE",
        help="seat S (counted from 1) is played by 'bot' (random, the default) or "
        "'bot:KIND[:BUDGET]' "
        "(bot:mcts:2000, bot:ismcts:500)",
    )
    add_db_option(sim, default=None)
    sim.set_defaults(func=run_simulate)

    tournament.register(sub, _match_arguments)


def _match_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--players", type=COUNT, help="number of players (default: the fewest)")
    parser.add_argument(
        "--expansion", action="append", default=[], metavar="ID", help="enable an expansion"
    )
    parser.add_argument(
        "--option",
        action="append",
        default=[],
        metavar="K=V",
        help="game option (EXPANSION:K=V for an expansion's); V is JSON or text",
    )
    parser.add_argument("--seed", type=SEED, help="seed of the match (and of the bots)")


# -- games -----------------------------------------------------------------------------------


def run_games(args: argparse.Namespace) -> int:
    """Print every installed game with its expansions, player counts and options."""
    registry = default_registry()
    if not registry.games:
        print("no games installed")
        return 0
    for game_id in sorted(registry.games):
        game = registry.games[game_id]
        print(
            f"{game.id}  {game.name} {game.version}  {_players(game.min_players, game.max_players)}"
        )
        if game.description:
            print(f"    {game.description}")
        choices = registry.ruleset(game_id).rules.option_choices()
        for line in describe_options(game.options, choices=choices):
            print(f"    {'    ' if line.startswith(' ') else 'option '}{line.strip()}")
        for expansion in sorted(registry.expansions_of(game_id), key=lambda e: e.id):
            print(f"  + {expansion.id}  {expansion.name} {expansion.version}")
            if expansion.description:
                print(f"      {expansion.description}")
            low, high = expansion.min_players, expansion.max_players
            if low is not None or high is not None:
                print(f"      {_players(low or game.min_players, high or game.max_players)}")
            added = registry.ruleset(game_id, [expansion.id]).rules.option_choices()
            for line in describe_options(expansion.options, f"{expansion.id}:", added):
                print(f"      {'    ' if line.startswith(' ') else 'option '}{line.strip()}")
            for needed in expansion.requires:
                print(f"      requires {needed}")
            for other in expansion.conflicts:
                print(f"      conflicts with {other}")
    return 0


def _players(low: int, high: int) -> str:
    return f"{low} players" if low == high else f"{low}-{high} players"


# -- play and resume --------------------------------------------------------------------------


def run_play(args: argparse.Namespace) -> int:
    """Create a match and play it in the terminal."""
    from .human import HumanGame, Terminal, default_roles  # rich: the terminal extra

    registry = default_registry()
    options, expansion_options = parse_options(args.option)
    ruleset = registry.ruleset(args.game, args.expansion)
    started = ruleset.started(args.players, options, expansion_options, args.seed)
    roles = default_roles(started.players) | parse_seats(args.seat, started.players)
    bots = bots_of(roles)
    for bot in bots.values():
        check_bot(parse_bot(bot), ruleset)
    store = open_store(args.db, registry)

    async def main() -> int:
        async with Hall(store, registry) as hall:
            match = await hall.create(
                args.game,
                started.players,
                expansions=args.expansion,
                options=options,
                expansion_options=expansion_options,
                seed=started.seed,
                match_id=args.match,
                bots=bots,
                bot_seed=args.seed,
            )
            term = Terminal(sys.stdin, sys.stdout)
            return await HumanGame(hall, match, roles, term).run()

    try:
        return anyio.run(main)
    finally:
        store.close()


def run_resume(args: argparse.Namespace) -> int:
    """Continue a stored match in the terminal."""
    from .human import HumanGame, Terminal  # rich: the terminal extra

    registry = default_registry()
    store = open_store(args.db, registry)
    try:
        records = store.read(args.match)
        if not records:
            raise UnknownMatch(args.match)
        ruleset = ruleset_for(registry, records)
        started = started_of(records)
        players = started.players
        entry = store.stream_info(args.match)
        kept = {seat: bot.bot for seat, bot in from_info(entry.info if entry else {}).items()}
        roles = resumed_roles(ruleset, records, players, kept)
        roles |= parse_seats(args.seat, players)
        bots = bots_of(roles)

        async def main() -> int:
            async with Hall(store, registry) as hall:
                if bots != kept:
                    hall.set_bots(args.match, bots)  # for this session; the stored ones stay
                term = Terminal(sys.stdin, sys.stdout)
                return await HumanGame(hall, args.match, roles, term).run()

        return anyio.run(main)
    finally:
        store.close()


def resumed_roles(
    ruleset: Any, records: Any, players: int, bots: dict[int, str] | None = None
) -> dict[int, str]:
    """Return the role of each seat when a match is resumed.

    The bot seats the match was created with stay bots. Another seat keeps the role its last
    command was chosen by. A seat that has not acted yet but is awaited now was a person's (a
    bot never leaves a question open); the others get the defaults of ``play``.
    """
    from .human import default_roles, roles_from_log

    roles = default_roles(players)
    awaited = ruleset.rules.awaiting(state_at(ruleset, records))
    roles |= {seat: "human" for seat in awaited if 0 <= seat < players}
    roles |= roles_from_log(records, players)
    return roles | {seat: role_of(parse_bot(bot)) for seat, bot in (bots or {}).items()}


# -- matches ----------------------------------------------------------------------------------


def run_matches(args: argparse.Namespace) -> int:
    """List the stored matches, newest first, with their game, players, length and state."""
    registry = default_registry()
    store = open_store(args.db, registry)
    finished = None if args.state is None else args.state == "finished"
    query = MatchQuery(
        args.game, finished, True if args.open else None, args.player, args.cursor, args.limit
    )
    try:
        page = store.find_matches(query)
        rows = [_match_row(store, registry, entry) for entry in page.matches]
    except GamehallError as exc:
        print(f"gamehall matches: {exc}", file=sys.stderr)
        return 2
    finally:
        store.close()
    if not rows:
        told = " pass these filters" if _filtered(args) else ""
        print(f"no matches in {args.db}{told}")
        return 0
    header = ("MATCH", "GAME", "PLAYERS", "EVENTS", "UPDATED", "STATE")
    print_table(sys.stdout, header, rows)
    if page.next is not None:
        shown = len(rows)
        print(f"{shown} of {page.total} shown; the next page: --cursor {page.next}")
    return 0


def _filtered(args: argparse.Namespace) -> bool:
    return any((args.game, args.state, args.open, args.player))


def _match_row(store: Store, registry: Any, entry: Any) -> tuple[str, ...]:
    info = entry.info
    name = "+".join([str(info.get("game", "?")), *info.get("expansions", [])])
    updated = time.strftime("%Y-%m-%d %H:%M", time.localtime(entry.updated))
    try:
        records = store.read(entry.stream)
        ruleset = ruleset_for(registry, records)
        state = state_at(ruleset, records)
        outcome = ruleset.rules.outcome(state)
        if isinstance(info.get("ended"), str):  # over outside its game
            status = ENDED.get(info["ended"], str(info["ended"]))
        elif outcome is not None:
            players = started_of(records).players
            names = ruleset.seat_names(ruleset.rules.view(state, None), players)
            status = outcome_text(outcome, names)
        else:
            players = started_of(records).players
            names = ruleset.seat_names(ruleset.rules.view(state, None), players)
            waiting = " and ".join(names[s] for s in sorted(ruleset.rules.awaiting(state)))
            status = f"waiting for {waiting}"
    except GamehallError as exc:
        status = f"unreadable: {exc}"
    seated = str(info.get("players", "?"))
    held = [p for p in info.get("seat_players") or [] if isinstance(p, str)]
    named = [record.name for p in held if (record := store.player(p)) is not None and record.name]
    if named:
        seated += " (" + ", ".join(named) + ")"
    return (entry.stream, name, seated, str(entry.version), updated, status)


# -- machine mode and simulations -------------------------------------------------------------


def run_serve_stdio(args: argparse.Namespace) -> int:
    """Answer JSON-line requests until stdin ends."""
    check_server_limits(args)
    registry = default_registry()
    store: Store = MemoryStore(registry.codec) if args.memory else open_store(args.db, registry)
    try:
        limit = BudgetLimit(args.max_bot_iterations, args.max_bot_seconds)
        return anyio.run(
            partial(serve, store, registry, bot_limit=limit, max_active=args.max_active)
        )
    finally:
        store.close()


def run_simulate(args: argparse.Namespace) -> int:
    """Play bot-vs-bot matches and print the summary."""
    if args.games < 1:
        raise GamehallError("--games must be at least 1")
    registry = default_registry()
    options, expansion_options = parse_options(args.option)
    ruleset = registry.ruleset(args.game, args.expansion)
    players = ruleset.started(args.players, options, expansion_options, 0).players
    roles = parse_seats(args.seat, players)
    people = [seat for seat, role in roles.items() if role == "human"]
    if people:
        raise GamehallError(f"simulate plays bots only: seat {people[0] + 1} cannot be human")
    store = open_store(args.db, registry) if args.db else None
    try:
        with Progress("simulate", args.games) as progress:
            summary = simulate(
                registry,
                args.game,
                args.games,
                players=args.players,
                expansions=args.expansion,
                options=options,
                expansion_options=expansion_options,
                seed=args.seed,
                store=store,
                progress=progress,
                bots=bots_of(roles),
            )
    finally:
        if store is not None:
            store.close()
    for line in summary.lines():
        print(line)
    if args.db:
        print(f"stored {len(summary.stored)} matches in {args.db}")
    return 0
