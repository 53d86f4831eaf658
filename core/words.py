"""Words for people: commands, events, menus, seats and endings, from the games' own hooks.

Every adapter shows a person these words and nothing else: no JSON, no internal key. Each
function takes the reading seat's *view*, so words never tell what that seat may not see. A
game (or an expansion) supplies its words through the ``gamehall_describe_*`` hooks; where it
supplies none, the engine makes plain words from the type and its fields.
"""

from __future__ import annotations

import re
import typing
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, Protocol

import msgspec

from .events import (
    Command,
    Event,
    LobbyEvent,
    MatchAbandoned,
    MatchExpired,
    MatchStarted,
    Recorded,
    RematchLinked,
    SeatGivenToBot,
    SeatReleased,
    SeatTaken,
    TakenBack,
)
from .rules import GameSpec, Outcome


class Ruleset(Protocol):
    """What words read of a game (a :class:`~gamehall.core.registry.Ruleset` has it)."""

    @property
    def hook(self) -> Any:
        """The game's and its expansions' hooks."""
        ...

    @property
    def game(self) -> GameSpec:
        """The game."""
        ...

    @property
    def registry(self) -> Any:
        """The registry that made it (its ``expansions`` are named by id)."""
        ...


_CAMEL = re.compile(r"(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])")


def words_of(name: str) -> str:
    """Return a class name as lowercase words: ``PlaceMark`` -> ``place mark``."""
    return _CAMEL.sub(" ", name).lower()


def _value(value: Any) -> str:
    if isinstance(value, msgspec.Struct):
        return words_of(type(value).__name__)
    if isinstance(value, (list, tuple, frozenset, set)):
        return ", ".join(_value(v) for v in value) or "none"
    if isinstance(value, dict):
        return ", ".join(f"{k} {_value(v)}" for k, v in value.items()) or "none"
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value)


def plain(obj: msgspec.Struct) -> str:
    """Return plain words for a command or event that its game does not describe."""
    fields = [
        f"{name.replace('_', ' ')} {_value(getattr(obj, name))}"
        for name in type(obj).__struct_fields__
    ]
    text = words_of(type(obj).__name__)
    return f"{text} ({', '.join(fields)})" if fields else text


def plural(count: int, noun: str, many: str | None = None) -> str:
    """Return a count with its noun in the right number: "1 unit", "2 units", "1 die", "3 dice"
    (``many`` gives an irregular plural; the default adds "s")."""
    return f"{count} {noun if count == 1 else many or noun + 's'}"


def listed(items: Sequence[str], last: str = "and", empty: str = "") -> str:
    """Return items as a sentence lists them: "a", "a and b", "a, b and c".

    ``last`` joins the last two ("or": "a, b or c"); no item at all gives ``empty``.
    """
    if len(items) <= 1:
        return "".join(items) or empty
    return ", ".join(items[:-1]) + f" {last} " + items[-1]


def seat_label(seat: int) -> str:
    """Return a seat as people count it: from 1 ("seat 1" is API seat 0).

    The API, logs and events number seats from 0; everything a person reads counts them
    from 1, or uses the game's own seat names (colours, clans).
    """
    return f"seat {seat + 1}"


def seat_names(ruleset: Ruleset, view: Any, players: int) -> list[str]:
    """Return what the players call each seat (colours, clans), "seat N" (from 1) by default."""
    names = ruleset.hook.gamehall_seat_names(view=view)
    if names is None or len(names) != players:
        return [seat_label(seat) for seat in range(players)]
    return [str(name) for name in names]


def describe_command(ruleset: Ruleset, command: Command, view: Any, seat: int | None) -> str:
    """Return a command in the rulebook's words."""
    text = ruleset.hook.gamehall_describe_command(command=command, view=view, seat=seat)
    return plain(command) if text is None else str(text)


def describe_event(ruleset: Ruleset, event: Event, view: Any, seat: int | None) -> str:
    """Return what an event (already redacted for ``seat``) was, as ``seat`` may know it.

    ``view`` is ``seat``'s view of the state just before the event.
    """
    if type(event) is TakenBack:
        named = ruleset.hook.gamehall_seat_names(view=view) or []

        def name(s: int) -> str:
            return str(named[s]) if 0 <= s < len(named) else seat_label(s)

        who = "You" if event.seat == seat else name(event.seat)
        who = who[:1].upper() + who[1:]
        agreed = " and ".join(name(s) for s in event.agreed)
        consent = f" with the consent of {agreed}"
        return f"{who} took back the last move{consent if event.agreed else ''}."
    if isinstance(event, LobbyEvent):
        return _lobby(event, seat)
    text = ruleset.hook.gamehall_describe_event(event=event, view=view, seat=seat)
    if text is not None:
        return str(text)
    if isinstance(event, MatchStarted):
        return _started(ruleset, event)
    return plain(event)


