"""What the file commands do, apart from argument parsing: each returns lines to print."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import anyio
import msgspec
from gamehall.adapters.cli.common import outcome_text
from gamehall.adapters.cli.terminal import Progress
from gamehall.core import (
    Event,
    GamehallError,
    Recorded,
    Registry,
    Table,
    UnknownMatch,
    engine,
    limits,
)
from gamehall.core import replay as core_replay
from gamehall.core.hall import Hall
from gamehall.core.seating import rebuilt_entry
from gamehall.core.store import Store

from .logfile import Log, LogError, Tracked, header_for, read_bytes, read_log, write_log


def load(path: str, registry: Registry, label: str | None = None) -> Log:
    """Read and check a log, with a progress bar on a terminal when ``label`` is given."""
    if label is None:
        return read_log(path, registry)
    with Progress(f"{label}: read", 0) as bar:

        def report(done: int, total: int) -> None:
            bar.total = total
            bar.update(done)

        return read_log(path, registry, report)


def write(path: str, records: Sequence[Recorded], seat: int | None, registry: Registry) -> None:
    """Write records to a log file (the format follows the extension)."""
    write_log(path, header_for(records[0].stream, seat, records), records, registry)


# -- export and import ------------------------------------------------------------------------


def export(store: Store, registry: Registry, match: str, seat: int | None, path: str) -> int:
    """Write a match's full log, or what ``seat`` may see of it; return the number of events."""
    records = store.read(match)
    if not records:
        raise UnknownMatch(match)
    core_replay.ruleset_for(registry, records)  # refuse a match whose plugins are not installed
    if seat is not None:
        players = core_replay.started_of(records).players
        if not 0 <= seat < players:
            raise GamehallError(f"seat {seat + 1} does not exist: seats are 1 to {players}")
        records = anyio.run(_history, store, registry, match, seat)
    write(path, records, seat, registry)
    return len(records)


async def _history(store: Store, registry: Registry, match: str, seat: int) -> list[Recorded]:
    async with Hall(store, registry) as hall:
        return hall.history(match, seat)


def check_importable(log: Log) -> None:
    """Refuse a seat's log, and a log whose commands no longer give its events."""
    if log.header.seat is not None:
        raise LogError(
            log.path, 1, f"this is seat {log.header.seat + 1}'s view (redacted, no seed): "
            "only a full log can be imported", log.unit,
        )  # fmt: skip
    ok, lines = verify(log, "import")
    if not ok:
        raise GamehallError("\n".join(lines))


def store_log(store: Store, log: Log, match: str) -> None:
    """Append a whole checked log to a store as a new match, in one atomic batch."""
    limits.check_match_id(match)
    started = log.started
    info = {
        "game": started.game,
        "expansions": [e.id for e in started.expansions],
        "players": started.players,
        "forked_from": started.forked_from,
    }
    # A log that records its listing keeps it (its seating, its links), as the hall's import.
    info = {**(rebuilt_entry(log.ruleset.registry, log.records) or {}), **info}
    store.append(match, 0, [r.event for r in log.records], [r.meta for r in log.records], info)


# -- replay tools -----------------------------------------------------------------------------


