"""Replay's checksum loop in C (core/store/_rowcheck.c) answers as its Python twin does, for
sound streams and for every kind of damage, and the fast read gives the same match with
either of them."""

from __future__ import annotations

import random
import shutil
import sysconfig
import zlib
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import msgspec
import pytest
from gamehall.core import RandomBot, Registry, Table
from gamehall.core.store import AppendRequest, SQLiteStore, base
from gamehall.core.store import sqlite as sqlite_store

Rows = list[tuple[Any, ...]]


def _compiler() -> bool:
    """Tell whether an extension can be built here: a C compiler and Python's headers."""
    cc = (sysconfig.get_config_var("CC") or "cc").split()[0]
    headers = Path(sysconfig.get_paths()["include"]) / "Python.h"
    return shutil.which(cc) is not None and headers.is_file()


def test_the_c_loop_is_built_where_a_compiler_is() -> None:
    if not _compiler():
        pytest.skip("no C compiler or no Python headers here: the Python loop serves")
    assert base.fast_check_rows is not None, (
        "core/store/_rowcheck.c was not built: reinstall gamehall (pip install -e .)"
    )


@pytest.fixture
def fast() -> Callable[..., Any]:
    if base.fast_check_rows is None:
        pytest.skip("the C loop is not built here")
    return base.fast_check_rows


@pytest.fixture
def store(registry: Registry, tmp_path: Path) -> Iterator[SQLiteStore]:
    made = SQLiteStore(tmp_path / "rowcheck.db", registry.codec)
    yield made
    made.close()


def stored_rows(registry: Registry, store: SQLiteStore, seed: int, match: str) -> Rows:
    """Store a played tic-tac-toe match; return its rows as replay's fast path reads them."""
    table = Table.new("tictactoe", seed=seed, registry=registry)
    table.play(RandomBot(seed))
    records = table.records()
    request = AppendRequest(match, 0, [r.event for r in records], [r.meta for r in records])
    store.append_many([request])
    rows = store._reader().execute(sqlite_store._LOAD_WHOLE, (match,)).fetchall()
    return rows[1:]


def answers(
    fast: Callable[..., Any], registry: Registry, match: str, rows: Rows, events: list[Any]
) -> tuple[Any, Any]:
    """Return the C loop's and the Python loop's answers for the same rows."""
    codec = registry.codec
    start = zlib.crc32(match.encode() + b"\x00")
    c_answer = fast(rows, events, codec.row_heads, start)
    python = base._check_rows(rows, events, codec.row_heads, start)
    return c_answer, None if python is None else python[0]


def test_sound_streams_give_the_same_command_ranges(
    fast: Callable[..., Any], registry: Registry, store: SQLiteStore
) -> None:
    for seed in range(20):
        match = f"sound-{seed}"
        rows = stored_rows(registry, store, seed, match)
        events = registry.codec.decode_joined([r[0] for r in rows])
        assert events is not None
        c_answer, python = answers(fast, registry, match, rows, events)
        assert c_answer is not None and c_answer == python
        assert c_answer == store.command_ids(match)


def damaged(rows: Rows, rng: random.Random) -> tuple[Rows, str]:
    """Return a copy of the rows with one kind of damage, and its name."""
    out = [tuple(r) for r in rows]
    at = rng.randrange(len(out))
    data, meta, crc, mark = out[at]
    kind = rng.choice(
        ["crc", "crc None", "crc text", "crc big", "data byte", "meta byte", "data text",
         "meta None", "mark", "mark gone", "swap", "short row", "crc float"]
    )  # fmt: skip
    if kind == "crc":
        out[at] = (data, meta, crc ^ 1, mark)
    elif kind == "crc None":
        out[at] = (data, meta, None, mark)
    elif kind == "crc text":
        out[at] = (data, meta, str(crc), mark)
    elif kind == "crc big":
        out[at] = (data, meta, crc + (1 << 64), mark)
    elif kind == "crc float":  # equal as Python compares it: both loops accept it
        out[at] = (data, meta, float(crc), mark)
    elif kind == "data byte":
        out[at] = (bytes([data[0] ^ 1]) + data[1:], meta, crc, mark)
    elif kind == "meta byte":
        out[at] = (data, bytes([meta[0] ^ 1]) + meta[1:], crc, mark)
    elif kind == "data text":
        out[at] = (data.decode("latin-1"), meta, crc, mark)
    elif kind == "meta None":
        out[at] = (data, None, crc, mark)
    elif kind == "mark":  # the mark is not checksummed: another command id is taken as read
        out[at] = (data, meta, crc, f"other-{at}")
    elif kind == "mark gone":
        out[at] = (data, meta, crc, None)
    elif kind == "swap" and len(out) > 1:
        other = (at + 1) % len(out)
        out[at], out[other] = out[other], out[at]
    elif kind == "short row":
        out[at] = (data, meta, crc)
    return out, kind


