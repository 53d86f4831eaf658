"""Provenance: which code emitted an event, under which rule, and what it changed.

Nothing is recorded while a match plays. To explain an event, :func:`trace_command`
re-decides its command on the state before it, with the generator the match had, while a
tracing :meth:`Emitter.emit <gamehall.core.rules.Emitter.emit>` notes where each event comes
from and pluggy's hook-call monitoring notes every hook that ran. The durable path pays
nothing for it.

An event's rule is declared where it is emitted: ``emit(..., rule="ROG-SAIL-2")``, else the
first rule id named in the docstring of the nearest function on the way to the emit (the
effect or hook that emits it), else, for events a game's ``decide`` returns without an
emitter, :attr:`Rules.event_rules <gamehall.core.rules.Rules.event_rules>`. The rule ids of
the functions further out (the action that called the effect) are kept as its context.
"""

from __future__ import annotations

import importlib.metadata
import os
import re
import sys
import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from types import CodeType, FrameType
from typing import Any

import msgspec

from .. import engine
from ..errors import GamehallError
from ..events import Command, Event, Recorded, tag_of
from ..registry import Ruleset
from ..replay import diff_states, started_of
from ..rules import EFFECTS, Context, Emitter, ExpansionSpec, GameSpec, Rules
from .common import Step, first_difference, game_records, seat_label, steps_of

RULE_ID = re.compile(r"\b[A-Z][A-Z0-9]*(?:-[A-Z][A-Z0-9]*)*-\d+\b")
_LOCK = threading.Lock()


class Origin(msgspec.Struct, frozen=True):
    """A plugin as people and packagers know it."""

    plugin: str  # the game's or expansion's id
    version: str
    distribution: str  # the installed distribution and its version, or where it was loaded


class HookCall(msgspec.Struct, frozen=True):
    """A hook that ran while a command was decided, with its implementations in call order."""

    hook: str
    implementations: tuple[str, ...]  # plugin ids, in the order pluggy called them
    times: int = 1


class Emission(msgspec.Struct, frozen=True):
    """Where one event of a command came from."""

    index: int  # its place in the command's events
    event: Event
    plugin: str  # the game's or expansion's id
    hook: str | None  # the hook implementation that emitted it (None: the game's decide)
    function: str  # module and qualified name of the function that emitted it
    line: int
    rule: str | None
    declared: str  # how the rule is known: "emit", "docstring", "event_rules" or "none"
    context: tuple[str, ...] = ()  # rule ids of the functions further out, innermost first


class Trace(msgspec.Struct, frozen=True):
    """A command re-decided under tracing: its events' origins and the hooks that ran."""

    seat: int | None
    command: Command
    seq: int
    emissions: tuple[Emission, ...]
    calls: tuple[HookCall, ...]


# -- resolving code to plugins and rules -------------------------------------------------------


class _Plugins:
    """The ruleset's hook implementations by code object, and each plugin object's id."""

    def __init__(self, ruleset: Ruleset) -> None:
        registry = ruleset.registry
        self.ruleset = ruleset
        self.ids: dict[int, str] = {}
        specs: list[GameSpec | ExpansionSpec] = [ruleset.game, *ruleset.expansions]
        for spec in specs:
            self.ids[id(registry.owner(spec.id))] = spec.id
            for impl in spec.hookimpls:
                self.ids.setdefault(id(impl), spec.id)
        self.modules = {spec.id: _module_of(registry.owner(spec.id)) for spec in specs}
        self.hooks: dict[CodeType, tuple[str, str]] = {}
        for name in dir(ruleset.pm.hook):
            caller = getattr(ruleset.pm.hook, name)
            if not hasattr(caller, "get_hookimpls"):
                continue
            for impl in caller.get_hookimpls():
                code = getattr(impl.function, "__code__", None)
                if code is not None:
                    self.hooks[code] = (self.plugin_of(impl.plugin, impl.function), name)

    def plugin_of(self, obj: object, function: Any = None) -> str:
        known = self.ids.get(id(obj))
        if known is not None:
            return known
        module = getattr(function, "__module__", None) or getattr(obj, "__module__", "")
        return self.by_module(module or "")

    def by_module(self, module: str) -> str:
        best = self.ruleset.game.id
        length = -1
        for plugin, root in self.modules.items():
            if root and (module == root or module.startswith(root + ".")) and len(root) > length:
                best, length = plugin, len(root)
        return best


def _module_of(owner: object) -> str:
    name = getattr(owner, "__name__", None) if isinstance(owner, type(sys)) else None
    if name is None:
        name = getattr(owner, "__module__", "") or ""
    return str(name)


_DOCS: dict[CodeType, str | None] = {}


