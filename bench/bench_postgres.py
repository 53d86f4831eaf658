"""Durable commands on PostgreSQL: one node, three nodes, against eventsourcing and raw inserts.

Every figure is measured in this run on the same server, in a schema of its own that is
dropped after, as medians of 3 repeats:

* ``durable.postgres.one_node_commands_per_s``: Hall commands/s on a PostgreSQL store (100
  tic-tac-toe matches at once, the server's default durability: synchronous commit);
* ``durable.postgres.three_nodes_commands_per_s``: the same 100 matches played by three node
  processes on one schema (each node its own third: routing by match id), commands/s of all;
* ``durable.postgres.vs_eventsourcing``: one node ÷ events/s that ``eventsourcing``'s
  PostgreSQL recorder saves, one aggregate save at a time as its applications do (target >= 10);
* ``durable.postgres.vs_raw``: one node ÷ rows/s of raw ``executemany`` inserts into the same
  table, 100 rows a transaction (target >= 0.5);
* ``durable.postgres.writers_N_appends_per_s`` (N = 1, 2, 8) and ``writers_2_vs_1``,
  ``writers_8_vs_1``: the contention harness. N processes append at once, each with its own
  store (connection) and its own streams, one batch an append, every append slowed by
  ``pg_sleep(0.002)`` at its commit, inside its transaction (a deferred trigger of the bench's
  schema: the append stays the one statement it is); appends/s of all, and N over 1 (target
  for 8: >= 5). On two cores raw throughput cannot show whether writers wait for each other; the
  delay inside the transaction can: a lock every append holds until commit keeps N over 1
  near 1, and appends that do not wait for each other add up;
* ``durable.postgres.raw_writers_8_vs_1``: the same harness without gamehall (8 processes
  over 1, each committing one plain row a transaction with the same delay): the ceiling the
  server's commit (WAL flush) path and the machine's cores set for ``writers_8_vs_1``, and
  ``writers_8_vs_raw_ceiling``, gamehall's figure over that ceiling (reported);
  ``raw_writers_3_vs_1`` is the same for three processes, beside ``nodes_3_vs_1`` below;
* ``durable.postgres.slow_nodes_N_commands_per_s`` (N = 1, 3) and ``nodes_3_vs_1``: N node
  processes, each a Hall on its own store playing the same small number of matches
  (``NODE_MATCHES`` at once, round after round) with every append slowed as above, so that a
  node is bound by its commits' latency, not by the CPU; commands/s of all, timed once every
  node has opened its hall, and 3 over 1 (target >= 2). A node here is what ``gamehall
  serve`` runs without its HTTP layer, which takes no lock shared by nodes: with it, three
  nodes and their clients on two cores would be bound by the CPU, which the figure must not
  be;
* ``lobby.cross_node_lag_ms``: the median time from a seat taken on node A (its append
  acknowledged) to node B's view of the match naming the player who took it (B follows A's
  commits by LISTEN/NOTIFY; no cache stands between), over a number of matches.

The server is the test one (``GAMEHALL_BENCH_POSTGRES``, by default 127.0.0.1:5432, database
``test``); without one the module reports nothing and says why.
"""

from __future__ import annotations

import multiprocessing
import os
import secrets
import statistics
import sys
import time
from collections.abc import Callable
from typing import Any
from urllib.parse import urlsplit

import anyio
from gamehall.core import Meta, default_registry
from gamehall.core.hall import Hall

from . import Figure, interleaved, rates, ratio
from .clients import play_all

TARGETS = {
    "durable.postgres.writers_8_vs_1": (">=", 5.0),
    "durable.postgres.nodes_3_vs_1": (">=", 2.0),
    "durable.postgres.vs_eventsourcing": (">=", 10.0),
    "durable.postgres.vs_raw": (">=", 0.5),
}
URL = os.environ.get("GAMEHALL_BENCH_POSTGRES", "postgresql://postgres@127.0.0.1:5432/test")
SLOW_COMMIT = 0.002  # seconds each append of the contention harness spends in its transaction
NODE_MATCHES = 4  # matches each node of ``nodes_3_vs_1`` plays at once


def _fresh_schema() -> str:
    return f"bench_{secrets.token_hex(5)}"


