"""The engine's figures: playouts, durable commands, replay and memory (targets in TARGETS).

Every ratio compares two things measured in this same run, round by round (interleaved, so a
burst of other work slows both sides of a round), and is reported as the median of the rounds'
ratios with their min and max:

* ``playouts.vs_bare``: bare random tic-tac-toe games/s ÷ ``Table`` games/s (target <= 2);
  ``playouts.rules_alone_vs_bare`` is the same for the tic-tac-toe rules driven by a bare loop
  (no Table, no log, no checks): the floor of ``vs_bare``; ``playouts.table_vs_rules_alone``
  is what ``Table`` itself adds (reported);
* ``durable.vs_eventsourcing`` and ``durable.vs_raw``: Hall commands/s on SQLite (100 matches
  at once, default durability) ÷ events/s saved by ``eventsourcing`` / raw batched inserts
  (targets >= 10 and >= 0.5), over ``ROUNDS`` interleaved rounds;
* ``durable.scale_10k_vs_peak``: Hall commands/s with 10,000 matches at once ÷ the best of
  100, 1,000 and 10,000 in the same round (target >= 0.9), with the garbage collector policy
  ``gamehall serve`` applies (:mod:`gamehall.core.runtime`); ``..._python_gc`` is the same with
  Python's default thresholds (reported, to show what the policy buys);
* ``durable.scale_10k_vs_peak_c_allocator`` and ``durable.c_allocator_vs_python_10k``: the
  scale rounds in processes on the C library's allocator, which ``gamehall serve`` runs on by
  default, and its commands/s at 10,000 matches ÷ Python's allocator's in the same round
  (reported);
* ``durable.uvloop_vs_asyncio``: the same Hall commands on uvloop ÷ on asyncio, interleaved
  with the rounds above (reported: it decides whether uvloop should be the default);
* ``replay.vs_raw`` and ``replay.vs_eventsourcing``: events/s rebuilding finished matches
  (``Hall.load_many``, as ``check-store --replay`` does: 500 matches in one read transaction)
  ÷ SELECT + decode of the same rows in the same transactions / ``eventsourcing`` replaying
  the same events (targets >= 0.5 and >= 20); ``replay.activation_vs_raw`` is the same for
  matches rebuilt one by one as activations read them, each in a read of its own (reported);
* ``memory.active_match_bytes`` / ``memory.idle_match_bytes``: traced bytes per match of a
  Hall holding 10,000 played matches, active and then passivated (targets <= 6,000 and
  <= 300: an actor at rest owns no task and no queue);
* ``durable.checksum_us_per_event``, ``durable.checksum_share`` and ``replay.checksum_share``:
  the CRC-32 every stored row carries, its cost per event and its share of the time of a
  durable command and of replaying an event (it is checked on every read, by the C loop of
  ``core/store/_rowcheck.c`` where it was built: ``replay.check_us_per_event``) (reported);
* ``store.quick_check_1gib_s`` / ``store.integrity_check_1gib_s``: SQLite's checks on a 1 GiB
  store of events (``quick`` builds 32 MiB and scales up), which decide whether opening a
  store can afford ``quick_check`` (reported).
"""

from __future__ import annotations

import contextlib
import functools
import gc
import json
import os
import random
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
import tracemalloc
import zlib
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import anyio
import msgspec
from gamehall.core import Context, Meta, RandomBot, Table, default_registry
from gamehall.core.hall import Hall
from gamehall.core.runtime import apply_gc_policy, loop_options, parse_gc_policy
from gamehall.core.store import AppendRequest, SQLiteStore

from . import Figure, describe, interleaved, ratio
from .bare_tictactoe import play as bare_play
from .clients import play_all

