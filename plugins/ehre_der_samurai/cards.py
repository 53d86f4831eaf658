"""The cards of Ehre der Samurai, decoded from ``data/cards.toml`` into msgspec Structs."""

from __future__ import annotations

from collections.abc import Iterable
from functools import cache
from typing import Literal

import msgspec
from gamehall.core import load_data

Kind = Literal[
    "shogun",
    "daimyo",
    "samurai",
    "okugata",
    "warrior",
    "bodyguard",
    "thief",
    "assassin",
    "dishonour",
    "save-face",
    "possession",
    "castle",
]
ACTION_KINDS: frozenset[str] = frozenset({"thief", "assassin", "dishonour", "save-face"})
SHOGUN = "shogun"  # the token of the Shogun card, in every catalogue
HOUSE_KINDS: frozenset[str] = frozenset({"okugata", "warrior", "bodyguard", "possession", "castle"})
KIND_NAMES: dict[str, str] = {
    "shogun": "Shogun",
    "daimyo": "Daimyo",
    "samurai": "Samurai",
    "okugata": "Okugata",
    "warrior": "warrior",
    "bodyguard": "bodyguard",
    "thief": "Ninja thief",
    "assassin": "Ninja assassin",
    "dishonour": "Dishonour",
    "save-face": "Save Face",
    "possession": "possession",
    "castle": "castle",
}


class CardEntry(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """One entry of the data file: a single card (``key``) or ``copies`` identical ones."""

    kind: Kind
    name: str
    source: str
    honour: int = 0
    ki: int = 0
    strength: int = 0
    copies: int = 1
    key: str = ""
    starting: bool = False


class CardFile(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """The whole data file."""

    cards: tuple[CardEntry, ...]


class Card(msgspec.Struct, frozen=True, gc=False):
    """One physical card: its token, kind, name and its honour, ki and strength (EDS-CARDS-1).

    ``source`` names where the values come from (a published source, or "ours").
    """

    id: str
    kind: Kind
    name: str
    honour: int = 0
    ki: int = 0
    strength: int = 0
    starting: bool = False
    source: str = "ours"

    @property
    def is_action(self) -> bool:
        """Tell whether this is an action card, which carries no values (EDS-CARDS-2)."""
        return self.kind in ACTION_KINDS

    @property
    def label(self) -> str:
        """Return the card as players name it, with its values where it has them."""
        if self.is_action:
            return self.name
        title = f"Daimyo {self.name}" if self.kind == "daimyo" else self.name
        values = f"honour {self.honour}, ki {self.ki}, strength {self.strength}"
        return f"{title} ({values})"


def expand(entries: Iterable[CardEntry]) -> list[Card]:
    """Return one Card per physical card; copies are numbered ``<kind>-<n>`` within a kind."""
    counts: dict[str, int] = {}
    out: list[Card] = []
    for entry in entries:
        for _ in range(entry.copies):
            if entry.key and entry.copies == 1:
                token = entry.key
            else:
                counts[entry.kind] = counts.get(entry.kind, 0) + 1
                token = f"{entry.kind}-{counts[entry.kind]}"
            out.append(
                Card(
                    token,
                    entry.kind,
                    entry.name,
                    entry.honour,
                    entry.ki,
                    entry.strength,
                    entry.starting,
                    entry.source,
                )
            )
    return out


@cache
def box() -> tuple[Card, ...]:
    """Return the 110 cards of the box (EDS-CARDS-3)."""
    return tuple(expand(load_data(__package__, "cards.toml", CardFile).cards))


_LOADED: dict[str, Card] = {}


def card(token: str) -> Card | None:
    """Return a card of the box or of any ruleset loaded in this process, for words.

    Words and boards get only a seat's view; the cards an expansion adds are named through
    this table, which every :class:`Catalogue` fills when a ruleset builds its rules.
    """
    if not _LOADED:
        _LOADED.update((c.id, c) for c in box())
    return _LOADED.get(token)


class Catalogue:
    """Every card of a match's ruleset, with lookups by token; built once per ruleset."""

    __slots__ = ("by_id", "cards", "deck_cards", "samurai", "starting")

    def __init__(self, cards: Iterable[Card]) -> None:
        self.cards = tuple(cards)
        self.by_id = {card.id: card for card in self.cards}
        if len(self.by_id) != len(self.cards):
            raise ValueError("two cards share one token")
        card("shogun")  # the box first, so that an expansion's card replaces its namesake
        _LOADED.update(self.by_id)
        self.samurai = tuple(c.id for c in self.cards if c.kind == "samurai")
        self.starting = tuple(c.id for c in self.cards if c.kind == "daimyo" and c.starting)
        if [c.id for c in self.cards if c.kind == "shogun"] != [SHOGUN]:
            raise ValueError(f"the box holds one Shogun card, named {SHOGUN!r}")
        # The Samurai and the Shogun stay out of the deck (EDS-SETUP-2).
        self.deck_cards = tuple(c.id for c in self.cards if c.kind not in ("samurai", "shogun"))

    def __getitem__(self, token: str) -> Card:
        return self.by_id[token]

    def kind(self, token: str) -> str:
        """Return the kind of a card."""
        return self.by_id[token].kind
