"""Checks a plugin distribution runs from its own test suite, as gamehall runs them on its own.

``rules_doc_problems`` checks a game's or an expansion's numbered rules document against the
tests and code of its distribution; ``gamehall.core.golden.check`` checks its golden replays,
``gamehall.core.conformance.check_playout`` plays its combinations. Each returns or raises what
is wrong in words, so a plugin's test is one assertion over its registry.
"""

from __future__ import annotations

import importlib.util
import inspect
import re
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from ..presentation import Presentation
from ..registry import Registry
from ..rules import ExpansionSpec, GameSpec, Rules

# A rule id is an upper-case prefix, optional upper-case parts and a number: TB-PLACE-3, TTT-1.
RULE_ID = re.compile(r"\*\*([A-Z][A-Z0-9]*(?:-[A-Z][A-Z0-9]*)*-\d+)\*\*")
NAMED_ID = r"\b{prefix}(?:-[A-Z][A-Z0-9]*)*-\d+\b"
TEST_NAME = r"def test_({prefix}(?:_[A-Z][A-Z0-9]*)*_\d+)(?=_|\()"


def rule_ids(doc: Path) -> list[str]:
    """Return the rule ids a rules document defines (each in bold), in order."""
    return RULE_ID.findall(doc.read_text("utf-8"))


def rules_doc_problems(doc: Path, tests: Path, code: Path) -> list[str]:
    """Return what is wrong between a rules document and the tests and code that cite it.

    Every rule id the document defines must name a scenario test (``TB-PLACE-3`` →
    ``def test_TB_PLACE_3_…`` in a ``test_*.py`` under ``tests``), and every id of the
    document's prefixes that a test's name or the code (``*.py`` under ``code``) cites must be
    defined in it.
    """
    if not doc.is_file():
        return [f"no rules document {doc}"]
    ids = rule_ids(doc)
    problems = [f"{doc.name} defines {i} twice" for i, n in Counter(ids).items() if n > 1]
    if not ids:
        return [*problems, f"{doc.name} defines no rule id (**PREFIX-PART-1**)"]
    prefixes = "(?:" + "|".join(sorted({re.escape(i.split("-")[0]) for i in ids})) + ")"
    tested = {
        name.replace("_", "-")
        for path in tests.rglob("test_*.py")
        for name in re.findall(TEST_NAME.format(prefix=prefixes), path.read_text("utf-8"))
    }
    named = {
        found
        for path in code.rglob("*.py")
        for found in re.findall(NAMED_ID.format(prefix=prefixes), path.read_text("utf-8"))
    }
    defined = set(ids)
    if missing := sorted(defined - tested, key=ids.index):
        problems.append(f"rules of {doc.name} without a scenario test: {', '.join(missing)}")
    if unknown := sorted(tested - defined):
        problems.append(f"tests name rules {doc.name} does not define: {', '.join(unknown)}")
    if unknown := sorted(named - defined):
        problems.append(f"the code cites rules {doc.name} does not define: {', '.join(unknown)}")
    return problems


def specs(registry: Registry) -> list[GameSpec | ExpansionSpec]:
    """Return every game and expansion of a registry, games first."""
    return [*registry.games.values(), *registry.expansions.values()]


def registry_rules_problems(
    registry: Registry, root: Path, tests: Path, code: Path, distribution: str | None = None
) -> list[str]:
    """Return the rules-document problems of the games and expansions of a distribution.

    ``root`` is the distribution's source tree, which each spec's ``rules_doc`` is relative to.
    ``distribution`` names the installed distribution whose games and expansions are checked
    (those its ``gamehall`` entry points register): an outside package passes its own name, so
    that gamehall's built-in games, installed beside it, are not checked against the package's
    tree. ``None`` checks every game and expansion of the registry.
    """
    problems: list[str] = []
    mine = None if distribution is None else distribution_modules(distribution)
    for spec in specs(registry):
        if mine is not None and _module_of(registry.owner(spec.id)) not in mine:
            continue
        if not spec.rules_doc:
            problems.append(f"{spec.id} names no rules document (rules_doc on its spec)")
            continue
        found = rules_doc_problems(root / spec.rules_doc, tests, code)
        problems.extend(f"{spec.id}: {problem}" for problem in found)
    return problems


