"""The rules protocol every game implements: a decider with views for each seat.

A game subclasses :class:`Rules` and registers a :class:`GameSpec` through the
``gamehall_games`` hook. The engine calls the methods below and nothing else; they never do
I/O, and only :meth:`Rules.start` and :meth:`Rules.decide` may draw random numbers, through
the generator they are given, so that every outcome lands in an event and replay never draws.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Collection, Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

import msgspec

from .events import Command, Event

S = TypeVar("S")


class Decision(msgspec.Struct, frozen=True, gc=False):
    """What a seat is asked to decide now: ``kind`` for programs, ``prompt`` for people."""

    kind: str
    prompt: str = ""


class ScoreLine(msgspec.Struct, frozen=True, gc=False):
    """One category of the final scoring: its name and what each seat got from it."""

    category: str
    points: tuple[int, ...]


class Outcome(msgspec.Struct, frozen=True, gc=False):
    """How a match ended. No winners means a draw; several winners share the win.

    ``reason`` says why in words ("reached the enemy headquarters"); ``scores`` are the totals
    per seat where the game counts points, and ``breakdown`` the categories that make them up,
    in the rulebook's scoring order.
    """

    winners: tuple[int, ...]
    reason: str = ""
    scores: tuple[int, ...] | None = None
    breakdown: tuple[ScoreLine, ...] = ()


class MatchConfig(msgspec.Struct, frozen=True):
    """What a match starts with, as a game sees it (the seed stays with the engine)."""

    players: int
    options: Any = None
    expansions: tuple[str, ...] = ()
    expansion_options: dict[str, Any] = {}


def match_rng(seed: int, seq: int) -> random.Random:
    """Return the generator for the command whose first event gets ``seq``."""
    return random.Random(f"gamehall:{seed}:{seq}")


class LazyRandom(random.Random):
    """A :func:`match_rng` generator that is only seeded when first used (seeding is costly)."""

    def __init__(self, seed: int, seq: int) -> None:
        self._key = f"gamehall:{seed}:{seq}"
        self._seeded = False

    def __getattribute__(self, name: str) -> Any:
        if name[0] != "_" and not object.__getattribute__(self, "_seeded"):
            object.__setattr__(self, "_seeded", True)
            random.Random.seed(self, object.__getattribute__(self, "_key"))
        return object.__getattribute__(self, name)


class Context(msgspec.Struct, gc=False):
    """What ``decide`` knows besides the state: who asks, and a generator it may draw from.

    The engine's generator is seeded from the match seed and ``seq``; a bot that searches
    passes its own generator as the fifth argument instead, so its look-ahead never touches the
    match's. Made for every command, so it is a Struct: built in C, with no Python
    ``__init__``; the seed stays out of its repr.
    """

    seat: int | None
    seq: int
    _seed: int
    command_id: str | None = None
    _rng: random.Random | None = None

    def __repr__(self) -> str:
        return f"Context(seat={self.seat!r}, seq={self.seq!r}, command_id={self.command_id!r})"

    @property
    def rng(self) -> random.Random:
        """Return this command's generator, seeded from the match seed and ``seq``."""
        if self._rng is None:
            self._rng = match_rng(self._seed, self.seq)
        return self._rng


class Invariant(msgspec.Struct, frozen=True):
    """A named check over a state; ``check`` returns ``None`` or what is wrong."""

    name: str
    check: Callable[[Any], str | None]
    description: str = ""


