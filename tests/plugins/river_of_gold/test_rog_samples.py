"""River of Gold's sampler: what a view keeps a seat knowing, and an expansion's hidden parts."""

from __future__ import annotations

import random
from typing import Any

import msgspec
from gamehall.core import Event, ExpansionSpec, RandomBot, Registry, Table, hookimpl, namespaced
from gamehall.plugins.river_of_gold import api
from gamehall.plugins.river_of_gold.components import CUSTOMERS, TILES
from gamehall.plugins.river_of_gold.events import CustomersDrawn, DeckShuffled, TileDiscarded

from tests.plugins.river_of_gold.rog_helpers import state, table

encode = msgspec.msgpack.encode


def apply_events(t: Table, *events: Any) -> None:
    for event in events:
        t.state = t.rules.evolve(t.state, event)


def test_ROG_HIDDEN_1_a_deck_shuffled_from_the_discards_holds_only_those_cards() -> None:
    t = table(2, seed=3)
    hands = {c for p in t.state.players for c in p.hand}
    rest = [c for c in CUSTOMERS if c not in hands]
    state(t, deck=(rest[0],), discard=tuple(rest[1:6]))
    reshuffled = tuple(reversed(rest[1:6]))
    apply_events(
        t,
        CustomersDrawn(seat=1, cards=(rest[0],), count=1),
        DeckShuffled(order=reshuffled, size=5),
        CustomersDrawn(seat=1, cards=reshuffled[:1], count=1),
    )
    view = t.view(0)
    assert view.shuffles == (tuple(sorted(rest[1:6])),)
    assert view.players[1].hand_decks == (3, 1) and view.players[0].hand_decks == (2,)
    first_deck = set(CUSTOMERS) - set(rest[1:6]) - set(t.state.players[0].hand)
    for seed in range(20):
        sampled = t.rules.sample(view, 0, random.Random(seed))
        assert encode(t.rules.view(sampled, 0)) == encode(view)
        assert set(sampled.deck) <= set(rest[1:6])  # the deck can only hold what was shuffled
        other = sampled.players[1].hand
        assert sum(c in set(rest[1:6]) for c in other) == 1 and len(other) == 4
        assert sum(c in first_deck for c in other) == 3
    assert view.players[1].hand == ("?",) * 4  # the counts tell where, never which


def test_ROG_HIDDEN_1_a_tile_discarded_from_the_row_never_returns_to_a_stack() -> None:
    t = table(2, seed=4)
    gone = t.state.row[-1]
    apply_events(t, TileDiscarded(tile=gone))
    view = t.view(1)
    assert view.gone == (gone,)
    for seed in range(30):
        sampled = t.rules.sample(view, 1, random.Random(seed))
        assert gone not in sampled.era1 + sampled.era2
        assert all(TILES[tile].era == 1 for tile in sampled.era1)
        assert len(sampled.era1) == len(t.state.era1)


def test_ROG_HIDDEN_1_samples_give_every_seat_its_view_back_in_a_whole_match() -> None:
    t, bot, rng = table(3, seed=6), RandomBot(6), random.Random(6)
    while t.awaiting():
        for seat in range(3):
            view = t.view(seat)
            assert encode(t.rules.view(t.rules.sample(view, seat, rng), seat)) == encode(view)
        seat = next(iter(t.awaiting()))
        t.send(seat, bot.choose(seat, t.legal(seat), lambda: None))


# -- an expansion with a hidden part of its own ------------------------------------------------

OMENS = tuple(f"omen-{n}" for n in range(1, 9))


class OmensDealt(Event, frozen=True, gc=False, tag=namespaced("omens")):
    """Each clan drew a secret omen."""

    omens: tuple[str, ...]


class Secret(msgspec.Struct, frozen=True):
    """The test expansion's own state: each clan's omen, ``"?"`` where a seat may not see it."""

    omens: tuple[str, ...] = ()


class Omens:
    """A test expansion: every clan keeps a secret omen in its own typed state."""

    @hookimpl
    def river_of_gold_setup(self, turn: api.Turn, options: Any, rng: random.Random) -> None:
        turn.emit(OmensDealt(omens=tuple(rng.sample(OMENS, turn.state.count))))

    @hookimpl
    def river_of_gold_evolve(self, state: api.State, event: Any) -> api.State | None:
        if type(event) is not OmensDealt:
            return None
        return api.with_extension(state, "omens", Secret(event.omens))

    @hookimpl
    def river_of_gold_view(self, state: api.State, seat: int | None) -> dict[str, Any]:
        omens = api.extension(state, "omens", Secret).omens
        shown = tuple(o if s == seat else api.HIDDEN for s, o in enumerate(omens))
        return api.extension_entry("omens", Secret(shown))

    @hookimpl
    def river_of_gold_sample(
        self, view: api.State, seat: int, rng: random.Random
    ) -> dict[str, Any]:
        omens = api.extension(view, "omens", Secret).omens
        unseen = [o for o in OMENS if o not in omens]
        rng.shuffle(unseen)
        drawn = tuple(o if o != api.HIDDEN else unseen.pop() for o in omens)
        return api.extension_entry("omens", Secret(drawn))


class OmensPlugin:
    @hookimpl
    def gamehall_expansions(self) -> list[ExpansionSpec]:
        return [ExpansionSpec("omens", "Omens", "1.0.0", "river-of-gold", hookimpls=(Omens(),))]

    @hookimpl
    def gamehall_event_types(self) -> list[type]:
        return [OmensDealt]


def test_ROG_HIDDEN_1_an_expansion_hides_and_samples_its_own_parts_through_hooks() -> None:
    registry = Registry([OmensPlugin()])
    t = Table.new("river-of-gold", 3, expansions=["omens"], seed=2, registry=registry)
    view = t.view(0)
    secret = api.extension(t.state, "omens", Secret).omens
    assert api.extension(view, "omens", Secret).omens == (secret[0], "?", "?")
    drawn = set()
    for seed in range(20):
        sampled = t.rules.sample(view, 0, random.Random(seed))
        assert encode(t.rules.view(sampled, 0)) == encode(view)
        omens = api.extension(sampled, "omens", Secret).omens
        assert "?" not in omens and omens[0] == secret[0] and len(set(omens)) == 3
        drawn.add(omens[1])
    assert len(drawn) > 1
