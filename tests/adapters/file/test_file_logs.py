"""Log files: export and import round trips, and every way a file can be bad."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import msgspec
import pytest
from gamehall.adapters.cli import main
from gamehall.adapters.file import msgpack_stream
from gamehall.adapters.file.logfile import read_log
from gamehall.core import Registry
from gamehall.core.store import SQLiteStore


@pytest.fixture(autouse=True)
def _keep_logging_as_it_is(monkeypatch: pytest.MonkeyPatch) -> None:
    """Stop ``main`` from pointing structlog at this test's captured stderr for later tests."""
    monkeypatch.setattr("gamehall.adapters.cli.configure", lambda **_: None)


@pytest.fixture
def logs(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> Path:
    """Return a directory with a store of one finished match and its exports."""
    db = tmp_path / "a.db"
    commands = tmp_path / "c.jsonl"
    lines = [{"game": "tictactoe", "seed": 5, "match": "m"}] + [
        {"seat": n % 2, "command": {"type": "tictactoe.PlaceMark", "cell": c}, "id": f"c{n}"}
        for n, c in enumerate([4, 0, 2, 6, 3, 1, 5])  # X completes 3-4-5
    ]
    commands.write_text("".join(json.dumps(line) + "\n" for line in lines))
    assert main(["run", str(commands), "-o", str(tmp_path / "run.jsonl")]) == 0
    assert main(["import", str(tmp_path / "run.jsonl"), "--db", str(db)]) == 0
    for name, extra in [("full.jsonl", []), ("full.msgpack", []), ("seat1.jsonl", ["--seat", "2"])]:
        assert main(["export", "m", "-o", str(tmp_path / name), "--db", str(db), *extra]) == 0
    capsys.readouterr()
    return tmp_path


def test_export_writes_a_header_and_one_event_per_line(logs: Path, registry: Registry) -> None:
    lines = (logs / "full.jsonl").read_text().splitlines()
    header = json.loads(lines[0])
    assert header == {"format": "gamehall-log", "version": 4, "match": "m", "seat": None,
                      "game": "tictactoe", "expansions": [], "events": len(lines) - 1}  # fmt: skip
    events = [json.loads(line) for line in lines[1:]]
    assert [e["seq"] for e in events] == list(range(1, len(events) + 1))
    assert events[0]["event"]["seed"] == 5
    assert events[1]["meta"]["command"] == {"type": "tictactoe.PlaceMark", "cell": 4}
    full = read_log(logs / "full.jsonl", registry)
    packed = read_log(logs / "full.msgpack", registry)
    assert packed.records == full.records and packed.header == full.header
    objects = list(msgpack_stream.split((logs / "full.msgpack").read_bytes()))
    assert [msgspec.msgpack.decode(o) for o in objects] == [json.loads(line) for line in lines]


def test_a_seat_export_has_no_seed_and_no_other_seat_commands(logs: Path) -> None:
    lines = [json.loads(line) for line in (logs / "seat1.jsonl").read_text().splitlines()]
    assert lines[0]["seat"] == 1
    assert lines[1]["event"]["seed"] is None
    for line in lines[1:]:
        if line["meta"].get("seat") == 0:
            assert "command" not in line["meta"] and "command_id" not in line["meta"]
    assert any("command" in line["meta"] for line in lines[1:] if line["meta"].get("seat") == 1)


def test_import_keeps_the_id_refuses_a_taken_one_and_takes_another(
    logs: Path, capsys: pytest.CaptureFixture[str], registry: Registry
) -> None:
    db = logs / "b.db"
    assert main(["import", str(logs / "full.msgpack"), "--db", str(db)]) == 0
    assert main(["import", str(logs / "full.jsonl"), "--db", str(db)]) == 1
    assert "match 'm' already exists" in capsys.readouterr().err
    assert main(["import", str(logs / "full.jsonl"), "--db", str(db), "--as", "n"]) == 0
    store = SQLiteStore(db, registry.codec)
    try:
        assert [s.stream for s in store.streams()] == ["m", "n"]
        assert [r.event for r in store.read("n")] == [r.event for r in store.read("m")]
        assert store.streams()[0].info["game"] == "tictactoe"
    finally:
        store.close()


def _edit_line(number: int, edit: Callable[[str], str]) -> Callable[[list[str]], list[str]]:
    def change(lines: list[str]) -> list[str]:
        return [edit(line) if n == number else line for n, line in enumerate(lines, start=1)]

    return change


BAD_LOGS: dict[str, tuple[Callable[[list[str]], list[str]], str]] = {
    "invalid-json": (_edit_line(3, lambda s: s[:40]), "line 3: invalid JSON"),
    "edited-event": (
        _edit_line(4, lambda s: s.replace('"cell":0}', '"cell":8}', 1)),
        "line 4: event 3: re-deciding gives other events",
    ),
    "missing-line": (lambda lines: lines[:4] + lines[5:], "line 5: expected seq 4, found 5"),
    "repeated-line": (lambda lines: lines[:4] + lines[3:], "line 5: expected seq 4, found 3"),
    "truncated": (lambda lines: lines[:-1], "the header announces 9 events but the file holds 8"),
    "unknown-event": (
        _edit_line(3, lambda s: s.replace("tictactoe.MarkPlaced", "tictactoe.MarkMoved")),
        "line 3: unknown type 'tictactoe.MarkMoved'",
    ),
    "unknown-command": (
        _edit_line(3, lambda s: s.replace("tictactoe.PlaceMark", "tictactoe.Wipe")),
        "line 3: unknown type 'tictactoe.Wipe'",
    ),
    "plugin-not-installed": (
        _edit_line(2, lambda s: s.replace('"game_version":"1.0.0"', '"game_version":"7.0.0"')),
        "line 2: the match was recorded with tictactoe 7.0.0, but tictactoe 1.0.0 installed",
    ),
    "meta-version": (
        _edit_line(
            2,
            lambda s: s.replace(
                '"versions":{"tictactoe":"1.0.0"}', '"versions":{"tictactoe":"2.1.0"}'
            ),
        ),
        "line 2: the event was recorded with tictactoe 2.1.0, but tictactoe 1.0.0 is installed",
    ),
    "unknown-game": (
        _edit_line(2, lambda s: s.replace('"game":"tictactoe"', '"game":"chess"')),
        "line 2: unknown game 'chess'",
    ),
    "foreign-match": (
        _edit_line(3, lambda s: s.replace('"stream":"m"', '"stream":"x"')),
        "line 3: the event belongs to match 'x'",
    ),
    "wrong-type": (
        _edit_line(3, lambda s: s.replace('"seq":2', '"seq":"2"')),
        "line 3: invalid record: Expected `int`, got `str`",
    ),
    "event-not-object": (
        _edit_line(
            3, lambda s: s.replace('"event":{', '"event":[{', 1).replace('},"v"', '}],"v"', 1)
        ),
        "line 3: invalid record",
    ),
    "no-header": (lambda lines: lines[1:], "line 1: not a gamehall-log header"),
    "future-format": (
        _edit_line(1, lambda s: s.replace('"version":4', '"version":5')),
        "line 1: gamehall-log version 5 is newer than this gamehall reads (versions 1 to 4)",
    ),
    "not-a-start": (
        lambda lines: [lines[0].replace('"events":9', '"events":8')] + lines[2:],
        "line 2: expected seq 1, found 2",
    ),
    "empty": (lambda lines: [], "the file is empty"),
}


@pytest.mark.parametrize("case", sorted(BAD_LOGS))
def test_a_bad_log_is_refused_with_its_line_and_nothing_is_stored(
    case: str, logs: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    change, message = BAD_LOGS[case]
    lines = (logs / "full.jsonl").read_text().splitlines()
    assert len(lines) == 10
    bad = logs / f"{case}.jsonl"
    bad.write_text("".join(line + "\n" for line in change(lines)))
    db = logs / "empty.db"
    assert main(["import", str(bad), "--db", str(db), "--as", "fresh"]) == 1
    err = capsys.readouterr().err
    assert err.startswith(f"error: {bad}") and message in err, err
    assert "Traceback" not in err
    assert not db.exists()  # the store is not even opened before the whole file is checked


def test_a_bad_msgpack_log_names_the_object(logs: Path, capsys: pytest.CaptureFixture[str]) -> None:
    data = (logs / "full.msgpack").read_bytes()
    cut = logs / "cut.msgpack"
    cut.write_bytes(data[: len(data) - 5])
    assert main(["verify", str(cut)]) == 1
    assert (
        "cut.msgpack, object 10: not a MessagePack object: the stream ends inside an object"
        in capsys.readouterr().err
    )
    junk = logs / "junk.msgpack"
    junk.write_bytes(b"\xc1")
    assert main(["verify", str(junk)]) == 1
    assert "junk.msgpack, object 1: not a MessagePack object" in capsys.readouterr().err


def test_a_seat_log_cannot_be_imported_or_verified(
    logs: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["import", str(logs / "seat1.jsonl"), "--db", str(logs / "x.db")]) == 1
    assert "only a full log can be imported" in capsys.readouterr().err
    assert main(["verify", str(logs / "seat1.jsonl")]) == 1
    assert "it cannot be verified" in capsys.readouterr().err
    assert not (logs / "x.db").exists()


def test_export_refuses_unknown_matches_seats_and_extensions(
    logs: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = str(logs / "a.db")
    assert main(["export", "ghost", "-o", str(logs / "g.jsonl"), "--db", db]) == 1
    assert "unknown match 'ghost'" in capsys.readouterr().err
    assert main(["export", "m", "-o", str(logs / "g.jsonl"), "--seat", "3", "--db", db]) == 1
    assert "seat 3 does not exist: seats are 1 to 2" in capsys.readouterr().err
    with pytest.raises(SystemExit):  # the old count from 0 is refused, saying what changed
        main(["export", "m", "-o", str(logs / "g.jsonl"), "--seat", "0", "--db", db])
    assert "seats are counted from 1 now: the first seat is 1" in capsys.readouterr().err
    assert main(["export", "m", "-o", str(logs / "g.txt"), "--db", db]) == 1
    assert "unknown extension '.txt'" in capsys.readouterr().err
    assert not list(logs.glob("g.*")) and not list(logs.glob(".g.*"))


def test_a_match_whose_seats_were_taken_exports_and_verifies(
    tmp_path: Path, registry: Registry
) -> None:
    import anyio
    from gamehall.adapters.file import tools
    from gamehall.core.events import SeatTaken, TakeSeat
    from gamehall.core.hall import Hall

    store = SQLiteStore(tmp_path / "s.db", registry.codec)

    async def play() -> str:
        async with Hall(store, registry) as hall:
            match = await hall.create("tictactoe", open_seats=[0, 1], seed=2)
            await hall.lobby.take_seat(match, None, 1, b"d" * 32)
            await hall.lobby.take_seat(match, None, 0, b"e" * 32)
            await hall.send(match, 0, hall.legal(match, 0)[0])
            return match

    try:
        match = anyio.run(play)
        path = tmp_path / "seated.jsonl"
        tools.export(store, registry, match, None, str(path))
    finally:
        store.close()
    log = tools.load(str(path), registry)
    assert [r.event.seat for r in log.records if isinstance(r.event, SeatTaken)] == [1, 0]
    assert any(isinstance(r.meta.command, TakeSeat) for r in log.records)
    ok, report = tools.verify(log)
    assert ok, report
