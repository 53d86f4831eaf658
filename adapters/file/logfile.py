"""Match logs in files: a header, then one recorded event per line (or per MessagePack object).

A JSON Lines log::

    {"format":"gamehall-log","version":3,"match":"m1","seat":null,"game":"tictactoe",...}
    {"stream":"m1","seq":1,"position":1,"time":...,"event":{"type":"gamehall.MatchStarted",...},...}
    ...

A MessagePack log holds the same objects, one after another. Reading checks everything a log
can get wrong before anything uses it, and names the line (or object) and the reason.
See ``docs/cli.md`` ("Log files").
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

import msgspec
from gamehall.core import (
    GamehallError,
    MatchStarted,
    Recorded,
    Registry,
    Ruleset,
    UnknownEventType,
    limits,
)
from gamehall.core.events import CORE_COMMANDS
from gamehall.core.logformat import (
    FORMAT,
    FORMAT_VERSION,
    READABLE,
    Header,
    header_for,
    log_lines,
    version_refusal,
)

from . import msgpack_stream

__all__ = ["FORMAT", "FORMAT_VERSION", "READABLE", "Header", "header_for"]

JSON_SUFFIXES = (".jsonl", ".ndjson", ".json")
MSGPACK_SUFFIXES = (".msgpack", ".mpk", ".msgp")


class LogError(GamehallError):
    """A log file that cannot be used, with the line (or object) where it goes wrong."""

    code = "bad_log"

    def __init__(self, path: str | Path, line: int | None, reason: str, unit: str = "line") -> None:
        where = f"{path}, {unit} {line}" if line is not None else str(path)
        super().__init__(f"{where}: {reason}")
        self.path = str(path)
        self.line = line
        self.reason = reason


class Log(msgspec.Struct):
    """A log read from a file, checked; ``lines[i]`` is where ``records[i]`` sits in it."""

    path: str
    header: Header
    records: list[Recorded]
    lines: list[int]
    ruleset: Ruleset
    unit: str = "line"

    @property
    def started(self) -> MatchStarted:
        """Return the first event."""
        event = self.records[0].event
        assert isinstance(event, MatchStarted)
        return event

    @property
    def last_seq(self) -> int:
        """Return the seq of the last event."""
        return self.records[-1].seq

    def line_of(self, seq: int) -> int | None:
        """Return the line of the event with ``seq`` (or of the first one after it)."""
        for record, line in zip(self.records, self.lines, strict=True):
            if record.seq >= seq:
                return line
        return None

    def error(self, seq: int, reason: str) -> LogError:
        """Return an error located at the event with ``seq``."""
        return LogError(self.path, self.line_of(seq), reason, self.unit)


def is_msgpack(path: str | Path) -> bool:
    """Tell the format of a file to write by its extension (refusing unknown ones)."""
    suffix = Path(path).suffix.lower()
    if suffix in MSGPACK_SUFFIXES:
        return True
    if suffix in JSON_SUFFIXES:
        return False
    raise GamehallError(
        f"{path}: unknown extension {suffix or '(none)'!r}: use .jsonl (JSON Lines) "
        "or .msgpack (MessagePack)"
    )


# -- writing ---------------------------------------------------------------------------------


def write_log(
    path: str | Path, header: Header, records: Sequence[Recorded], registry: Registry
) -> None:
    """Write a log atomically: the file appears whole or not at all."""
    msgpack = is_msgpack(path)
    lines = log_lines(registry.codec, header, records)
    if msgpack:
        data = b"".join(msgspec.msgpack.encode(msgspec.json.decode(line)) for line in lines)
    else:
        data = b"\n".join(lines) + b"\n"
    write_atomic(path, data)


def write_atomic(path: str | Path, data: bytes) -> None:
    """Write bytes to a temporary file beside ``path``, then rename it over ``path``."""
    target = Path(path)
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", dir=target.parent or ".")
    replaced = False
    try:
        with os.fdopen(fd, "wb") as out:
            out.write(data)
        os.replace(tmp, target)
        replaced = True
    finally:
        if not replaced:  # whatever stopped the write (an interrupt too) leaves no temporary file
            Path(tmp).unlink(missing_ok=True)


# -- reading ---------------------------------------------------------------------------------


def read_bytes(path: str | Path) -> bytes:
    """Return a file's bytes, or raise a clear error."""
    try:
        return Path(path).read_bytes()
    except OSError as exc:
        raise GamehallError(f"cannot read {path}: {exc.strerror or exc}") from None


