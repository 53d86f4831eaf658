"""Damaged stores: refused in one line at start, checked whole by ``check-store``, a damaged
match quarantined while the others go on, and nothing written into a file that failed."""

from __future__ import annotations

import hashlib
import sqlite3
import subprocess
import sys
from pathlib import Path

import anyio
import pytest
from gamehall.adapters.cli import main
from gamehall.adapters.file import tools
from gamehall.core import CorruptRecord, DamagedStore, MatchQuarantined, Registry
from gamehall.core.hall import Hall
from gamehall.core.store import SQLiteStore
from gamehall.core.store.base import checksum
from gamehall.core.store.sqlite import SCHEMA_VERSION
from gamehall.plugins.tictactoe.commands import PlaceMark

ROOT = Path(__file__).resolve().parents[2]
MOVES = [4, 0, 2, 6, 3]


def played(registry: Registry, path: Path, matches: int = 3) -> list[str]:
    """Store a few tic-tac-toe matches, each a few moves in; return their ids."""

    async def go() -> list[str]:
        store = SQLiteStore(path, registry.codec)
        try:
            async with Hall(store, registry) as hall:
                ids = []
                for n in range(matches):
                    match = await hall.create("tictactoe", seed=n, match_id=f"m{n}")
                    for i, cell in enumerate(MOVES):
                        await hall.send(match, i % 2, PlaceMark(cell=cell), f"c{i}")
                    ids.append(match)
                return ids
        finally:
            store.close()

    return anyio.run(go)


def sql(path: Path, statement: str, *args: object) -> None:
    db = sqlite3.connect(path)
    db.execute(statement, args)
    db.commit()
    db.close()


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def gamehall(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "gamehall.adapters.cli", *args],
        cwd=ROOT, capture_output=True, text=True, timeout=60, check=False,
    )  # fmt: skip


# -- refused at start, in one line -------------------------------------------------------------


def test_a_damaged_header_is_refused_in_one_line_by_serve(
    registry: Registry, tmp_path: Path
) -> None:
    path = tmp_path / "bad.db"
    played(registry, path, 1)
    data = bytearray(path.read_bytes())
    data[0:16] = b"not a database!!"
    path.write_bytes(bytes(data))
    done = gamehall("serve", "--port", "0", "--db", str(path))
    assert done.returncode == 1
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and "damaged" in lines[0] and "Traceback" not in done.stderr
    assert "header" in lines[0]


def test_a_schema_version_that_is_no_number_is_refused(registry: Registry, tmp_path: Path) -> None:
    path = tmp_path / "abc.db"
    played(registry, path, 1)
    sql(path, "UPDATE gamehall SET value='abc' WHERE key='schema'")
    with pytest.raises(DamagedStore, match="schema version is 'abc'"):
        SQLiteStore(path, registry.codec)
    done = gamehall("serve", "--port", "0", "--db", str(path))
    assert done.returncode == 1 and len(done.stderr.strip().splitlines()) == 1
    assert "Traceback" not in done.stderr and "ValueError" not in done.stderr