class Rules(Generic[S]):
    """Base class of a game's rules; one instance serves every match of one ruleset.

    ``hook`` is the match's hook relay: the game's own hooks (phases, effects) are called
    through it, so the expansions chosen for the match take part.
    """

    event_rules: Mapping[type[Event], str] = {}
    """Rule ids of the events ``decide`` returns without an :class:`Emitter` (by type)."""

    def __init__(self, hook: Any) -> None:
        self.hook = hook

    def initial(self, config: MatchConfig) -> S:
        """Return the state before any setup event."""
        raise NotImplementedError

    def start(self, state: S, config: MatchConfig, rng: random.Random) -> Sequence[Event]:
        """Return the setup events (shuffles, first player, …) that follow ``MatchStarted``."""
        return ()

    def decide(self, state: S, command: Command, ctx: Context) -> Sequence[Event]:
        """Return the events a command causes, or raise ``IllegalCommand`` with the reason."""
        raise NotImplementedError

    def evolve(self, state: S, event: Event) -> S:
        """Return the state after an event; pure: no randomness, no I/O."""
        raise NotImplementedError

    def awaiting(self, state: S) -> Mapping[int, Decision]:
        """Return the seats that may act now and what each is asked; empty once over."""
        raise NotImplementedError

    def legal(self, state: S, seat: int) -> Sequence[Command]:
        """Return every command ``seat`` may send now, its free actions included.

        A seat that is not awaited has no legal command but its free actions (see :meth:`free`).
        """
        raise NotImplementedError

    def free(self, state: S, seat: int) -> Collection[type[Command]]:
        """Return the command types ``seat`` may send now without being awaited.

        Free actions are commands a seat may send whenever the rules allow it, also on another
        seat's turn or while another seat owes a choice (River of Gold's trades). The engine
        lets a command of one of these types through to :meth:`decide` from a seat that is not
        awaited; :meth:`decide` still judges it. Empty once the match is over.
        """
        return ()

    def outcome(self, state: S) -> Outcome | None:
        """Return how the match ended, or ``None`` while it goes on."""
        raise NotImplementedError

    def view(self, state: S, seat: int | None) -> Any:
        """Return what ``seat`` may see of the state (``None`` is a spectator)."""
        return state

    def redact(self, event: Event, seat: int | None) -> Event | None:
        """Return the event as ``seat`` may see it, or ``None`` when it sees nothing of it."""
        return event

    def sample(self, view: Any, seat: int, rng: random.Random) -> S:
        """Return a whole state that ``seat`` could be in, given only its view (for IS-MCTS).

        Draw every part hidden from ``seat`` (other hands, the deck order) uniformly from what
        the seat has not seen, consistent with everything it has seen, so that
        ``view(sample(view(s, seat), seat, rng), seat) == view(s, seat)``. A bot that searches
        over samples never reads the real hidden state. Games without hidden information may
        keep the default, which refuses.
        """
        raise NotImplementedError(f"{type(self).__name__} cannot sample a state from a view")

    def estimate(self, state: S) -> Sequence[float] | None:
        """Return a quick guess at what a match still going on is worth to each seat (0 to 1).

        Optional: bots that search stop their random playouts early and take this guess
        instead, which makes them stronger for the same time. Seats' values should add up to
        about 1 (a win shared); ``None`` (the default) means the game gives no guess, and
        playouts then run to the end of the match.
        """
        return None

    def timeout(self, state: S, seat: int) -> Command | None:
        """Return what a seat that ran out of time does: a pass where the rules allow one.

        ``None`` (the default) lets the engine choose one of the seat's legal commands for it,
        from its own view, as a bot would.
        """
        return None

    def reveals(self, event: Event) -> bool:
        """Return whether an event reveals chance or hidden information (a roll, a draw).

        No take-back reaches past such an event: undoing it would let a seat try the dice
        again, or act on what it has seen. The default says every event reveals, which makes
        undo impossible; a game answers ``False`` for its events that only follow from the
        seats' choices. The engine also treats as revealing any event some seat sees
        otherwise than another, and any that shrinks what :meth:`hidden` hides from a seat.
        """
        return True

    def hidden(self, state: S, seat: int | None) -> Collection[str]:
        """Return tokens (component ids) of facts hidden from ``seat``, for the leak checks.

        A game with hidden information names each hidden component by a token that appears in
        a view or an event only where that component is shown; the conformance suite checks
        that no view or redacted event given to ``seat`` contains one of them.
        """
        return ()

    def option_choices(self) -> Mapping[str, Sequence[tuple[Any, str]]]:
        """Return, by option name, the closed set of values an option takes in this ruleset
        and each value's name for people, where the options Struct alone cannot say it.

        For an option whose values the ruleset knows only once its expansions are loaded
        (Toy Battle's terrains: an expansion adds some), typed as text in the Struct. Forms
        offer these values as a select and refuse any other; ``gamehall games`` lists them.
        A ``Literal`` or an ``Enum`` in the Struct needs nothing here.
        """
        return {}


