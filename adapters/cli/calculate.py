"""``gamehall odds GAME``: run a game's calculator with a request from flags or a JSON object."""

from __future__ import annotations

import argparse
import sys
from typing import Any

import msgspec
from gamehall.core import calculators as calc
from gamehall.core import default_registry
from gamehall.core.calculators import Calculator, InvalidRequest
from gamehall.core.words import option_help

LISTS = (
    msgspec.inspect.ListType,
    msgspec.inspect.VarTupleType,
    msgspec.inspect.TupleType,
    msgspec.inspect.SetType,
    msgspec.inspect.FrozenSetType,
)


def register(sub: Any) -> None:
    """Add the ``odds`` subcommand."""
    odds = sub.add_parser(
        "odds",
        help="run a game's odds calculator (or another of its calculators)",
        description="Build a request from a JSON object and/or FIELD=VALUE flags, run the "
        "game's calculator and print its answer in words (or as JSON).",
    )
    odds.add_argument("game", help="game id (see 'gamehall games')")
    odds.add_argument("request", nargs="?", default="{}", help="the request as a JSON object")
    odds.add_argument("--calculator", default="odds", help="which calculator (default: odds)")
    odds.add_argument(
        "--set",
        action="append",
        default=[],
        metavar="FIELD=VALUE",
        help="one request field; list fields take commas (attacker=general,archer,sword)",
    )
    odds.add_argument(
        "--expansion",
        action="append",
        default=[],
        metavar="ID",
        help="an expansion whose components the armies may use (repeatable)",
    )
    odds.add_argument("--json", action="store_true", help="print the answer as JSON")
    odds.add_argument("--fields", action="store_true", help="list the request's fields")
    odds.set_defaults(func=run_odds)


def _fields(calculator: Calculator) -> dict[str, Any]:
    info = msgspec.inspect.type_info(calculator.request)
    assert isinstance(info, msgspec.inspect.StructType)
    return {f.encode_name: f for f in info.fields}


def _value(field: Any, raw: str) -> Any:
    kind = field.type
    if isinstance(kind, msgspec.inspect.Metadata):  # Annotated[..., Meta(...)]
        kind = kind.type
    if isinstance(kind, msgspec.inspect.UnionType):
        kind = next((t for t in kind.types if not isinstance(t, msgspec.inspect.NoneType)), kind)
    if isinstance(kind, LISTS):
        return [part.strip() for part in raw.split(",") if part.strip()]
    if isinstance(kind, (msgspec.inspect.DictType, msgspec.inspect.StructType)):
        return msgspec.json.decode(raw)
    return raw


def build_request(calculator: Calculator, text: str, settings: list[str]) -> Any:
    """Return the decoded request: the JSON object, then every FIELD=VALUE on top of it."""
    try:
        data = msgspec.json.decode(text)
    except msgspec.DecodeError as exc:
        raise InvalidRequest(f"the request is not a JSON object: {exc}") from None
    if not isinstance(data, dict):
        raise InvalidRequest("the request must be a JSON object")
    fields = _fields(calculator)
    for setting in settings:
        name, sep, raw = setting.partition("=")
        if not sep or name not in fields:
            known = ", ".join(fields)
            raise InvalidRequest(f"--set {setting!r}: use FIELD=VALUE with a field of: {known}")
        try:
            data[name] = _value(fields[name], raw)
        except msgspec.DecodeError as exc:
            raise InvalidRequest(f"--set {name}: not JSON: {exc}") from None
    missing = [name for name, field in fields.items() if field.required and name not in data]
    if missing:
        raise InvalidRequest(
            f"{calculator.game} {calculator.name} needs {' and '.join(missing)}: give "
            + " ".join(f"--set {name}=..." for name in missing)
            + f" (or a JSON object); 'gamehall odds {calculator.game} --fields' lists every "
            "field, its kind and allowed values"
        )
    try:
        return msgspec.convert(data, calculator.request, strict=False)
    except msgspec.ValidationError as exc:
        raise InvalidRequest(f"{calculator.game} {calculator.name}: {calc.in_words(exc)}") from None


def run_odds(args: argparse.Namespace) -> int:
    """Run the calculator and print its answer."""
    registry = default_registry()
    calculator = calc.find(registry, args.game, args.calculator)
    if args.expansion and not calculator.uses_ruleset:
        raise InvalidRequest(f"{calculator.game} {calculator.name} takes no expansions")
    if args.fields:
        print(f"{calculator.game} {calculator.name}: {calculator.description}")
        allowed = calc.allowed_values(calculator, registry, args.expansion)
        for field in option_help(calculator.request):
            default = "required" if field.default is None else f"default {field.default}"
            print(f"  {field.name}: {field.kind}; {default}")
            if field.help:
                print(f"      {field.help}")
            if field.name in allowed:
                print(f"      allowed: {', '.join(allowed[field.name])}")
        return 0
    settings = list(args.set)
    if args.expansion:
        settings.append(f"expansions={','.join(args.expansion)}")
    answer = calc.calculate(calculator, build_request(calculator, args.request, settings), registry)
    if args.json:
        sys.stdout.write(msgspec.json.encode(answer).decode() + "\n")
    else:
        print(calc.words(calculator, answer))
    return 0