TARGETS = {
    "playouts.vs_bare": ("<=", 2.0),
    "durable.vs_eventsourcing": (">=", 10.0),
    "durable.vs_raw": (">=", 0.5),
    "durable.scale_10k_vs_peak": (">=", 0.9),
    "replay.vs_raw": (">=", 0.5),
    "replay.vs_eventsourcing": (">=", 20.0),
    "activation.cold_load_p99_ratio": ("<=", 2.0),
    "memory.active_match_bytes": ("<=", 6_000.0),
    "memory.idle_match_bytes": ("<=", 300.0),
}
SYNCHRONOUS = "FULL"  # the Hall's default durability; every store here uses the same
ROUNDS = 9  # interleaved rounds of the durable comparison: its ratio's spread is reported


def _rate(fn: Callable[[], tuple[int, float]]) -> Callable[[], float]:
    def once() -> float:
        count, seconds = fn()
        return count / seconds

    return once


# -- playouts ----------------------------------------------------------------------------------


def bare_games(n: int) -> tuple[int, float]:
    rng = random.Random(1)
    started = time.perf_counter()
    for _ in range(n):
        bare_play(rng)
    return n, time.perf_counter() - started


def rules_games(n: int) -> tuple[int, float]:
    """Play random games with the tic-tac-toe rules alone: no Table, no log, no checks.

    The floor of any runner over these rules: ``Table`` games/s can come no nearer to the
    bare games than this.
    """
    ruleset = default_registry().ruleset("tictactoe")
    rules = ruleset.rules
    config = ruleset.config(ruleset.started(None, None, None, 0))
    initial, awaiting, legal, decide, evolve = (
        rules.initial, rules.awaiting, rules.legal, rules.decide, rules.evolve
    )  # fmt: skip
    choice = random.Random(1).choice
    started = time.perf_counter()
    for _ in range(n):
        state = initial(config)
        while asked := awaiting(state):
            seat = next(iter(asked))
            for event in decide(state, choice(legal(state, seat)), Context(seat, 1, 0)):
                state = evolve(state, event)
    return n, time.perf_counter() - started


def table_games(n: int) -> tuple[int, float]:
    registry = default_registry()
    bot = RandomBot(1)
    started = time.perf_counter()
    for seed in range(n):
        Table.new("tictactoe", seed=seed, registry=registry).play(bot)
    return n, time.perf_counter() - started


# -- durable commands ------------------------------------------------------------------------


def hall_commands(
    folder: Path, matches: int, rounds: int, loop: str = "asyncio"
) -> tuple[int, float]:
    """Play ``rounds`` x ``matches`` tic-tac-toe matches at once; time the commands only."""
    path = folder / f"hall-{time.monotonic_ns()}.db"
    registry = default_registry()
    store = SQLiteStore(path, registry.codec, synchronous=SYNCHRONOUS)
    counted = [0, 0.0]

    async def create(hall: Hall, seed: int, into: list[str]) -> None:
        into.append(await hall.create("tictactoe", seed=seed))

    async def main() -> None:
        async with Hall(store, registry) as hall:
            for r in range(rounds):
                ids: list[str] = []
                async with anyio.create_task_group() as tg:
                    for i in range(matches):
                        tg.start_soon(create, hall, r * matches + i, ids)
                sent, seconds = await play_all(hall, ids)
                counted[0] += sent
                counted[1] += seconds

    try:
        anyio.run(main, **loop_options(loop))
    finally:
        store.close()
    return int(counted[0]), float(counted[1])


def raw_inserts(folder: Path, batches: int) -> tuple[int, float]:
    """Insert encoded events, 100 rows a transaction over 100 streams, into the same table."""
    registry = default_registry()
    from gamehall.plugins.tictactoe.commands import PlaceMark
    from gamehall.plugins.tictactoe.events import MarkPlaced

    path = folder / f"raw-{time.monotonic_ns()}.db"
    db = sqlite3.connect(path, isolation_level=None)
    db.execute("PRAGMA journal_mode=WAL")
    db.execute(f"PRAGMA synchronous={SYNCHRONOUS}")
    from gamehall.core.store.sqlite import SCHEMA

    db.executescript(SCHEMA)
    data = registry.codec.encode_event(MarkPlaced(seat=0, cell=4))
    meta = registry.codec.encode_meta(Meta("c", 0, PlaceMark(cell=4)))
    streams = [f"s{i:03d}" for i in range(100)]
    position = 0
    started = time.perf_counter()
    for seq in range(1, batches + 1):
        rows = [
            (s, seq, position + i + 1, time.time(), "tictactoe.MarkPlaced", 1, data, meta, "c", 0)
            for i, s in enumerate(streams)
        ]
        position += len(rows)
        db.execute("BEGIN")
        db.executemany("INSERT INTO events VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", rows)
        db.execute("COMMIT")
    seconds = time.perf_counter() - started
    db.close()
    return batches * 100, seconds


