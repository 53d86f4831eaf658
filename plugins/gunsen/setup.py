"""Setting up a match: the board, tiles, tokens and deck, then clans in seat order."""

from __future__ import annotations

import random
from collections.abc import Sequence

from gamehall.core import Event, IllegalCommand

from . import events as ev
from .catalog import Catalog
from .commands import ChooseClan
from .orders import begin_turn, refill_row
from .play import Play, ask, catalog_of


def side_for(players: int) -> str:
    """Return the board side for a player count (GUN-SETUP-1)."""
    return "small" if players <= 3 else "large"


def general_setup(p: Play, players: int, rng: random.Random) -> Sequence[Event]:
    """Board, watchtowers, shrines, villages, deck and row; then the start player."""
    cat = catalog_of(p)
    side = side_for(players)
    board = cat.boards[side]
    setup = cat.pieces.setup
    towers = board.watchtowers[: setup.watchtowers[side]]
    shrine_spaces = board.shrines[: setup.shrines[side]]
    tiles = rng.sample([s.colour for s in cat.pieces.shrines], len(shrine_spaces))
    p.emit(ev.BoardSetUp(
        side=side, spaces=len(board.spaces), forts=board.seat_forts(players), towers=towers,
        shrines=tuple(zip(shrine_spaces, tiles, strict=True)),
    ))  # fmt: skip
    tokens = list(cat.tokens)
    rng.shuffle(tokens)
    villages = board.villages[: setup.villages[side]]
    p.emit(ev.VillagesDealt(spaces=villages, tokens=tuple(tokens[: len(villages)])))
    deck = list(cat.deck_for(players))
    rng.shuffle(deck)
    p.emit(ev.DeckShuffled(order=tuple(deck), size=len(deck)))
    refill_row(p)
    p.emit(ev.StartPlayerDrawn(seat=rng.randrange(players)))
    return p.events


def clan_options(cat: Catalog, taken: set[str]) -> list[ChooseClan]:
    """Return the clans nobody has chosen yet."""
    return [ChooseClan(clan=c) for c in cat.clan_ids if c not in taken]


def choose_clan(p: Play, seat: int, command: ChooseClan) -> None:
    """Take a clan; after the last choice, set every clan up and begin (GUN-SETUP-10..13)."""
    state, cat = p.state, catalog_of(p)
    taken = {player.clan for player in state.players}
    if command.clan not in cat.clans or command.clan in taken:
        raise IllegalCommand("choose a clan that nobody has chosen yet", "GUN-SETUP-10")
    p.emit(ev.ClanChosen(seat=seat, clan=command.clan))
    n = state.count
    following = [(seat + i) % n for i in range(1, n)]
    waiting = [s for s in following if not p.state.players[s].clan]
    if waiting:
        ask(p, waiting[0], "clan")
        return
    start = p.state.start
    for position in range(n):
        koku, wood, influence, troops = cat.pieces.setup.start[position]
        p.emit(ev.ClanSetUp(seat=(start + position) % n, koku=koku, wood=wood,
                            influence=influence, troops=troops))  # fmt: skip
    neutral = list(cat.neutral)
    p.rng.shuffle(neutral)
    deal = cat.pieces.setup.neutral_tactics
    for position in range(n):
        seat_dealt = (start + position) % n
        cards = tuple(neutral[position * deal : (position + 1) * deal])
        p.emit(ev.TacticsDealt(seat=seat_dealt, cards=cards, count=len(cards)))
    begin_turn(p, start)
