"""One codec for every loaded plugin: MessagePack in storage, JSON for people.

The tagged unions of events and commands are built once, after all plugins are loaded. Stored
events keep their tag and schema version beside the payload, so an unknown type is reported by
name and position before any decoding, and an old version is upcast on the way in.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any, Union

import msgspec

from .errors import CorruptRecord, InvalidCommand, PluginError, UnknownEventType
from .events import Clock, Command, Event, LobbyEvent, Meta, Recorded, TakenBack, tag_of

Upcast = Callable[[dict[str, Any]], dict[str, Any]]


class Upcaster(msgspec.Struct, frozen=True):
    """Turn the stored shape of ``tag`` at ``from_version`` into the shape of ``from_version + 1``."""

    tag: str
    from_version: int
    upcast: Upcast


def _index(types: Iterable[type[msgspec.Struct]], kind: str) -> dict[str, type[Any]]:
    index: dict[str, type[Any]] = {}
    for cls in types:
        tag = tag_of(cls)
        other = index.get(tag)
        if other is not None and other is not cls:
            raise PluginError(
                f"{kind} tag {tag!r} is declared twice: {other.__module__}.{other.__qualname__} "
                f"and {cls.__module__}.{cls.__qualname__}"
            )
        index[tag] = cls
    return index


def _union(types: Iterable[type[Any]]) -> Any:
    members = tuple(types)
    if not members:
        return type(None)  # nothing of this kind is declared: only "no value" decodes
    return Union[members]  # noqa: UP007 - a runtime union of a dynamic tuple


class Codec:
    """Encode and decode the events, commands and envelopes of every loaded plugin."""

    def __init__(
        self,
        event_types: Iterable[type[Event]],
        command_types: Iterable[type[Command]],
        upcasters: Iterable[Upcaster] = (),
    ) -> None:
        self.event_types: dict[str, type[Event]] = _index(event_types, "event")
        self.command_types: dict[str, type[Command]] = _index(command_types, "command")
        self.events = _union(self.event_types.values())
        self.commands = _union(self.command_types.values())
        self._upcasters = {(u.tag, u.from_version): u.upcast for u in upcasters}
        self._event_decoders = {
            tag: msgspec.msgpack.Decoder(cls) for tag, cls in self.event_types.items()
        }
        # class -> (tag, version), for writing rows without asking each class.
        self.tags: dict[type[Event], tuple[str, int]] = {
            cls: (tag, cls.version) for tag, cls in self.event_types.items()
        }
        # (tag, current version) -> decoder: rows written by today's classes skip every check.
        self._current = {
            (tag, cls.version): self._event_decoders[tag] for tag, cls in self.event_types.items()
        }
        # Replay's batch path: many payloads decode in one call, and each decoded event's
        # class gives the part of its row's checksummed head that names its type and version.
        self.row_heads: dict[type[Event], bytes] = {
            cls: b"\x00%b\x00%d\x00" % (tag.encode(), cls.version)
            for tag, cls in self.event_types.items()
        }
        # The classes a fold does not simply evolve (see engine.live): take-backs, the lobby's.
        self.unfolded = frozenset(
            cls for cls in self.event_types.values() if issubclass(cls, (TakenBack, LobbyEvent))
        )
        # row_heads in two, for the C reader: it tells a plain match (no class of the second)
        # by where each event's head is found.
        self.folded_heads = {c: h for c, h in self.row_heads.items() if c not in self.unfolded}
        self.unfolded_heads = {c: h for c, h in self.row_heads.items() if c in self.unfolded}
        events_list: Any = list[self.events]  # type: ignore[name-defined]
        self._event_list = msgspec.msgpack.Decoder(events_list)
        self._msgpack = msgspec.msgpack.Encoder()
        self._json = msgspec.json.Encoder()
        self._json_command = msgspec.json.Decoder(self.commands)
        self._json_event = msgspec.json.Decoder(self.events)
        commands: Any = self.commands
        # The fifth element (the clock of a timed match) is written only where it is set.
        meta_shape: Any = msgspec.defstruct(
            "MetaRow",
            [
                ("command_id", str | None),
                ("seat", int | None),
                ("command", commands | None),
                ("versions", dict[str, str] | None),
                ("clock", Clock | None, None),
                ("lobby", dict[str, Any] | None, None),
            ],
            array_like=True,
        )
        self._meta_decoder = msgspec.msgpack.Decoder(meta_shape)
        self._json_record = msgspec.json.Decoder(_JsonRecord)

    # -- events in storage ------------------------------------------------------------------

    def encode_event(self, event: Event) -> bytes:
        """Return the MessagePack payload of an event."""
        return self._msgpack.encode(event)

    def decode_event(self, tag: str, version: int, data: bytes, stream: str, seq: int) -> Event:
        """Decode a stored payload, upcasting it when it was written by an older class version."""
        cls = self.event_types.get(tag)
        if cls is None:
            raise UnknownEventType(tag, stream, seq)
        try:
            if version == cls.version:
                return self._event_decoders[tag].decode(data)
            return self._upcast(cls, tag, version, msgspec.msgpack.decode(data), stream, seq)
        except msgspec.DecodeError as exc:
            raise CorruptRecord(stream, seq, f"{tag}: {exc}") from None

    def _upcast(
        self, cls: type[Event], tag: str, version: int, raw: Any, stream: str, seq: int
    ) -> Event:
        if not isinstance(raw, dict):
            raise CorruptRecord(stream, seq, f"{tag} v{version} payload is not a map")
        if version > cls.version:
            raise CorruptRecord(
                stream, seq, f"{tag} v{version} is newer than the installed v{cls.version}"
            )
        while version < cls.version:
            step = self._upcasters.get((tag, version))
            if step is None:
                raise PluginError(f"no upcaster for {tag} v{version} -> v{version + 1}")
            raw = step(raw)
            version += 1
        return msgspec.convert(raw, cls)

    def decode_events(self, rows: Iterable[tuple[Any, ...]], stream: str) -> list[Event]:
        """Decode stored rows that start (seq, tag, version, payload): the fast path of replay."""
        current = self._current
        out = []
        for row in rows:
            seq, tag, version, data = row[0], row[1], row[2], row[3]
            decoder = current.get((tag, version))
            if decoder is not None and type(data) is bytes:
                try:
                    out.append(decoder.decode(data))
                    continue
                except msgspec.DecodeError:
                    pass  # decode_event says what is wrong, with the place
            if not isinstance(data, bytes):
                raise CorruptRecord(stream, seq, f"payload is {type(data).__name__}, not bytes")
            out.append(self.decode_event(tag, version, data, stream, seq))
        return out

    def decode_joined(self, payloads: Sequence[bytes]) -> list[Event] | None:
        """Decode many stored payloads in one call, each as the event its tag names; ``None``
        when they do not decode (or are not bytes).

        The payloads are joined into one MessagePack array, so nothing here tells which row
        holds which event, nor that each is of today's class: the caller proves both, as
        :func:`gamehall.core.store.base.whole_stream` does with every row's checksum.
        """
        n = len(payloads)
        if n < 16:
            head = bytes((0x90 | n,))
        elif n < 0x10000:
            head = b"\xdc" + n.to_bytes(2, "big")
        else:
            head = b"\xdd" + n.to_bytes(4, "big")
        try:
            return self.decode_array(head + b"".join(payloads))
        except TypeError:  # a payload that is not bytes
            return None

    def decode_array(self, data: bytes) -> list[Event] | None:
        """Decode a MessagePack array of stored payloads (as :meth:`decode_joined` joins
        them); ``None`` when it does not decode."""
        try:
            events: list[Event] = self._event_list.decode(data)
        except msgspec.DecodeError:
            return None
        return events

    def encode_meta(self, meta: Meta) -> bytes:
        """Return the MessagePack of an envelope's metadata as a compact array."""
        if meta.lobby is not None:  # a match's first event only
            return self._msgpack.encode(
                (meta.command_id, meta.seat, meta.command, meta.versions, meta.clock, meta.lobby)
            )
        if meta.clock is None:
            return self._msgpack.encode((meta.command_id, meta.seat, meta.command, meta.versions))
        return self._msgpack.encode(
            (meta.command_id, meta.seat, meta.command, meta.versions, meta.clock)
        )

    def decode_meta(self, data: bytes, stream: str, seq: int) -> Meta:
        """Decode metadata written by :meth:`encode_meta`."""
        try:
            row = self._meta_decoder.decode(data)
        except msgspec.ValidationError as exc:
            tag = _command_tag(data)
            if tag is not None and tag not in self.command_types:
                raise UnknownEventType(tag, stream, seq) from None
            raise CorruptRecord(stream, seq, f"metadata: {exc}") from None
        except msgspec.DecodeError as exc:
            raise CorruptRecord(stream, seq, f"metadata: {exc}") from None
        return Meta(row.command_id, row.seat, row.command, row.versions, row.clock, row.lobby)

    # -- commands ---------------------------------------------------------------------------

    def command_from_json(self, data: bytes | str) -> Command:
        """Decode a command sent as JSON; a bad one raises :class:`InvalidCommand` naming why."""
        self._check_commands()
        try:
            command: Command = self._json_command.decode(data)
            return command
        except (msgspec.ValidationError, msgspec.DecodeError) as exc:
            raise InvalidCommand(f"invalid command: {exc}") from None

    def command_from_builtins(self, data: Any) -> Command:
        """Convert a decoded JSON object (a dict with ``type``) into a command."""
        if isinstance(data, Command):
            return data
        self._check_commands()
        try:
            command: Command = msgspec.convert(data, self.commands)
            return command
        except msgspec.ValidationError as exc:
            raise InvalidCommand(f"invalid command: {exc}") from None

    def _check_commands(self) -> None:
        if not self.command_types:
            raise InvalidCommand("invalid command: no installed game takes commands")

    def event_from_builtins(self, data: Any) -> Event:
        """Convert a decoded JSON object (a dict with ``type``) into an event."""
        event: Event = msgspec.convert(data, self.events)
        return event

    # -- JSON for people --------------------------------------------------------------------

    def to_json(self, obj: Any) -> bytes:
        """Return compact JSON of any Struct, event, view or envelope."""
        return self._json.encode(obj)

    def event_line(self, record: Recorded, text: str | None = None) -> EventLine:
        """Return a recorded event as the line of a log, a stdio answer or a live stream."""
        return EventLine(
            record.stream,
            record.seq,
            record.position,
            record.time,
            record.event,
            type(record.event).version,
            record.meta,
            text,
        )

    def record_to_json(self, record: Recorded, text: str | None = None) -> bytes:
        """Return one JSON line for a recorded event, with its schema version (and words)."""
        return self._json.encode(self.event_line(record, text))

    def record_from_json(self, line: bytes | str) -> Recorded:
        """Decode a line written by :meth:`record_to_json` (upcasting old event versions)."""
        try:
            row = self._json_record.decode(line)
        except msgspec.ValidationError as exc:  # msgspec's message names the field
            raise CorruptRecord("?", 0, f"invalid record: {exc}") from None
        except msgspec.DecodeError as exc:
            raise CorruptRecord("?", 0, f"invalid JSON: {exc}") from None
        if not isinstance(row.event, dict):
            raise CorruptRecord(row.stream, row.seq, "invalid record: 'event' must be an object")
        tag = row.event.get("type")
        if not isinstance(tag, str):
            raise CorruptRecord(row.stream, row.seq, "event has no 'type'")
        cls = self.event_types.get(tag)
        if cls is None:
            raise UnknownEventType(tag, row.stream, row.seq, row.position)
        try:
            if row.v == cls.version:
                _known_keys(row.event, cls, row.stream, row.seq, "the event")
                event = msgspec.convert(row.event, cls)
            else:
                event = self._upcast(cls, tag, row.v, row.event, row.stream, row.seq)
            meta = _meta_from_builtins(self, row.meta, row.stream, row.seq)
        except msgspec.ValidationError as exc:
            raise CorruptRecord(row.stream, row.seq, str(exc)) from None
        return Recorded(row.stream, row.seq, row.position, row.time, event, meta)