def _es_app(path: Path) -> Any:
    from eventsourcing.application import Application

    app = Application(
        env={"PERSISTENCE_MODULE": "eventsourcing.sqlite", "SQLITE_DBNAME": str(path)}
    )
    # eventsourcing leaves SQLite's default in place, FULL: the same as the Hall's default.
    with app.recorder.datastore.transaction(commit=False) as cursor:
        cursor.execute("PRAGMA synchronous")
        level = cursor.fetchone()[0]
    if level != 2:
        raise RuntimeError(f"eventsourcing runs with synchronous={level}, not FULL")
    return app


@functools.cache
def _es_match() -> type:
    from eventsourcing.domain import Aggregate, event

    class Match(Aggregate):  # type: ignore[misc]
        @event("Started")
        def __init__(self) -> None:
            self.cells: list[int] = []

        @event("MarkPlaced")
        def place(self, seat: int, cell: int) -> None:
            self.cells.append(cell)

    return Match


def eventsourcing_saves(folder: Path, matches: int) -> tuple[int, float]:
    """Save tic-tac-toe events one by one, as ``eventsourcing`` applications do."""
    match_type = _es_match()
    app = _es_app(folder / f"es-{time.monotonic_ns()}.db")
    games = [match_type() for _ in range(matches)]
    for game in games:
        app.save(game)
    started = time.perf_counter()
    count = 0
    for move in range(8):
        for game in games:
            game.place(seat=move % 2, cell=move)
            app.save(game)
            count += 1
    return count, time.perf_counter() - started


@contextlib.contextmanager
def gc_policy(name: str) -> Iterator[None]:
    """Run with a server's garbage collector policy, then restore Python's defaults."""
    before = gc.get_threshold()
    apply_gc_policy(parse_gc_policy(name))
    try:
        yield
    finally:
        gc.unfreeze()
        gc.set_threshold(*before)


SCALE = (100, 1000, 10_000)


def scale_rounds(folder: Path, sizes: tuple[int, ...], rounds: int) -> list[float]:
    """Return, round by round, commands/s at the largest size ÷ the best of all sizes.

    Every size plays as many matches as the largest (100 at once, 100 times over): one
    hundredth of the commands took a few tens of milliseconds, and the best of such short
    timings was more often a lucky one than the size's pace."""
    out = []
    for _ in range(rounds):
        rates = {n: scaled_rate(folder, n, sizes[-1]) for n in sizes}
        print(
            "  scale: " + ", ".join(f"{n:,}: {r:,.0f}/s" for n, r in rates.items()),
            file=sys.stderr,
        )
        out.append(rates[sizes[-1]] / max(rates.values()))
    return out


