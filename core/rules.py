"""The rules protocol every game implements: a decider with views for each seat.

A game subclasses :class:`Rules` and registers a :class:`GameSpec` through the
``gamehall_games`` hook. The engine calls the methods below and nothing else; they never do
I/O, and only :meth:`Rules.start` and :meth:`Rules.decide` may draw random numbers, through
the generator they are given, so that every outcome lands in an event and replay never draws.
"""

from __future__ import annotations

import importlib
import random
import tomllib
from collections.abc import Callable, Collection, Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from importlib import resources
from types import ModuleType
from typing import Any, ClassVar, Generic, TypeVar, cast

import msgspec

from .errors import IllegalCommand
from .events import Command, Event
from .presentation import Presentation

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


F = TypeVar("F", bound=Callable[..., Any])


def decides(*commands: type[Command], phase: Hashable = None) -> Callable[[F], F]:
    """Mark a method of a :class:`Rules` subclass as the one that decides these commands.

    ``phase`` limits it to the states whose :meth:`Rules.phase` is that value; without it the
    method decides the command in every phase that has no method of its own for it. A command
    type also covers its subclasses, so ``@decides(Command, phase="action")`` answers every
    other command in that phase (with a refusal in the rulebook's words, say). The class
    collects its methods into a table when it is created; :meth:`Rules.decide` looks the
    command up there.
    """

    def mark(method: F) -> F:
        marks = method.__dict__.setdefault("_gamehall_decides", [])
        marks.extend((command, phase) for command in commands)
        return method

    return mark


def evolves(*events: type[Event], rule: str | None = None) -> Callable[[F], F]:
    """Mark a method of a :class:`Rules` subclass as the one that applies these events.

    ``rule`` is the id of the rule (in the game's ``docs/rules``) that makes the event happen,
    for an event ``decide`` returns without an :class:`Emitter`; it joins
    :attr:`Rules.event_rules`.
    """

    def mark(method: F) -> F:
        marks = method.__dict__.setdefault("_gamehall_evolves", [])
        marks.extend((event, rule) for event in events)
        return method

    return mark


EFFECTS: set[object] = set()
"""The code objects of the functions marked :func:`effect` (read by the debugger's provenance)."""


def effect(function: F) -> F:
    """Mark a function as one of a game's shared effects on an :class:`Emitter` (pay, draw).

    An effect is called by several actions with the emitter as its first argument; where an
    event comes from, the rule of the action that called it comes first and the effect's own
    rule id (in its docstring) after it, as for a method of an emitter.
    """
    EFFECTS.add(function.__code__)
    return function


def _spoken(kind: type) -> str:
    """Return a class name as words: ``PlaceMark`` as "place mark"."""
    name = kind.__name__
    return "".join(f" {c.lower()}" if c.isupper() else c for c in name).strip()