def replay(log: Log, to: int | None, seat: int | None, as_json: bool = False) -> list[str]:
    """Return the board after event ``to`` as ``seat`` sees it, with the event (in words, or
    as JSON) and who acts."""
    ruleset, header = log.ruleset, log.header
    if header.seat is not None and seat is not None and seat != header.seat:
        raise GamehallError(
            f"{log.path} holds seat {header.seat + 1}'s view: it cannot show seat {seat + 1}'s"
        )
    seat = header.seat if seat is None else seat
    players = log.started.players
    if seat is not None and not 0 <= seat < players:
        raise GamehallError(f"seat {seat + 1} does not exist: seats are 1 to {players}")
    last = log.last_seq
    to = last if to is None else to
    if not 1 <= to <= last:
        raise GamehallError(f"--to {to} is outside the log (events 1 to {last})")
    shown = [r for r in log.records if r.seq <= to]
    state = _state_at(log, shown)
    view = ruleset.rules.view(state, seat)
    before = _state_at(log, shown[:-1]) if len(shown) > 1 else None
    event = _event_at(log, shown[-1], to, seat, before, as_json)
    who = "a spectator" if seat is None else f"seat {seat + 1}"
    lines = [f"after event {to} of {last}, as {who} sees it: {event}", ruleset.render(view, seat)]
    outcome = ruleset.rules.outcome(state)
    names = ruleset.seat_names(ruleset.rules.view(state, None), players)
    if outcome is not None:
        lines.append(f"over: {outcome_text(outcome, names)}")
    for asked, decision in sorted(ruleset.rules.awaiting(state).items()):
        lines.append(f"waiting for {names[asked]}: {decision.prompt or decision.kind}")
    return lines


def _state_at(log: Log, records: Sequence[Recorded]) -> Any:
    try:
        return core_replay.state_at(log.ruleset, records)
    except GamehallError:
        raise
    except Exception as exc:  # noqa: BLE001 - a rules error on an edited log is the log's fault
        seq = records[-1].seq
        raise log.error(seq, f"the events do not replay: {type(exc).__name__}: {exc}") from None


def _event_at(
    log: Log, record: Recorded, to: int, seat: int | None, before: Any, as_json: bool
) -> str:
    if record.seq != to:
        return "(hidden from this seat)"
    event: Event | None = record.event
    if log.header.seat is None:  # a seat's log is redacted already
        shown = engine.redact_record(log.ruleset, record, seat)
        event = shown.event if shown is not None else None
    if event is None:
        return "(hidden from this seat)"
    if as_json:
        return log.ruleset.codec.to_json(event).decode()
    ruleset = log.ruleset
    if before is None:
        before = engine.initial_state(ruleset, log.started)
    return ruleset.describe_event(event, ruleset.rules.view(before, seat), seat)


def verify(log: Log, label: str = "verify") -> tuple[bool, list[str]]:
    """Re-decide every command; return whether all agree and the report."""
    if log.header.seat is not None or log.started.seed is None:
        raise LogError(
            log.path,
            log.lines[0],
            "the log has no seed (a seat's view): it cannot be verified",
            log.unit,
        )
    commands = sum(1 for r in log.records if r.meta.command is not None)
    with Progress(label, len(log.records)) as bar:
        try:
            difference = core_replay.verify(log.ruleset, Tracked(log.records, bar.update, "slice"))
        except GamehallError:
            raise
        except Exception as exc:  # noqa: BLE001 - rules that fail on a tampered log
            raise LogError(
                log.path, None, f"re-deciding failed: {type(exc).__name__}: {exc}"
            ) from None
    if difference is None:
        return True, [
            f"verified {log.path}: {len(log.records)} events, {commands} commands re-decided"
        ]
    to_json = log.ruleset.codec.to_json
    where = f"{log.path}, {log.unit} {log.line_of(difference.seq)}: event {difference.seq}"
    lines = [f"{where}: {difference.message} ({difference.kind})"]
    lines += [f"  recorded:   {to_json(e).decode()}" for e in difference.recorded]
    lines += [f"  re-decided: {to_json(e).decode()}" for e in difference.redecided]
    return False, lines


def diff(log: Log, a: int, b: int) -> list[str]:
    """Return each field that differs between the states after events ``a`` and ``b``."""
    last = log.last_seq
    for name, seq in (("A", a), ("B", b)):
        if not 1 <= seq <= last:
            raise GamehallError(f"{name} = {seq} is outside the log (events 1 to {last})")
    if log.header.seat is not None:  # a seat's log skips the events it may not see
        before = _state_at(log, [r for r in log.records if r.seq <= a])
        after = _state_at(log, [r for r in log.records if r.seq <= b])
        changes = core_replay.diff_states(before, after)
    else:
        changes = core_replay.diff(log.ruleset, log.records, a, b)
    if not changes:
        return [f"no difference between the states after events {a} and {b}"]
    encode = msgspec.json.encode
    return [f"{c.path}: {encode(c.before).decode()} -> {encode(c.after).decode()}" for c in changes]