def items(path: str | Path, data: bytes) -> tuple[str, list[tuple[int, bytes]]]:
    """Return the unit name and each (number, JSON bytes) item of a log file.

    The extension tells the format; without a known one, the first byte does (``{`` for JSON).
    """
    suffix = Path(path).suffix.lower()
    msgpack = suffix in MSGPACK_SUFFIXES or (
        suffix not in JSON_SUFFIXES and data.lstrip()[:1] not in (b"{", b"")
    )
    if not msgpack:
        numbered = [(n, line) for n, line in enumerate(data.split(b"\n"), start=1) if line.strip()]
        return "line", numbered
    out: list[tuple[int, bytes]] = []
    pos = number = 0
    while pos < len(data):
        number += 1
        try:
            end = msgpack_stream.object_end(data, pos)
            obj = msgspec.msgpack.decode(data[pos:end])
        except (ValueError, msgspec.DecodeError) as exc:
            raise LogError(path, number, f"not a MessagePack object: {exc}", "object") from None
        except RecursionError:
            raise LogError(
                path, number, limits.too_deep(limits.MAX_JSON_DEPTH).message, "object"
            ) from None
        if limits.depth(obj) > limits.MAX_JSON_DEPTH:
            raise LogError(path, number, limits.too_deep(limits.MAX_JSON_DEPTH).message, "object")
        if not isinstance(obj, dict):
            raise LogError(path, number, "not a MessagePack map: this is no gamehall log", "object")
        out.append((number, msgspec.json.encode(obj)))
        pos = end
    return "object", out


def read_log(
    path: str | Path, registry: Registry, progress: Callable[[int, int], None] | None = None
) -> Log:
    """Read and check a whole log; raise :class:`LogError` at the first problem."""
    unit, numbered = items(path, read_bytes(path))
    if not numbered:
        raise LogError(path, None, f"the file is empty (expected a {FORMAT} header)")
    header = _header(path, numbered[0], unit)
    records: list[Recorded] = []
    lines: list[int] = []
    for index, (number, line) in enumerate(numbered[1:]):
        records.append(_record(path, number, line, registry, unit))
        lines.append(number)
        _check_place(path, header, records, number, unit)
        if progress is not None:
            progress(index + 1, len(numbered) - 1)
    if len(records) != header.events:
        raise LogError(
            path,
            None,
            f"the header announces {header.events} events but the file holds {len(records)}: "
            + (
                "lines are missing (truncated?)"
                if len(records) < header.events
                else "lines were added"
            ),
        )
    if not records:
        raise LogError(path, None, "the log holds no events")
    ruleset = _ruleset(path, registry, records, lines, unit)
    log = Log(str(path), header, records, lines, ruleset, unit)
    _check_header(log)
    _check_events(log)
    return log


def _header(path: str | Path, item: tuple[int, bytes], unit: str) -> Header:
    number, line = item
    _check_depth(path, number, line, unit)
    try:
        header = msgspec.json.decode(line, type=Header)
    except msgspec.DecodeError as exc:
        raise LogError(path, number, f"not a {FORMAT} header: {exc}", unit) from None
    if header.format != FORMAT:
        raise LogError(path, number, f"format is {header.format!r}, not {FORMAT!r}", unit)
    refusal = version_refusal(header.version)
    if refusal is not None:
        raise LogError(path, number, refusal, unit)
    return header


def _check_depth(path: str | Path, number: int, line: bytes, unit: str) -> None:
    try:
        limits.check_depth(line)
    except limits.InvalidJson as exc:
        raise LogError(path, number, str(exc), unit) from None


def _record(path: str | Path, number: int, line: bytes, registry: Registry, unit: str) -> Recorded:
    try:
        limits.check_json(line)  # repeated keys, wild numbers: msgspec would take them
    except limits.InvalidJson as exc:
        raise LogError(path, number, str(exc), unit) from None
    try:
        return registry.codec.record_from_json(line)
    except UnknownEventType as exc:
        raise LogError(
            path,
            number,
            f"unknown type {exc.tag!r}: is the plugin that declares it installed?",
            unit,
        ) from None
    except msgspec.DecodeError as exc:
        reason = (
            "invalid JSON" if not isinstance(exc, msgspec.ValidationError) else "invalid record"
        )
        raise LogError(path, number, f"{reason}: {exc}", unit) from None
    except GamehallError as exc:
        raise LogError(path, number, _reason(exc), unit) from None
    except (AttributeError, TypeError):  # the codec expects "event" to be an object
        raise LogError(path, number, "invalid record: 'event' must be an object", unit) from None


def _reason(exc: GamehallError) -> str:
    return str(getattr(exc, "reason", None) or exc)