def scaled_rate(folder: Path, matches: int, largest: int) -> float:
    """Commands/s of ``matches`` at once, as many in all as ``largest`` at once plays."""
    return _rate(lambda: hall_commands(folder, matches, max(largest // matches, 1)))()


def allocator_rounds(folder: Path, sizes: tuple[int, ...], rounds: int) -> dict[str, list[float]]:
    """Play the scale rounds in processes on each allocator in turn (Python's, and the C
    library's that ``gamehall serve`` runs on by default: set before a process starts).
    Return, round by round, the C allocator's ``scale_10k_vs_peak`` and its commands/s at the
    largest size ÷ Python's in the same round."""
    code = (
        "import json, sys\n"
        "from pathlib import Path\n"
        "import bench.bench_core as b\n"
        "sizes = [int(n) for n in sys.argv[2:]]\n"
        "with b.gc_policy('server'):\n"
        "    print(json.dumps({n: b.scaled_rate(Path(sys.argv[1]), n, max(sizes)) for n in sizes}))"
    )
    out: dict[str, list[float]] = {"c_scale": [], "c_vs_python": []}
    for _ in range(rounds):
        rates = {}
        for name, allocator in (("python", "pymalloc"), ("c", "malloc")):
            env = {**os.environ, "PYTHONMALLOC": allocator}
            done = subprocess.run(
                [sys.executable, "-c", code, str(folder), *map(str, sizes)],
                env=env, capture_output=True, text=True, check=True,
                cwd=Path(__file__).resolve().parents[1],
            )  # fmt: skip
            rates[name] = {int(k): v for k, v in json.loads(done.stdout).items()}
        largest = sizes[-1]
        print(
            "  allocators at "
            + ", ".join(f"{n:,}: python {rates['python'][n]:,.0f}/s c {rates['c'][n]:,.0f}/s"
                        for n in sizes),
            file=sys.stderr,
        )  # fmt: skip
        out["c_scale"].append(rates["c"][largest] / max(rates["c"].values()))
        out["c_vs_python"].append(rates["c"][largest] / rates["python"][largest])
    return out


# -- replay ----------------------------------------------------------------------------------


def finished_matches(path: Path, count: int) -> tuple[list[str], int]:
    """Store ``count`` finished tic-tac-toe matches; return their ids and the event total."""
    registry = default_registry()
    store = SQLiteStore(path, registry.codec, synchronous="OFF")
    bot = RandomBot(3)
    ids, total = [], 0
    from gamehall.core.store import AppendRequest

    requests = []
    for i in range(count):
        table = Table.new("tictactoe", seed=i, registry=registry)
        table.play(bot)
        records = table.records()
        match = f"m{i:06d}"
        ids.append(match)
        total += len(records)
        requests.append(
            AppendRequest(match, 0, [r.event for r in records], [r.meta for r in records])
        )
        if len(requests) == 500:
            store.append_many(requests)
            requests = []
    if requests:
        store.append_many(requests)
    store.close()
    return ids, total


def hall_replay(path: Path, ids: list[str], events: int) -> tuple[int, float]:
    """Rebuild every match as ``check-store --replay`` does (``Hall.load_many``: each match
    as an activation reads, checks and folds it, 500 of them in one read transaction)."""
    registry = default_registry()
    store = SQLiteStore(path, registry.codec)
    hall = Hall(store, registry)
    started = time.perf_counter()
    for _, loaded in hall.load_many(ids):
        if isinstance(loaded, Exception):
            raise loaded
    seconds = time.perf_counter() - started
    store.close()
    return events, seconds


def hall_activations(path: Path, ids: list[str], events: int) -> tuple[int, float]:
    """Rebuild every match as the Hall activates one (snapshot check, one read, fold), each
    in a read transaction of its own."""
    registry = default_registry()
    store = SQLiteStore(path, registry.codec)
    hall = Hall(store, registry)
    started = time.perf_counter()
    for match in ids:
        hall.load(match)
    seconds = time.perf_counter() - started
    store.close()
    return events, seconds


def raw_replay(path: Path, ids: list[str], events: int) -> tuple[int, float]:
    """SELECT the same rows per match and decode each payload with msgspec, the matches in
    read transactions of 500 as ``hall_replay`` reads them."""
    registry = default_registry()
    decoders = {
        tag: msgspec.msgpack.Decoder(cls) for tag, cls in registry.codec.event_types.items()
    }
    db = sqlite3.connect(path, isolation_level=None)
    started = time.perf_counter()
    count = 0
    for start in range(0, len(ids), 500):
        db.execute("BEGIN")
        for match in ids[start : start + 500]:
            for tag, data in db.execute(
                "SELECT type, data FROM events WHERE stream=? ORDER BY seq", (match,)
            ):
                decoders[tag].decode(data)
                count += 1
        db.execute("COMMIT")
    seconds = time.perf_counter() - started
    db.close()
    return count, seconds


def eventsourcing_replay(folder: Path, matches: int) -> tuple[int, float]:
    """Replay tic-tac-toe aggregates of 9-10 events with ``eventsourcing``."""
    match_type = _es_match()
    app = _es_app(folder / f"es-replay-{time.monotonic_ns()}.db")
    ids = []
    for i in range(matches):
        game = match_type()
        for move in range(8 + i % 2):
            game.place(seat=move % 2, cell=move)
        app.save(game)
        ids.append(game.id)
    started = time.perf_counter()
    count = 0
    for game_id in ids:
        count += len(app.repository.get(game_id).cells) + 1
    return count, time.perf_counter() - started


# -- memory ----------------------------------------------------------------------------------


def match_memory(folder: Path, count: int) -> tuple[float, float]:
    """Return bytes per active match and per idle (passivated) match in a running Hall."""
    registry = default_registry()
    store = SQLiteStore(folder / f"mem-{time.monotonic_ns()}.db", registry.codec, synchronous="OFF")
    figures: list[float] = []

    async def main() -> None:
        # every match stays active however many there are: the figure is per active match
        async with Hall(store, registry, idle_seconds=3600, max_active=count + 1) as hall:
            gc.collect()
            tracemalloc.start()
            base = tracemalloc.get_traced_memory()[0]
            ids = [await hall.create("tictactoe", seed=i) for i in range(count)]
            for match in ids:
                await hall.send(match, 0, {"type": "tictactoe.PlaceMark", "cell": 4})
            gc.collect()
            active = tracemalloc.get_traced_memory()[0] - base
            hall.passivate()
            while hall.active:
                await anyio.sleep(0.01)
            await anyio.sleep(0.05)
            gc.collect()
            idle = tracemalloc.get_traced_memory()[0] - base
            tracemalloc.stop()
            figures.extend([active / count, max(idle, 0) / count])

    try:
        anyio.run(main)
    finally:
        store.close()
    return figures[0], figures[1]


# -- checks ------------------------------------------------------------------------------------


def checksum_us(registry: Any, rows: int = 20_000) -> float:
    """Return the microseconds the row checksum takes per tic-tac-toe event (median of 3)."""
    from gamehall.core.store.base import checksum

    table = Table.new("tictactoe", seed=1, registry=registry)
    table.play(RandomBot(1))
    codec = registry.codec
    sample = [
        (codec.tags[type(r.event)], codec.encode_event(r.event), codec.encode_meta(r.meta))
        for r in table.records()
    ]
    times = []
    for _ in range(3):
        started = time.perf_counter()
        for i in range(rows):
            (tag, version), data, meta = sample[i % len(sample)]
            checksum("0123456789abcdef", i, tag, version, data, meta)
        times.append((time.perf_counter() - started) / rows * 1e6)
    return statistics.median(times)


def replay_check_us(registry: Any, rounds: int = 2_000) -> float:
    """Return the microseconds replay's row check takes per tic-tac-toe event, as activation
    runs it (the C loop where it was built, else the Python one) (median of 3)."""
    from gamehall.core.store import base

    table = Table.new("tictactoe", seed=1, registry=registry)
    table.play(RandomBot(1))
    codec, stream = registry.codec, "0123456789abcdef"
    records = table.records()
    rows = []
    for r in records:  # as the store reads them: payload, metadata, checksum, command mark
        data, meta = codec.encode_event(r.event), codec.encode_meta(r.meta)
        crc = base.checksum(stream, r.seq, *codec.tags[type(r.event)], data, meta)
        rows.append((data, meta, crc, None if r.meta.command is None else r.meta.command_id or ""))
    events = [r.event for r in records]
    start = zlib.crc32(stream.encode() + b"\x00")
    fast = base.fast_check_rows
    times = []
    for _ in range(3):
        started = time.perf_counter()
        for _ in range(rounds):
            if fast is not None:
                answer: Any = fast(rows, events, codec.row_heads, start)
            else:
                answer = base._check_rows(rows, events, codec.row_heads, start)
            assert answer is not None
        times.append((time.perf_counter() - started) / rounds / len(rows) * 1e6)
    return statistics.median(times)


def check_seconds(folder: Path, size: int) -> tuple[float, float, int]:
    """Build a store of ``size`` bytes of events; time quick_check and integrity_check."""
    path = folder / "checked.db"
    db = sqlite3.connect(path, isolation_level=None)
    db.execute("PRAGMA journal_mode=WAL")
    db.execute("PRAGMA synchronous=OFF")
    store = SQLiteStore(folder / "schema.db", default_registry().codec)
    schema = store._writer.execute(
        "SELECT sql FROM sqlite_master WHERE name IN ('events', 'events_position')"
    ).fetchall()
    store.close()
    for (statement,) in schema:
        db.execute(statement)
    data, meta, position, match = os.urandom(60), os.urandom(30), 0, 0
    while path.stat().st_size < size:
        rows = []
        for _ in range(1000):
            match += 1
            for seq in range(1, 11):
                position += 1
                row = (f"{match:016x}", seq, position, 1.0, "t.E", 1, data, meta, None, 0)
                rows.append(row)
        db.execute("BEGIN")
        db.executemany("INSERT INTO events VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", rows)
        db.execute("COMMIT")
        db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    db.close()
    built = path.stat().st_size
    out = []
    for pragma in ("quick_check", "integrity_check"):
        db = sqlite3.connect(path)
        started = time.perf_counter()
        assert db.execute(f"PRAGMA {pragma}").fetchone()[0] == "ok"
        out.append(time.perf_counter() - started)
        db.close()
    path.unlink()
    return out[0], out[1], built


# -- the run ---------------------------------------------------------------------------------


def run(quick: bool) -> dict[str, float]:
    """Measure every figure; ``quick`` shrinks the sizes for the test suite."""
    sizes = (
        {
            "games": 300,
            "rounds": 1,
            "matches": 100,
            "raw": 5,
            "es": 20,
            "replay": 200,
            "memory": 200,
        }
        if quick
        else {
            "games": 20_000,
            "rounds": 10,
            "matches": 100,
            "raw": 100,
            "es": 100,
            "replay": 10_000,
            "memory": 10_000,
        }
    )
    out: dict[str, float] = {}
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        games = sizes["games"]
        played = interleaved(
            {
                "bare": _rate(lambda: bare_games(games)),
                "table": _rate(lambda: table_games(games)),
                "rules": _rate(lambda: rules_games(games)),
            },
            1 if quick else 5,
        )
        out["playouts.tictactoe.bare_games_per_s"] = Figure(played["bare"])
        out["playouts.tictactoe.table_games_per_s"] = Figure(played["table"])
        out["playouts.vs_bare"] = ratio(played["bare"], played["table"])
        out["playouts.rules_alone_vs_bare"] = ratio(played["bare"], played["rules"])
        out["playouts.table_vs_rules_alone"] = ratio(played["rules"], played["table"])

        parts = {
            "hall": _rate(lambda: hall_commands(folder, sizes["matches"], sizes["rounds"])),
            "raw": _rate(lambda: raw_inserts(folder, sizes["raw"])),
        }
        if _has_eventsourcing():
            parts["es"] = _rate(lambda: eventsourcing_saves(folder, sizes["es"]))
        if _has_uvloop():
            parts["uvloop"] = _rate(
                lambda: hall_commands(folder, sizes["matches"], sizes["rounds"], "uvloop")
            )
        with gc_policy("server"):
            durable = interleaved(parts, 1 if quick else ROUNDS)
            scale = SCALE if not quick else (10, 100)
            scaled = scale_rounds(folder, scale, 1 if quick else 3)
        hall = Figure(durable["hall"])
        out["durable.hall_commands_per_s"] = hall
        out["durable.raw_inserts_per_s"] = Figure(durable["raw"])
        out["durable.vs_raw"] = ratio(durable["hall"], durable["raw"])
        if "es" in durable:
            out["durable.eventsourcing_events_per_s"] = Figure(durable["es"])
            out["durable.vs_eventsourcing"] = ratio(durable["hall"], durable["es"])
        if "uvloop" in durable:
            out["durable.uvloop_vs_asyncio"] = ratio(durable["uvloop"], durable["hall"])
        out["durable.scale_10k_vs_peak"] = Figure(scaled)
        if not quick:
            allocators = allocator_rounds(folder, SCALE, 2)
            out["durable.scale_10k_vs_peak_c_allocator"] = Figure(allocators["c_scale"])
            out["durable.c_allocator_vs_python_10k"] = Figure(allocators["c_vs_python"])
        out["durable.scale_10k_vs_peak_python_gc"] = Figure(
            scale_rounds(folder, scale, 1 if quick else 2)
        )

        path = folder / "replay.db"
        ids, events = finished_matches(path, sizes["replay"])
        replay_parts = {
            "hall": _rate(lambda: hall_replay(path, ids, events)),
            "raw": _rate(lambda: raw_replay(path, ids, events)),
            "activations": _rate(lambda: hall_activations(path, ids, events)),
        }
        if _has_eventsourcing():
            es_matches = min(sizes["replay"], 2000)
            replay_parts["es"] = _rate(lambda: eventsourcing_replay(folder, es_matches))
        replayed = interleaved(replay_parts, 3)
        rebuilt = Figure(replayed["hall"])
        out["replay.hall_events_per_s"] = rebuilt
        out["replay.raw_events_per_s"] = Figure(replayed["raw"])
        out["replay.vs_raw"] = ratio(replayed["hall"], replayed["raw"])
        out["replay.activation_events_per_s"] = Figure(replayed["activations"])
        out["replay.activation_vs_raw"] = ratio(replayed["activations"], replayed["raw"])
        if "es" in replayed:
            out["replay.eventsourcing_events_per_s"] = Figure(replayed["es"])
            out["replay.vs_eventsourcing"] = ratio(replayed["hall"], replayed["es"])

        per_event = checksum_us(default_registry())
        out["durable.checksum_us_per_event"] = per_event
        out["durable.checksum_share"] = per_event * 1e-6 * hall
        checked = replay_check_us(default_registry())  # checked on every read
        out["replay.check_us_per_event"] = checked
        out["replay.checksum_share"] = checked * 1e-6 * rebuilt
        gib = 2**30
        quick_check, integrity, built = check_seconds(folder, gib // 32 if quick else gib)
        out["store.quick_check_1gib_s"] = quick_check * gib / built
        out["store.integrity_check_1gib_s"] = integrity * gib / built

        active, idle = match_memory(folder, sizes["memory"])
        out["memory.active_match_bytes"] = active
        out["memory.idle_match_bytes"] = idle

        long, spell = (2_000, 0.5) if quick else (100_000, 1.0)
        pairs = 1 if quick else 6
        cold_ratio, cold_s = cold_load_ratio(folder, long, 50, spell, pairs=pairs)
        out["activation.cold_load_p99_ratio"] = cold_ratio
        out["activation.cold_load_s"] = cold_s
        full_ratio, full_s = cold_load_ratio(folder, long, 50, spell, False, pairs)
        out["activation.cold_full_fold_p99_ratio"] = full_ratio
        out["activation.cold_full_fold_s"] = full_s
    return out


def cold_load_ratio(
    folder: Path, events: int, busy: int, seconds: float, snapshot: bool = True, pairs: int = 3
) -> tuple[float, float]:
    """Return the p99 command latency of ``busy`` matches played at once while a match of
    ``events`` events is activated cold, over the p99 of the same play without it; and the
    seconds the activation took.

    Both runs play for ``seconds`` on one hall, ``pairs`` times in turn, and the p99 of all
    the latencies of each kind is taken; the long match is activated (passivated first, so
    each activation reads it again) again and again during the second of each pair. With
    ``snapshot`` the match has the snapshot the hall keeps (every 200 events), as a match
    the hall played would; without, it is read and folded whole (in chunks on the loop).
    """
    from gamehall.plugins.tictactoe.commands import PlaceMark
    from gamehall.plugins.tictactoe.events import MarkPlaced

    registry = default_registry()
    ruleset = registry.ruleset("tictactoe")
    store = SQLiteStore(folder / "cold.db", registry.codec, synchronous="OFF")
    started = ruleset.started(None, None, None, 1)
    log = [MarkPlaced(seat=i % 2, cell=i % 9) for i in range(events - 1)]
    metas = [Meta(versions=ruleset.versions)] + [
        Meta(f"c{i}", i % 2, PlaceMark(cell=i % 9)) for i in range(events - 1)
    ]
    store.append_many([AppendRequest("long", 0, [started, *log], metas)])
    if snapshot:
        from gamehall.core import engine
        from gamehall.core.store import Snapshot

        at = events - events % 200
        state = engine.fold(ruleset, engine.initial_state(ruleset, started), log[: at - 1])
        key = Hall.snapshot_key(ruleset)
        store.save_snapshot(Snapshot("long", at, key, msgspec.msgpack.encode(state)))
    loads: list[float] = []

    async def play(hall: Hall, stop: float, latencies: list[float], seed: int) -> None:
        bot = RandomBot(seed)
        while time.perf_counter() < stop:
            match = await hall.create("tictactoe", seed=seed)
            while (asked := hall.awaiting(match)) and time.perf_counter() < stop:
                seat = next(iter(asked))
                command = bot.choose(seat, hall.legal(match, seat), lambda: None)
                began = time.perf_counter()
                await hall.send(match, seat, command)
                latencies.append(time.perf_counter() - began)

    async def cold(hall: Hall, stop: float) -> None:
        await anyio.sleep(seconds / 10)
        while True:  # at least once
            hall.actors.stop("long")
            await anyio.sleep(0.01)  # let it stop: the next activation reads it whole
            began = time.perf_counter()
            await hall.activate("long")
            loads.append(time.perf_counter() - began)
            if time.perf_counter() >= stop:
                break

    async def phase(hall: Hall, with_load: bool) -> list[float]:
        latencies: list[float] = []
        stop = time.perf_counter() + seconds
        async with anyio.create_task_group() as tg:
            for seed in range(busy):
                tg.start_soon(play, hall, stop, latencies, seed)
            if with_load:
                tg.start_soon(cold, hall, stop)
        return latencies

    def p99(latencies: list[float]) -> float:
        latencies.sort()
        return latencies[int(len(latencies) * 0.99)]

    async def main() -> tuple[float, float]:
        async with Hall(store, registry, snapshot_every=200 if snapshot else 0) as hall:
            await phase(hall, False)  # warm up
            quiet: list[float] = []
            loaded: list[float] = []
            for _ in range(pairs):  # short quiet and loaded spells in turn: a burst of other
                quiet += await phase(hall, False)  # work on the machine falls on both alike
                loaded += await phase(hall, True)
        return p99(loaded) / p99(quiet), min(loads)

    try:
        return anyio.run(main)
    finally:
        store.close()


def _has_uvloop() -> bool:
    try:
        import uvloop  # noqa: F401
    except ImportError:
        return False
    return True


def _has_eventsourcing() -> bool:
    try:
        import eventsourcing  # noqa: F401
    except ImportError:
        print("  eventsourcing is not installed (make bench installs it): skipped", file=sys.stderr)
        return False
    return True


if __name__ == "__main__":
    os.environ.setdefault("PYTHONHASHSEED", "0")
    for key, value in run("--quick" in sys.argv).items():
        print(describe(key, value, TARGETS.get(key)))