class Rules(Generic[S]):
    """Base class of a game's rules; one instance serves every match of one ruleset.

    ``hook`` is the match's hook relay: the game's own hooks (phases, effects) are called
    through it, so the expansions chosen for the match take part.

    A game writes one method per command it decides (``@decides(PlaceMark)``) and one per
    event it applies (``@evolves(MarkPlaced)``); :meth:`decide` and :meth:`evolve` find them
    by the command's or event's type (and :meth:`phase`), so neither is a chain of checks.
    """

    event_rules: Mapping[type[Event], str] = {}
    """Rule ids of the events ``decide`` returns without an :class:`Emitter` (by type); the
    ``rule`` of each ``@evolves`` joins it."""

    revealing: tuple[type[Event], ...] | None = None
    """The game's events that reveal chance or hidden information (rolls, shuffles, draws),
    where the game names them; :meth:`reveals` answers from them."""

    secret_fields: Mapping[type[Event], tuple[str, ...]] = {}
    """By event type, the fields no seat sees (a shuffle's order); :meth:`redact` blanks them."""

    private_fields: Mapping[type[Event], tuple[str, ...]] = {}
    """By event type, the fields only the event's own ``seat`` sees (the cards it drew);
    :meth:`redact` blanks them for every other seat and for spectators."""

    _deciders: ClassVar[dict[type[Command], Callable[..., Any]]] = {}
    _phased: ClassVar[dict[tuple[type[Command], Hashable], Callable[..., Any]]] = {}
    _evolvers: ClassVar[dict[type[Event], Callable[..., Any]]] = {}
    # Made again by __init__ with the methods bound; empty for a subclass that does not call
    # it, which then dispatches through the class's tables above.
    _decide_by_type: Mapping[type[Command], Callable[..., Any]] = {}
    _evolve_by_type: Mapping[type[Event], Callable[..., Any]] = {}

    def __init_subclass__(cls, **kwargs: Any) -> None:
        """Collect the class's ``@decides`` and ``@evolves`` methods into its tables."""
        super().__init_subclass__(**kwargs)
        deciders, phased = dict(cls._deciders), dict(cls._phased)
        evolvers, rules = dict(cls._evolvers), dict(cls.event_rules)
        seen: dict[object, str] = {}
        for name, member in vars(cls).items():
            function = (
                member.__func__ if isinstance(member, (staticmethod, classmethod)) else member
            )
            for command, phase in getattr(function, "_gamehall_decides", ()):
                key: object = (command, phase)
                if key in seen:
                    raise TypeError(
                        f"{cls.__name__}: {seen[key]} and {name} both decide "
                        f"{command.__name__}"
                        + (f" in phase {phase!r}" if phase is not None else "")
                    )
                seen[key] = name
                if phase is None:
                    deciders[command] = function
                else:
                    phased[(command, phase)] = function
            for event, rule in getattr(function, "_gamehall_evolves", ()):
                if event in seen:
                    raise TypeError(
                        f"{cls.__name__}: {seen[event]} and {name} both apply {event.__name__}"
                    )
                seen[event] = name
                evolvers[event] = function
                if rule is not None:
                    rules[event] = rule
        cls._deciders, cls._phased, cls._evolvers = deciders, phased, evolvers
        cls.event_rules = rules

    def __init__(self, hook: Any) -> None:
        self.hook = hook
        # The tables again with each method bound to this object: one look-up and one call
        # per command or event, which is what playouts pay for.
        self._decide_by_type = (
            {} if self._phased else {k: f.__get__(self) for k, f in self._deciders.items()}
        )
        self._evolve_by_type = {k: f.__get__(self) for k, f in self._evolvers.items()}

    def initial(self, config: MatchConfig) -> S:
        """Return the state before any setup event."""
        raise NotImplementedError

    def start(self, state: S, config: MatchConfig, rng: random.Random) -> Sequence[Event]:
        """Return the setup events (shuffles, first player, …) that follow ``MatchStarted``."""
        return ()

    def decide(self, state: S, command: Command, ctx: Context) -> Sequence[Event]:
        """Return the events a command causes, or raise ``IllegalCommand`` with the reason.

        Calls the ``@decides`` method of the command's type (in the state's :meth:`phase`) with
        ``(state, command, ctx)``; a command no method decides goes to :meth:`decide_other`.
        A game whose methods take something else (an :class:`Emitter` of the command) writes
        its own ``decide`` around :meth:`decider`.
        """
        bound = self._decide_by_type.get(type(command))
        if bound is not None:
            events: Sequence[Event] = bound(state, command, ctx)
            return events
        method = self.decider(state, command)
        if method is None:
            return self.decide_other(state, command, ctx)
        events = method(self, state, command, ctx)
        return events

    def direct(
        self,
    ) -> tuple[
        Mapping[type[Command], Callable[..., Any]], Mapping[type[Event], Callable[..., Any]]
    ]:
        """Return the bound ``@decides`` methods of no phase and the ``@evolves`` methods, by
        exact type, for a runner's fast path: calling them is what :meth:`decide` and
        :meth:`evolve` would do, one call sooner. Empty where the class writes its own
        ``decide`` or ``evolve``."""
        cls = type(self)
        decide = self._decide_by_type if cls.decide is Rules.decide else {}
        evolve = self._evolve_by_type if cls.evolve is Rules.evolve else {}
        return decide, evolve

    def decider(self, state: S, command: Command) -> Callable[..., Any] | None:
        """Return the ``@decides`` method for a command in this state, or ``None``.

        The command's own type before the types it derives from; for each, the method of the
        state's phase before the one of every phase.
        """
        phase = self.phase(state) if self._phased else None
        for kind in type(command).__mro__:
            if phase is not None:
                method = self._phased.get((kind, phase))
                if method is not None:
                    return method
            method = self._deciders.get(kind)
            if method is not None:
                return method
        return None

    def decide_other(self, state: S, command: Command, ctx: Context) -> Sequence[Event]:
        """Decide a command no ``@decides`` method takes: refused, in words, by default.

        A game whose expansions decide commands of their own (through a hook) asks them here.
        """
        raise IllegalCommand(f"{_spoken(type(command))} is not a move of this game now")

    def phase(self, state: S) -> Hashable:
        """Return the phase ``@decides(..., phase=...)`` methods are chosen by (``None``: none).

        Only called when some method names a phase.
        """
        return None

    def evolve(self, state: S, event: Event) -> S:
        """Return the state after an event; pure: no randomness, no I/O.

        Calls the ``@evolves`` method of the event's type with ``(state, event)``; an event
        none applies (an expansion's) goes to :meth:`evolve_other`.
        """
        bound = self._evolve_by_type.get(type(event))
        if bound is not None:
            after: S = bound(state, event)
            return after
        method = next((self._evolvers[k] for k in type(event).__mro__ if k in self._evolvers), None)
        if method is None:
            return self.evolve_other(state, event)
        after = method(self, state, event)
        return after

    def evolve_other(self, state: S, event: Event) -> S:
        """Apply an event no ``@evolves`` method takes: unchanged by default.

        A game whose expansions bring events of their own asks them here (through a hook).
        """
        return state

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
        """Return the event as ``seat`` may see it, or ``None`` when it sees nothing of it.

        By default, the event with its :attr:`secret_fields` set to ``None``, and its
        :attr:`private_fields` too unless ``seat`` is the event's own.
        """
        kind = type(event)
        names = self.secret_fields.get(kind, ())
        if kind in self.private_fields and getattr(event, "seat", None) != seat:
            names += self.private_fields[kind]
        blanked = {name: None for name in names if getattr(event, name) is not None}
        return msgspec.structs.replace(event, **blanked) if blanked else event

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

        A game that names its :attr:`revealing` events needs no method of its own: those reveal,
        and so does every event none of its ``@evolves`` methods applies (an expansion's, which
        it cannot take back); its other events do not.
        """
        if self.revealing is None or isinstance(event, self.revealing):
            return True
        return not any(kind in self._evolvers for kind in type(event).__mro__)

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
    after every event emitted so far, so a later step sees what an earlier one did. Made with
    the command's :class:`Context`, it also gives the seat that sent the command and the
    command's generator (``rng``, seeded only when first used); ``rules_of`` holds the rule id
    given with each event (``None`` where the emit named none).

    ``memo`` is the command's scratch space, empty when the emitter is made: a game keeps there
    what it has worked out during this command and would otherwise work out again at each
    step (Gunsen: which clans' achievements were last checked against which records). It is
    per command because one rules object serves every match and thread of a ruleset and so
    may hold no memo itself. The engine never reads it; what is in it must not change what the
    rules decide, only how soon. Key it by something of the game's own (a name it alone uses).
    """

    __slots__ = ("ctx", "events", "memo", "rules", "rules_of", "state")

    def __init__(self, rules: Rules[S], state: S, ctx: Context | None = None) -> None:
        self.rules = rules
        self.state = state
        self.ctx = ctx
        self.events: list[Event] = []
        self.rules_of: list[str | None] = []
        self.memo: dict[Hashable, Any] = {}

    @property
    def seat(self) -> int | None:
        """Return the seat that sent the command (``None`` without a context)."""
        return None if self.ctx is None else self.ctx.seat

    @property
    def rng(self) -> random.Random:
        """Return the command's generator; only an emitter made with a context has one."""
        if self.ctx is None:
            raise RuntimeError("this emitter was made without the command's context")
        return self.ctx.rng

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
            self.rules_of.append(rule)


