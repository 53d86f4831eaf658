"""Calculators: tools a game offers beside its matches (odds, scoring aids), for every adapter.

A plugin registers :class:`Calculator` objects through the ``gamehall_calculators`` hook. Each
names its game, takes one msgspec Struct as its request and returns another as its answer, so
the command line (``gamehall odds GAME``) and the HTTP API (``POST
/games/{game}/calculators/{name}``) can decode, validate, run and show any calculator without
knowing it. A calculator is pure: it reads its request, never a match.

A calculator that reads the game's components (units, terrains, cards) declares
``uses_ruleset``: its request then has an ``expansions`` field, and ``run`` and ``values`` get
the ruleset of the game with those expansions, so what an expansion adds is counted too.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field, replace
from typing import Any, Protocol

import msgspec

from .errors import GamehallError, InvalidCommand


@dataclass(frozen=True)
class Calculator:
    """A tool of a game: ``run(request) -> answer``; ``text(answer)`` puts the answer in words.

    ``run`` raises ``ValueError`` with a message naming the field when a request that decodes
    still makes no sense (an unknown unit, say); the adapters show it as a bad request.
    """

    game: str
    name: str
    description: str
    request: type[msgspec.Struct]
    answer: type[msgspec.Struct]
    run: Callable[..., Any]
    text: Callable[[Any], str] | None = None
    values: Callable[..., Mapping[str, Sequence[str]]] | None = None
    """The allowed values of request fields that the types cannot list, because they are known
    only at run time (the game's unit kinds and terrains, extended by expansions): shown by
    ``gamehall odds GAME --fields``."""
    uses_ruleset: bool = False
    """``run(request, ruleset)`` and ``values(ruleset)`` get the ruleset of the game with the
    expansions the request's ``expansions`` field names (the components they add included)."""
    registry: Games | None = field(default=None, compare=False, repr=False)
    """The registry the calculator was found in (set by :func:`calculators` and :func:`find`):
    the rulesets of a calculator that uses them come from there."""


class UnknownCalculator(GamehallError):
    """A calculator name that the game does not offer."""

    code = "unknown_calculator"


class InvalidRequest(InvalidCommand):
    """A calculator request that does not decode, or that its calculator refuses."""

    code = "invalid_request"


_CHECK: ContextVar[Callable[[], None] | None] = ContextVar("calculator_check", default=None)


def checkpoint() -> None:
    """Let the caller stop a long calculation here (its asker left, the server stops).

    A calculator calls this now and then in its long loops; it raises the caller's
    cancellation, or does nothing when nobody can cancel (the command line).
    """
    check = _CHECK.get()
    if check is not None:
        check()


@contextmanager
def cancellable(check: Callable[[], None]) -> Iterator[None]:
    """Make :func:`checkpoint` call ``check`` while the block runs (in this context)."""
    token = _CHECK.set(check)
    try:
        yield
    finally:
        _CHECK.reset(token)


class Games(Protocol):
    """What calculators are found in (a :class:`~gamehall.core.registry.Registry`)."""

    @property
    def pm(self) -> Any:
        """The plugin manager whose hooks list the calculators."""
        ...

    def game(self, game_id: str) -> Any:
        """Return a game's spec; refuse an unknown game by name."""
        ...

    def ruleset(self, game_id: str, expansions: Sequence[str] = ()) -> Any:
        """Return the ruleset of a game with these expansions; refuse an unknown one by name."""
        ...


def calculators(registry: Games, game: str | None = None) -> list[Calculator]:
    """Return every installed calculator, or those of one game."""
    found = [c for cs in registry.pm.hook.gamehall_calculators() for c in cs or ()]
    return [replace(c, registry=registry) for c in found if game is None or c.game == game]


def find(registry: Games, game: str, name: str | None = None) -> Calculator:
    """Return a game's calculator by name (its only one when ``name`` is None)."""
    registry.game(game)  # an unknown game is refused by name first
    offered = calculators(registry, game)
    for calculator in offered:
        if name is None and len(offered) == 1 or calculator.name == name:
            return calculator
    names = ", ".join(c.name for c in offered) or "none"
    wanted = f"calculator {name!r}" if name else "a calculator (name one)"
    raise UnknownCalculator(f"{game} has no {wanted}; it offers: {names}")


def decode(calculator: Calculator, data: bytes | str | Mapping[str, Any]) -> Any:
    """Return the request Struct from JSON or a mapping, refusing it with the field named."""
    try:
        if isinstance(data, (bytes, str)):
            return msgspec.json.decode(data, type=calculator.request)
        return msgspec.convert(data, calculator.request)
    except (msgspec.ValidationError, msgspec.DecodeError) as exc:
        raise InvalidRequest(f"{calculator.game} {calculator.name}: {in_words(exc)}") from None


_AT = re.compile(r"^(?P<what>.*?)(?: - at `\$\.(?P<field>[^`\[]+)[^`]*`)?$", re.S)
_MISSING = re.compile(r"Object missing required field `(?P<field>[^`]+)`")
_KINDS = {"int": "a whole number", "str": "text", "float": "a number", "bool": "true or false",
          "array": "a list", "object": "an object", "null": "nothing"}  # fmt: skip


def in_words(exc: Exception) -> str:
    """Return a decoding error of a request in words, naming the field first.

    ``Object missing required field `attacker``` becomes "attacker is missing";
    ``Expected `int`, got `str` - at `$.samples``` becomes "samples: expected a whole number,
    got text".
    """
    text = str(exc)
    missing = _MISSING.search(text)
    if missing:
        return f"{missing['field']} is missing"
    found = _AT.match(text)
    what = found["what"] if found else text
    what = re.sub(r"`(\w+)`", lambda m: _KINDS.get(m.group(1), m.group(1)), what)
    what = what[:1].lower() + what[1:]
    return f"{found['field']}: {what}" if found and found["field"] else what


def ruleset_for(
    calculator: Calculator, registry: Games | None = None, expansions: Sequence[str] = ()
) -> Any:
    """Return the ruleset a calculator reads: its game with these expansions."""
    registry = registry or calculator.registry
    if registry is None:
        raise TypeError(f"{calculator.game} {calculator.name}: find it with calculators.find")
    try:
        return registry.ruleset(calculator.game, expansions)
    except GamehallError as exc:
        raise InvalidRequest(f"{calculator.game} {calculator.name}: expansions: {exc}") from None


def calculate(calculator: Calculator, request: Any, registry: Games | None = None) -> Any:
    """Run a calculator on a decoded request (one that :attr:`~Calculator.uses_ruleset` reads
    the rulesets of ``registry``, by default the one it was found in)."""
    try:
        if calculator.uses_ruleset:
            ruleset = ruleset_for(calculator, registry, getattr(request, "expansions", ()))
            return calculator.run(request, ruleset)
        return calculator.run(request)
    except ValueError as exc:
        raise InvalidRequest(f"{calculator.game} {calculator.name}: {exc}") from None


def allowed_values(
    calculator: Calculator, registry: Games | None = None, expansions: Sequence[str] = ()
) -> Mapping[str, Sequence[str]]:
    """Return the allowed values of the request's open fields (with these expansions)."""
    if calculator.values is None:
        return {}
    if calculator.uses_ruleset:
        return calculator.values(ruleset_for(calculator, registry, expansions))
    return calculator.values()


def words(calculator: Calculator, answer: Any) -> str:
    """Return an answer in words: the calculator's own, or its fields line by line."""
    if calculator.text is not None:
        return calculator.text(answer)
    data = msgspec.to_builtins(answer)
    return "\n".join(f"{key}: {value}" for key, value in data.items())
