"""A match with the patrons and one without, side by side in one Hall (ROG-PATRON-11)."""

from __future__ import annotations

import random

import pytest
from gamehall.core import Registry
from gamehall.core.hall import Hall
from gamehall.core.store import MemoryStore
from gamehall.plugins.river_of_gold.api import extension
from gamehall.plugins.river_of_gold_patrons.commands import ChoosePatron
from gamehall.plugins.river_of_gold_patrons.components import ID
from gamehall.plugins.river_of_gold_patrons.state import Patrons

pytestmark = pytest.mark.anyio


async def play_out(hall: Hall, match: str, rng: random.Random) -> int:
    """Play random legal commands until the match ends; return how many were sent."""
    sent = 0
    while True:
        view = hall.view(match, None)
        if not view.awaiting:
            return sent
        seat = next(iter(view.awaiting))
        legal = hall.view(match, seat).legal
        await hall.send(match, seat, rng.choice(legal))
        sent += 1


async def test_ROG_PATRON_11_with_and_without_side_by_side(registry: Registry) -> None:
    store = MemoryStore(registry.codec)
    async with Hall(store, registry) as hall:
        with_patrons = await hall.create(
            "river-of-gold", 3, expansions=["river-of-gold-patrons"], seed=5
        )
        plain = await hall.create("river-of-gold", 3, seed=5)
        assert hall.view(with_patrons, 2).awaiting[2].kind == "patron"
        assert hall.view(plain, 0).awaiting[0].kind == "action"
        assert any(isinstance(c, ChoosePatron) for c in hall.view(with_patrons, 2).legal)
        assert not any(isinstance(c, ChoosePatron) for c in hall.view(plain, 0).legal)
        await play_out(hall, with_patrons, random.Random(1))
        await play_out(hall, plain, random.Random(1))
        mine = extension(hall.state(with_patrons), ID, Patrons)
        assert all(mine.patrons) and len(mine.patrons) == 3 and not mine.order
        assert hall.state(plain).ext == {} and hall.state(plain).clans == ()
        assert hall.view(with_patrons, None).outcome is not None
        assert hall.view(plain, None).outcome is not None
        assert hall.ruleset(with_patrons) is not hall.ruleset(plain)
