"""Monte Carlo tree search over a game's own rules, for one seat, from states it may be in.

One search serves both bots. Each iteration starts from a state handed out by a
``determinize`` callable: always the same state for :class:`~.mcts.MCTSBot` (the seat sees
everything), a fresh sample drawn from the seat's view for :class:`~.mcts.ISMCTSBot`
(single-observer information-set MCTS). The tree is keyed by who acts and what it sends, so
the statistics of one command add up over every sample in which it was possible; a child's
``avail`` counts those samples, and UCB uses it in place of the parent's visits.

Who acts in the search is who the rules await: the lowest awaited seat of a reaction window
(the bot's own seat at the root), so every seat's answer is searched. Free actions
(``Rules.free``) are searched like any other command of an awaited seat; seats that are not
awaited stay silent in the search. In playouts, an awaited seat takes one of its free actions
as often as it takes any one of its other commands, so that trades and the like, which may be
many, do not crowd out the moves that end a turn.

A playout runs to the end of the match, unless the game estimates positions
(``Rules.estimate``): it then stops after ``playout`` commands (none by default, measured the
strongest for the time) and takes the game's guess.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Generator, Sequence
from typing import Any

from ..events import Command
from ..registry import Ruleset
from ..rules import Context, Rules

DRAW = 0.5  # what a match ended without a winner is worth to every seat
ROLLOUT_LIMIT = 2_000  # commands in one playout before it counts as a draw
ESTIMATED_PLAYOUT = 0  # commands in one playout when the game estimates positions


def finish(steps: Generator[None, None, Command]) -> Command:
    """Run a search's :meth:`Search.steps` to its end and return its command."""
    while True:
        try:
            next(steps)
        except StopIteration as stop:
            return stop.value  # type: ignore[no-any-return]


class Node:
    """A command in the tree: who sent it, how often it was tried and what it won."""

    __slots__ = ("avail", "children", "command", "seat", "total", "visits")

    def __init__(self, seat: int, command: Command | None) -> None:
        self.seat = seat
        self.command = command
        self.children: dict[int, dict[Command, Node]] = {}  # by the seat that acts, then command
        self.visits = 0
        self.total = 0.0
        self.avail = 1


class Result:
    """How a playout ended: the winners, or the game's estimate of an unfinished match."""

    __slots__ = ("estimate", "winners")

    def __init__(
        self, winners: Sequence[int] | None, estimate: Sequence[float] | None = None
    ) -> None:
        self.winners = winners
        self.estimate = estimate

    def share(self, seat: int) -> float:
        """Return what the playout is worth to a seat: 1 shared among winners, else a guess."""
        winners = self.winners
        if winners:
            return 1.0 / len(winners) if seat in winners else 0.0
        estimate = self.estimate
        if estimate is not None and seat < len(estimate):
            return float(estimate[seat])
        return DRAW