def _docstring(frame: FrameType) -> str | None:
    """Return the docstring of the function a frame runs (found through its qualified name)."""
    code = frame.f_code
    if code in _DOCS:
        return _DOCS[code]
    doc: str | None = None
    parts = code.co_qualname.split(".")
    if "<locals>" not in parts and "<lambda>" not in parts:
        obj: Any = frame.f_globals.get(parts[0])
        for part in parts[1:]:
            obj = getattr(obj, part, None)
        func = getattr(obj, "__func__", obj)
        if getattr(func, "__code__", None) is code:
            doc = func.__doc__
    _DOCS[code] = doc
    return doc


def _origin_of_frames(
    plugins: _Plugins, frame: FrameType | None, stop: CodeType
) -> tuple[str, str | None, str, int, list[str]]:
    """Walk out from the emitting frame: the plugin, hook, function, line and rule ids met."""
    hook: tuple[str, str] | None = None
    function = ""
    line = 0
    rules: list[str] = []
    later: list[str] = []
    while frame is not None and frame.f_code is not stop:
        code = frame.f_code
        module = frame.f_globals.get("__name__", "")
        if not function and not module.startswith("gamehall.core"):
            function, line = f"{module}.{code.co_qualname}", frame.f_lineno
        if hook is None and code in plugins.hooks:
            hook = plugins.hooks[code]
        if not module.startswith("gamehall.core"):
            doc = _docstring(frame)
            found = RULE_ID.findall(doc)[:1] if doc else []
            # An emitter's own methods and the functions marked @effect (gain, pay) are the
            # game's shared effects: the rule of the action that uses them comes first, theirs
            # after it.
            shared = code in EFFECTS or isinstance(frame.f_locals.get("self"), Emitter)
            (later if shared else rules).extend(r for r in found if r not in rules + later)
        frame = frame.f_back
    rules += later
    if hook is not None:
        return hook[0], hook[1], function, line, rules
    module = function.rsplit(".", 1)[0] if function else ""
    return plugins.by_module(module), None, function, line, rules


# -- tracing a command --------------------------------------------------------------------------


@contextmanager
def _tracing(ruleset: Ruleset, plugins: _Plugins) -> Iterator[tuple[list[Any], list[Any]]]:
    emitted: list[Any] = []
    calls: list[Any] = []
    original = Emitter.emit
    thread = threading.get_ident()
    stop = trace_command.__code__

    def traced(self: Emitter[Any], *events: Event, rule: str | None = None) -> None:
        if threading.get_ident() == thread:
            found = _origin_of_frames(plugins, sys._getframe(1), stop)
            emitted.extend((event, rule, found) for event in events)
        original(self, *events, rule=rule)

    def before(name: str, impls: Sequence[Any], kwargs: Any) -> None:
        if threading.get_ident() == thread:
            calls.append(
                (name, tuple(plugins.plugin_of(i.plugin, i.function) for i in reversed(impls)))
            )

    def after(*_: Any) -> None:
        return None

    with _LOCK:
        Emitter.emit = traced  # type: ignore[method-assign]
        undo = ruleset.pm.add_hookcall_monitoring(before, after)
        try:
            yield emitted, calls
        finally:
            undo()
            Emitter.emit = original  # type: ignore[method-assign]


def trace_command(
    ruleset: Ruleset, state: Any, seat: int | None, command: Command, ctx: Context
) -> Trace:
    """Re-decide a command under tracing; return where each of its events comes from."""
    plugins = _Plugins(ruleset)
    rules = ruleset.rules
    with _tracing(ruleset, plugins) as (emitted, calls):
        engine.check(ruleset, state, seat, command)
        events = list(rules.decide(state, command, ctx))
    emissions: list[Emission] = []
    pending = list(emitted)
    decide = type(rules).decide
    # A rules class that keeps the base ``decide`` dispatches to its ``@decides`` method:
    # that method is where the events it returns come from.
    if decide is Rules.decide:
        decide = rules.decider(state, command) or decide
    default_function = f"{decide.__module__}.{decide.__qualname__}"
    for index, event in enumerate(events):
        match = next((i for i, item in enumerate(pending) if item[0] is event), None)
        if match is None:  # returned by decide without an emitter
            rule = rules.event_rules.get(type(event))
            emissions.append(Emission(
                index, event, ruleset.game.id, None, default_function,
                decide.__code__.co_firstlineno, rule, "event_rules" if rule else "none",
            ))  # fmt: skip
            continue
        _, explicit, (plugin, hook, function, line, found) = pending.pop(match)
        del pending[:match]
        if explicit:
            rule, how, context = explicit, "emit", tuple(r for r in found if r != explicit)
        elif found:
            rule, how, context = found[0], "docstring", tuple(found[1:])
        else:
            rule = rules.event_rules.get(type(event))
            how, context = ("event_rules" if rule else "none"), ()
        emissions.append(Emission(index, event, plugin, hook, function, line, rule, how, context))
    merged: list[HookCall] = []
    for name, impls in calls:
        for i, call in enumerate(merged):
            if call.hook == name and call.implementations == impls:
                merged[i] = HookCall(name, impls, call.times + 1)
                break
        else:
            merged.append(HookCall(name, impls))
    return Trace(seat, command, ctx.seq, tuple(emissions), tuple(merged))


