"""Option forms made from a game's options Struct, read through :mod:`msgspec.inspect`.

A field's label is its ``Meta(title=...)`` (else its name in words), its help line its
``Meta(description=...)``; a ``Literal`` or an ``Enum`` becomes a select, a boolean a checkbox,
a number an input with its range (``ge``/``le``/``gt``/``lt``); an option whose closed set of
values only the ruleset knows (``Rules.option_choices``: terrains an expansion adds) a select
of those values, by their names. What a person typed is read
back with the same description and checked by the Struct itself, so an error names the field
it belongs to and the form comes back filled in, the error beside that field.
"""

from __future__ import annotations

import enum
import re
import typing
from collections.abc import Mapping, Sequence
from typing import Any

import msgspec
import msgspec.inspect as mi


class Field(msgspec.Struct, frozen=True):
    """One option as the form shows it."""

    name: str
    label: str
    help: str | None
    kind: str
    """``bool``, ``int``, ``float``, ``select`` or ``text``."""
    default: Any
    choices: tuple[Any, ...] = ()
    names: tuple[str, ...] = ()
    """What a person reads for each choice (its value when the game gives no name)."""
    low: float | None = None
    high: float | None = None
    required: bool = False


class FormError(Exception):
    """A value of the form that the options refuse: the field (or ``None``) and why."""

    def __init__(self, field: str | None, message: str) -> None:
        super().__init__(message)
        self.field = field
        self.message = message


def words(name: str) -> str:
    """Return a field name as a label: ``honour_target`` is "Honour target"."""
    text = name.replace("_", " ").strip()
    return text[:1].upper() + text[1:]


def _unwrap(kind: Any) -> tuple[Any, dict[str, Any]]:
    extra: dict[str, Any] = {}
    while isinstance(kind, mi.Metadata):
        extra.update(kind.extra_json_schema or {})
        kind = kind.type
    return kind, extra


def _choices(kind: Any) -> tuple[Any, ...] | None:
    if isinstance(kind, mi.LiteralType):
        return tuple(kind.values)
    if isinstance(kind, mi.EnumType):
        return tuple(member.value for member in kind.cls)
    if isinstance(kind, mi.UnionType):
        values: list[Any] = []
        for member in kind.types:
            inner, _ = _unwrap(member)
            found = _choices(inner)
            if found is None:
                return None
            values.extend(found)
        return tuple(values)
    return None


def _declared(struct: type[Any], name: str) -> tuple[Any, ...] | None:
    """Return a Literal's values in the order the game wrote them (inspect sorts them)."""
    try:
        hint = typing.get_type_hints(struct, include_extras=True).get(name)
    except Exception:  # noqa: BLE001 - a hint that cannot be resolved keeps inspect's order
        return None
    while typing.get_origin(hint) is typing.Annotated:
        hint = typing.get_args(hint)[0]
    if typing.get_origin(hint) is typing.Literal:
        return typing.get_args(hint)
    return None


Choices = Mapping[str, Sequence[tuple[Any, str]]]


def fields(struct: type[Any] | None, given: Choices | None = None) -> list[Field]:
    """Return the fields of an options Struct as the form shows them (none for no options);
    ``given``: the ruleset's closed sets of values of text options, with their names."""
    if struct is None:
        return []
    info = mi.type_info(struct)
    if not isinstance(info, mi.StructType):
        return []
    out = []
    for field in info.fields:
        kind, extra = _unwrap(field.type)
        default = field.default if field.default is not msgspec.NODEFAULT else None
        if isinstance(default, enum.Enum):
            default = default.value
        label = str(extra.get("title") or words(field.name))
        help_text = extra.get("description")
        common: dict[str, Any] = {
            "name": field.encode_name, "label": label,
            "help": str(help_text) if help_text else None, "default": default,
            "required": field.required,
        }  # fmt: skip
        choices = _choices(kind)
        if isinstance(kind, mi.LiteralType):
            choices = _declared(struct, field.name) or choices
        named = (given or {}).get(field.encode_name)
        if named:
            values, names = zip(*named, strict=True)
            out.append(Field(kind="select", choices=values, names=names, **common))
        elif isinstance(kind, mi.BoolType):
            out.append(Field(kind="bool", **common))
        elif choices is not None:
            out.append(Field(kind="select", choices=choices, **common))
        elif isinstance(kind, (mi.IntType, mi.FloatType)):
            low = kind.ge if kind.ge is not None else kind.gt
            high = kind.le if kind.le is not None else kind.lt
            number = "int" if isinstance(kind, mi.IntType) else "float"
            out.append(Field(kind=number, low=low, high=high, **common))
        else:
            out.append(Field(kind="text", **common))
    return out


def _number(field: Field, text: str) -> Any:
    try:
        return int(text) if field.kind == "int" else float(text)
    except ValueError:
        said = "a whole number" if field.kind == "int" else "a number"
        raise FormError(field.name, f"{text!r} is not {said}") from None


def _choice(field: Field, text: str) -> Any:
    for value in field.choices:
        if str(value) == text:
            return value
    allowed = ", ".join(field.names or [str(v) for v in field.choices])
    raise FormError(field.name, f"{text!r} is not one of {allowed}")


def read(
    struct: type[Any] | None, form: dict[str, list[str]], prefix: str, given: Choices | None = None
) -> dict[str, Any]:
    """Return the options a form gives (fields under ``prefix``), checked by the Struct and
    by the ruleset's closed sets (``given``).

    Raises :class:`FormError` naming the field whose value the Struct refuses.
    """
    out: dict[str, Any] = {}
    for field in fields(struct, given):
        values = form.get(prefix + field.name)
        if not values:
            continue
        text = values[-1]
        if field.kind == "bool":
            out[field.name] = text == "true"
        elif field.kind in ("int", "float"):
            if text.strip() == "" and not field.required:
                continue
            out[field.name] = _number(field, text.strip())
        elif field.kind == "select":
            out[field.name] = _choice(field, text)
        else:
            out[field.name] = text
    if struct is not None and out:
        try:
            msgspec.convert(out, type=struct)
        except msgspec.ValidationError as exc:
            raise _named(str(exc), struct) from None
    return out


PATH = re.compile(r"\s*-\s*at `\$\.(\w+)`")


def _named(message: str, struct: type[Any]) -> FormError:
    """Return a validation message as an error beside its field, said for a person."""
    found = PATH.search(message)
    field = found.group(1) if found else None
    text = PATH.sub("", message)
    text = re.sub(r"Expected `(int|float)` >= (\S+)", r"at least \2", text)
    text = re.sub(r"Expected `(int|float)` <= (\S+)", r"at most \2", text)
    text = re.sub(r"Expected `(int|float)` > (\S+)", r"more than \2", text)
    text = re.sub(r"Expected `(int|float)` < (\S+)", r"less than \2", text)
    text = text.replace("Expected `int`, got `float`", "a whole number")
    return FormError(field, text[:1].lower() + text[1:] if text else "not allowed")
