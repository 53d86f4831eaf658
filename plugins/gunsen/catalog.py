"""The catalog of one ruleset: every component of the box plus what expansions add, indexed.

Built once when the rules are built (from the ``gunsen_*`` component hooks), so the rules look
components up in plain dictionaries on every move.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TypeVar

from .board import Board, Side
from .components import (
    Building,
    Clan,
    Hero,
    Objective,
    OrderCard,
    Pieces,
    Symbols,
    Tactic,
    Token,
)

T = TypeVar("T", Clan, OrderCard, Tactic, Hero, Side)


def _latest(items: Iterable[T], key: str = "id") -> list[T]:
    """Keep one item per key: a later one replaces an earlier one, in the first one's place."""
    out: dict[str, T] = {}
    for item in items:
        out[getattr(item, key)] = item
    return list(out.values())


class Catalog:
    """Every component a match may use, by id."""

    def __init__(
        self,
        clans: Sequence[Clan],
        orders: Sequence[OrderCard],
        neutral: Sequence[Tactic],
        mercenaries: Sequence[Hero],
        sides: Sequence[Side],
        pieces: Pieces,
    ) -> None:
        self.pieces = pieces
        self.limits = pieces.limits
        self.clans = {c.id: c for c in _latest(clans)}
        self.clan_ids = tuple(self.clans)
        self.orders = tuple(_latest(orders))
        self.neutral = tuple(t.id for t in _latest(neutral))
        self.mercenaries = tuple(h.id for h in _latest(mercenaries))
        self.boards = {s.key: Board(s) for s in _latest(sides, "key")}
        self.heroes: dict[str, Hero] = {h.id: h for h in _latest(mercenaries)}
        self.hero_clan: dict[str, str] = dict.fromkeys(self.mercenaries, "")
        self.tactics: dict[str, Tactic] = {t.id: t for t in _latest(neutral)}
        self.objectives: dict[str, Objective] = {}
        self.buildings: dict[str, Building] = {}
        self.cards: dict[str, OrderCard] = {c.id: c for c in self.orders}
        self.owner: dict[str, str] = {}
        for clan in self.clans.values():
            self._add_clan(clan)
        self.tokens: dict[str, Token] = {t.id: t for t in pieces.tokens}
        self.faces = {f.id: f.symbols for f in pieces.faces}
        self.die = tuple(f.id for f in pieces.faces)
        self.columns = pieces.columns
        self.boxes = {b.id: b for b in pieces.boxes}

    def _add_clan(self, clan: Clan) -> None:
        for hero in clan.heroes:
            self.heroes[hero.id] = hero
            self.hero_clan[hero.id] = clan.id
        groups: tuple[Iterable[Tactic | Objective | Building | OrderCard], ...] = (
            clan.tactics, clan.objectives, clan.buildings, clan.specials,
        )  # fmt: skip
        for group in groups:
            for item in group:
                self.owner[item.id] = clan.id
        self.tactics.update((t.id, t) for t in clan.tactics)
        self.objectives.update((o.id, o) for o in clan.objectives)
        self.buildings.update((b.id, b) for b in clan.buildings)
        self.cards.update((s.id, s) for s in clan.specials)

    def deck_for(self, players: int) -> tuple[str, ...]:
        """Return the order cards used with a player count (5/6 cards from five players)."""
        return tuple(card.id for card in self.orders if card.players <= players)

    def symbols_of(self, component: str) -> Symbols:
        """Return the combat symbols printed on a card, hero or building."""
        for table in (self.cards, self.tactics, self.heroes, self.buildings):
            item = table.get(component)
            if item is not None:
                return item.symbols
        raise KeyError(component)

    def name(self, component: str) -> str:
        """Return the printed name of a component (an unnamed order card by colour and number)."""
        for table in (self.heroes, self.tactics, self.objectives, self.buildings):
            item = table.get(component)
            if item is not None:
                return item.name
        card = self.cards.get(component)
        if card is not None:
            if card.name:
                return card.name
            number = component.rsplit("-", 1)[-1].lstrip("0") or "0"
            return f"{card.colour} card {number}" if card.colour else component
        clan = self.clans.get(component)
        return clan.name if clan is not None else component