class Search:
    """UCT from one seat's decision, over states handed out by ``determinize``."""

    def __init__(
        self,
        ruleset: Ruleset,
        seat: int,
        rng: random.Random,
        *,
        exploration: float = 0.7,
        playout: int | None = None,
    ) -> None:
        self.rules: Rules[Any] = ruleset.rules
        self.seat = seat
        self.rng = rng
        self.exploration = exploration
        self.estimates = type(self.rules).estimate is not Rules.estimate
        if playout is None:
            playout = ESTIMATED_PLAYOUT if self.estimates else ROLLOUT_LIMIT
        self.playout = playout
        self.has_free = type(self.rules).free is not Rules.free
        self.iterations = 0

    def choose(
        self,
        legal: Sequence[Command],
        determinize: Callable[[], Any],
        iterations: int | None = None,
        seconds: float | None = None,
    ) -> Command:
        """Return the most tried of ``legal`` after ``iterations`` (or ``seconds``) of search."""
        return finish(self.steps(legal, determinize, iterations, seconds))

    def steps(
        self,
        legal: Sequence[Command],
        determinize: Callable[[], Any],
        iterations: int | None = None,
        seconds: float | None = None,
    ) -> Generator[None, None, Command]:
        """:meth:`choose` one iteration at a time: yield after each, return the command.

        Whoever drives it may stop between iterations and go on later (in another thread):
        the thinking slots of a server are shared this way. A time budget counts the time
        spent iterating only, not the pauses, so the same search is made however it is cut.
        """
        if len(legal) == 1:
            return legal[0]
        if not legal:
            raise ValueError(f"seat {self.seat + 1} has no legal command to choose from")
        root = Node(self.seat, None)
        budget = iterations if iterations is not None else 1 << 62
        clock = time.perf_counter
        done, spent = 0, 0.0
        while done < budget:
            began = clock()
            self.iterate(root, legal, determinize())
            done += 1
            self.iterations = done
            spent += clock() - began
            if seconds is not None and spent >= seconds:
                break
            yield
        self.iterations = done
        return self.best(root, legal)

    def best(self, root: Node, legal: Sequence[Command]) -> Command:
        """Return the root's most visited legal command (the first of equals)."""
        children = root.children.get(self.seat, {})
        best, most = legal[0], -1
        for command in legal:
            child = children.get(command)
            visits = child.visits if child is not None else 0
            if visits > most:
                best, most = command, visits
        return best

    # -- one iteration ---------------------------------------------------------------------

    def iterate(self, root: Node, legal: Sequence[Command], state: Any) -> None:
        """Select and expand one path from a sampled state, play it out, and back it up."""
        rules = self.rules
        node, path = root, [root]
        actor, options = self.seat, legal
        while True:
            child, expanded = self._select(node, actor, options)
            state = self.apply(state, actor, child.command)  # type: ignore[arg-type]
            path.append(child)
            node = child
            if expanded:
                break
            asked = rules.awaiting(state)
            if not asked:
                break
            actor = min(asked)
            options = rules.legal(state, actor)
        result = self.rollout(state)
        for step in path[1:]:
            step.visits += 1
            step.total += result.share(step.seat)

    def _select(self, node: Node, actor: int, options: Sequence[Command]) -> tuple[Node, bool]:
        kids = node.children.get(actor)
        if kids is None:
            kids = node.children[actor] = {}
        untried: list[Command] = []
        best: Node | None = None
        score = -1.0
        log, sqrt, c = math.log, math.sqrt, self.exploration
        for command in options:
            child = kids.get(command)
            if child is None:
                untried.append(command)
                continue
            child.avail += 1
            visits = child.visits
            value = child.total / visits + c * sqrt(log(child.avail) / visits)
            if value > score:
                best, score = child, value
        if untried:
            command = untried[self.rng.randrange(len(untried))] if len(untried) > 1 else untried[0]
            child = kids[command] = Node(actor, command)
            return child, True
        assert best is not None
        return best, False

    def apply(self, state: Any, actor: int, command: Command) -> Any:
        """Return the state after ``actor`` sends ``command``, chance drawn from the bot's rng."""
        rules = self.rules
        events = rules.decide(state, command, Context(actor, 0, 0, None, self.rng))
        evolve = rules.evolve
        for event in events:
            state = evolve(state, event)
        return state

    def rollout(self, state: Any) -> Result:
        """Play random commands to the end, or for ``playout`` commands and then estimate."""
        rules, rng = self.rules, self.rng
        awaiting, legal_of, outcome = rules.awaiting, rules.legal, rules.outcome
        free_of = rules.free if self.has_free else None
        for _ in range(self.playout):
            asked = awaiting(state)
            if not asked:
                ended = outcome(state)
                return Result(ended.winners if ended is not None else None)
            actor = next(iter(asked))
            legal = legal_of(state, actor)
            if free_of is not None:
                legal = _damp_free(legal, free_of(state, actor), rng)
            command = legal[rng.randrange(len(legal))]
            state = self.apply(state, actor, command)
        if not awaiting(state):
            ended = outcome(state)
            return Result(ended.winners if ended is not None else None)
        return Result(None, rules.estimate(state) if self.estimates else None)


def _damp_free(legal: Sequence[Command], free: Any, rng: random.Random) -> Sequence[Command]:
    # Free actions together weigh as much as one other command: a seat with many trades on
    # offer still ends its turn in a playout.
    if not free:
        return legal
    main = [c for c in legal if type(c) not in free]
    if not main or len(main) == len(legal):
        return legal
    if rng.randrange(len(main) + 1) < len(main):
        return main
    return [c for c in legal if type(c) in free]