def _check_place(
    path: str | Path, header: Header, records: list[Recorded], number: int, unit: str
) -> None:
    record = records[-1]
    if record.stream != header.match:
        raise LogError(
            path,
            number,
            f"the event belongs to match {record.stream!r}, not {header.match!r}",
            unit,
        )
    previous = records[-2].seq if len(records) > 1 else 0
    if header.seat is None and record.seq != previous + 1:
        raise LogError(
            path, number,
            f"expected seq {previous + 1}, found {record.seq}: a line is missing or repeated", unit,
        )  # fmt: skip
    if record.seq <= previous:
        raise LogError(path, number, f"seq {record.seq} does not follow seq {previous}", unit)


def _ruleset(
    path: str | Path, registry: Registry, records: list[Recorded], lines: list[int], unit: str
) -> Ruleset:
    started = records[0].event
    if records[0].seq != 1 or not isinstance(started, MatchStarted):
        raise LogError(
            path,
            lines[0],
            "a log must start with the match's first event (seq 1, gamehall.MatchStarted)",
            unit,
        )
    try:
        return registry.ruleset_of(started, records[0].stream)
    except GamehallError as exc:
        raise LogError(path, lines[0], _reason(exc), unit) from None


def _check_header(log: Log) -> None:
    """Refuse a header that contradicts the match's first event."""
    header, started = log.header, log.started
    if header.game and header.game != started.game:
        reason = f"the header names game {header.game!r}, but the events are of {started.game!r}"
        raise LogError(log.path, 1, reason, log.unit)
    recorded = [e.id for e in started.expansions]
    if header.game and header.expansions != recorded:
        reason = f"the header names expansions {header.expansions}, the events {recorded}"
        raise LogError(log.path, 1, reason, log.unit)


def _check_command_ids(log: Log) -> None:
    """Refuse a command id that breaks the one rule, or that two commands share."""
    seen: dict[str, int] = {}
    for record, line in zip(log.records, log.lines, strict=True):
        cid = record.meta.command_id
        if cid is None:
            continue
        try:
            limits.check_command_id(cid)
        except limits.InvalidInput as exc:
            raise LogError(log.path, line, str(exc), log.unit) from None
        if record.meta.command is None:
            continue  # the other events of a command's batch share its id
        first = seen.setdefault(cid, record.seq)
        if first != record.seq:
            reason = f"command id {cid!r} was already used by the command at seq {first}"
            raise LogError(log.path, line, reason, log.unit)


def _check_events(log: Log) -> None:
    _check_command_ids(log)
    ruleset = log.ruleset
    for record, line in zip(log.records, log.lines, strict=True):
        if record.seq > 1 and (
            isinstance(record.event, MatchStarted) or not ruleset.owns(record.event)
        ):
            tag = type(record.event).__struct_config__.tag
            raise LogError(
                log.path, line, f"event type {tag!r} is not part of {ruleset.name}", log.unit
            )
        command = record.meta.command
        # The hall's own commands (seats, take-backs, the lobby's) belong to every match.
        if (
            command is not None
            and type(command) not in CORE_COMMANDS
            and not ruleset.accepts(command)
        ):
            tag = type(command).__struct_config__.tag
            raise LogError(
                log.path, line, f"command type {tag!r} is not part of {ruleset.name}", log.unit
            )
        for plugin, version in (record.meta.versions or {}).items():
            installed = ruleset.versions.get(plugin)
            if installed is None or _major(installed) != _major(version):
                have = (
                    f"{plugin} {installed} is installed"
                    if installed
                    else f"{plugin} is not installed"
                )
                raise LogError(
                    log.path,
                    line,
                    f"the event was recorded with {plugin} {version}, but {have}",
                    log.unit,
                )


def _major(version: str) -> str:
    """Return the part of a version that must match (the minor one while the major is 0)."""
    parts = version.split(".")
    return f"0.{parts[1]}" if parts[0] == "0" and len(parts) > 1 else parts[0]


class Tracked(Sequence[Recorded]):
    """A log's records that report how far a replay tool has gone through them.

    ``by="slice"`` counts the end of each slice taken (``verify`` slices command by command);
    ``by="iter"`` counts iteration (``bisect`` folds event by event).
    """

    def __init__(self, records: Sequence[Recorded], report: Callable[[int], None], by: str) -> None:
        self._records = records
        self._report = report
        self._by = by

    def __len__(self) -> int:
        return len(self._records)

    def __getitem__(self, index: Any) -> Any:
        if isinstance(index, slice) and self._by == "slice":
            stop = index.stop if index.stop is not None else len(self._records)
            self._report(min(stop, len(self._records)))
        return self._records[index]

    def __iter__(self) -> Iterator[Recorded]:
        if self._by != "iter":
            yield from self._records
            return
        for done, record in enumerate(self._records, start=1):
            yield record
            self._report(done)