def distribution_modules(distribution: str) -> set[str]:
    """Return the modules an installed distribution registers as gamehall plugins."""
    import importlib.metadata

    try:
        dist = importlib.metadata.distribution(distribution)
    except importlib.metadata.PackageNotFoundError:
        raise ValueError(f"no distribution {distribution!r} is installed") from None
    return {ep.value.split(":")[0] for ep in dist.entry_points if ep.group == "gamehall"}


def _module_of(plugin: object) -> str:
    """Return the module a plugin (a module, a class or an instance) comes from."""
    if inspect.ismodule(plugin):
        return plugin.__name__
    return plugin.__module__ if isinstance(plugin, type) else type(plugin).__module__


def hook_problems(registry: Registry, game_id: str) -> list[str]:
    """Return where a game's own hooks break the hook conventions of docs/writing-a-game.md.

    Each hook a game declares starts with the game's id (dashes as underscores), documents every
    parameter with a ``:param name:`` line, and the game's default implementation of it, where
    it has one, is ``trylast=True`` so that every expansion is called before it.
    """
    game = registry.game(game_id)
    prefix = game_id.replace("-", "_") + "_"
    ruleset = registry.ruleset(game_id)
    own = {id(p) for p in (registry.owner(game_id), *game.hookimpls)}
    problems: list[str] = []
    for name, function in _hookspecs(game.hookspecs):
        if not name.startswith(prefix):
            problems.append(f"{game_id}: hook {name} does not start with {prefix}")
        doc = inspect.getdoc(function) or ""
        params = [p for p in inspect.signature(function).parameters if p != "self"]
        if undocumented := [p for p in params if f":param {p}:" not in doc]:
            problems.append(f"{game_id}: hook {name} has no :param line for {undocumented}")
        caller = getattr(ruleset.hook, name)
        for impl in caller.get_hookimpls():
            if id(impl.plugin) in own and not impl.trylast:
                problems.append(f"{game_id}: the default of {name} is not trylast=True")
    return problems


def _hookspecs(holders: Sequence[object]) -> list[tuple[str, Any]]:
    found = []
    for holder in holders:
        for name in dir(holder):
            function = getattr(holder, name)
            if callable(function) and hasattr(function, "gamehall_spec"):
                found.append((name, function))
    return found


# What every game provides (docs/writing-a-game.md, "What every game provides"): the core
# hooks a game implements itself or answers through its Presentation (the method of the same
# name without ``gamehall_``), and, for a game with hidden information, its sampler. Menu
# headings (gamehall_command_group) are for games with several kinds of command: optional.
GAME_HOOKS = (
    "gamehall_render_text",
    "gamehall_describe_command",
    "gamehall_describe_event",
    "gamehall_seat_names",
)


def contract_problems(registry: Registry, game_id: str) -> list[str]:
    """Return what a game lacks of the per-game contract of docs/writing-a-game.md.

    The words hooks and the text board, numbered rules, a sampler where information is
    hidden (``Rules.sample``, what searching bots need), and, for a game with hooks of its
    own, a public extension API module (``<package>.api``).
    """
    game = registry.game(game_id)
    ruleset = registry.ruleset(game_id)
    owner = registry.owner(game_id)
    own = {id(p) for p in (owner, *game.hookimpls)}
    shown = game.presentation(ruleset.rules, Presentation()) if game.presentation else None
    problems = []
    for name in GAME_HOOKS:
        impls = getattr(ruleset.hook, name).get_hookimpls()
        method = name.removeprefix("gamehall_")
        presents = shown is not None and (
            getattr(type(shown), method) is not getattr(Presentation, method)
        )
        if not presents and not any(id(impl.plugin) in own for impl in impls):
            problems.append(f"{game_id} does not implement {name}")
    if not game.rules_doc:
        problems.append(f"{game_id} names no rules document (GameSpec.rules_doc)")
    rules = type(ruleset.rules)
    if game.hidden_information and rules.sample is Rules.sample:
        problems.append(f"{game_id} hides information but its rules cannot sample a state")
    package = getattr(owner, "__name__", "")
    if game.hookspecs and not _has_module(f"{package}.api"):
        problems.append(f"{game_id} declares hooks but has no public API module {package}.api")
    return problems


def _has_module(name: str) -> bool:
    try:
        return importlib.util.find_spec(name) is not None
    except ModuleNotFoundError:
        return False