# -- rules documents ----------------------------------------------------------------------------


def rules_doc(ruleset: Ruleset, plugin: str, root: Path | None = None) -> Path | None:
    """Return the rules document of the game or an expansion: under ``root`` (a source tree
    its ``rules_doc`` is relative to) when given and there, else found from its package, else
    under ``GAMEHALL_RULES_ROOT`` or the current directory (a checkout, for a package installed
    without its documents)."""
    spec: GameSpec | ExpansionSpec = ruleset.game
    for expansion in ruleset.expansions:
        if expansion.id == plugin:
            spec = expansion
    if not spec.rules_doc:
        return None
    if root is not None and (root / spec.rules_doc).is_file():
        return root / spec.rules_doc
    owner = ruleset.registry.owner(spec.id)
    start = getattr(owner, "__file__", None) or getattr(
        sys.modules.get(_module_of(owner)), "__file__", None
    )
    if not start:
        return None
    for folder in Path(start).resolve().parents:
        candidate = folder / spec.rules_doc
        if candidate.is_file():
            return candidate
    # An installed package carries no documents: a checkout named by GAMEHALL_RULES_ROOT, or
    # the one the command runs in, may.
    for base in (os.environ.get("GAMEHALL_RULES_ROOT"), os.getcwd()):
        if base and (Path(base) / spec.rules_doc).is_file():
            return Path(base) / spec.rules_doc
    return None


def rule_line(ruleset: Ruleset, rule: str) -> tuple[str, str] | None:
    """Return the line of the rules document that defines a rule id, and the document's name."""
    plugins = [ruleset.game.id, *(e.id for e in ruleset.expansions)]
    marker = f"**{rule}**"
    for plugin in plugins:
        doc = rules_doc(ruleset, plugin)
        if doc is None:
            continue
        lines = doc.read_text("utf-8").splitlines()
        for number, text in enumerate(lines):
            if marker in text:
                words = [text.split(marker, 1)[1].strip()]
                for more in lines[number + 1 :]:
                    if not more.startswith("  ") or not more.strip():
                        break
                    words.append(more.strip())
                return " ".join(words), doc.name
    return None


def origin(ruleset: Ruleset, plugin: str) -> Origin:
    """Return a plugin's id, version and the distribution it is installed from."""
    version = ruleset.versions.get(plugin, "?")
    module = _module_of(ruleset.registry.owner(plugin))
    top = module.split(".")[0]
    dists = importlib.metadata.packages_distributions().get(top, [])
    if dists:
        name = dists[0]
        where = f"{name} {importlib.metadata.version(name)}"
    else:
        where = f"module {module}, not installed"
    return Origin(plugin, version, where)


# -- why ------------------------------------------------------------------------------------------