OptionsUpcast = Callable[[str, dict[str, Any]], dict[str, Any]]
"""Given the plugin version a match was recorded with and its stored options, return the
options as the installed version reads them: an option added later is absent from an older
match, and the upcast gives it the value that keeps the match's old meaning."""


def release(version: str) -> tuple[int, ...]:
    """Return a plugin version's major and minor numbers (``"1.1.0"``: ``(1, 1)``).

    For an :data:`OptionsUpcast`, which compares the version a match was recorded with.
    """
    return tuple(int(part) for part in version.split(".")[:2] if part.isdigit())


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
    events: tuple[type[Event], ...] = ()
    """The game's event classes (as ``gamehall_event_types`` would declare them)."""
    commands: tuple[type[Command], ...] = ()
    """The game's command classes (as ``gamehall_command_types`` would declare them)."""
    presentation: Callable[[Any, Presentation], Presentation] | None = None
    """What people see (words, boards, drawing, seat names, menu headings): called with the
    ruleset's rules and an empty :class:`Presentation` to wrap; usually a subclass."""
    invariants: Callable[[Any], Iterable[Invariant]] | None = None
    """What must hold after every event: called with the ruleset's rules."""

    @classmethod
    def from_package(cls, package: str, **fields: Any) -> GameSpec:
        """Return the spec of a game package laid out as ``docs/writing-a-game.md`` shows.

        Fills from the package's conventional modules what ``fields`` does not give:
        ``rules`` (the one :class:`Rules` subclass of ``rules.py``), ``state`` and ``options``
        (``State`` and ``Options`` of ``state.py``), ``events`` and ``commands`` (``EVENTS`` of
        ``events.py``, ``COMMANDS`` of ``commands.py``), ``presentation`` (the one
        :class:`Presentation` subclass of ``presentation.py``), ``invariants``
        (``invariants.py``'s function of that name), ``hookspecs`` (the classes of ``hooks.py``
        that declare hooks) and ``hookimpls`` (an instance of ``hooks.py``'s ``Defaults``). A
        module the package does not have fills nothing.
        """
        return cls(**{**_conventional_fields(package), **fields})


