"""Bots that search: UCT for games where the seat sees everything, IS-MCTS for the others.

Both decide from the seat's view alone, with a generator of their own. With an iteration
budget a decision depends only on the view, the legal commands and the bot's seed, so it is
reproducible; a time budget (``seconds``) plays as well as the machine allows and is not.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Generator, Sequence
from typing import Any

from ..events import Command
from ..registry import Ruleset
from ..rules import Rules
from .base import BotError
from .search import Search, finish


def can_sample(ruleset: Ruleset) -> bool:
    """Tell whether a game's rules draw states from a view (``Rules.sample``)."""
    return type(ruleset.rules).sample is not Rules.sample


class SearchBot:
    """What both search bots share: the rules, the budget and the bot's own generator."""

    kind = "search"

    def __init__(
        self,
        ruleset: Ruleset,
        iterations: int | None = 1000,
        *,
        seconds: float | None = None,
        seed: int | str | None = 0,
        exploration: float = 0.7,
        playout: int | None = None,
    ) -> None:
        if iterations is None and seconds is None:
            raise BotError(f"{self.kind} needs a budget: iterations or seconds")
        if iterations is not None and iterations < 1:
            raise BotError(f"{self.kind} needs at least 1 iteration, not {iterations}")
        if seconds is not None and not seconds > 0:
            raise BotError(f"{self.kind} needs a positive time budget, not {seconds}")
        self.ruleset = ruleset
        self.iterations = iterations
        self.seconds = seconds
        self.rng = random.Random(seed)
        self.exploration = exploration
        self.playout = playout
        self.last_iterations = 0

    def choose(self, seat: int, legal: Sequence[Command], view: Callable[[], Any]) -> Command:
        """Return the command the search finds best for ``seat``."""
        return finish(self.thinking(seat, legal, view))

    def thinking(
        self, seat: int, legal: Sequence[Command], view: Callable[[], Any]
    ) -> Generator[None, None, Command]:
        """:meth:`choose` one search iteration at a time (see :meth:`Search.steps`): a server
        shares its thinking slots between matches by running it in slices."""
        if len(legal) == 1:
            return legal[0]
        search = Search(
            self.ruleset,
            seat,
            self.rng,
            exploration=self.exploration,
            playout=self.playout,
        )
        determinize = self.determinizer(seat, view())
        try:
            return (yield from search.steps(legal, determinize, self.iterations, self.seconds))
        finally:
            self.last_iterations = search.iterations

    def determinizer(self, seat: int, view: Any) -> Callable[[], Any]:
        """Return what hands each iteration the state it starts from."""
        raise NotImplementedError


class MCTSBot(SearchBot):
    """UCT over the rules, from the seat's view taken as the whole state.

    Only for games whose seats see everything (``GameSpec.hidden_information`` false); the
    view is then the state itself, or what ``Rules.sample`` makes of it.
    """

    kind = "mcts"

    def __init__(self, ruleset: Ruleset, iterations: int | None = 1000, **kwargs: Any) -> None:
        if ruleset.game.hidden_information:
            raise BotError(
                f"mcts plays only games whose seats see everything; {ruleset.game.name} hides "
                "information, so use ismcts"
            )
        super().__init__(ruleset, iterations, **kwargs)

    def determinizer(self, seat: int, view: Any) -> Callable[[], Any]:
        """Return the view as the one state every iteration starts from."""
        state = as_state(self.ruleset, view, seat, self.rng)
        return lambda: state


class ISMCTSBot(SearchBot):
    """Information-set MCTS: each iteration searches a state sampled from the seat's view.

    The sample comes from the game's ``Rules.sample(view, seat, rng)``, which draws what the
    seat cannot see from what it has not seen; the bot never reads the real hidden state.
    In a game without hidden information it plays as :class:`MCTSBot`.
    """

    kind = "ismcts"

    def __init__(self, ruleset: Ruleset, iterations: int | None = 500, **kwargs: Any) -> None:
        if ruleset.game.hidden_information and not can_sample(ruleset):
            raise BotError(
                f"ismcts needs {ruleset.game.name} to sample hidden information "
                "(Rules.sample), which it does not"
            )
        super().__init__(ruleset, iterations, **kwargs)

    def determinizer(self, seat: int, view: Any) -> Callable[[], Any]:
        """Return a sampler of states consistent with the view."""
        rules, rng = self.ruleset.rules, self.rng
        if not can_sample(self.ruleset):
            state = as_state(self.ruleset, view, seat, rng)
            return lambda: state
        return lambda: rules.sample(view, seat, rng)


def as_state(ruleset: Ruleset, view: Any, seat: int, rng: random.Random) -> Any:
    """Return the state a seat that sees everything is in: its view, or the game's sample."""
    if isinstance(view, ruleset.game.state):
        return view
    if can_sample(ruleset):
        return ruleset.rules.sample(view, seat, rng)
    raise BotError(
        f"a bot cannot search {ruleset.game.name}: its view is not its state and it has no "
        "Rules.sample to make one"
    )