def _lobby(event: LobbyEvent, seat: int | None) -> str:
    label = seat_label(event.seat) if isinstance(event, (SeatTaken, SeatGivenToBot)) else ""
    if isinstance(event, SeatTaken):
        if event.seat == seat:
            return f"You took {label}."
        by = "a player" if event.player else "a seat token"
        return f"{label.capitalize()} was taken by {by}."
    if isinstance(event, SeatGivenToBot):
        return f"{label.capitalize()} was given to a bot ({event.bot})."
    if isinstance(event, RematchLinked):
        return f"A rematch was started: match {event.rematch}."
    if isinstance(event, SeatReleased):
        if event.seat == seat:
            return f"You left {seat_label(event.seat)}." if event.by == event.player else (
                f"The match's creator freed your {seat_label(event.seat)}: it is open again."
            )  # fmt: skip
        how = "was left by its player" if event.by == event.player else "was freed by the creator"
        return f"{seat_label(event.seat).capitalize()} {how}: it is open again."
    if isinstance(event, MatchAbandoned):
        return "The match was abandoned by its creator: it is over, without a winner."
    if isinstance(event, MatchExpired):
        return (
            f"The match expired: it waited for players for {duration(event.idle)} without a "
            "move or a seat taken. It is over, without a winner."
        )
    return plain(event)


def duration(seconds: float) -> str:
    """Return a length of time in words, rounded to its largest unit ("24 hours", "90 seconds")."""
    for unit, size in (("day", 86400), ("hour", 3600), ("minute", 60)):
        if seconds >= size * 2 or (seconds >= size and seconds % size == 0):
            count = round(seconds / size)
            return f"{count} {unit}{'s' if count != 1 else ''}"
    count = round(seconds)
    return f"{count} second{'s' if count != 1 else ''}"