class Emitter(Generic[S]):
    """Collect the events a command causes, applying each one as it is emitted.

    Rules that decide in several steps read ``state`` between steps: it is always the state
    after every event emitted so far, so a later step sees what an earlier one did.
    """

    __slots__ = ("events", "rules", "state")

    def __init__(self, rules: Rules[S], state: S) -> None:
        self.rules = rules
        self.state = state
        self.events: list[Event] = []

    def emit(self, *events: Event, rule: str | None = None) -> None:
        """Record events and apply them to ``state`` in order.

        ``rule`` is the id of the rule (in the game's ``docs/rules``) that makes these events
        happen. Without it, the rule is the first rule id named in the docstring of the
        nearest function that emits (see :mod:`gamehall.core.debug.provenance`, which reads
        both when it traces a command; nothing is recorded while a match plays).
        """
        evolve = self.rules.evolve
        for event in events:
            self.state = evolve(self.state, event)
            self.events.append(event)


OptionsUpcast = Callable[[str, dict[str, Any]], dict[str, Any]]
"""Given the plugin version a match was recorded with and its stored options, return the
options as the installed version reads them: an option added later is absent from an older
match, and the upcast gives it the value that keeps the match's old meaning."""


@dataclass(frozen=True)
class GameSpec:
    """A game as a plugin registers it."""

    id: str
    name: str
    version: str
    rules: Callable[[Any], Rules[Any]]
    state: type[Any]
    min_players: int
    max_players: int
    options: type[msgspec.Struct] | None = None
    hookspecs: tuple[Any, ...] = ()
    hookimpls: tuple[object, ...] = ()
    hidden_information: bool = False
    test_options: tuple[dict[str, Any], ...] = ({},)
    description: str = ""
    rules_doc: str = ""  # the numbered rules, relative to the distribution's root
    accepted_data: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    """Per data file, hashes of earlier contents that play exactly as the current one does."""
    upcast_options: OptionsUpcast | None = None
    """How this version reads the options of a match recorded by an older version of it."""


@dataclass(frozen=True)
class ExpansionSpec:
    """An expansion: a plugin that implements some of a game's hooks."""

    id: str
    name: str
    version: str
    game: str
    options: type[msgspec.Struct] | None = None
    hookimpls: tuple[object, ...] = ()
    requires: tuple[str, ...] = ()
    conflicts: tuple[str, ...] = ()
    min_players: int | None = None
    max_players: int | None = None
    test_options: tuple[dict[str, Any], ...] = field(default=({},))
    description: str = ""
    rules_doc: str = ""
    accepted_data: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    """Per data file, hashes of earlier contents that play exactly as the current one does."""
    upcast_options: OptionsUpcast | None = None
    """How this version reads the options of a match recorded by an older version of it."""


T = TypeVar("T", bound=msgspec.Struct)
Item = TypeVar("Item")


def defaults_first(results: Sequence[Iterable[Item] | None]) -> list[Item]:
    """Return the items of a collecting hook's results, the game's defaults first.

    A game's defaults are ``trylast=True`` (see ``docs/writing-a-game.md``, "Hook order"), so
    pluggy calls them last and their list ends ``results``; this puts it first, then each
    expansion's in the order the ruleset registered them.
    """
    return [item for result in reversed(results) if result for item in result]


def merge_by_key(
    results: Sequence[Iterable[Item] | None], key: Callable[[Item], Hashable]
) -> list[Item]:
    """Return a collecting hook's items, the defaults first, a later item replacing one of its key.

    A replacing item takes the place of the one it replaces, so the box's order holds.
    """
    merged: dict[Hashable, Item] = {}
    for item in defaults_first(results):
        merged[key(item)] = item
    return list(merged.values())


def extension_state(ext: Mapping[str, Any], expansion: str, kind: type[T]) -> T:
    """Return an expansion's own typed state from a game state's ``ext`` map.

    A game keeps ``ext: dict[str, Any]`` in its state, one entry per expansion id holding the
    plain data of that expansion's Struct, so the game's state decodes without knowing its
    expansions; each expansion reads and writes its own typed Struct through these two
    functions. An expansion that has not written yet gets ``kind()``.
    """
    raw = ext.get(expansion)
    return kind() if raw is None else msgspec.convert(raw, kind)


def with_extension_state(
    ext: Mapping[str, Any], expansion: str, value: msgspec.Struct
) -> dict[str, Any]:
    """Return a copy of an ``ext`` map holding an expansion's new state.

    The state is kept as decoded JSON (lists, not tuples), so the match state reads back from
    its codec exactly as it was.
    """
    return {**ext, expansion: msgspec.json.decode(msgspec.json.encode(value))}