def test_damaged_streams_get_the_same_answer_from_both_loops(
    fast: Callable[..., Any], registry: Registry, store: SQLiteStore
) -> None:
    rng = random.Random(7)
    streams = [(f"d-{seed}", stored_rows(registry, store, seed, f"d-{seed}")) for seed in range(8)]
    seen = set()
    for _ in range(600):
        match, rows = rng.choice(streams)
        bad, kind = damaged(rows, rng)
        seen.add(kind)
        events = registry.codec.decode_joined([r[0] for r in rows])
        assert events is not None
        if kind == "short row":  # no row the store reads: both raise as unpacking it does
            start = zlib.crc32(match.encode() + b"\0")
            with pytest.raises(ValueError):
                fast(bad, events, registry.codec.row_heads, start)
            with pytest.raises(ValueError):
                base._check_rows(bad, events, registry.codec.row_heads, start)
            continue
        c_answer, python = answers(fast, registry, match, bad, events)
        assert c_answer == python, kind
        if kind not in ("mark", "mark gone", "crc float"):
            assert c_answer is None, kind
    assert len(seen) == 13


def test_an_event_of_no_stored_class_and_a_wrong_stream_are_refused(
    fast: Callable[..., Any], registry: Registry, store: SQLiteStore
) -> None:
    rows = stored_rows(registry, store, 3, "k")
    events: list[Any] = registry.codec.decode_joined([r[0] for r in rows]) or []
    assert answers(fast, registry, "another", rows, events) == (None, None)
    events[2] = object()
    assert answers(fast, registry, "k", rows, events) == (None, None)


def test_long_streams_and_long_payloads_spell_their_numbers_alike(
    fast: Callable[..., Any],
) -> None:
    """Seqs and payload lengths past the precomputed decimals (1,024) take another path."""
    heads = {int: b"\x00t.E\x001\x00"}
    start = zlib.crc32(b"long\x00")
    rows = []
    rng = random.Random(3)
    for seq in range(1, 1500):
        # rows of up to 464 bytes are laid out in one piece before their checksum
        data = rng.randbytes(rng.choice([3, 40, 449, 450, 451, 1023, 1024, 5000]))
        meta = rng.randbytes(7)
        crc = base.checksum("long", seq, "t.E", 1, data, meta)
        mark = "" if seq % 5 == 1 else (f"c{seq}" if seq % 7 == 0 else None)
        rows.append((data, meta, crc, mark))
    events = list(range(len(rows)))
    python = base._check_rows(rows, events, heads, start)
    assert python is not None
    assert fast(rows, events, heads, start) == python[0]
    rows[1400] = (rows[1400][0], rows[1400][1], rows[1400][2] ^ 4, None)
    assert fast(rows, events, heads, start) is None
    assert base._check_rows(rows, events, heads, start) is None


def test_the_crc32_of_the_c_loop_is_zlibs(fast: Callable[..., Any]) -> None:
    from gamehall.core.store._rowcheck import crc32

    rng = random.Random(11)
    # short runs go the table way; from 64 bytes on, whole sixteens are folded where the CPU
    # multiplies without carries, and the bytes after them go the table way
    for size in [*range(300), 1000, 4097, 65536 + 7]:
        data, value = rng.randbytes(size), rng.getrandbits(32)
        assert crc32(data, value) == zlib.crc32(data, value), size