class EventLine(msgspec.Struct, frozen=True, omit_defaults=True, gc=False):
    """One event as a line: of a log file, a stdio answer, a history or a live stream.

    ``v`` is the event's schema version; ``text`` (only where an adapter tells a person what
    the event was) is the sentence for the seat that receives the line. See docs/events.md.
    """

    stream: str
    seq: int
    position: int
    time: float
    event: Any
    v: int
    meta: Any
    text: str | None = None


class _JsonRecord(msgspec.Struct, forbid_unknown_fields=True):
    stream: str
    seq: int
    position: int
    time: float
    event: Any
    v: int = 1
    meta: Any = None
    text: Any = None  # words for a person: read past, never trusted
    clock: Any = None  # the seats' remaining time: presentation, read past


def _meta_from_builtins(codec: Codec, raw: Any, stream: str, seq: int) -> Meta:
    if raw is None:
        return Meta()
    if not isinstance(raw, dict):
        raise CorruptRecord(stream, seq, "invalid record: 'meta' must be an object")
    _known_keys(raw, Meta, stream, seq, "meta")
    raw = dict(raw)
    command = raw.pop("command", None)
    meta = msgspec.convert(raw, Meta)
    if command is None:
        return meta
    tag = command.get("type") if isinstance(command, dict) else None
    if isinstance(tag, str) and tag not in codec.command_types:
        raise UnknownEventType(tag, stream, seq)
    try:
        decoded = codec.command_from_builtins(command)
    except InvalidCommand as exc:
        raise CorruptRecord(stream, seq, f"the recorded command: {exc}") from None
    return msgspec.structs.replace(meta, command=decoded)


def _known_keys(raw: dict[str, Any], cls: type[Any], stream: str, seq: int, what: str) -> None:
    """Refuse a key the Struct does not have: a misspelled one would silently become a default."""
    config = cls.__struct_config__
    known = set(cls.__struct_encode_fields__) | ({config.tag_field} if config.tag_field else set())
    unknown = sorted(set(raw) - known)
    if unknown:
        raise CorruptRecord(
            stream, seq, f"{what} has unknown keys {unknown} (known: {sorted(known)})"
        )


def _command_tag(data: bytes) -> str | None:
    try:
        raw = msgspec.msgpack.decode(data)
    except msgspec.DecodeError:
        return None
    if isinstance(raw, list) and len(raw) > 2 and isinstance(raw[2], dict):
        tag = raw[2].get("type")
        return tag if isinstance(tag, str) else None
    return None