def bisect(log: Log, invariant: str | None) -> tuple[bool, list[str]]:
    """Return whether every invariant holds after each event, and the report."""
    names = sorted(log.ruleset.invariants)
    if not names:
        return True, [f"{log.ruleset.name} declares no invariants: nothing to check"]
    with Progress("bisect", len(log.records)) as bar:
        violation = core_replay.bisect(
            log.ruleset, Tracked(log.records, bar.update, "iter"), invariant
        )
    if violation is None:
        checked = invariant or ", ".join(names)
        return True, [f"{checked}: holds after each of the {len(log.records)} events"]
    event = log.ruleset.codec.to_json(violation.event).decode()
    where = f"{log.path}, {log.unit} {log.line_of(violation.seq)}"
    first = f"invariant {violation.invariant!r} fails first after event {violation.seq}"
    return False, [f"{where}: {first}: {violation.message}", f"  event {violation.seq}: {event}"]


# -- run --------------------------------------------------------------------------------------


class MatchLine(msgspec.Struct, forbid_unknown_fields=True):
    """The first line of a commands file: the match to start."""

    game: str
    players: int | None = None
    expansions: list[str] = []
    options: dict[str, Any] = {}
    expansion_options: dict[str, dict[str, Any]] = {}
    seed: int = 0
    match: str | None = None


class CommandLine(msgspec.Struct, forbid_unknown_fields=True):
    """A line of a commands file: a seat's command, with an optional command id."""

    seat: int
    command: dict[str, Any]
    id: str | None = None


def run_commands(path: str, registry: Registry) -> tuple[list[Recorded], str]:
    """Play a commands file on a table; return its records and a one-line summary."""
    numbered = [
        (n, line) for n, line in enumerate(read_bytes(path).split(b"\n"), start=1) if line.strip()
    ]
    if not numbered:
        raise LogError(path, None, "the file is empty (expected a match line first)")
    table, players = _table(path, numbered[0], registry)
    with Progress("run", len(numbered) - 1) as bar:
        for number, line in numbered[1:]:
            step = _decode(path, number, line, CommandLine)
            if not 0 <= step.seat < players:
                raise LogError(
                    path, number, f"seat {step.seat} does not exist: seats are 0 to {players - 1}"
                )
            try:
                command = registry.codec.command_from_builtins(step.command)
                table.send(step.seat, command, step.id)
            except GamehallError as exc:
                raise LogError(path, number, f"refused: {exc}") from None
            bar.advance()
    outcome = table.outcome()
    players = table.events[0].players  # type: ignore[attr-defined]
    names = table.ruleset.seat_names(table.view(None), players)
    state = outcome_text(outcome, names) if outcome is not None else "in progress"
    return table.records(), f"ran {len(numbered) - 1} commands of match {table.stream} ({state})"


def _table(path: str, item: tuple[int, bytes], registry: Registry) -> tuple[Table, int]:
    number, line = item
    spec = _decode(path, number, line, MatchLine)
    try:
        ruleset = registry.ruleset(spec.game, spec.expansions)
        started = ruleset.started(spec.players, spec.options, spec.expansion_options, spec.seed)
    except GamehallError as exc:
        raise LogError(path, number, str(exc)) from None
    return Table(ruleset, started, stream=spec.match or Path(path).stem), started.players


def _decode(path: str, number: int, line: bytes, kind: type[Any]) -> Any:
    try:
        return msgspec.json.decode(line, type=kind)
    except msgspec.ValidationError as exc:
        raise LogError(path, number, f"invalid {kind.__name__}: {exc}") from None
    except msgspec.DecodeError as exc:
        raise LogError(path, number, f"invalid JSON: {exc}") from None