def _module(package: str, name: str) -> ModuleType | None:
    try:
        return importlib.import_module(f"{package}.{name}")
    except ModuleNotFoundError as missing:
        if missing.name != f"{package}.{name}":
            raise
        return None


def _defined_in(module: ModuleType, base: type) -> list[type]:
    return [
        kind
        for kind in vars(module).values()
        if isinstance(kind, type) and issubclass(kind, base) and kind.__module__ == module.__name__
    ]


def _the_one(module: ModuleType, base: type) -> type:
    found = _defined_in(module, base)
    if len(found) != 1:
        names = ", ".join(kind.__name__ for kind in found) or "none"
        raise TypeError(f"{module.__name__} should define one {base.__name__} class, not {names}")
    return found[0]


def _conventional_fields(package: str) -> dict[str, Any]:
    """Return the spec's fields that a game package's conventional modules give."""
    fields: dict[str, Any] = {}
    if (rules := _module(package, "rules")) is not None:
        fields["rules"] = _the_one(rules, Rules)
    if (state := _module(package, "state")) is not None:
        fields["state"] = state.State
        fields["options"] = getattr(state, "Options", None)
    if (events := _module(package, "events")) is not None:
        fields["events"] = events.EVENTS
    if (commands := _module(package, "commands")) is not None:
        fields["commands"] = commands.COMMANDS
    if (presentation := _module(package, "presentation")) is not None:
        fields["presentation"] = _the_one(presentation, Presentation)
    if (invariants := _module(package, "invariants")) is not None:
        fields["invariants"] = invariants.invariants
    if (hooks := _module(package, "hooks")) is not None:
        fields["hookspecs"] = tuple(
            kind
            for kind in _defined_in(hooks, object)
            if any(hasattr(member, "gamehall_spec") for member in vars(kind).values())
        )
        if hasattr(hooks, "Defaults"):
            fields["hookimpls"] = (hooks.Defaults(),)
    return fields


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
    events: tuple[type[Event], ...] = ()
    """The expansion's own event classes."""
    commands: tuple[type[Command], ...] = ()
    """The expansion's own command classes."""
    presentation: Callable[[Any, Presentation], Presentation] | None = None
    """What people see of the expansion: called with the ruleset's rules and the presentation
    below it (the game's, or another expansion's), which it wraps and hands the rest to."""
    invariants: Callable[[Any], Iterable[Invariant]] | None = None
    """What must hold after every event in a match with the expansion."""


T = TypeVar("T", bound=msgspec.Struct)
Item = TypeVar("Item")
Data = TypeVar("Data")


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


def load_data(package: str, name: str, kind: type[Data], *, strict: bool = True) -> Data:
    """Return a plugin's component data file ``data/<name>`` (TOML), decoded into ``kind``.

    ``package`` is the plugin's package (``__package__`` in one of its modules) and ``kind`` a
    msgspec Struct or any type msgspec converts to (``dict[str, tuple[Card, ...]]``). The files
    under ``data/`` are the ones every ``MatchStarted`` records a hash of, so a replay runs
    against the data its match was played with. ``strict=False`` lets msgspec convert lax
    values (a number written as a string). A file that does not match ``kind`` raises
    ``msgspec.ValidationError``.
    """
    text = (resources.files(package) / "data" / name).read_text(encoding="utf-8")
    return msgspec.convert(tomllib.loads(text), kind, strict=strict)


def with_player(state: T, seat: int, **changes: Any) -> T:
    """Return a state with fields of one seat's player changed, for a game's ``@evolves`` methods.

    ``state`` is a Struct holding a ``players`` tuple of Structs, one per seat; ``changes`` are
    fields of that seat's player (``koku=player.koku + 3``). Everything else is shared with
    ``state``, not copied.
    """
    players = list(cast(Any, state).players)
    players[seat] = msgspec.structs.replace(players[seat], **changes)
    return msgspec.structs.replace(state, players=tuple(players))


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