def test_the_fast_read_is_the_same_without_the_c_loop(
    registry: Registry, store: SQLiteStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    for seed in range(6):
        stored_rows(registry, store, seed, f"w{seed}")
    monkeypatch.setattr(store, "_fast", False)  # the statement through sqlite3, checked here
    with_c = [store.load_stream(f"w{seed}") for seed in range(6)]
    monkeypatch.setattr(base, "fast_check_rows", None)
    without = [store.load_stream(f"w{seed}") for seed in range(6)]
    for a, b in zip(with_c, without, strict=True):
        assert (a.first, a.events, a.commands, a.last, a.plain) == (
            b.first, b.events, b.commands, b.last, b.plain
        )  # fmt: skip


def test_joined_payloads_are_the_array_the_python_path_decodes(
    fast: Callable[..., Any], registry: Registry, store: SQLiteStore
) -> None:
    from gamehall.core.store._rowcheck import joined_payloads

    rows = stored_rows(registry, store, 5, "j")
    codec = registry.codec
    joined = joined_payloads(rows)
    assert joined is not None
    assert codec.decode_array(joined) == codec.decode_joined([r[0] for r in rows])
    for count in (0, 1, 15, 16, 17, 65_535, 65_536):  # each size of the array's head
        many = [(b"\xc0", b"", 0, None)] * count
        expected = msgspec.msgpack.encode([None] * count)
        assert joined_payloads(many) == expected, count
    assert joined_payloads([*rows, ("text", b"", 0, None)]) is None
    assert joined_payloads([*rows, [b"\xc0"]]) is None  # not a row the store reads


def _encoded_batches(seed: int) -> list[tuple[int, Any]]:
    """Rounds of batches as PostgreSQL's append takes them, with every kind of text in them."""
    from gamehall.core.store.base import Encoded

    rng = random.Random(seed)
    texts = ["m1", 'quo"te', "back\\slash", "ünïcødé ♞", "", "a,b{c}", "NULL", " space "]
    batches = []
    for index in range(rng.randint(0, 12)):
        rows = [
            (
                rng.choice(texts),
                rng.randint(0, 3),
                rng.randbytes(rng.randint(0, 40)),
                rng.randbytes(rng.randint(0, 40)),
                rng.choice([None, "", "cmd-1", 'x"y\\z']),
                rng.getrandbits(32),
            )
            for _ in range(rng.randint(0, 4))
        ]
        deadline = rng.choice([None, msgspec.UNSET, 1_700_000_000.25, 1e-7, 12.0])
        stream = f"{rng.choice(texts)}{index}"
        batches.append((index, Encoded(stream, rng.randint(0, 2**40), rows, deadline=deadline)))
    return batches


def test_the_append_arrays_in_c_are_the_python_ones(fast: Callable[..., Any]) -> None:
    from gamehall.core.store import postgres
    from gamehall.core.store._rowcheck import append_arrays

    for seed in range(200):
        batches = _encoded_batches(seed)
        assert append_arrays(batches) == postgres.row_arrays(batches), seed
    assert append_arrays([]) == postgres.row_arrays([]) == ("{}",) * 12


# The element type of each of the twelve arrays, in append_arrays' order.
_ARRAY_TYPES = ["text", "bigint", "integer", "integer", "integer", "text", "integer", "bytea",
                "bytea", "text", "bigint", "double precision"]  # fmt: skip


def test_the_append_arrays_in_binary_are_what_the_server_reads_of_the_text(
    fast: Callable[..., Any],
) -> None:
    """The journal sends the batches' arrays in PostgreSQL's binary format: the server reads
    each as the same array as its literal (every kind of text, NULLs, NaN, empty arrays)."""
    import psycopg
    from gamehall.core.store._rowcheck import append_arrays
    from psycopg import pq

    from tests.postgres import BASE_URL, need_postgres

    need_postgres()
    with psycopg.connect(BASE_URL) as db:
        for seed in [*range(100), -1]:
            batches = _encoded_batches(seed) if seed >= 0 else []
            texts, binary = append_arrays(batches), append_arrays(batches, True)
            for k, kind in enumerate(_ARRAY_TYPES):
                query = f"SELECT $1::{kind}[] IS NOT DISTINCT FROM $2::{kind}[]".encode()
                found = db.pgconn.exec_params(query, [texts[k].encode(), binary[k]], None, [0, 1])
                assert found.status == pq.ExecStatus.TUPLES_OK, found.get_error_message()
                assert found.get_value(0, 0) == b"t", (seed, kind, texts[k])
    too_large = [(0, base.Encoded("s", 1, [("t", 2**31, b"", b"", None, 0)]))]
    assert append_arrays(too_large)[6] == "{2147483648}"  # the server refuses it, naming it
    with pytest.raises(OverflowError):  # the store then sends it as text
        append_arrays(too_large, True)


def test_the_append_arrays_in_c_refuse_what_python_refuses(fast: Callable[..., Any]) -> None:
    from gamehall.core.store import postgres
    from gamehall.core.store._rowcheck import append_arrays
    from gamehall.core.store.base import Encoded

    lone = Encoded("bad\udc80", 1, [("t", 1, b"", b"", None, 0)])
    with pytest.raises(UnicodeEncodeError):  # at once: what the store answers as not UTF-8
        append_arrays([(0, lone)])
    with pytest.raises(UnicodeEncodeError):  # Python's when the arguments are sent
        [text.encode() for text in postgres.row_arrays([(0, lone)])]
    with pytest.raises(TypeError, match="bytes expected"):
        append_arrays([(0, Encoded("s", 1, [("t", 1, "text", b"", None, 0)]))])
    with pytest.raises(TypeError, match="six items"):
        append_arrays([(0, Encoded("s", 1, [("t", 1, b"")]))])
    with pytest.raises(TypeError, match="index, batch"):
        append_arrays([Encoded("s", 1, [])])
    with pytest.raises(AttributeError, match="stream"):  # not a batch at all
        append_arrays([(0, object())])


@pytest.mark.parametrize("game", ["tictactoe", "gunsen", "river-of-gold", "toy-battle"])
def test_rows_encoded_in_c_are_the_python_ones(fast: Callable[..., Any], game: str) -> None:
    from gamehall.core import default_registry
    from gamehall.core.events import Meta
    from gamehall.core.store._rowcheck import encode_rows

    registry = default_registry()
    codec = registry.codec
    table = Table.new(game, seed=3, registry=registry)
    table.play(RandomBot(3))
    records = table.records()[:60]
    events = [r.event for r in records]
    metas = [r.meta for r in records]
    metas[-1] = Meta("cid-1", 0, metas[0].command)  # a command id as well as none
    metas[-2] = Meta("", 1, metas[0].command)  # an empty id: the mark of no id
    for expected in (0, 7, 2**40):
        start = zlib.crc32(f"m-{expected}\x00".encode())
        args = (start, expected, events, metas, codec.tags)
        coders = (codec.encode_event, codec.encode_meta)
        made = encode_rows(*args, codec.row_heads, *coders)
        assert made == base.encode_rows(*args, *coders)
        for seq, (tag, version, data, meta, _, crc) in enumerate(made, expected + 1):
            assert crc == base.checksum(f"m-{expected}", seq, tag, version, data, meta)
    assert encode_rows(1, 0, (), (), codec.tags, codec.row_heads, *coders) == []


def test_the_c_encoder_refuses_what_the_python_one_refuses(fast: Callable[..., Any]) -> None:
    from gamehall.core import default_registry
    from gamehall.core.events import Meta
    from gamehall.core.store._rowcheck import encode_rows
    from gamehall.plugins.tictactoe.events import MarkPlaced

    codec = default_registry().codec
    coders = (codec.encode_event, codec.encode_meta)
    known = [MarkPlaced(seat=0, cell=1)]
    for build in (
        lambda *a: encode_rows(*a[:5], codec.row_heads, *a[5:]),
        base.encode_rows,
    ):
        with pytest.raises(KeyError):  # a class no plugin declares
            build(0, 0, [object()], [Meta()], codec.tags, *coders)
        with pytest.raises(ValueError):  # not as many metadata as events
            build(0, 0, known, [], codec.tags, *coders)


def test_a_store_encodes_alike_with_and_without_the_c_encoder(
    registry: Registry, store: SQLiteStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    table = Table.new("tictactoe", seed=8, registry=registry)
    table.play(RandomBot(8))
    records = table.records()
    requests = [
        AppendRequest("e", 0, [r.event for r in records], [r.meta for r in records]),
        AppendRequest("t", 2, tuple(r.event for r in records), tuple(r.meta for r in records)),
        AppendRequest("bad", 0, [object()], [records[0].meta]),  # type: ignore[list-item]
    ]
    with_c = store.encode(requests)
    monkeypatch.setattr(base, "fast_encode_rows", None)
    without = store.encode(requests)
    assert without[:2] == with_c[:2]
    assert (
        str(without[2])
        == str(with_c[2])
        == ("cannot store <class 'object'>: no loaded plugin declares it")
    )