def why(ruleset: Ruleset, records: Sequence[Recorded], seq: int) -> list[str]:
    """Explain the event at ``seq`` of a full log, in lines for a person.

    Refuses a log that does not verify (today's rules would not explain it) and a seq that is
    not one of the match's own events.
    """
    last = records[-1].seq if records else 0
    if not 1 <= seq <= last:
        raise GamehallError(f"seq {seq} is outside the log (events 1 to {last})")
    own = game_records(ruleset, records)
    record = next((r for r in own if r.seq == seq), None)
    if record is None:
        raise GamehallError(
            f"event {seq} is not one of {ruleset.name}'s events (another plugin recorded it): "
            "nothing of the game explains it"
        )
    problem = first_difference(ruleset, records)
    if problem is not None:
        raise GamehallError(f"the log does not verify: {problem}")
    started = started_of(records)
    players = started.players
    tag = tag_of(type(record.event))
    steps = steps_of(ruleset, own)
    step: Step | None = next((s for s in steps if s.seq <= seq <= s.last), None)
    before = _state_before(ruleset, own, seq)
    if before is None:
        before = engine.initial_state(ruleset, started)
    after = _state_before(ruleset, own, seq + 1)
    described = ruleset.describe_event(record.event, ruleset.rules.view(before, None), None)
    lines = [f"event {seq} of {last}: {described} ({tag})"]
    if step is None:
        lines.append("it is part of the match's setup (no command): dealt from the seed")
        lines += _changes(before, after)
        return lines
    state = _state_before(ruleset, own, step.seq)
    who = seat_label(ruleset, state, step.seat, players)
    said = ruleset.describe(step.command, ruleset.rules.view(state, step.seat), step.seat)
    span = f"event {step.seq}" if step.seq == step.last else f"events {step.seq} to {step.last}"
    lines.append(f"command: {who} sent {said} ({tag_of(type(step.command))}), giving {span}")
    ctx = Context(step.seat, step.seq, started.seed or 0, step.command_id)
    trace = trace_command(ruleset, state, step.seat, step.command, ctx)
    made_by = [origin(ruleset, p) for p in [ruleset.game.id, *(e.id for e in ruleset.expansions)]]
    shown = [f"{o.plugin} {o.version} ({o.distribution})" for o in made_by]
    lines.append("plugins: " + shown[0] + "".join(f", then {x}" for x in shown[1:]))
    lines.append("hooks that ran (implementations in pluggy's order):")
    if not trace.calls:
        lines.append(f"  none: {ruleset.game.id}'s decide alone")
    for call in trace.calls:
        times = f" ({call.times} calls)" if call.times > 1 else ""
        called = ", ".join(call.implementations) or "no implementation"
        lines.append(f"  {call.hook}{times}: {called}")
    emission = trace.emissions[seq - step.seq] if seq - step.seq < len(trace.emissions) else None
    if emission is None:
        lines.append("the re-decided command did not emit this event")
        return lines
    made = origin(ruleset, emission.plugin)
    by = f"hook {emission.hook}" if emission.hook else "its decide"
    lines.append(
        f"emitted by: {made.plugin} {made.version} ({made.distribution}), {by}, "
        f"in {emission.function} line {emission.line}"
    )
    if emission.rule is None:
        lines.append("rule: none declared")
    else:
        found = rule_line(ruleset, emission.rule)
        text = f"{found[0]} ({found[1]})" if found else "(not in the rules documents)"
        lines.append(f"rule {emission.rule}: {text}")
        if emission.context:
            lines.append(f"  within {', '.join(emission.context)}")
    lines += _changes(before, after)
    return lines


def _state_before(ruleset: Ruleset, own: Sequence[Recorded], seq: int) -> Any:
    from ..replay import states

    state: Any = None
    for record, after in states(ruleset, list(own)):
        if record.seq >= seq:
            break
        state = after
    return state


def _changes(before: Any, after: Any) -> list[str]:
    changes = diff_states(before, after)
    if not changes:
        return ["changed: nothing in the state"]
    encode = msgspec.json.encode
    lines = ["changed:"]
    lines += [
        f"  {c.path}: {encode(c.before).decode()} → {encode(c.after).decode()}" for c in changes
    ]
    return lines


# -- the conformance check ------------------------------------------------------------------------


def rule_problems(
    ruleset: Ruleset, seed: int, max_commands: int = 400, root: Path | None = None
) -> list[str]:
    """Play a seeded match with a random bot, tracing every command; return each kind of event
    emitted without a rule id, or with one the ruleset's rules documents do not define.

    ``root`` is the source tree the specs' ``rules_doc`` paths are relative to (an installed
    package finds its documents only from a checkout); a document found nowhere is a problem.
    """
    from ..bots import RandomBot
    from ..table import Table

    defined: set[str] = set()
    missing: list[str] = []
    for plugin in [ruleset.game.id, *(e.id for e in ruleset.expansions)]:
        doc = rules_doc(ruleset, plugin, root)
        if doc is not None:
            defined.update(re.findall(r"\*\*([A-Z][A-Z0-9-]*-\d+)\*\*", doc.read_text("utf-8")))
        else:
            missing.append(f"{plugin}: its rules document was not found")
    if missing:
        return missing
    started, _ = ruleset.default_start(seed)
    table = Table(ruleset, started, stream="rules")
    bot = RandomBot(seed)
    problems: dict[tuple[str, str], str] = {}
    for _ in range(max_commands):
        awaiting = ruleset.rules.awaiting(table.state)
        if not awaiting:
            break
        seat = next(iter(awaiting))
        legal = table.legal(seat)
        command = bot.choose(seat, legal, lambda: table.view(seat))
        ctx = Context(seat, table.seq + 1, seed)
        trace = trace_command(ruleset, table.state, seat, command, ctx)
        for e in trace.emissions:
            tag = tag_of(type(e.event))
            if e.rule is None:
                problems.setdefault((tag, e.function), f"{tag} from {e.function}: no rule id")
            elif e.rule not in defined:
                problems.setdefault(
                    (tag, e.function), f"{tag} from {e.function}: {e.rule} is not in the rules"
                )
        table.send(seat, command)
    return sorted(problems.values())