def ago(seconds: float) -> str:
    """Return how long ago something happened, in words ("just now", "5 minutes ago")."""
    for unit, size in (("day", 86400), ("hour", 3600), ("minute", 60)):
        if seconds >= size:
            count = int(seconds // size)
            return f"{count} {unit}{'s' if count != 1 else ''} ago"
    return "just now"


def _started(ruleset: Ruleset, event: MatchStarted) -> str:
    text = f"A match of {ruleset.game.name} began with {event.players} players"
    names = [ruleset.registry.expansions[e.id].name for e in event.expansions]
    if names:
        text += " and " + ", ".join(names)
    if event.forked_from:
        text += f" (forked from match {event.forked_from} after event {event.fork_seq})"
    return text + "."


class MenuEntry(msgspec.Struct, frozen=True):
    """One line of a menu: its words, the heading it is listed under, and the command."""

    text: str
    command: Command
    group: str | None = None


def _key(text: str) -> str:
    return " ".join(text.lower().split())


def menu(
    ruleset: Ruleset, legal: Iterable[Command], view: Any, seat: int | None
) -> list[MenuEntry]:
    """Return the legal commands as menu lines, grouped by heading, each line once.

    Commands that read the same do the same for the player (identical troops, say), so only
    the first is listed; typing a line's text names exactly one command.
    """
    hook = ruleset.hook
    seen: set[str] = set()
    groups: dict[str | None, list[MenuEntry]] = {}
    for command in legal:
        text = describe_command(ruleset, command, view, seat)
        if _key(text) in seen:
            continue
        seen.add(_key(text))
        group = hook.gamehall_command_group(command=command, view=view, seat=seat)
        groups.setdefault(group, []).append(MenuEntry(text, command, group))
    return [entry for entries in groups.values() for entry in entries]


def find(entries: Sequence[MenuEntry], text: str) -> MenuEntry | None:
    """Return the menu line whose words are ``text`` (case and spacing aside), if any."""
    wanted = _key(text)
    for entry in entries:
        if _key(entry.text) == wanted:
            return entry
    return None


def outcome_lines(outcome: Outcome, names: Sequence[str]) -> list[str]:
    """Return how a match ended: who won and why, then the scoring by category."""

    def name(seat: int) -> str:
        return names[seat] if 0 <= seat < len(names) else seat_label(seat)

    winners = [name(s) for s in outcome.winners]
    if not winners:
        head = "The match is a draw"
    elif len(winners) == 1:
        head = f"{winners[0]} wins"
    else:
        head = f"{' and '.join(winners)} share the win"
    lines = [f"{head}: {outcome.reason}." if outcome.reason else f"{head}."]
    if outcome.breakdown or outcome.scores is not None:
        width = max((len(line.category) for line in outcome.breakdown), default=5)
        width = max(width, len("total"))
        cells = [name(s) for s in range(len(names))]
        cols = [max(len(c), 4) for c in cells]
        lines.append(
            " " * width + "  " + "  ".join(c.rjust(w) for c, w in zip(cells, cols, strict=True))
        )
        for line in outcome.breakdown:
            values = "  ".join(str(v).rjust(w) for v, w in zip(line.points, cols, strict=False))
            lines.append(f"{line.category.ljust(width)}  {values}")
        if outcome.scores is not None:
            values = "  ".join(str(v).rjust(w) for v, w in zip(outcome.scores, cols, strict=False))
            lines.append(f"{'total'.ljust(width)}  {values}")
    return lines


class OptionHelp(msgspec.Struct, frozen=True):
    """One option of a game or expansion, for people: its key, label, help, kind and default.

    ``kind`` says in words what the option takes ("one of: any, partner", "a whole number from
    1"); ``values`` lists the allowed values of an enumeration (``None`` for an open one);
    ``low`` and ``high`` bound a number.
    """

    name: str
    label: str
    help: str
    kind: str
    default: str | None
    values: tuple[Any, ...] | None = None
    low: int | float | None = None
    high: int | float | None = None


def _shown(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return value or '""'
    return str(msgspec.json.encode(value), "utf-8")


def _kind(info: Any) -> tuple[str, tuple[Any, ...] | None, Any, Any]:
    """Return (words, allowed values, low, high) for an option's msgspec type info."""
    from msgspec import inspect as mi

    if isinstance(info, mi.Metadata):
        return _kind(info.type)
    if isinstance(info, mi.LiteralType):
        values = tuple(info.values)
        return "one of: " + ", ".join(_shown(v) for v in values), values, None, None
    if isinstance(info, mi.BoolType):
        return "true or false", (True, False), None, None
    if isinstance(info, (mi.IntType, mi.FloatType)):
        low = info.ge if info.ge is not None else info.gt
        high = info.le if info.le is not None else info.lt
        noun = "a whole number" if isinstance(info, mi.IntType) else "a number"
        if low is not None and high is not None:
            return f"{noun} from {low} to {high}", None, low, high
        if low is not None:
            return f"{noun} from {low}", None, low, None
        if high is not None:
            return f"{noun} up to {high}", None, None, high
        return noun, None, None, None
    if isinstance(info, mi.StrType):
        return "text", None, None, None
    if isinstance(info, mi.UnionType):
        kinds = [_kind(t)[0] for t in info.types if not isinstance(t, mi.NoneType)]
        optional = any(isinstance(t, mi.NoneType) for t in info.types)
        return " or ".join(kinds) + (" (or none)" if optional else ""), None, None, None
    if isinstance(info, (mi.ListType, mi.TupleType, mi.VarTupleType, mi.SetType)):
        return "a list (comma-separated)", None, None, None
    if isinstance(info, mi.DictType):
        return "a JSON object of names and values", None, None, None
    return "a value", None, None, None


def option_help(
    schema: type[msgspec.Struct] | None,
    choices: Mapping[str, Sequence[tuple[Any, str]]] | None = None,
) -> list[OptionHelp]:
    """Return every option of an options Struct for people, in field order.

    Labels and help come from the field's ``Annotated[..., msgspec.Meta(title=..., description=...)]``
    (the one place a game names its options); a field without them is labelled by its key.
    ``choices`` are the ruleset's closed sets of values of text options
    (:meth:`Rules.option_choices`), listed with their names.
    """
    if schema is None:
        return []
    from msgspec import inspect as mi

    info = mi.type_info(schema)
    assert isinstance(info, mi.StructType)
    try:  # Literal values in the order the game wrote them (inspect sorts them)
        hints = typing.get_type_hints(schema)
    except Exception:  # noqa: BLE001 - a plugin annotation that does not resolve: keep inspect's order
        hints = {}
    out = []
    for field in info.fields:
        extra = field.type.extra_json_schema or {} if isinstance(field.type, mi.Metadata) else {}
        kind, values, low, high = _kind(field.type)
        hint = hints.get(field.name)
        if values is not None and typing.get_origin(hint) is typing.Literal:
            values = typing.get_args(hint)
            kind = "one of: " + ", ".join(_shown(v) for v in values)
        named = (choices or {}).get(field.encode_name)
        if named:
            values = tuple(value for value, _ in named)
            kind = "one of: " + ", ".join(f"{_shown(v)} = {shown}" for v, shown in named)
        examples = extra.get("examples")
        if values is None and examples:
            kind += ", such as " + ", ".join(_shown(v) for v in examples)
        if field.required:
            default = None
        else:
            value = (
                field.default
                if field.default_factory is msgspec.NODEFAULT
                else (field.default_factory())
            )
            default = _shown(msgspec.to_builtins(value))
        out.append(
            OptionHelp(
                name=field.encode_name,
                label=str(extra.get("title") or field.encode_name.replace("_", " ")),
                help=str(extra.get("description") or ""),
                kind=kind,
                default=default,
                values=values,
                low=low,
                high=high,
            )
        )
    return out


class Narrated(msgspec.Struct, frozen=True, gc=False):
    """An event as one seat may see it, with what it tells that seat in words."""

    record: Recorded
    text: str


__all__ = [
    "MenuEntry",
    "Narrated",
    "OptionHelp",
    "describe_command",
    "describe_event",
    "find",
    "menu",
    "option_help",
    "outcome_lines",
    "plain",
    "plural",
    "seat_label",
    "seat_names",
    "words_of",
]
