"""The codec: MessagePack and JSON round trips, unknown and corrupt records, upcasting, bad commands."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

import msgspec
import pytest
from gamehall.core import (
    Command,
    CorruptRecord,
    Event,
    GameSpec,
    InvalidCommand,
    Meta,
    PluginError,
    RandomBot,
    Recorded,
    Registry,
    Table,
    UnknownEventType,
    hookimpl,
)
from gamehall.core.codec import Codec, Upcaster
from gamehall.core.events import ExpansionRef, MatchStarted, tag_of
from gamehall.core.store import SQLiteStore
from gamehall.core.store.base import checksum
from gamehall.plugins.tictactoe.commands import PlaceMark
from gamehall.plugins.tictactoe.events import LineCompleted, MarkPlaced

from tests.core.dice_game import DICE, DicePlugin, Roll

# -- round trips -------------------------------------------------------------------------------


def played_records(registry: Registry) -> list[Recorded]:
    """Return the logs of one seeded random match of every installed game and expansion."""
    out: list[Recorded] = []
    combos = [(g, ()) for g in registry.games] + [
        (e.game, (e.id,)) for e in registry.expansions.values()
    ]
    for game, expansions in combos:
        ruleset = registry.ruleset(game, expansions)
        started = ruleset.started(ruleset.player_range[0], seed=11)
        table = Table(ruleset, started, stream=f"{ruleset.name}-m")
        table.play(RandomBot(5), max_commands=400)
        out.extend(table.records())
    return out


@pytest.fixture(scope="module")
def all_records() -> list[Recorded]:
    registry = Registry([DicePlugin()])
    return played_records(registry)


@pytest.fixture(scope="module")
def dice_registry() -> Registry:
    return Registry([DicePlugin()])


def test_every_event_of_every_game_round_trips_through_msgpack(
    all_records: list[Recorded], dice_registry: Registry
) -> None:
    codec = dice_registry.codec
    seen_types = set()
    for record in all_records:
        event = record.event
        data = codec.encode_event(event)
        assert isinstance(data, bytes)
        back = codec.decode_event(
            tag_of(type(event)), type(event).version, data, record.stream, record.seq
        )
        assert back == event and type(back) is type(event)
        seen_types.add(type(event))
    # the playouts touched many event types of several games, not one or two
    assert len(seen_types) >= 10
    assert {
        t.__module__.split(".")[2]
        for t in seen_types
        if t.__module__.startswith("gamehall.plugins")
    } >= {
        "tictactoe",
        "toy_battle",
        "river_of_gold",
    }


def test_every_envelope_round_trips_through_json_lines(
    all_records: list[Recorded], dice_registry: Registry
) -> None:
    codec = dice_registry.codec
    for record in all_records:
        line = codec.record_to_json(record)
        assert b"\n" not in line
        back = codec.record_from_json(line)
        assert back == record
        # the line also carries the schema version of the event class
        assert msgspec.json.decode(line)["v"] == type(record.event).version


def test_metadata_round_trips_through_msgpack(dice_registry: Registry) -> None:
    codec = dice_registry.codec
    metas = [
        Meta(),
        Meta("c1", 0, PlaceMark(cell=4), {"tictactoe": "1.0.0", "tictactoe-misere": "1.0.0"}),
        Meta("c2", 1, Roll()),
        Meta("c3", 1),
        Meta(None, None, None, {"dice": "1.2.0"}),
        Meta("", 0, PlaceMark(cell=0)),
    ]
    for meta in metas:
        back = codec.decode_meta(codec.encode_meta(meta), "m", 2)
        assert back == meta
        assert type(back.command) is type(meta.command)


def test_match_started_round_trips_with_expansions_and_options(dice_registry: Registry) -> None:
    codec = dice_registry.codec
    started = MatchStarted(
        game="river-of-gold",
        game_version="1.0.0",
        players=3,
        options={"a": [1, 2], "b": {"c": None}},
        expansions=(ExpansionRef("river-of-gold-patrons", "1.0.0", {"setup": "draft"}),),
        seed=2**62 + 7,
        forked_from="abc",
        fork_seq=12,
    )
    back = codec.decode_event(tag_of(MatchStarted), 1, codec.encode_event(started), "m", 1)
    assert back == started
    record = Recorded("m", 1, 40, 1.5, started, Meta(versions={"river-of-gold": "1.0.0"}))
    assert codec.record_from_json(codec.record_to_json(record)) == record


def test_commands_round_trip_through_json(dice_registry: Registry) -> None:
    codec = dice_registry.codec
    for command in [PlaceMark(cell=0), PlaceMark(cell=8), Roll()]:
        text = codec.to_json(command)
        assert codec.command_from_json(text) == command
        assert codec.command_from_json(text.decode()) == command
        assert codec.command_from_builtins(msgspec.json.decode(text)) == command
    # a command object passes through unchanged
    command = PlaceMark(cell=3)
    assert codec.command_from_builtins(command) is command


def test_union_decoders_pick_the_class_by_tag(dice_registry: Registry) -> None:
    codec = dice_registry.codec
    event = codec.event_from_builtins(
        {"type": "tictactoe.LineCompleted", "line": [0, 1, 2], "winner": 1}
    )
    assert event == LineCompleted(line=(0, 1, 2), winner=1)
    assert codec.command_from_builtins({"type": "dice.Roll"}) == Roll()


# -- unknown types and corrupt records ---------------------------------------------------------


def test_unknown_event_type_names_tag_stream_and_seq(dice_registry: Registry) -> None:
    codec = dice_registry.codec
    with pytest.raises(UnknownEventType) as info:
        codec.decode_event("chess.PieceMoved", 1, msgspec.msgpack.encode({"a": 1}), "match-7", 12)
    err = info.value
    assert (err.tag, err.stream, err.seq) == ("chess.PieceMoved", "match-7", 12)
    text = str(err)
    assert "chess.PieceMoved" in text and "match-7" in text and "12" in text


def test_unknown_event_type_in_a_json_line_names_tag_seq_and_position(
    dice_registry: Registry,
) -> None:
    codec = dice_registry.codec
    line = b'{"stream":"m9","seq":4,"position":77,"time":0.0,"event":{"type":"chess.PieceMoved"},"v":1}'
    with pytest.raises(UnknownEventType) as info:
        codec.record_from_json(line)
    err = info.value
    assert (err.tag, err.stream, err.seq, err.position) == ("chess.PieceMoved", "m9", 4, 77)
    assert "chess.PieceMoved" in str(err) and "seq 4" in str(err) and "77" in str(err)


def test_unknown_event_type_in_a_stored_row_is_reported_by_the_store(
    dice_registry: Registry, tmp_path: Path
) -> None:
    path = tmp_path / "codec.db"
    codec = dice_registry.codec
    store = SQLiteStore(path, codec)
    try:
        table = Table.new("tictactoe", registry=dice_registry)
        table.send(0, PlaceMark(cell=4))
        store.append("m1", 0, table.events, [r.meta for r in table.records()])
    finally:
        store.close()
    # a plugin that is no longer installed wrote seq 2
    db = sqlite3.connect(path)
    data, meta = db.execute("SELECT data, meta FROM events WHERE stream='m1' AND seq=2").fetchone()
    crc = checksum("m1", 2, "chess.PieceMoved", 1, data, meta)
    db.execute(
        "UPDATE events SET type='chess.PieceMoved', crc=? WHERE stream='m1' AND seq=2", (crc,)
    )
    db.commit()
    db.close()
    store = SQLiteStore(path, codec)
    try:
        assert [r.seq for r in store.read("m1", 0, 1)] == [1]  # rows before it still read
        with pytest.raises(UnknownEventType) as info:
            store.read("m1")
        assert (info.value.tag, info.value.stream, info.value.seq) == ("chess.PieceMoved", "m1", 2)
        with pytest.raises(UnknownEventType):
            store.read_all()
    finally:
        store.close()


def test_corrupt_payloads_raise_corrupt_record(dice_registry: Registry) -> None:
    codec = dice_registry.codec
    good = codec.encode_event(MarkPlaced(seat=1, cell=5))
    tag = tag_of(MarkPlaced)
    bad_payloads = {
        "truncated": good[:-2],
        "garbage": b"\xc1\xc1\xc1",
        "empty": b"",
        "not a map": msgspec.msgpack.encode([1, 2, 3]),
        "missing field": msgspec.msgpack.encode({"type": tag, "seat": 1}),
        "wrong field type": msgspec.msgpack.encode({"type": tag, "seat": 1, "cell": "five"}),
        "another type's payload": codec.encode_event(LineCompleted(line=(0, 1, 2), winner=0)),
    }
    for why, data in bad_payloads.items():
        with pytest.raises(CorruptRecord) as info:
            codec.decode_event(tag, 1, data, "m3", 8)
        assert (info.value.stream, info.value.seq) == ("m3", 8), why
        assert "seq 8" in str(info.value), why


def test_corrupt_metadata_raises_corrupt_record(dice_registry: Registry) -> None:
    codec = dice_registry.codec
    good = codec.encode_meta(Meta("c", 0, PlaceMark(cell=1)))
    for data in [good[:-1], b"\xc1", msgspec.msgpack.encode(["c", "seat?", None, None]),
                 msgspec.msgpack.encode({"command_id": "c"})]:  # fmt: skip
        with pytest.raises(CorruptRecord) as info:
            codec.decode_meta(data, "m4", 3)
        assert (info.value.stream, info.value.seq) == ("m4", 3)
    # a command whose plugin is gone is named, like an event of an unknown type
    unknown = msgspec.msgpack.encode(["c", 0, {"type": "chess.Move", "to": "e4"}, None])
    with pytest.raises(UnknownEventType) as unk:
        codec.decode_meta(unknown, "m4", 3)
    assert unk.value.tag == "chess.Move" and unk.value.seq == 3


@pytest.mark.parametrize(
    "line",
    [
        b"not json at all",
        b'{"stream":"m","seq":1}',
        b"[1, 2, 3]",
        b'{"stream":"m","seq":"one","position":1,"time":0,"event":{}}',
    ],
)
def test_a_line_that_is_not_an_event_line_is_corrupt(dice_registry: Registry, line: bytes) -> None:
    with pytest.raises(CorruptRecord):
        dice_registry.codec.record_from_json(line)


@pytest.mark.parametrize(
    ("line", "named"),
    [
        (b"not json at all", "malformed"),
        (b'{"stream":"m","seq":1}', "position"),
        (b'{"stream":"m","seq":"one","position":1,"time":0,"event":{}}', "seq"),
    ],
)
def test_a_line_that_is_not_an_event_line_is_refused_naming_why(
    dice_registry: Registry, line: bytes, named: str
) -> None:
    # whatever class the error has, it is an error (never a half-read record) and says why
    with pytest.raises((CorruptRecord, msgspec.DecodeError)) as info:
        dice_registry.codec.record_from_json(line)
    assert named in str(info.value)


@pytest.mark.parametrize("event", ["[1, 2]", '"MarkPlaced"', "42", "null"])
def test_a_non_object_event_is_corrupt(dice_registry: Registry, event: str) -> None:
    line = f'{{"stream":"m","seq":5,"position":9,"time":0.0,"event":{event},"v":1}}'
    with pytest.raises(CorruptRecord) as info:
        dice_registry.codec.record_from_json(line)
    assert info.value.seq == 5 and "object" in info.value.reason


def test_an_event_line_with_bad_fields_is_corrupt(dice_registry: Registry) -> None:
    codec = dice_registry.codec
    no_type = b'{"stream":"m","seq":5,"position":9,"time":0.0,"event":{"seat":0,"cell":1}}'
    with pytest.raises(CorruptRecord, match="type"):
        codec.record_from_json(no_type)
    bad_field = (
        b'{"stream":"m","seq":5,"position":9,"time":0.0,'
        b'"event":{"type":"tictactoe.MarkPlaced","seat":0,"cell":"x"}}'
    )
    with pytest.raises(CorruptRecord, match="cell") as info:
        codec.record_from_json(bad_field)
    assert info.value.seq == 5
    bad_meta = (
        b'{"stream":"m","seq":5,"position":9,"time":0.0,'
        b'"event":{"type":"tictactoe.MarkPlaced","seat":0,"cell":1},"meta":{"seat":"zero"}}'
    )
    with pytest.raises(CorruptRecord, match="seat"):
        codec.record_from_json(bad_meta)


def test_a_malformed_command_in_a_line_is_corrupt_and_names_its_place(
    dice_registry: Registry,
) -> None:
    line = (
        b'{"stream":"m","seq":6,"position":9,"time":0.0,'
        b'"event":{"type":"tictactoe.MarkPlaced","seat":0,"cell":1},'
        b'"meta":{"command_id":"c","seat":0,"command":{"type":"tictactoe.PlaceMark"}}}'
    )
    with pytest.raises(CorruptRecord) as info:
        dice_registry.codec.record_from_json(line)
    assert info.value.seq == 6 and "cell" in str(info.value)


def test_an_unknown_command_type_in_a_line_is_named_with_its_place(dice_registry: Registry) -> None:
    line = (
        b'{"stream":"m","seq":6,"position":9,"time":0.0,'
        b'"event":{"type":"tictactoe.MarkPlaced","seat":0,"cell":1},'
        b'"meta":{"command_id":"c","seat":0,"command":{"type":"chess.Move"}}}'
    )
    with pytest.raises(UnknownEventType) as info:
        dice_registry.codec.record_from_json(line)
    assert (info.value.tag, info.value.seq) == ("chess.Move", 6)


# -- duplicate tags ----------------------------------------------------------------------------


class FirstThing(Event, frozen=True, tag="clash.Thing"):
    a: int


class SecondThing(Event, frozen=True, tag="clash.Thing"):
    b: str


class FirstMove(Command, frozen=True, tag="clash.Move"):
    pass


class SecondMove(Command, frozen=True, tag="clash.Move"):
    x: int = 0


class Types:
    def __init__(self, events: list[type] = [], commands: list[type] = []) -> None:  # noqa: B006
        self.events, self.commands = events, commands

    @hookimpl
    def gamehall_event_types(self) -> list[type]:
        return self.events

    @hookimpl
    def gamehall_command_types(self) -> list[type]:
        return self.commands


def test_two_plugins_declaring_one_event_tag_is_a_plugin_error() -> None:
    with pytest.raises(PluginError) as info:
        Registry([Types([FirstThing]), Types([SecondThing])], entry_points=False)
    text = str(info.value)
    assert "clash.Thing" in text
    assert f"{__name__}.FirstThing" in text and f"{__name__}.SecondThing" in text


def test_two_plugins_declaring_one_command_tag_is_a_plugin_error() -> None:
    with pytest.raises(PluginError) as info:
        Registry([Types(commands=[FirstMove]), Types(commands=[SecondMove])], entry_points=False)
    assert "FirstMove" in str(info.value) and "SecondMove" in str(info.value)


def test_declaring_the_same_class_twice_is_fine() -> None:
    registry = Registry([Types([FirstThing]), Types([FirstThing])], entry_points=False)
    assert registry.codec.event_types["clash.Thing"] is FirstThing


def test_a_plugin_event_cannot_take_a_core_tag() -> None:
    class FakeStart(Event, frozen=True, tag="gamehall.MatchStarted"):
        game: str

    with pytest.raises(PluginError, match="gamehall.MatchStarted"):
        Registry([Types([FakeStart])], entry_points=False)


# -- upcasting ---------------------------------------------------------------------------------


class Scored(Event, frozen=True, tag="upc.Scored"):
    """v1 was ``{"who": int, "points": int}``; v2 renamed ``who`` to ``seat`` and added ``reason``."""

    version = 2
    seat: int
    points: int
    reason: str


class Moved(Event, frozen=True, tag="upc.Moved"):
    """v1 ``{"cell": int}``; v2 ``{"cell": int, "times": int}``; v3 ``{"to": int, "times": int}``."""

    version = 3
    to: int
    times: int


def scored_1_to_2(raw: dict[str, Any]) -> dict[str, Any]:
    raw = dict(raw)
    raw["seat"] = raw.pop("who")
    raw["reason"] = "upcast from v1"
    return raw


def moved_1_to_2(raw: dict[str, Any]) -> dict[str, Any]:
    return {**raw, "times": 1}


def moved_2_to_3(raw: dict[str, Any]) -> dict[str, Any]:
    raw = dict(raw)
    raw["to"] = raw.pop("cell")
    return raw


class UpcastPlugin:
    def __init__(self, upcasters: list[Upcaster]) -> None:
        self.upcasters = upcasters

    @hookimpl
    def gamehall_event_types(self) -> list[type]:
        return [Scored, Moved]

    @hookimpl
    def gamehall_upcasters(self) -> list[Upcaster]:
        return self.upcasters


ALL_UPCASTERS = [
    Upcaster("upc.Scored", 1, scored_1_to_2),
    Upcaster("upc.Moved", 1, moved_1_to_2),
    Upcaster("upc.Moved", 2, moved_2_to_3),
]


@pytest.fixture(scope="module")
def upcasting() -> Codec:
    return Registry([UpcastPlugin(ALL_UPCASTERS)], entry_points=False).codec


def test_a_v1_payload_is_upcast_on_decode(upcasting: Codec) -> None:
    stored = msgspec.msgpack.encode({"type": "upc.Scored", "who": 1, "points": 7})
    event = upcasting.decode_event("upc.Scored", 1, stored, "m", 3)
    assert event == Scored(seat=1, points=7, reason="upcast from v1")


def test_upcasters_chain_through_every_version(upcasting: Codec) -> None:
    v1 = msgspec.msgpack.encode({"type": "upc.Moved", "cell": 4})
    v2 = msgspec.msgpack.encode({"type": "upc.Moved", "cell": 5, "times": 3})
    assert upcasting.decode_event("upc.Moved", 1, v1, "m", 2) == Moved(to=4, times=1)
    assert upcasting.decode_event("upc.Moved", 2, v2, "m", 2) == Moved(to=5, times=3)
    # the current version is decoded as it is, without any upcaster
    v3 = upcasting.encode_event(Moved(to=1, times=9))
    assert upcasting.decode_event("upc.Moved", 3, v3, "m", 2) == Moved(to=1, times=9)


def test_a_v1_json_line_is_upcast(upcasting: Codec) -> None:
    line = b'{"stream":"m","seq":2,"position":2,"time":0.0,"event":{"type":"upc.Scored","who":0,"points":2},"v":1}'
    record = upcasting.record_from_json(line)
    assert record.event == Scored(seat=0, points=2, reason="upcast from v1")
    # and it is written back in the current shape and version
    again = msgspec.json.decode(upcasting.record_to_json(record))
    assert again["v"] == 2 and again["event"]["seat"] == 0 and "who" not in again["event"]


def test_a_missing_upcaster_step_is_a_clear_error() -> None:
    codec = Registry(
        [UpcastPlugin([Upcaster("upc.Moved", 1, moved_1_to_2)])], entry_points=False
    ).codec
    stored = msgspec.msgpack.encode({"type": "upc.Moved", "cell": 4})
    with pytest.raises(PluginError) as info:
        codec.decode_event("upc.Moved", 1, stored, "m", 2)
    text = str(info.value)
    assert "upc.Moved" in text and "v2" in text and "v3" in text
    line = b'{"stream":"m","seq":2,"position":2,"time":0.0,"event":{"type":"upc.Scored","who":0,"points":2},"v":1}'
    with pytest.raises(PluginError, match="upc.Scored"):
        codec.record_from_json(line)


def test_a_stored_version_newer_than_the_class_is_a_clear_error(upcasting: Codec) -> None:
    stored = msgspec.msgpack.encode(
        {"type": "upc.Scored", "seat": 0, "points": 1, "reason": "", "x": 1}
    )
    with pytest.raises(CorruptRecord) as info:
        upcasting.decode_event("upc.Scored", 3, stored, "m", 6)
    text = str(info.value)
    assert "upc.Scored" in text and "v3" in text and "v2" in text and "seq 6" in text
    line = b'{"stream":"m","seq":6,"position":6,"time":0.0,"event":{"type":"upc.Moved","to":1,"times":1},"v":4}'
    with pytest.raises(CorruptRecord, match="v4"):
        upcasting.record_from_json(line)


def test_an_upcast_result_that_does_not_fit_the_class_is_corrupt() -> None:
    codec = Registry(
        [UpcastPlugin([Upcaster("upc.Scored", 1, lambda raw: raw)])], entry_points=False
    ).codec
    stored = msgspec.msgpack.encode({"type": "upc.Scored", "who": 1, "points": 7})
    with pytest.raises(CorruptRecord) as info:
        codec.decode_event("upc.Scored", 1, stored, "m", 3)
    assert info.value.seq == 3


def test_a_truncated_old_payload_is_corrupt(upcasting: Codec) -> None:
    stored = msgspec.msgpack.encode({"type": "upc.Scored", "who": 1, "points": 7})
    with pytest.raises(CorruptRecord):
        upcasting.decode_event("upc.Scored", 1, stored[:-3], "m", 3)


def test_an_old_payload_that_is_not_a_map_is_corrupt(upcasting: Codec) -> None:
    with pytest.raises(CorruptRecord) as info:
        upcasting.decode_event("upc.Scored", 1, msgspec.msgpack.encode(7), "m", 3)
    assert info.value.seq == 3


# -- bad commands ------------------------------------------------------------------------------

BAD_COMMANDS = [
    pytest.param({"type": "tictactoe.Castle"}, ["type", "tictactoe.Castle"], id="unknown type"),
    pytest.param({"cell": 1}, ["type"], id="no type"),
    pytest.param({"type": "tictactoe.PlaceMark"}, ["cell", "missing"], id="missing field"),
    pytest.param({"type": "tictactoe.PlaceMark", "cell": "4"}, ["cell", "int"], id="wrong type"),
    pytest.param({"type": "tictactoe.PlaceMark", "cell": 1.5}, ["cell"], id="float for int"),
    pytest.param({"type": "tictactoe.PlaceMark", "cell": 4, "colour": "red"}, ["colour", "unknown"], id="unknown field"),
    pytest.param({"type": "tictactoe.PlaceMark", "cell": 9}, ["cell", "8"], id="too large"),
    pytest.param({"type": "tictactoe.PlaceMark", "cell": -1}, ["cell", "0"], id="negative"),
    pytest.param({"type": "dice.Roll", "cell": 1}, ["cell", "unknown"], id="field of another command"),
]  # fmt: skip


@pytest.mark.parametrize(("raw", "named"), BAD_COMMANDS)
def test_bad_json_commands_are_refused_naming_the_field(
    dice_registry: Registry, raw: dict[str, Any], named: list[str]
) -> None:
    with pytest.raises(InvalidCommand) as info:
        dice_registry.codec.command_from_json(msgspec.json.encode(raw))
    for word in named:
        assert word in str(info.value)
    assert info.value.code == "invalid_command"


@pytest.mark.parametrize(("raw", "named"), BAD_COMMANDS)
def test_bad_builtin_commands_are_refused_naming_the_field(
    dice_registry: Registry, raw: dict[str, Any], named: list[str]
) -> None:
    with pytest.raises(InvalidCommand) as info:
        dice_registry.codec.command_from_builtins(raw)
    for word in named:
        assert word in str(info.value)


@pytest.mark.parametrize("text", ["not json", "[1, 2]", "7", '"tictactoe.PlaceMark"', ""])
def test_json_that_is_not_a_command_object_is_refused(dice_registry: Registry, text: str) -> None:
    with pytest.raises(InvalidCommand):
        dice_registry.codec.command_from_json(text)


def test_a_codec_without_commands_refuses_every_command() -> None:
    codec = Codec([], [])
    with pytest.raises(InvalidCommand):
        codec.command_from_json(b'{"type": "tictactoe.PlaceMark", "cell": 1}')


def test_dice_game_is_registered_for_these_tests(dice_registry: Registry) -> None:
    # guards the fixtures above: the extra game's types really are in the codec
    assert dice_registry.games["dice"] is DICE
    assert isinstance(DICE, GameSpec)
    assert "dice.Rolled" in dice_registry.codec.event_types
