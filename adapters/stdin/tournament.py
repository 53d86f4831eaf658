"""``gamehall tournament``: a round robin between bots, as a table and, with matplotlib, a chart."""

from __future__ import annotations

import argparse
import sys
from typing import Any, TextIO

from gamehall.adapters.cli.terminal import Progress
from gamehall.core import GamehallError, default_registry
from gamehall.core.tournament import Tournament, round_robin

from .common import parse_options
from .screen import print_table


def register(sub: Any, match_arguments: Any) -> None:
    """Add the ``tournament`` subcommand."""
    parser = sub.add_parser("tournament", help="play a round robin between bots and rate them")
    parser.add_argument("game", help="game id (see 'gamehall games')")
    parser.add_argument(
        "--bots",
        required=True,
        metavar="LIST",
        help="comma-separated bots, e.g. random,mcts:500,ismcts:500 (a budget per decision: "
        "iterations, or seconds as 2s)",
    )
    parser.add_argument(
        "--games", type=int, default=20, help="matches per pair of bots (default 20)"
    )
    match_arguments(parser)
    parser.add_argument(
        "--chart",
        metavar="PATH",
        help="write a PNG chart here (default tournament-GAME.png; needs gamehall[plots])",
    )
    parser.add_argument("--no-chart", action="store_true", help="write no chart")
    parser.set_defaults(func=run_tournament)


def run_tournament(args: argparse.Namespace) -> int:
    """Play the round robin and print the standings."""
    if args.players not in (None, 2):
        raise GamehallError("a tournament plays two-player matches (--players 2)")
    specs = [s.strip() for s in args.bots.split(",") if s.strip()]
    registry = default_registry()
    options, expansion_options = parse_options(args.option)
    pairs = len(specs) * (len(specs) - 1) // 2
    with Progress("tournament", max(pairs, 1) * max(args.games, 1)) as progress:
        result = round_robin(
            registry,
            args.game,
            specs,
            args.games,
            expansions=args.expansion,
            options=options,
            expansion_options=expansion_options,
            seed=args.seed if args.seed is not None else 0,
            advance=progress.advance,
        )
    print_tournament(result, sys.stdout)
    if not args.no_chart:
        path = args.chart or f"tournament-{args.game}.png"
        if write_chart(result, path):
            print(f"chart: {path}")
        else:
            print("no chart: install the plots extra (pip install 'gamehall[plots]') for one")
    return 0


def print_tournament(result: Tournament, out: TextIO) -> None:
    """Print the standings, then each bot's score against each other bot."""
    out.write(
        f"round robin of {result.ruleset}: {len(result.bots)} bots, {result.games} matches per "
        f"pair (seed {result.seed}), {result.seconds:.1f} s\n"
    )
    rows = [
        (
            s.bot,
            str(s.games),
            str(s.wins),
            str(s.draws),
            str(s.losses),
            f"{100 * s.score:.1f}%",
            f"{s.elo:.0f}",
            f"{s.low:.0f} to {s.high:.0f}",
        )
        for s in result.standings
    ]
    print_table(out, ("BOT", "GAMES", "WINS", "DRAWS", "LOSSES", "SCORE", "ELO", "95%"), rows)
    out.write("\nscore of each row against each column:\n")
    order = [s.bot for s in result.standings]
    grid = []
    for row in order:
        cells = []
        for column in order:
            share = result.score(row, column)
            cells.append("-" if share is None else f"{100 * share:.0f}%")
        grid.append((row, *cells))
    print_table(out, ("", *order), grid)


def write_chart(result: Tournament, path: str) -> bool:
    """Draw the ratings with their intervals and the scores between bots; ``False`` without
    matplotlib."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return False
    order = result.standings
    names = [s.bot for s in order]
    figure, (ratings, grid) = plt.subplots(1, 2, figsize=(11, 4.5))
    errors = [[s.elo - s.low for s in order], [s.high - s.elo for s in order]]
    ratings.barh(names, [s.elo - 1500 for s in order], xerr=errors, left=1500, color="#4c72b0")
    ratings.invert_yaxis()
    ratings.axvline(1500, color="grey", linewidth=0.8)
    ratings.set_xlabel("Elo (95% interval)")
    ratings.set_title(f"{result.ruleset}: {result.games} matches per pair")
    shares = [
        [100 * (result.score(r, c) if r != c else 0.5) for c in names]  # type: ignore[operator]
        for r in names
    ]
    grid.imshow(shares, cmap="RdYlGn", vmin=0, vmax=100)
    grid.set_xticks(range(len(names)), names, rotation=30, ha="right")
    grid.set_yticks(range(len(names)), names)
    for r, row in enumerate(shares):
        for c, share in enumerate(row):
            grid.text(c, r, "-" if r == c else f"{share:.0f}%", ha="center", va="center")
    grid.set_title("score of each row against each column")
    figure.tight_layout()
    figure.savefig(path, dpi=100)
    plt.close(figure)
    return True