def _drop(schema: str) -> None:
    import psycopg

    with psycopg.connect(URL, autocommit=True) as conn:
        conn.execute(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE')


def hall_commands(
    schema: str,
    matches: int,
    rounds: int,
    offset: int = 0,
    gate: Callable[[], None] | None = None,
) -> tuple[int, float]:
    """Play ``rounds`` x ``matches`` tic-tac-toe matches at once; time the commands only.
    ``gate`` (blocking) is called once the hall is open, before the first match is created."""
    from gamehall.core.store.postgres import PostgresStore

    registry = default_registry()
    url = f"{URL}?schema={schema}"
    store = PostgresStore(url, registry.codec)
    counted = [0, 0.0]

    async def create(hall: Hall, seed: int, into: list[str]) -> None:
        into.append(await hall.create("tictactoe", seed=seed))

    async def main() -> None:
        async with Hall(store, registry) as hall:
            if gate is not None:
                await anyio.to_thread.run_sync(gate)
            for r in range(rounds):
                ids: list[str] = []
                async with anyio.create_task_group() as tg:
                    for i in range(matches):
                        tg.start_soon(create, hall, offset + r * matches + i, ids)
                sent, seconds = await play_all(hall, ids, offset)
                counted[0] += sent
                counted[1] += seconds

    try:
        anyio.run(main)
    finally:
        store.close()
    return int(counted[0]), float(counted[1])


def _node(schema: str, matches: int, rounds: int, offset: int, start: Any, out: Any) -> None:
    def gate() -> None:  # open (plugins loaded, schema migrated, following): wait for the rest
        out.put(None)
        start.wait()

    out.put(hall_commands(schema, matches, rounds, offset, gate))


def three_nodes(schema: str, matches: int, rounds: int) -> tuple[int, float]:
    """Play the matches in three node processes at once; return all commands and the slowest."""
    return nodes(schema, 3, matches // 3, rounds)


def nodes(
    schema: str, count: int, matches: int, rounds: int, slow: bool = False
) -> tuple[int, float]:
    """Play ``matches`` at once in each of ``count`` node processes; return all commands and
    the slowest node's time.

    Every node opens its hall (imports, plugins, the schema's migration, which nodes take in
    turn, the follower) before any begins: a node still starting would take the CPU from
    the others' timed commands, which one node alone never has to share."""
    if slow:  # every commit slowed: the schema is made first
        from gamehall.core.store.postgres import PostgresStore

        PostgresStore(f"{URL}?schema={schema}", default_registry().codec).close()
        _slow_commits(schema)
    context = multiprocessing.get_context("spawn")
    start, out = context.Event(), context.Queue()
    procs = [
        context.Process(target=_node, args=(schema, matches, rounds, n * 10**6, start, out))
        for n in range(count)
    ]
    for proc in procs:
        proc.start()
    for _ in procs:  # every node open and waiting
        if out.get(timeout=600) is not None:
            raise RuntimeError("a node answered before it was started")
    time.sleep(0.2)  # the last one's start-up settles
    start.set()
    results = [out.get(timeout=600) for _ in procs]
    for proc in procs:
        proc.join()
    return sum(c for c, _ in results), max(s for _, s in results)


# A commit slowed by ``SLOW_COMMIT`` s: a deferred constraint trigger runs at the commit of
# every transaction that inserted a row into the table, holding whatever the transaction
# holds, and sleeps once (a transaction-local setting marks it done).
_SLOW_COMMITS = """
CREATE OR REPLACE FUNCTION {schema}.bench_slow_commit() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF current_setting('bench.slowed', true) IS DISTINCT FROM 'yes' THEN
        PERFORM set_config('bench.slowed', 'yes', true);
        PERFORM pg_sleep({seconds});
    END IF;
    RETURN NULL;
END $$;
DROP TRIGGER IF EXISTS bench_slow_commit ON {schema}.{table};
CREATE CONSTRAINT TRIGGER bench_slow_commit AFTER INSERT ON {schema}.{table}
    DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION {schema}.bench_slow_commit();
"""


def _slow_commits(schema: str, table: str = "events") -> None:
    """Have every transaction that writes ``table`` of ``schema`` spend ``SLOW_COMMIT`` s more
    at its commit, inside the database.

    A stand-in for a slow commit path (a remote disk, a replica to wait for): it lengthens
    whatever a transaction holds until its commit, which a delay outside the database would
    not. The delay runs in the appending statement's own transaction, so the harness adds no
    statement and no round trip of its own: an append is the one statement it always is.
    Test-only: it is a trigger on the bench's own schema, dropped with it.
    """
    import psycopg

    with psycopg.connect(URL, autocommit=True) as db:
        db.execute(_SLOW_COMMITS.format(schema=schema, table=table, seconds=SLOW_COMMIT))


def _appender(schema: str, number: int, appends: int, start: Any, out: Any) -> None:
    from gamehall.core.store.postgres import PostgresStore
    from gamehall.plugins.tictactoe.commands import PlaceMark
    from gamehall.plugins.tictactoe.events import MarkPlaced

    store = PostgresStore(f"{URL}?schema={schema}", default_registry().codec)
    try:
        streams = [f"w{number}-{time.monotonic_ns()}-{i}" for i in range(10)]
        events = [MarkPlaced(seat=0, cell=4)]
        metas = [Meta("c", 0, PlaceMark(cell=4))]
        start.wait()
        started = time.perf_counter()
        for i in range(appends):
            stream = streams[i % len(streams)]
            store.append(stream, i // len(streams), events, metas)
        out.put((appends, time.perf_counter() - started))
    finally:
        store.close()


def writers(schema: str, count: int, appends: int) -> tuple[int, float]:
    """Append in ``count`` processes at once, each with its own store and streams, every
    append slowed inside its transaction; return all appends and the slowest's time."""
    from gamehall.core.store.postgres import PostgresStore

    PostgresStore(f"{URL}?schema={schema}", default_registry().codec).close()  # the schema
    _slow_commits(schema)
    return _at_once(_appender, schema, count, appends)


def _at_once(
    target: Callable[..., None], schema: str, count: int, appends: int
) -> tuple[int, float]:
    """Run ``target`` in ``count`` processes started together; return all appends and the
    slowest's time."""
    context = multiprocessing.get_context("spawn")
    start, out = context.Event(), context.Queue()
    procs = [
        context.Process(target=target, args=(schema, n, appends, start, out)) for n in range(count)
    ]
    for proc in procs:
        proc.start()
    time.sleep(1.5)  # every process imported and waiting
    start.set()
    results = [out.get(timeout=600) for _ in procs]
    for proc in procs:
        proc.join()
    return sum(c for c, _ in results), max(s for _, s in results)


def _raw_appender(schema: str, number: int, appends: int, start: Any, out: Any) -> None:
    import psycopg

    with psycopg.connect(URL, options=f"-c search_path={schema}") as db:
        tag = f"r{number}-{time.monotonic_ns()}"
        start.wait()
        started = time.perf_counter()
        for i in range(appends):
            db.execute(
                "INSERT INTO raw_rows (stream, seq, data) VALUES (%s, %s, %s)",
                (f"{tag}-{i % 10}", i, b"x" * 64),
            )
            db.commit()
        out.put((appends, time.perf_counter() - started))


def raw_writers(schema: str, count: int, appends: int) -> tuple[int, float]:
    """The contention harness without gamehall: ``count`` processes each commit one plain row
    a transaction, slowed the same way; what the server and machine allow (the ceiling of
    ``writers_N_vs_1`` here: a lock-free append cannot add up past it)."""
    import psycopg

    with psycopg.connect(URL, autocommit=True) as db:
        db.execute(f"CREATE SCHEMA IF NOT EXISTS {schema}")
        db.execute(
            f"CREATE TABLE IF NOT EXISTS {schema}.raw_rows (stream text, seq bigint, "
            "data bytea, position bigserial, PRIMARY KEY (stream, seq))"
        )
    _slow_commits(schema, "raw_rows")
    return _at_once(_raw_appender, schema, count, appends)


def raw_inserts(schema: str, batches: int) -> tuple[int, float]:
    """Insert encoded events, 100 rows a transaction over 100 streams, into the same table."""
    import psycopg
    from gamehall.core.store.postgres import PostgresStore
    from gamehall.plugins.tictactoe.commands import PlaceMark
    from gamehall.plugins.tictactoe.events import MarkPlaced

    registry = default_registry()
    PostgresStore(f"{URL}?schema={schema}", registry.codec).close()  # the same table
    data = registry.codec.encode_event(MarkPlaced(seat=0, cell=4))
    meta = registry.codec.encode_meta(Meta("c", 0, PlaceMark(cell=4)))
    streams = [f"raw{time.monotonic_ns()}-{i:03d}" for i in range(100)]
    with psycopg.connect(URL, options=f"-c search_path={schema}") as db:
        position = db.execute("SELECT coalesce(max(position), 0) FROM events").fetchone()[0]
        db.commit()
        started = time.perf_counter()
        for seq in range(1, batches + 1):
            rows = [
                (
                    s,
                    seq,
                    position + i + 1,
                    time.time(),
                    "tictactoe.MarkPlaced",
                    1,
                    data,
                    meta,
                    "c",
                    0,
                )
                for i, s in enumerate(streams)
            ]
            position += len(rows)
            with db.cursor() as cursor:
                cursor.executemany(
                    "INSERT INTO events VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s, %s)", rows
                )
            db.commit()
        seconds = time.perf_counter() - started
        # The positions given here are the sequence's to give next: the hall's rounds that
        # follow (interleaved with these) take theirs from it.
        db.execute("SELECT setval('gamehall_positions', %s)", (position,))
        db.commit()
    return batches * 100, seconds


def eventsourcing_saves(schema: str, matches: int) -> tuple[int, float]:
    """Save tic-tac-toe events one by one with ``eventsourcing``'s PostgreSQL recorder."""
    import psycopg
    from eventsourcing.application import Application

    from .bench_core import _es_match

    with psycopg.connect(URL, autocommit=True) as conn:
        conn.execute(f'CREATE SCHEMA IF NOT EXISTS "{schema}"')
    parts = urlsplit(URL)
    app = Application(
        env={
            "PERSISTENCE_MODULE": "eventsourcing.postgres",
            "POSTGRES_DBNAME": parts.path.lstrip("/") or "test",
            "POSTGRES_HOST": parts.hostname or "127.0.0.1",
            "POSTGRES_PORT": str(parts.port or 5432),
            "POSTGRES_USER": parts.username or "postgres",
            "POSTGRES_PASSWORD": parts.password or "trust",
            "POSTGRES_SCHEMA": schema,
        }
    )
    match_type = _es_match()
    try:
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
    finally:
        app.close()


def cross_node_lag(schema: str, matches: int) -> float:
    """Return the median milliseconds from a seat taken on node A to node B showing it."""
    from gamehall.core.store.postgres import PostgresStore

    registry = default_registry()
    url = f"{URL}?schema={schema}"
    one, two = PostgresStore(url, registry.codec), PostgresStore(url, registry.codec)
    lags: list[float] = []

    async def main() -> None:
        async with Hall(one, registry) as a, Hall(two, registry) as b:
            for number in range(matches):
                player, _ = await a.lobby.register(f"P{number}")
                match = await a.create("tictactoe", open_seats=[0, 1])
                await b.activate(match)  # B holds the match, as a node serving it would
                await a.lobby.take_seat(match, player.player, 1)
                taken = time.perf_counter()
                with anyio.fail_after(30):
                    while b.view(match, None).names[1] != player.name:
                        await anyio.sleep(0.0005)
                lags.append((time.perf_counter() - taken) * 1000)

    try:
        anyio.run(main)
    finally:
        one.close()
        two.close()
    return statistics.median(lags)


def run(quick: bool) -> dict[str, float]:
    """Measure every figure; ``quick`` shrinks the sizes for the test suite."""
    reason = _unreachable()
    if reason:
        print(f"  PostgreSQL figures skipped: {reason}", file=sys.stderr)
        return {}
    sizes = (
        {"rounds": 1, "raw": 5, "es": 10, "appends": 20, "node_rounds": 1}
        if quick
        else {"rounds": 5, "raw": 100, "es": 100, "appends": 300, "node_rounds": 30}
    )
    repeats = 1 if quick else 3
    out: dict[str, float] = {}
    schema = _fresh_schema()
    try:
        # Each ratio's two sides are measured in turn, round by round (``interleaved``), and
        # the ratio is taken round by round: a burst of other work slows both sides alike.
        parts = {
            "one": _rate(lambda: hall_commands(schema, 100, sizes["rounds"])),
            "raw": _rate(lambda: raw_inserts(schema, sizes["raw"])),
        }
        if _eventsourcing():
            parts["es"] = _rate(lambda: eventsourcing_saves(schema, sizes["es"]))
        durable = interleaved(parts, repeats)
        three = rates(lambda: three_nodes(schema, 99, sizes["rounds"]), repeats)
        out["durable.postgres.one_node_commands_per_s"] = Figure(durable["one"])
        out["durable.postgres.three_nodes_commands_per_s"] = three
        out["durable.postgres.raw_inserts_per_s"] = Figure(durable["raw"])
        out["durable.postgres.vs_raw"] = ratio(durable["one"], durable["raw"])
        if "es" in durable:
            out["durable.postgres.eventsourcing_events_per_s"] = Figure(durable["es"])
            out["durable.postgres.vs_eventsourcing"] = ratio(durable["one"], durable["es"])
        slow = interleaved(
            {n: _fresh(lambda s, n=n: writers(s, int(n), sizes["appends"])) for n in "128"},
            repeats,
        )
        for n, values in slow.items():
            out[f"durable.postgres.writers_{n}_appends_per_s"] = Figure(values)
        out["durable.postgres.writers_2_vs_1"] = ratio(slow["2"], slow["1"])
        out["durable.postgres.writers_8_vs_1"] = ratio(slow["8"], slow["1"])
        ceiling = interleaved(
            {n: _fresh(lambda s, n=n: raw_writers(s, int(n), sizes["appends"])) for n in "138"},
            repeats,
        )
        out["durable.postgres.raw_writers_3_vs_1"] = ratio(ceiling["3"], ceiling["1"])
        out["durable.postgres.raw_writers_8_vs_1"] = ratio(ceiling["8"], ceiling["1"])
        out["durable.postgres.writers_8_vs_raw_ceiling"] = (
            out["durable.postgres.writers_8_vs_1"] / out["durable.postgres.raw_writers_8_vs_1"]
        )
        latency_bound = interleaved(
            {
                n: _fresh(lambda s, n=n: nodes(s, int(n), NODE_MATCHES, sizes["node_rounds"], True))
                for n in "13"
            },
            repeats,
        )
        for n, values in latency_bound.items():
            out[f"durable.postgres.slow_nodes_{n}_commands_per_s"] = Figure(values)
        out["durable.postgres.nodes_3_vs_1"] = ratio(latency_bound["3"], latency_bound["1"])
        lobby = _fresh_schema()  # a store of its own: the raw inserts above bypassed the store
        try:
            out["lobby.cross_node_lag_ms"] = cross_node_lag(lobby, 5 if quick else 50)
        finally:
            _drop(lobby)
    finally:
        _drop(schema)
    return out


def _unreachable() -> str | None:
    try:
        import psycopg
    except ImportError:
        return "psycopg is not installed (make bench installs it)"
    try:
        psycopg.connect(URL, connect_timeout=3).close()
    except psycopg.Error as exc:
        return f"no PostgreSQL answers at {URL}: {str(exc).splitlines()[0]}"
    return None


def _eventsourcing() -> bool:
    try:
        import eventsourcing.postgres  # noqa: F401
    except ImportError:
        print("  eventsourcing is not installed (make bench installs it)", file=sys.stderr)
        return False
    return True


def _rate(fn: Callable[[], tuple[int, float]]) -> Callable[[], float]:
    def once() -> float:
        count, seconds = fn()
        return count / seconds

    return once


def _fresh(fn: Callable[[str], tuple[int, float]]) -> Callable[[], float]:
    """Return a round of ``fn`` on a schema of its own (dropped after): its rate."""

    def once() -> float:
        schema = _fresh_schema()
        try:
            count, seconds = fn(schema)
        finally:
            _drop(schema)
        return count / seconds

    return once


if __name__ == "__main__":
    for key, value in run("--quick" in sys.argv).items():
        print(f"{key:<44} {value:>16,.3f}")
