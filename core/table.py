"""A synchronous, in-memory runner of one match: for scripts, tests, bots and simulations.

``Table`` shares every rule step with the actors (see :mod:`gamehall.core.engine`) but has no
store, no tasks and no clock, so a playout costs little more than the rules themselves.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from functools import partial
from typing import Any

from . import engine
from .bots import Bot, RandomBot
from .errors import IllegalCommand
from .events import Command, Event, MatchStarted, Meta, Recorded
from .registry import Registry, Ruleset, default_registry
from .rules import Context, Decision, MatchConfig, Outcome


class Table:
    """One match held in memory; ``events`` is its whole log."""

    def __init__(
        self,
        ruleset: Ruleset,
        started: MatchStarted,
        stream: str = "table",
        config: MatchConfig | None = None,
    ) -> None:
        self.ruleset = ruleset
        self.rules = ruleset.rules
        self.stream = stream
        self._seed = started.seed or 0
        self.state, self.events = engine.begin(ruleset, started, config)
        # (first seq, command id, seat, command) of each batch; envelopes are built on demand.
        self._batches: list[tuple[int, str | None, int | None, Command | None]] = [
            (1, None, None, None)
        ]

    @classmethod
    def new(
        cls,
        game: str,
        players: int | None = None,
        *,
        expansions: Sequence[str] = (),
        options: Mapping[str, Any] | None = None,
        expansion_options: Mapping[str, Mapping[str, Any]] | None = None,
        seed: int | None = 0,
        registry: Registry | None = None,
    ) -> Table:
        """Start a match of an installed game."""
        ruleset = (registry or default_registry()).ruleset(game, expansions)
        if players is None and not options and not expansion_options:
            # The default match: its first event and config are validated once per ruleset.
            started, config = ruleset.default_start(seed)
            return cls(ruleset, started, "table", config)
        return cls(ruleset, ruleset.started(players, options, expansion_options, seed))

    @property
    def seq(self) -> int:
        """Return the seq of the last event."""
        return len(self.events)

    @property
    def commands(self) -> int:
        """Return how many commands were accepted."""
        return len(self._batches) - 1

    def awaiting(self) -> Mapping[int, Decision]:
        """Return the seats that may act now."""
        return self.rules.awaiting(self.state)

    def legal(self, seat: int) -> Sequence[Command]:
        """Return every legal command of a seat."""
        return self.rules.legal(self.state, seat)

    def view(self, seat: int | None) -> Any:
        """Return what a seat may see."""
        return self.rules.view(self.state, seat)

    def outcome(self) -> Outcome | None:
        """Return how the match ended, or ``None``."""
        return self.rules.outcome(self.state)

    def render(self, seat: int | None) -> str:
        """Return the board as text for a seat."""
        return self.ruleset.render(self.view(seat), seat)

    def send(self, seat: int, command: Command, command_id: str | None = None) -> Sequence[Event]:
        """Decide and apply a command; raise ``IllegalCommand`` and change nothing if refused."""
        seq = len(self.events) + 1
        ctx = Context(seat, seq, self._seed, command_id)
        events, self.state = engine.decide(self.ruleset, self.state, seat, command, ctx)
        self.events.extend(events)
        self._batches.append((seq, command_id, seat, command))
        return events

    def play(self, bots: Bot | Mapping[int, Bot], max_commands: int = 100_000) -> Outcome | None:
        """Let bots play every awaited seat until the match ends or ``max_commands`` is reached.

        The fast path of :meth:`send`, with every check it makes: the seat is one the match
        awaits (it is taken from ``awaiting``), the command is of a type the ruleset knows
        (else :func:`engine.check` says why), and a command that yields no events is refused.
        A refused command leaves the table as it was before it.
        """
        rules, events, batches, seed = self.rules, self.events, self._batches, self._seed
        awaiting, legal, evolve, decide = rules.awaiting, rules.legal, rules.evolve, rules.decide
        known = self.ruleset.command_types
        # A game's @decides and @evolves methods, called straight from their tables: one call
        # per command and per event where decide and evolve would make two (bench/README.md).
        # A command found in ``deciding`` is of a type the ruleset knows (Ruleset.direct).
        deciding, applying = self.ruleset.direct
        # One random bot for every seat draws here, as its choose would (uniform_index): it
        # never looks at the view, so the state is handed back once, at the end.
        draw = bots.getrandbits if type(bots) is RandomBot else None
        per_seat = bots if draw is None and isinstance(bots, Mapping) else None
        choose = bots.choose if draw is None and per_seat is None else None  # type: ignore[union-attr]
        # Each seat's view callable, made once: it shows the table's state, which is the state
        # the seat chooses in while a bot is asked (a partial a command would cost more).
        looks: dict[int, Callable[[], Any]] = {}
        state, seq = self.state, len(events)  # seq: the last event's
        try:
            for _ in range(max_commands):
                for seat in awaiting(state):
                    break  # the first seat awaited
                else:
                    break  # nobody: the match is over
                options = legal(state, seat)
                if draw is not None:
                    # uniform_index, written out: a call fewer a command.
                    n = len(options)
                    if not n:
                        raise IndexError("Cannot choose from an empty sequence")
                    bits = n.bit_length()
                    index = draw(bits)
                    while index >= n:
                        index = draw(bits)
                    command = options[index]
                else:
                    look = looks.get(seat)
                    if look is None:
                        look = looks[seat] = partial(self.view, seat)
                    self.state = state
                    if choose is not None:
                        command = choose(seat, options, look)
                    else:
                        bot = per_seat.get(seat)  # type: ignore[union-attr]
                        if bot is None:
                            raise KeyError(f"no bot for seat {seat}")
                        command = bot.choose(seat, options, look)
                method = deciding.get(type(command))
                ctx = Context(seat, seq + 1, seed)
                if method is not None:
                    new = method(state, command, ctx)
                else:
                    if type(command) not in known:
                        engine.check(self.ruleset, state, seat, command)  # raises, naming it
                    new = decide(state, command, ctx)
                if not new:
                    raise IllegalCommand("the command changes nothing")
                after = state
                for event in new:
                    apply = applying.get(type(event))
                    after = evolve(after, event) if apply is None else apply(after, event)
                state = after
                events.extend(new)
                batches.append((seq + 1, None, seat, command))
                seq += len(new)
        finally:
            self.state = state
        return rules.outcome(state)

    def records(self) -> list[Recorded]:
        """Return the log in envelopes, as a store would hold it (time 0, position = seq)."""
        out: list[Recorded] = []
        starts = {first: (cid, seat, command) for first, cid, seat, command in self._batches}
        meta = tail = Meta()
        for seq, event in enumerate(self.events, start=1):
            batch = starts.get(seq)
            if seq == 1:
                meta, tail = Meta(versions=self.ruleset.versions), Meta()
            elif batch is not None:
                cid, seat, command = batch
                meta, tail = Meta(cid, seat, command), Meta(cid, seat)
            out.append(Recorded(self.stream, seq, seq, 0.0, event, meta))
            meta = tail
        return out