def damage_a_page(path: Path) -> None:
    """Overwrite one b-tree page that holds rows, in the middle of the file (the header stays
    sound): an empty page (an index with no entry yet) would take any bytes after its
    header without harm."""
    db = sqlite3.connect(path)
    db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    page = db.execute("PRAGMA page_size").fetchone()[0]
    pages = db.execute("PRAGMA page_count").fetchone()[0]
    db.close()
    assert pages > 4
    data = bytearray(path.read_bytes())
    at = next(
        page * n
        for n in range(pages // 2, pages)
        if data[page * n] in (2, 5, 10, 13) and int.from_bytes(data[page * n + 3 : page * n + 5])
    )
    data[at + 8 : at + page] = bytes((i * 37) % 251 for i in range(page - 8))
    path.write_bytes(bytes(data))


def test_page_damage_is_refused_and_nothing_is_written(registry: Registry, tmp_path: Path) -> None:
    path = tmp_path / "pages.db"
    played(registry, path, 40)
    damage_a_page(path)
    before = digest(path)
    # quick_check finds it, or reading the schema does first, by where the page fell.
    with pytest.raises(DamagedStore, match="quick_check|malformed"):
        SQLiteStore(path, registry.codec)
    done = gamehall("serve", "--port", "0", "--db", str(path))
    assert done.returncode == 1 and len(done.stderr.strip().splitlines()) == 1
    done = gamehall("play", "tictactoe", "--db", str(path), "--seat", "1=bot")
    assert done.returncode == 1 and "damaged" in done.stderr
    assert digest(path) == before  # not one new match accepted into it
    report = gamehall("check-store", "--db", str(path))
    assert report.returncode == 1 and "integrity_check" in report.stdout
    assert "Traceback" not in report.stdout + report.stderr


# -- check-store -------------------------------------------------------------------------------


def test_check_store_passes_a_sound_store(registry: Registry, tmp_path: Path) -> None:
    path = tmp_path / "ok.db"
    played(registry, path, 3)
    done = gamehall("check-store", "--db", str(path))
    assert done.returncode == 0, done.stdout + done.stderr
    assert "ok (3 matches" in done.stdout


def test_check_store_finds_a_deleted_and_an_edited_event(
    registry: Registry, tmp_path: Path
) -> None:
    path = tmp_path / "edited.db"
    played(registry, path, 3)
    sql(path, "DELETE FROM events WHERE stream='m0' AND seq=3")
    data = (
        sqlite3.connect(path)
        .execute("SELECT data FROM events WHERE stream='m1' AND seq=4")
        .fetchone()[0]
    )
    edited = data[:-1] + bytes([(data[-1] + 1) % 9])  # another cell: still a valid event
    sql(path, "UPDATE events SET data=? WHERE stream='m1' AND seq=4", edited)
    assert main(["check-store", "--db", str(path)]) == 1
    done = gamehall("check-store", "--db", str(path))
    assert "match 'm0' seq 3: events 3 are missing" in done.stdout
    assert "match 'm1' seq 4: checksum mismatch" in done.stdout
    assert "m2" not in done.stdout  # the sound match is not reported


def test_check_store_finds_a_deleted_last_event_by_its_position(
    registry: Registry, tmp_path: Path
) -> None:
    path = tmp_path / "tail.db"
    played(registry, path, 2)
    sql(path, "DELETE FROM events WHERE stream='m0' AND seq=(SELECT max(seq) FROM events "
        "WHERE stream='m0')")  # fmt: skip
    done = gamehall("check-store", "--db", str(path))
    assert done.returncode == 1 and "global positions" in done.stdout


# -- quarantine --------------------------------------------------------------------------------


@pytest.mark.parametrize("damage", ["deleted", "edited", "retyped"])
def test_a_damaged_match_is_quarantined_and_the_others_serve(
    registry: Registry, tmp_path: Path, damage: str
) -> None:
    path = tmp_path / "q.db"
    played(registry, path, 2)
    if damage == "deleted":
        sql(path, "DELETE FROM events WHERE stream='m0' AND seq=2")
    elif damage == "edited":
        sql(path, "UPDATE events SET meta=CAST(meta || x'00' AS BLOB) WHERE stream='m0' AND seq=2")
    else:  # a payload that became text: SQLite cannot even hand it back as bytes
        sql(path, "UPDATE events SET meta=meta || x'00' WHERE stream='m0' AND seq=2")

    async def go() -> None:
        store = SQLiteStore(path, registry.codec)
        try:
            async with Hall(store, registry) as hall:
                with pytest.raises(MatchQuarantined, match="'m0' is quarantined") as caught:
                    hall.view("m0", None)
                assert "seq 2" in str(caught.value) or damage == "retyped"
                with pytest.raises(MatchQuarantined):
                    await hall.send("m0", 1, PlaceMark(cell=8))
                with pytest.raises(MatchQuarantined):
                    hall.history("m0", None)
                before = store.version("m0")
                await hall.send("m1", 1, PlaceMark(cell=8))  # the other match plays on
                assert hall.view("m1", None).seq == 7
                assert store.version("m0") == before
        finally:
            store.close()

    anyio.run(go)


@pytest.mark.parametrize("where", ["last", "middle"])
def test_a_flipped_stream_key_quarantines_the_match_and_export_refuses_it(
    registry: Registry, tmp_path: Path, where: str
) -> None:
    """One bit flipped in a row's stream key ('m0' to 'l0') takes the row out of its match:
    the match is quarantined, never served as a shorter one, and export refuses it in words."""
    path = tmp_path / "flip.db"
    played(registry, path, 2)
    last = len(MOVES) + 1
    seq = last if where == "last" else 3
    sql(path, "UPDATE events SET stream='l0' WHERE stream='m0' AND seq=?", seq)

    async def go() -> None:
        store = SQLiteStore(path, registry.codec)
        try:
            async with Hall(store, registry) as hall:
                with pytest.raises(MatchQuarantined, match="'m0' is quarantined") as caught:
                    hall.view("m0", None)
                assert f"seq {seq}" in str(caught.value) and "missing" in str(caught.value)
                with pytest.raises(MatchQuarantined):
                    await hall.send("m0", 1, PlaceMark(cell=8))
                await hall.send("m1", 1, PlaceMark(cell=8))  # the other match plays on
        finally:
            store.close()

    anyio.run(go)
    out = tmp_path / "m0.jsonl"
    store = SQLiteStore(path, registry.codec)
    try:
        with pytest.raises(CorruptRecord, match=f"seq {seq}"):
            tools.export(store, registry, "m0", None, str(out))
        assert tools.export(store, registry, "m1", None, str(tmp_path / "m1.jsonl")) == 7
    finally:
        store.close()
    assert not out.exists()
    if where == "last":  # the flip left no gap: only the recorded version tells
        done = gamehall("export", "m0", "-o", str(out), "--db", str(path))
        assert done.returncode != 0 and not out.exists() and "Traceback" not in done.stderr
        said = done.stderr + done.stdout
        assert "events after seq 5 are missing: the match was written up to seq 6" in said


def test_a_store_without_recorded_versions_gets_them_from_its_rows(
    registry: Registry, tmp_path: Path
) -> None:
    path = tmp_path / "old-streams.db"
    played(registry, path, 1)
    db = sqlite3.connect(path)
    db.execute("ALTER TABLE streams DROP COLUMN version")  # as an earlier gamehall wrote it
    db.commit()
    db.close()
    SQLiteStore(path, registry.codec).close()
    db = sqlite3.connect(path)
    assert db.execute("SELECT version FROM streams WHERE stream='m0'").fetchone() == (
        len(MOVES) + 1,
    )
    db.close()


# -- migration ---------------------------------------------------------------------------------


def test_a_schema_1_file_is_migrated_in_place(registry: Registry, tmp_path: Path) -> None:
    path = tmp_path / "old.db"
    played(registry, path, 2)
    # make it the file an earlier gamehall wrote: no crc column, schema 1
    db = sqlite3.connect(path)
    db.executescript(
        """
        CREATE TABLE old AS SELECT stream, seq, position, time, type, v, data, meta, cmd
            FROM events;
        DROP TABLE events;
        CREATE TABLE events (stream TEXT NOT NULL, seq INTEGER NOT NULL,
            position INTEGER NOT NULL, time REAL NOT NULL, type TEXT NOT NULL,
            v INTEGER NOT NULL, data BLOB NOT NULL, meta BLOB NOT NULL, cmd TEXT,
            PRIMARY KEY (stream, seq)) WITHOUT ROWID;
        INSERT INTO events SELECT * FROM old;
        DROP TABLE old;
        CREATE UNIQUE INDEX events_position ON events (position);
        UPDATE gamehall SET value='1' WHERE key='schema';
        """
    )
    db.close()
    done = gamehall("check-store", "--db", str(path))  # read-only: reads, changes nothing
    assert done.returncode == 0 and "schema 1" in done.stdout
    store = SQLiteStore(path, registry.codec)
    try:
        assert store.schema == SCHEMA_VERSION
        assert [r.seq for r in store.read("m0")] == list(range(1, 7))
        row = store._writer.execute(
            "SELECT type, v, data, meta, crc FROM events WHERE stream='m1' AND seq=3"
        ).fetchone()
        assert row[4] == checksum("m1", 3, row[0], row[1], row[2], row[3])
    finally:
        store.close()
    assert gamehall("check-store", "--db", str(path)).returncode == 0
